package lint

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
)

// yamlProblem is YAML that strictyaml, the parser of skills-ref, refuses.
type yamlProblem struct {
	node *yaml.Node
	msg  string
}

// strictYAMLProblems lists, in document order, what strictyaml 1.6 rejects
// in a document yaml.v3 accepted: tags, flow style, anchors and aliases,
// duplicate keys, and mappings under one parent indented differently.
func strictYAMLProblems(n *yaml.Node) []yamlProblem {
	var out []yamlProblem
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		switch {
		case n.Style&yaml.TaggedStyle != 0:
			out = append(out, yamlProblem{n, fmt.Sprintf("found disallowed tag %s (do not specify types in markup)", n.Tag)})
		case n.Anchor != "":
			out = append(out, yamlProblem{n, fmt.Sprintf("found confusing disallowed anchor &%s", n.Anchor)})
		case n.Kind == yaml.AliasNode:
			out = append(out, yamlProblem{n, fmt.Sprintf("found disallowed alias *%s", n.Value)})
			return
		case n.Style&yaml.FlowStyle != 0 && n.Kind == yaml.SequenceNode:
			out = append(out, yamlProblem{n, "found ugly disallowed JSONesque flow mapping (this is a list in [ ]: write one item a line, each after '- ', or quote the text)"})
		case n.Style&yaml.FlowStyle != 0 && n.Kind == yaml.MappingNode:
			out = append(out, yamlProblem{n, "found ugly disallowed JSONesque flow mapping (this is a mapping in { }: write one key a line, or quote the text)"})
		}
		if n.Kind == yaml.MappingNode {
			seen := map[string]bool{}
			indent := -1
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if seen[k.Value] {
					out = append(out, yamlProblem{k, fmt.Sprintf("duplicate key '%s' found (the later value is the one used; remove the other)", k.Value)})
				}
				seen[k.Value] = true
				if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 {
					if indent < 0 {
						indent = v.Column
					} else if v.Column != indent {
						out = append(out, yamlProblem{v, "found mapping with indentation inconsistent with previous mapping"})
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}

// strictYAML reports, as warnings, YAML the reference parser would refuse,
// and "---" inside the frontmatter, where parsers that split on the first
// "---" (skills-ref among them) cut it short.
func (c *checker) strictYAML() {
	fm := c.s.Frontmatter
	for _, p := range strictYAMLProblems(fm.Node) {
		c.add(fm.Pos(p.node), "yaml-strict", "the Agent Skills reference parser rejects this YAML: %s", p.msg)
	}
	d := c.s.Doc
	if d == nil {
		return
	}
	lines := bytes.Split(d.Frontmatter, []byte("\n"))
	for i, l := range lines {
		if j := bytes.Index(l, []byte("---")); j >= 0 {
			c.add(diag.Pos{Line: d.FrontmatterLine + i, Column: utf8.RuneCount(l[:j]) + 1}, "frontmatter-dashes",
				"'---' inside the frontmatter: parsers that split on the first '---' (skills-ref among them) end the frontmatter here; write it differently (e.g. an em dash)")
			break
		}
	}
}
