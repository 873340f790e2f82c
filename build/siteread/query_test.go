package siteread

import (
	"bytes"
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skilldex/skilldex/build/uasp"
)

// mapSite is a site of files in memory, recording what is fetched.
func mapSite(files fstest.MapFS, fetched *[]string) *Site {
	return &Site{Location: "memory", fetch: func(_ context.Context, p string) ([]byte, error) {
		if fetched != nil {
			*fetched = append(*fetched, p)
		}
		return fs.ReadFile(files, p)
	}}
}

const siteDoc = `{"name": "demo", "derived": false, "valid": true, "document": {
  "meta": {"name": "demo", "version": "00000000", "type": "knowledge", "description": "Demo."},
  "commands": {"record.start": {"syntax": "rec start", "args": [{"name": "file", "type": "string"}]}, "open": {"syntax": "open <url>"}},
  "decisions": [{"when": "user wants Charges", "then": "Use PaymentIntents"}, {"when": "refunds", "then": "Use Refunds"}]}}`

func TestQuery(t *testing.T) {
	files := fstest.MapFS{
		"api/v1/index.json":                               {Data: []byte(`{"skills": []}`)},
		"api/v1/skills/demo.json":                         {Data: []byte(siteDoc)},
		"api/v1/skills/demo/paths.json":                   {Data: []byte(`{"skill": "demo", "paths": [{"path": "commands"}, {"path": "commands.record.start"}, {"path": "decisions"}]}`)},
		"api/v1/skills/demo/decisions.json":               {Data: []byte("{\"skill\": \"demo\", \"path\": \"decisions\", \"found\": true, \"value\": [{\"when\": \"the file\", \"then\": \"x\"}]}\n")},
		"api/v1/skills/demo/commands.json":                {Data: []byte(`{"found": true, "value": {"record.start": {"syntax": "from the commands file", "args": [{"name": "file", "type": "string"}]}, "open": {"syntax": "open <url>"}}}`)},
		"api/v1/skills/demo/commands.record.start.json":   {Data: []byte(`{"found": true, "value": {"syntax": "from its own file", "args": [{"name": "file", "type": "string"}]}}`)},
		"api/v1/skills/broken.json":                       {Data: []byte(`{"name": "broken", "document": [1]}`)},
		"api/v1/skills/warned.json":                       {Data: []byte(`{"name": "warned", "valid": false, "problems": ["meta lacks version"], "document": {"meta": {}}}`)},
		"api/v1/skills/demo/bad-answer.json":              {Data: []byte(`not json`)},
		"api/v1/skills/baddir/paths.json":                 {Data: []byte(`[`)},
		"api/v1/skills/demo/commands.record.start.x.json": {Data: []byte(`{"found": true, "value": 1}`)},
	}
	cases := []struct {
		query string
		found bool
		want  string   // part of the answer; "" when an error is expected
		reads []string // the files read, in order (nil: not checked)
	}{
		// A path with its file: the file, as served.
		{"demo:decisions", true, `"when": "the file"`, []string{"api/v1/skills/demo/decisions.json"}},
		// Filters: applied to the path's own file.
		{"demo:decisions?when=*FILE*", true, `"then": "x"`, []string{"api/v1/skills/demo/decisions.json"}},
		{"demo:decisions?when=*charges*", true, `"value": []`, nil},
		// Without a file: the longest listed prefix, descended.
		{"demo:commands.record.start.args.file.type", true, `"value": "string"`,
			[]string{"api/v1/skills/demo/commands.record.start.args.file.type.json", "api/v1/skills/demo/paths.json", "api/v1/skills/demo/commands.record.start.json"}},
		{"demo:commands.open.syntax", true, `"value": "open <url>"`,
			[]string{"api/v1/skills/demo/commands.open.syntax.json", "api/v1/skills/demo/paths.json", "api/v1/skills/demo/commands.json"}},
		{"demo:commands.record.start.args?name=f*", true, `"name": "file"`, nil},
		// Not below the prefix: the whole document says where it stopped.
		{"demo:commands.open.nope", false, `"PATH_NOT_FOUND"`,
			[]string{"api/v1/skills/demo/commands.open.nope.json", "api/v1/skills/demo/paths.json", "api/v1/skills/demo/commands.json", "api/v1/skills/demo.json"}},
		{"demo:commands.open.nope", false, `commands.open has syntax`, nil},
		// No listed prefix: the whole document.
		{"demo:meta.description", true, `"value": "Demo."`,
			[]string{"api/v1/skills/demo/meta.description.json", "api/v1/skills/demo/paths.json", "api/v1/skills/demo.json"}},
		{"demo:meta?x=y", false, `"INVALID_QUERY"`, nil},
		{"demo:commands.open?x=y", false, `"INVALID_QUERY"`, nil},
		{"nobody:meta", false, `"SKILL_NOT_FOUND"`, nil},
		// Warnings never block an answer.
		{"warned:meta", true, `"version": `, nil},
		{"broken:meta", false, "", nil},
		{"demo:bad-answer", false, "", nil},
		{"baddir:meta.x", false, "", nil},
	}
	for _, c := range cases {
		q, err := uasp.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		var reads []string
		b, found, err := mapSite(files, &reads).Query(context.Background(), q)
		if c.want == "" {
			if err == nil {
				t.Errorf("%s: no error; got %s", c.query, b)
			}
			continue
		}
		if err != nil || found != c.found || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: found %v, err %v, answer\n%s\nwant found %v and %s", c.query, found, err, b, c.found, c.want)
		}
		if c.reads != nil && !slices.Equal(reads, c.reads) {
			t.Errorf("%s read\n %v\nwant\n %v", c.query, reads, c.reads)
		}
	}
	// A name that is a path or a URL reads nothing.
	for _, name := range []string{"../../x", "a/b", ".", "..", "https://evil.example/x", "", ".well-known", "a\\b", "a\t"} {
		var reads []string
		b, found, err := mapSite(files, &reads).Query(context.Background(), uasp.Query{Skill: name, Path: "meta"})
		if err != nil || found || !bytes.Contains(b, []byte("SKILL_NOT_FOUND")) || len(reads) > 0 {
			t.Errorf("skill %q: %v %v %s, read %v", name, found, err, b, reads)
		}
	}
}
