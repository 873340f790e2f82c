package api

import (
	"bytes"
	"testing"

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
		v, err := DecodeOrdered([]byte(c.in))
		if c.want == "" {
			if err == nil {
				t.Errorf("DecodeOrdered(%s) succeeded; want an error", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("DecodeOrdered(%s): %v", c.in, err)
			continue
		}
		if got, _ := yamltree.JSON(v, ""); string(got) != c.want {
			t.Errorf("DecodeOrdered(%s) encodes as %s, want %s", c.in, got, c.want)
		}
	}
}

const siteDoc = `{"name": "demo", "derived": false, "valid": true, "document": {
  "meta": {"name": "demo", "version": "00000000", "type": "knowledge", "description": "Demo."},
  "decisions": [{"when": "user wants Charges", "then": "Use PaymentIntents"}, {"when": "refunds", "then": "Use Refunds"}]}}`

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
		v, err := DecodeOrdered(b)
		if err != nil {
			t.Fatalf("%s does not decode again: %v", b, err)
		}
		if again, _ := yamltree.JSON(v, ""); !bytes.Equal(again, b) {
			t.Fatalf("round trip changed %s into %s", b, again)
		}
	})
}
