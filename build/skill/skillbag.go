package skill

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/yamltree"
)

// parseSkillBag reads the SkillBag declarations of a skill in a workspace:
// parameters (required/optional lists) and dependencies, written in the
// frontmatter or, as the SkillBag spec shows them, in yaml blocks of the body.
func (s *Skill) parseSkillBag() {
	fm := s.Frontmatter
	if _, v := yamltree.MapEntry(fm.Node, "parameters"); v != nil {
		s.readParameters(v, fm.LineOffset())
	}
	if _, v := yamltree.MapEntry(fm.Node, "dependencies"); v != nil {
		s.readDependencies(v, fm.LineOffset())
	}
	for _, block := range yamlBlocks(s.Body, s.BodyLine) {
		n, err := yamltree.Parse(block.text, FrontmatterLimits)
		if err != nil || n == nil || n.Kind != yaml.MappingNode {
			continue
		}
		offset := block.line - 1
		_, req := yamltree.MapEntry(n, "required")
		_, opt := yamltree.MapEntry(n, "optional")
		if (req != nil || opt != nil) && s.Parameters == nil {
			s.readParameters(n, offset)
		}
		if _, deps := yamltree.MapEntry(n, "dependencies"); deps != nil && s.Dependencies == nil {
			s.readDependencies(deps, offset)
		}
	}
}

func (s *Skill) readParameters(n *yaml.Node, offset int) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return
	}
	p := &Parameters{Pos: diag.Pos{Line: n.Line + offset, Column: n.Column}}
	read := func(key string) []Parameter {
		_, list := yamltree.MapEntry(n, key)
		list = deref(list)
		if list == nil || list.Kind != yaml.SequenceNode {
			return nil
		}
		var out []Parameter
		for _, item := range list.Content {
			item = deref(item)
			pos := diag.Pos{Line: item.Line + offset, Column: item.Column}
			switch item.Kind {
			case yaml.ScalarNode:
				out = append(out, Parameter{Name: item.Value, Pos: pos})
			case yaml.MappingNode:
				var prm Parameter
				prm.Pos = pos
				if _, nv := yamltree.MapEntry(item, "name"); nv != nil {
					prm.Name = nv.Value
				}
				if _, dv := yamltree.MapEntry(item, "default"); dv != nil {
					prm.HasDefault = true
					prm.Default, _ = yamltree.Value(dv, FrontmatterLimits)
				}
				out = append(out, prm)
			}
		}
		return out
	}
	p.Required = read("required")
	p.Optional = read("optional")
	s.Parameters = p
}

func (s *Skill) readDependencies(n *yaml.Node, offset int) {
	n = deref(n)
	if n.Kind != yaml.SequenceNode {
		return
	}
	for _, item := range n.Content {
		item = deref(item)
		d := Dependency{Required: true, Pos: diag.Pos{Line: item.Line + offset, Column: item.Column}}
		switch item.Kind {
		case yaml.ScalarNode:
			d.Name = item.Value
		case yaml.MappingNode:
			for i := 0; i+1 < len(item.Content); i += 2 {
				v := deref(item.Content[i+1])
				switch item.Content[i].Value {
				case "name":
					d.Name = v.Value
				case "source":
					d.Source = v.Value
				case "version":
					d.Version = v.Value
				case "required":
					d.Required = !strings.EqualFold(v.Value, "false") && v.Value != "no"
				}
			}
		default:
			continue
		}
		s.Dependencies = append(s.Dependencies, d)
	}
}

type codeBlock struct {
	text []byte
	line int // line of the block's first content line
}

// yamlBlocks returns the fenced yaml (or yml) code blocks of a Markdown body
// whose first line is line bodyLine of the file.
func yamlBlocks(body []byte, bodyLine int) []codeBlock {
	var out []codeBlock
	lines := bytes.Split(body, []byte("\n"))
	for i := 0; i < len(lines); i++ {
		l := bytes.TrimLeft(lines[i], " ")
		if len(lines[i])-len(l) > 3 {
			continue
		}
		fence := ""
		switch {
		case bytes.HasPrefix(l, []byte("```")):
			fence = "```"
		case bytes.HasPrefix(l, []byte("~~~")):
			fence = "~~~"
		default:
			continue
		}
		n := len(l) - len(bytes.TrimLeft(l, fence[:1]))
		info := strings.ToLower(strings.TrimSpace(string(l[n:])))
		lang, _, _ := strings.Cut(info, " ")
		start := i + 1
		end := start
		for end < len(lines) {
			t := bytes.TrimSpace(lines[end])
			if len(t) >= n && bytes.Count(t, []byte(fence[:1])) == len(t) {
				break
			}
			end++
		}
		if lang == "yaml" || lang == "yml" {
			out = append(out, codeBlock{text: bytes.Join(lines[start:end], []byte("\n")), line: bodyLine + start})
		}
		i = end
	}
	return out
}
