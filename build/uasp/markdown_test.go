package uasp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToMarkdown renders the spec's examples: every section they have
// appears, the output is stable, and agent-browser's is pinned.
func TestToMarkdown(t *testing.T) {
	for name, s := range specExamples(t) {
		d, _ := ForSkill(s)
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
