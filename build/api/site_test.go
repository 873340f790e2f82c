package api

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
)

func TestDecodeOrdered(t *testing.T) {
	cases := []struct {
		in, want string // want "" means an error
	}{
		{`{"b":1,"a":[1.5,"x",null,true,{"z":{}}]}`, `{"b":1,"a":[1.5,"x",null,true,{"z":{}}]}`},
		{`{"n":123456789012345678901234567890}`, `{"n":123456789012345678901234567890}`},
		{`{"f":1.0,"e":1e+16,"neg":-2}`, `{"f":1.0,"e":1e+16,"neg":-2}`},
		{`"<&>"`, `"<&>"`},
		{`[]`, `[]`},
		{`{"a":1} x`, ""},
		{`[1,`, ""},
		{`{"a":1e400}`, ""},
		{``, ""},
	}
	for _, c := range cases {
		v, err := decodeOrdered([]byte(c.in))
		if c.want == "" {
			if err == nil {
				t.Errorf("decodeOrdered(%s) succeeded; want an error", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("decodeOrdered(%s): %v", c.in, err)
			continue
		}
		if got, _ := yamltree.JSON(v, ""); string(got) != c.want {
			t.Errorf("decodeOrdered(%s) encodes as %s, want %s", c.in, got, c.want)
		}
	}
}

const siteDoc = `{"name": "demo", "derived": false, "valid": true, "document": {
  "meta": {"name": "demo", "version": "00000000", "type": "knowledge", "description": "Demo."},
  "decisions": [{"when": "user wants Charges", "then": "Use PaymentIntents"}, {"when": "refunds", "then": "Use Refunds"}]}}`

func TestQuerySite(t *testing.T) {
	fsys := fstest.MapFS{
		IndexPath:                            {Data: []byte(`{"skills": []}`)},
		"api/v1/skills/demo.json":            {Data: []byte(siteDoc)},
		"api/v1/skills/demo/decisions.json":  {Data: []byte("{\"skill\": \"demo\", \"path\": \"decisions\", \"found\": true, \"value\": \"the file\"}\n")},
		"api/v1/skills/broken.json":          {Data: []byte(`{"name": "broken", "document": [1]}`)},
		"api/v1/skills/invalid.json":         {Data: []byte(`{"name": "invalid", "valid": false, "problems": ["meta lacks version"], "document": {"meta": {}}}`)},
		"api/v1/skills/demo/bad-answer.json": {Data: []byte(`not json`)},
	}
	cases := []struct {
		query string
		found bool
		want  string // part of the answer; "" when an error is expected
	}{
		{"demo:decisions", true, `"value": "the file"`}, // the static file, as served
		{"demo:decisions?when=*charges*", true, `"then": "Use PaymentIntents"`},
		{"demo:decisions.0", true, `"when": "user wants Charges"`}, // no file: the engine
		{"demo:meta.nope", false, `"PATH_NOT_FOUND"`},
		{"demo:meta?x=y", false, `"INVALID_QUERY"`},
		{"nobody:meta", false, `"SKILL_NOT_FOUND"`},
		{"invalid:meta", true, `"version": `}, // warnings never block an answer
		{"broken:meta", false, ""},
		{"demo:bad-answer", false, ""},
	}
	for _, c := range cases {
		q, err := uasp.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		b, found, err := QuerySite(fsys, q)
		if c.want == "" {
			if err == nil {
				t.Errorf("%s: no error; got %s", c.query, b)
			}
			continue
		}
		if err != nil || found != c.found || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: found %v, err %v, answer\n%s\nwant found %v and %s", c.query, found, err, b, c.found, c.want)
		}
	}
	// A name that is a path never reads outside api/v1/skills/.
	for _, name := range []string{"../../x", "a/b", ".", ".."} {
		b, found, err := QuerySite(fsys, uasp.Query{Skill: name, Path: "meta"})
		if err != nil || found || !bytes.Contains(b, []byte("SKILL_NOT_FOUND")) {
			t.Errorf("skill %q: %v %v %s", name, found, err, b)
		}
	}
	if _, _, err := QuerySite(fstest.MapFS{}, uasp.Query{Skill: "demo", Path: "meta"}); err == nil {
		t.Error("a folder without api/v1/index.json is taken for a site")
	}
}

func FuzzLoadDocument(f *testing.F) {
	f.Add([]byte(siteDoc))
	f.Add([]byte(`{"name":"x","valid":false,"problems":["p"],"document":{"meta":{}}}`))
	f.Add([]byte(`{"name":"x","document":{"a":{"a.b":[1,2.5,"s",null,{"c":true}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := LoadDocument(data)
		if err != nil {
			return
		}
		for _, p := range append(d.Paths(), "meta", "a.b") {
			uasp.MarshalAnswer(d.Query(p, nil))
			uasp.MarshalAnswer(d.Query(p, []uasp.Filter{{Key: "when", Pattern: "*"}}))
		}
		// What decodes encodes back to JSON that decodes to the same.
		b, err := yamltree.JSON(d.Root, "")
		if err != nil {
			t.Fatal(err)
		}
		v, err := decodeOrdered(b)
		if err != nil {
			t.Fatalf("%s does not decode again: %v", b, err)
		}
		if again, _ := yamltree.JSON(v, ""); !bytes.Equal(again, b) {
			t.Fatalf("round trip changed %s into %s", b, again)
		}
	})
}
