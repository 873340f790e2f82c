package uasp

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestToMarkdown renders the spec's examples: every section they have
// appears, the output is stable, and agent-browser's is pinned.
func TestToMarkdown(t *testing.T) {
	for name, s := range specExamples(t) {
		d, _ := Given(s)
		md := ToMarkdown(d)
		if !bytes.Equal(md, ToMarkdown(d)) {
			t.Errorf("%s: output not stable", name)
		}
		want := map[string]string{
			"triggers": "## When to use", "constraints": "## Guidelines", "decisions": "## Decisions", "state": "## State",
			"commands": "## Commands", "global_flags": "## Global flags", "workflows": "## Workflows", "reference": "## Reference",
			"templates": "## Templates", "environment": "## Environment", "sources": "## Sources",
		}
		for sec, heading := range want {
			if d.Root.Has(sec) != bytes.Contains(md, []byte("\n"+heading+"\n")) {
				t.Errorf("%s: section %s present %v, heading %q present %v", name, sec, d.Root.Has(sec), heading, !d.Root.Has(sec))
			}
		}
		if name != "agent-browser" && name != "mermaid-diagrams" {
			continue
		}
		file := filepath.Join("testdata", name+".md.golden")
		if *update {
			if err := os.WriteFile(file, md, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		golden, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(md, golden) {
			t.Errorf("%s: Markdown differs from %s (go test -run TestToMarkdown -update)", name, file)
		}
	}
}

func TestToMarkdownEscapes(t *testing.T) {
	d := NewDocument("x", decodeMap(t, []byte("meta: {name: x, version: v, type: cli}\n"+
		"decisions:\n  - {when: \"a | b\", then: \"multi\\nline\"}\n"+
		"commands:\n  run:\n    syntax: \"has ``` fence\"\n    args: [{name: \"a`b\", type: string}]\n")))
	md := string(ToMarkdown(d))
	for _, want := range []string{"| a \\| b | multi line |", "````\nhas ``` fence\n````", "| ``a`b`` | string |"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}

// TestWorkflowSteps: a command step is code; a prose step with code spans
// (derived from a numbered list) stays prose; a description that repeats
// the workflow's title is not written twice.
func TestWorkflowSteps(t *testing.T) {
	d := NewDocument("x", decodeMap(t, []byte("meta: {name: x, version: v, type: knowledge}\n"+
		"workflows:\n  steps:\n    description: Steps\n    steps:\n"+
		"      - {cmd: \"git fetch --tags\"}\n"+
		"      - {cmd: \"Find the previous tag with `git describe --tags`\"}\n")))
	md := string(SectionsMarkdown(d, 1))
	for _, want := range []string{"#### Steps\n", "1. `git fetch --tags`", "2. Find the previous tag with `git describe --tags`"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	if strings.Count(md, "Steps") != 1 {
		t.Errorf("the title is repeated as the description:\n%s", md)
	}
}

// TestDerivedStepsAreProse: in a derived document a step without a note
// is the sentence of the numbered list, shown as text; a step with a note
// holds a command.
func TestDerivedStepsAreProse(t *testing.T) {
	d := NewDocument("x", decodeMap(t, []byte("meta: {name: x, version: v, type: knowledge}\n"+
		"workflows:\n  release:\n    steps:\n"+
		"      - {cmd: \"Collect the commits since the tag\"}\n"+
		"      - {cmd: \"git push --tags\", note: \"Push the tag\"}\n")))
	d.Derived = true
	md := string(SectionsMarkdown(d, 0))
	for _, want := range []string{"1. Collect the commits since the tag\n", "2. `git push --tags` — Push the tag"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}
