package derive

import (
	"fmt"
	"strings"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/spaces"
)

// usk maps the USK v3 frontmatter onto UASP sections.
func (d *deriver) usk(s *skill.Skill) {
	fm := s.Frontmatter
	if fm == nil {
		return
	}
	line := func(key string) int { return fm.KeyPos(key).Line }
	invocation := ""
	if it := fm.Interface; it != nil && (it.Type != "" || it.EntryPoint != "") {
		c := yamltree.NewMap()
		entry := it.EntryPoint
		if entry == "" {
			entry = s.Name
		}
		var syntax, note string
		switch {
		case it.Type == "http":
			d.typeHint = "api"
			syntax = "POST " + entry
			note = "send the input as a JSON body; the response is JSON"
		default:
			switch it.Runtime {
			case "python3", "node", "bash":
				invocation = it.Runtime + " " + entry
			case "binary":
				invocation = "./" + strings.TrimPrefix(entry, "./")
			default:
				invocation = entry
			}
			syntax = invocation
			switch it.CallPattern {
			case "stdin_stdout":
				syntax += " < input.json"
				note = "reads one JSON object (input_schema) on stdin and writes JSON (output_schema) on stdout"
			case "args":
				for _, a := range uskArgs(fm.InputSchema) {
					name, _ := yamltree.GetAs[string](a, "name")
					req, _ := a.Get("required")
					if req == true {
						syntax += " --" + name + " <" + name + ">"
					} else {
						syntax += " [--" + name + " <" + name + ">]"
					}
				}
			}
		}
		c.Set("syntax", syntax)
		if s.Description != "" {
			c.Set("description", cut(spaces.Collapse(s.Description), 300))
		}
		if args := uskArgs(fm.InputSchema); len(args) > 0 {
			list := make([]any, len(args))
			for i, a := range args {
				list[i] = a
			}
			c.Set("args", list)
		}
		if r := uskReturns(fm.OutputSchema); r != "" {
			c.Set("returns", r)
		}
		if note != "" {
			c.Set("note", note)
		}
		key := s.Name
		d.commands[key] = &command{key: key, usk: c, line: line("interface")}
		d.cmdOrder = append([]string{key}, without(d.cmdOrder, key)...)
	}
	if p := fm.Permissions; p != nil {
		for _, v := range p.EnvVars {
			if _, ok := d.env[v]; !ok {
				d.noteEnv(v, "required by the skill (declared in permissions.env_vars)", "", false, line("permissions"))
			}
			d.exported[v] = true // declared: never a local
		}
	}
	if len(fm.Examples) > 0 {
		d.templates = yamltree.NewMap()
		for i, ex := range fm.Examples {
			key := slug(ex.Name)
			if key == "" {
				key = fmt.Sprintf("example-%d", i+1)
			}
			for n := 2; d.templates.Has(key); n++ {
				key = fmt.Sprintf("%s-%d", slug(ex.Name), n)
			}
			t := yamltree.NewMap()
			desc := spaces.Collapse(ex.Description)
			if desc == "" {
				desc = spaces.Collapse(ex.Name)
			}
			if desc == "" {
				desc = fmt.Sprintf("Example %d", i+1)
			}
			if ex.HasOutput {
				if b, err := yamltree.JSON(ex.Output, ""); err == nil && len(b) <= 200 {
					desc += " (returns " + string(b) + ")"
				}
			}
			t.Set("description", cut(desc, 500))
			if ex.HasInput {
				if b, err := yamltree.JSON(ex.Input, ""); err == nil {
					in := string(b)
					switch {
					case invocation != "" && fm.Interface.CallPattern == "stdin_stdout":
						t.Set("usage", "echo '"+strings.ReplaceAll(in, "'", `'\''`)+"' | "+invocation)
					default:
						t.Set("usage", in)
					}
				}
			}
			d.templates.Set(key, t)
			d.origins["templates."+key] = line("examples")
		}
	}
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// slug makes a template key: lowercase letters, digits and hyphens.
func slug(s string) string {
	return strings.ReplaceAll(snake(s), "_", "-")
}

// uskArgs turns input_schema properties into command arguments.
func uskArgs(schema *yamltree.Map) []*yamltree.Map {
	props, _ := yamltree.GetAs[*yamltree.Map](schema, "properties")
	reqList, _ := yamltree.GetAs[[]any](schema, "required")
	required := map[string]bool{}
	for _, r := range reqList {
		if s, ok := r.(string); ok {
			required[s] = true
		}
	}
	var out []*yamltree.Map
	for name, v := range props.All() {
		p, _ := v.(*yamltree.Map)
		a := yamltree.NewMap()
		a.Set("name", name)
		t, _ := yamltree.GetAs[string](p, "type")
		switch t {
		case "integer":
			t = "int"
		case "number":
			t = "float"
		case "boolean":
			t = "bool"
		case "array":
			t = "string[]"
		case "object":
			t = "object"
		case "string":
		default:
			t = "any"
		}
		if enum, ok := yamltree.GetAs[[]any](p, "enum"); ok && len(enum) > 0 {
			t = "enum"
			var vals []any
			for _, e := range enum {
				vals = append(vals, yamltree.Text(e))
			}
			a.Set("type", t)
			a.Set("values", vals)
		} else {
			a.Set("type", t)
		}
		a.Set("required", required[name])
		if def, ok := p.Get("default"); ok {
			// A copy: the document owns its tree (see arrangeOwned), and
			// the frontmatter stays the skill's.
			a.Set("default", yamltree.Clone(def))
		}
		if desc, ok := yamltree.GetAs[string](p, "description"); ok && strings.TrimSpace(desc) != "" {
			a.Set("description", cut(spaces.Collapse(desc), 300))
		}
		out = append(out, a)
	}
	return out
}

// uskReturns describes the output schema in a line.
func uskReturns(schema *yamltree.Map) string {
	if schema == nil {
		return ""
	}
	if desc, ok := yamltree.GetAs[string](schema, "description"); ok && strings.TrimSpace(desc) != "" {
		return cut(spaces.Collapse(desc), 300)
	}
	props, _ := yamltree.GetAs[*yamltree.Map](schema, "properties")
	if props.Len() == 0 {
		return ""
	}
	return "JSON object with " + strings.Join(props.Keys(), ", ")
}
