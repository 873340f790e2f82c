package skill

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/yamltree"
)

// typer fills the typed fields of a Frontmatter from its YAML, reporting
// values of the wrong shape as it goes. A value it cannot use is left
// empty; the raw value stays in Frontmatter.Data.
type typer struct {
	s    *Skill
	fm   *Frontmatter
	file string
}

func (t *typer) warn(n *yaml.Node, code, format string, args ...any) {
	t.s.add(t.file, t.fm.Pos(n), diag.Warning, code, format, args...)
}

func (t *typer) decode() {
	fm := t.fm
	n := fm.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		switch key {
		case "name":
			fm.Name = t.text(key, v, true)
		case "description":
			fm.Description = t.text(key, v, true)
		case "license":
			fm.License = t.text(key, v, false)
		case "compatibility":
			fm.Compatibility = t.text(key, v, false)
		case "metadata":
			if m, ok := t.mapping(key, v); ok {
				fm.Metadata = m
			}
		case "allowed-tools":
			fm.AllowedTools = t.toolList(v)
		case "spec":
			fm.Spec = t.text(key, v, false)
		case "version":
			fm.Version = t.text(key, v, false)
		case "interface":
			fm.Interface = t.iface(v)
		case "input_schema":
			fm.InputSchema, _ = t.mapping(key, v)
		case "output_schema":
			fm.OutputSchema, _ = t.mapping(key, v)
		case "capabilities":
			fm.Capabilities = t.list(key, v)
		case "permissions":
			fm.Permissions = t.permissions(v)
		case "category":
			fm.Category = t.text(key, v, false)
		case "tags":
			fm.Tags = t.list(key, v)
		case "author":
			fm.Author = t.text(key, v, false)
		case "homepage":
			fm.Homepage = t.text(key, v, false)
		case "platform_compatibility":
			fm.PlatformCompatibility = t.list(key, v)
		case "requirements":
			fm.Requirements = t.requirements(v)
		case "changelog":
			fm.Changelog = t.text(key, v, false)
		case "examples":
			fm.Examples = t.examples(v)
		case "author_agent":
			fm.AuthorAgent = t.authorAgent(v)
		default:
			if !isIn(SkillBagFields, key) && !isIn(fm.Unknown, key) {
				fm.Unknown = append(fm.Unknown, key)
			}
		}
	}
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kind(n *yaml.Node) string {
	switch deref(n).Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return "a scalar"
}

// isNull reports whether a scalar is YAML's null (including an empty value).
func isNull(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return false
	}
	switch n.Value {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// text returns a scalar as the text written (1.0 stays "1.0"). Required
// fields are checked by lint; here only the shape is.
func (t *typer) text(key string, v *yaml.Node, required bool) string {
	v = deref(v)
	if v.Kind != yaml.ScalarNode {
		if !required {
			t.warn(v, "field-type", "%s must be text, not %s", key, kind(v))
		}
		return ""
	}
	if isNull(v) {
		return ""
	}
	return v.Value
}

func (t *typer) mapping(key string, v *yaml.Node) (*yamltree.Map, bool) {
	v = deref(v)
	if isNull(v) {
		return nil, false
	}
	if v.Kind != yaml.MappingNode {
		t.warn(v, "field-type", "%s must be a mapping, not %s", key, kind(v))
		return nil, false
	}
	val, err := yamltree.Value(v, FrontmatterLimits)
	if err != nil {
		return nil, false
	}
	m, ok := val.(*yamltree.Map)
	return m, ok
}

// list accepts a list of scalars, or one scalar holding comma-separated
// values, which real catalogs write often enough to be worth reading.
func (t *typer) list(key string, v *yaml.Node) []string {
	v = deref(v)
	if isNull(v) {
		return nil
	}
	switch v.Kind {
	case yaml.ScalarNode:
		t.s.add(t.file, t.fm.Pos(v), diag.Info, "field-type", "%s should be a YAML list; the text was split on commas", key)
		var out []string
		for _, p := range strings.Split(v.Value, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			c = deref(c)
			if c.Kind != yaml.ScalarNode {
				t.warn(c, "field-type", "items of %s must be text, not %s", key, kind(c))
				continue
			}
			if s := strings.TrimSpace(c.Value); s != "" && !isNull(c) {
				out = append(out, s)
			}
		}
		return out
	}
	t.warn(v, "field-type", "%s must be a list, not %s", key, kind(v))
	return nil
}

// toolList reads allowed-tools: space-delimited text per the spec, or a list.
func (t *typer) toolList(v *yaml.Node) []string {
	v = deref(v)
	if isNull(v) {
		return nil
	}
	switch v.Kind {
	case yaml.ScalarNode:
		return splitTools(v.Value)
	case yaml.SequenceNode:
		return t.list("allowed-tools", v)
	}
	t.warn(v, "field-type", "allowed-tools must be space-delimited text, not %s", kind(v))
	return nil
}

// splitTools splits on blanks outside parentheses, so that
// "Bash(git log:*) Read" is two tools.
func splitTools(s string) []string {
	var out []string
	depth, start := 0, -1
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth > 0 {
				depth--
			}
		case (r == ' ' || r == '\t' || r == '\n' || r == ',') && depth == 0:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// fields iterates over a mapping node's entries, warning when it is not one.
func (t *typer) fields(key string, v *yaml.Node, fn func(k string, kn, vn *yaml.Node)) bool {
	v = deref(v)
	if isNull(v) {
		return false
	}
	if v.Kind != yaml.MappingNode {
		t.warn(v, "field-type", "%s must be a mapping, not %s", key, kind(v))
		return false
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		fn(v.Content[i].Value, v.Content[i], v.Content[i+1])
	}
	return true
}

func (t *typer) iface(v *yaml.Node) *Interface {
	var it Interface
	ok := t.fields("interface", v, func(k string, _, vn *yaml.Node) {
		switch k {
		case "type":
			it.Type = t.text("interface.type", vn, false)
		case "entry_point":
			it.EntryPoint = t.text("interface.entry_point", vn, false)
		case "runtime":
			it.Runtime = t.text("interface.runtime", vn, false)
		case "call_pattern":
			it.CallPattern = t.text("interface.call_pattern", vn, false)
		}
	})
	if !ok {
		return nil
	}
	return &it
}

func (t *typer) boolean(key string, v *yaml.Node) bool {
	v = deref(v)
	if v.Kind == yaml.ScalarNode {
		switch strings.ToLower(v.Value) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off", "", "~", "null":
			return false
		}
	}
	t.warn(v, "field-type", "%s must be true or false, not %q", key, v.Value)
	return false
}

func (t *typer) permissions(v *yaml.Node) *Permissions {
	var p Permissions
	ok := t.fields("permissions", v, func(k string, _, vn *yaml.Node) {
		switch k {
		case "network":
			p.Network = t.boolean("permissions.network", vn)
		case "filesystem":
			p.Filesystem = t.boolean("permissions.filesystem", vn)
		case "subprocess":
			p.Subprocess = t.boolean("permissions.subprocess", vn)
		case "env_vars":
			p.EnvVars = t.list("permissions.env_vars", vn)
		}
	})
	if !ok {
		return nil
	}
	return &p
}

func (t *typer) requirements(v *yaml.Node) *Requirements {
	var r Requirements
	ok := t.fields("requirements", v, func(k string, _, vn *yaml.Node) {
		switch k {
		case "python_packages":
			r.PythonPackages = t.list("requirements.python_packages", vn)
		case "node_packages":
			r.NodePackages = t.list("requirements.node_packages", vn)
		case "min_python":
			r.MinPython = t.text("requirements.min_python", vn, false)
		case "min_node":
			r.MinNode = t.text("requirements.min_node", vn, false)
		}
	})
	if !ok {
		return nil
	}
	return &r
}

func (t *typer) examples(v *yaml.Node) []Example {
	v = deref(v)
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		t.warn(v, "field-type", "examples must be a list of {input, output} pairs, not %s", kind(v))
		return nil
	}
	var out []Example
	for i, c := range v.Content {
		var ex Example
		key := fmt.Sprintf("examples[%d]", i)
		ok := t.fields(key, c, func(k string, _, vn *yaml.Node) {
			switch k {
			case "name":
				ex.Name = t.text(key+".name", vn, false)
			case "description":
				ex.Description = t.text(key+".description", vn, false)
			case "input":
				ex.Input, _ = yamltree.Value(vn, FrontmatterLimits)
				ex.HasInput = true
			case "output":
				ex.Output, _ = yamltree.Value(vn, FrontmatterLimits)
				ex.HasOutput = true
			case "tags":
				ex.Tags = t.list(key+".tags", vn)
			}
		})
		if ok {
			out = append(out, ex)
		}
	}
	return out
}

func (t *typer) authorAgent(v *yaml.Node) *AuthorAgent {
	var a AuthorAgent
	ok := t.fields("author_agent", v, func(k string, _, vn *yaml.Node) {
		switch k {
		case "name":
			a.Name = t.text("author_agent.name", vn, false)
		case "provider":
			a.Provider = t.text("author_agent.provider", vn, false)
		case "session_id_hash":
			a.SessionIDHash = t.text("author_agent.session_id_hash", vn, false)
		case "built_at":
			a.BuiltAt = t.text("author_agent.built_at", vn, false)
		}
	})
	if !ok {
		return nil
	}
	return &a
}
