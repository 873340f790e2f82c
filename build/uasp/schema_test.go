package uasp

import (
	"bytes"
	"fmt"
	"github.com/skilldex/skilldex/internal/testskills"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

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

// TestSchemaErratum shows why the erratum exists: the schema as printed
// rejects the spec's own mermaid example at exactly one place.
func TestSchemaErratum(t *testing.T) {
	src, err := os.ReadFile(testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "examples", "mermaid-diagrams.uasp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := decodeMap(t, src)
	asPrinted := validateWith(func() (*jsonschema.Schema, error) { return compileSchema(false) }, doc)
	if len(asPrinted) != 1 || strings.Join(asPrinted[0].Path, "/") != "reference/erd.attributes/constraints" {
		t.Fatalf("as printed: %+v", asPrinted)
	}
	if ps := Validate(doc); len(ps) != 0 {
		t.Errorf("with the erratum: %+v", ps)
	}
	// The erratum accepts text or a list of text, nothing else.
	bad := decodeMap(t, []byte("meta: {name: a, version: '1', type: knowledge}\nreference:\n  x:\n    other: [1, 2]\n    more: {a: b}\n"))
	ps := Validate(bad)
	want := []string{
		"reference.x.other is a list but must be text or a list of text; change its value",
		"reference.x.more is a mapping but must be text or a list of text; change its value",
	}
	if len(ps) != 2 || ps[0].Message != want[0] || ps[1].Message != want[1] {
		t.Fatalf("got %+v", ps)
	}
}

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
	a := d.Query("commands", nil)
	if a.Error == nil || a.Error.Code != ErrValidationFailed || len(a.Error.Details) != len(want) {
		t.Errorf("query of an invalid document: %s", MarshalAnswer(a))
	}
}
