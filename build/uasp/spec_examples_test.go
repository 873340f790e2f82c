package uasp

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/testutil"
)

// specBlocks returns the YAML examples of uasp.md sections 5 (each
// section's example) and 8 (the complete examples), keyed by the line of
// their opening fence. Section 7's blocks are conversion templates full
// of placeholders (required: true|false), not examples.
func specBlocks(t *testing.T) map[int]*yamltree.Map {
	t.Helper()
	spec, err := os.ReadFile(testutil.Testdata(t, "specs", "uasp.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(spec)
	out := map[int]*yamltree.Map{}
	fence := regexp.MustCompile("(?s)```yaml\n(.*?)\n```")
	for _, sec := range [][2]string{{"\n## 5. ", "\n## 6. "}, {"\n## 8. ", "\n## 9. "}} {
		start, end := strings.Index(text, sec[0]), strings.Index(text, sec[1])
		if start < 0 || end < start {
			t.Fatalf("uasp.md has no section %q", sec[0])
		}
		for _, m := range fence.FindAllStringSubmatchIndex(text[start:end], -1) {
			line := strings.Count(text[:start+m[0]], "\n") + 1
			doc := decodeMap(t, []byte(text[start+m[2]:start+m[3]]))
			if !doc.Has("meta") {
				// A section's example alone, under the least meta.
				doc.Set("meta", decodeMap(t, []byte("{name: example, version: '00000000', type: cli}")))
			}
			out[line] = doc
		}
	}
	if len(out) < 12 {
		t.Fatalf("only %d examples found in uasp.md sections 5 and 8", len(out))
	}
	return out
}

// TestSpecBlocksValidate: every example of the spec's sections 5 and 8
// conforms to the schema with its errata.
func TestSpecBlocksValidate(t *testing.T) {
	for line, doc := range specBlocks(t) {
		for _, p := range Validate(doc) {
			t.Errorf("uasp.md:%d: %s", line, p.Message)
		}
	}
}

// TestExampleDocumentsHaveNoFindings: the spec's example documents, as the
// reference implementation publishes them and as the demo catalog holds
// them, give no finding at all, of any severity.
func TestExampleDocumentsHaveNoFindings(t *testing.T) {
	roots := []string{
		testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "examples"),
		testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "agent-skills"),
		testutil.ProjectRoot(t) + "/content/uasp",
	}
	n := 0
	for _, root := range roots {
		found, err := source.Discover(context.Background(), []string{root}, source.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range found.Inputs {
			s := skill.Parse(in)
			if s.UASPValue == nil {
				continue
			}
			n++
			for _, x := range s.Diagnostics {
				t.Errorf("%s", x)
			}
			d, ds := ForSkill(s)
			if d == nil || d.Derived || !d.Valid() {
				t.Errorf("%s: no valid authored document", s.Path)
			}
			for _, x := range ds {
				t.Errorf("%s", x)
			}
		}
	}
	if n < 9 {
		t.Errorf("%d example documents, want the 3 examples in each of 3 folders", n)
	}
}

// TestWarningsDoNotBlock: a document whose only problems are warnings
// (schema problems, a wrong declared version, a dangling reference)
// answers every query, found.
func TestWarningsDoNotBlock(t *testing.T) {
	s := skillFrom(t, `-- warn/warn.uasp.yaml --
meta:
  name: warn
  version: "12345678"
  type: cli
  description: A document with warnings only.
commands:
  open:
    syntax: warn open <url>
    timeout: 5
    args:
      - name: url
        required: "yes"
    invalidates: [pages]
environment:
  - name: WARN_HOME
    purpose: where it keeps its state
    default: 7
`)
	d, ds := ForSkill(s)
	if d == nil || d.Valid() {
		t.Fatal("the document should break the schema")
	}
	if len(ds) < 3 {
		t.Fatalf("only %d findings: %v", len(ds), ds)
	}
	for _, x := range append(s.Diagnostics, ds...) {
		if x.Severity != diag.Warning {
			t.Errorf("not a warning: %s", x)
		}
	}
	paths := append(d.Paths(), "meta.version", "commands.open.args.url.required", "environment.WARN_HOME.default", "commands.open.timeout")
	for _, p := range paths {
		if a := d.Query(p, nil); !a.Found || a.Error != nil {
			t.Errorf("%s: %s", p, MarshalAnswer(a))
		}
	}
	if a := d.Query("environment", []Filter{{Key: "name", Pattern: "warn_*"}}); !a.Found || len(a.Value.([]any)) != 1 {
		t.Errorf("filtered: %s", MarshalAnswer(a))
	}
}
