package uasp

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testskills"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestSchemaIsTheSpecs checks that the embedded schema is section 3.1 of
// uasp.md byte for byte.
func TestSchemaIsTheSpecs(t *testing.T) {
	spec, err := os.ReadFile(testutil.Testdata(t, "specs", "uasp.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(spec, []byte("### 3.1 Root Schema (JSON Schema)\n\n```json\n"))
	if !ok {
		t.Fatal("section 3.1 not found in the spec")
	}
	block, _, ok := bytes.Cut(rest, []byte("\n```\n"))
	if !ok {
		t.Fatal("section 3.1's code block is not closed")
	}
	if !bytes.Equal(append(block, '\n'), SchemaJSON) {
		t.Error("schema.json differs from uasp.md section 3.1")
	}
}

// TestSchemaErrata shows why each erratum exists: the schema as printed
// rejects the spec's own examples at exactly these places, and the errata
// accept no more than the examples write.
func TestSchemaErrata(t *testing.T) {
	asPrinted := func(doc any) []Problem {
		return validateWith(func() (*jsonschema.Schema, error) { return compileSchema(false) }, doc)
	}
	src, err := os.ReadFile(testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "examples", "mermaid-diagrams.uasp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	mermaid := decodeMap(t, src)
	if ps := asPrinted(mermaid); len(ps) != 1 || strings.Join(ps[0].Path, "/") != "reference/erd.attributes/constraints" {
		t.Fatalf("mermaid example as printed: %+v", ps)
	}
	if ps := Validate(mermaid); len(ps) != 0 {
		t.Errorf("mermaid example with the errata: %+v", ps)
	}
	env := decodeMap(t, []byte(specSection511))
	if ps := asPrinted(env); len(ps) != 1 || ps[0].Message != "environment[0].default is empty (null) but must be text; change its value" {
		t.Fatalf("section 5.11 as printed: %+v", ps)
	}
	if ps := Validate(env); len(ps) != 0 {
		t.Errorf("section 5.11 with the errata: %+v", ps)
	}
	// The errata accept text or a list of text, and text or null, nothing else.
	bad := decodeMap(t, []byte("meta: {name: a, version: '1', type: knowledge}\nreference:\n  x:\n    other: [1, 2]\n    more: {a: b}\nenvironment:\n  - {name: A, purpose: p, default: 5}\n  - {name: B, purpose: p, default: [x]}\n"))
	ps := Validate(bad)
	want := []string{
		"reference.x.other is a list but must be text or a list of text; change its value",
		"reference.x.more is a mapping but must be text or a list of text; change its value",
		"environment[0].default is a number but must be empty (null) or text; change its value",
		"environment[1].default is a list but must be empty (null) or text; change its value",
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Message)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// specSection511 is the example of uasp.md section 5.11, under a meta.
const specSection511 = `meta: {name: a, version: '1', type: cli}
environment:
  - name: AGENT_BROWSER_SESSION
    purpose: Default session name
    default: null
  - name: HTTP_PROXY
    purpose: HTTP proxy URL
`

// TestSchemaDiagnostics checks the positions and wording of schema
// findings on an author's document.
func TestSchemaDiagnostics(t *testing.T) {
	s := testskills.FromTxtar(t, `-- bad/bad.uasp.yaml --
meta:
  name: Bad_Name
  type: tool
  description: x
commands:
  run:
    description: no syntax
  go:
    syntax: 12
    args:
      - name: a
decisions:
  - when: x
  - note: y
`)
	d, ds := Given(s)
	if d == nil {
		t.Fatal("no document")
	}
	if d.Valid() {
		t.Fatal("valid")
	}
	want := []string{
		"1:1 meta lacks version:, which the UASP schema requires; add it",
		`2:3 meta.name "Bad_Name" must start with a lowercase letter and hold only lowercase letters, digits and hyphens`,
		`3:3 meta.type is "tool"; use one of knowledge, cli, api, hybrid`,
		"6:3 commands.run lacks syntax:, which the UASP schema requires; add it",
		"9:5 commands.go.syntax is a number but must be text; change its value",
		"11:9 commands.go.args[0] lacks type:, which the UASP schema requires; add it",
		"13:5 decisions[0] lacks then:, which the UASP schema requires; add it",
		"14:5 decisions[1] lacks when: and then:, which the UASP schema requires; add them",
	}
	var got []string
	for _, x := range ds {
		if x.Code != CodeSchema {
			continue
		}
		if !strings.HasSuffix(x.File, "bad.uasp.yaml") {
			t.Errorf("file %s", x.File)
		}
		got = append(got, fmt.Sprintf("%d:%d %s", x.Line, x.Column, x.Message))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Schema problems are warnings: the document is answered all the same.
	for _, x := range ds {
		if x.Severity != diag.Warning {
			t.Errorf("not a warning: %s", x)
		}
	}
	if a := d.Query("commands.go.args", nil); !a.Found {
		t.Errorf("query of a document with warnings: %s", MarshalAnswer(a))
	}
}
