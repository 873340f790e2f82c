package lint

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
)

// RefFinding is one error skills-ref reports, with the message it prints.
type RefFinding struct {
	Code    string
	Message string
	// Field names the frontmatter field the finding is about, "" for the
	// file as a whole; YAMLPos is set for YAML errors.
	Field   string
	YAMLPos diag.Pos
}

// refAllowed are the only fields skills-ref accepts, in its sorted order.
var refAllowed = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

// SkillsRef reproduces validate() of skills-ref (agentskills/agentskills,
// skills-ref at 69ef37e9, with strictyaml 1.6) on a SKILL.md: the same
// checks, in the same order, with the same messages, including its quirks:
// the frontmatter is cut at the first "---" anywhere (not only on a line of
// its own), a byte order mark makes the file not start with "---", and
// YAML is read as strictyaml reads it (every scalar is text; flow style,
// anchors, tags, duplicate keys and inconsistent indentation are errors).
// dirName is the name of the folder holding the file.
func SkillsRef(dirName string, src []byte) []RefFinding {
	if !utf8.Valid(src) {
		// Python's read_text() raises; the skill cannot be validated.
		return []RefFinding{{Code: "encoding-invalid-utf8", Message: "SKILL.md is not valid UTF-8 and cannot be read"}}
	}
	// read_text() uses universal newlines.
	content := strings.ReplaceAll(string(src), "\r\n", "\n")
	content = strings.ReplaceAll(content, "\r", "\n")
	if !strings.HasPrefix(content, "---") {
		return []RefFinding{{Code: "frontmatter-missing", Message: "SKILL.md must start with YAML frontmatter (---)"}}
	}
	parts := strings.SplitN(content, "---", 3)
	if len(parts) < 3 {
		return []RefFinding{{Code: "frontmatter-unclosed", Message: "SKILL.md frontmatter not properly closed with ---"}}
	}
	fmText := parts[1]
	node, err := yamltree.Parse([]byte(fmText), yamltree.Limits{MaxBytes: 4 << 20, MaxDepth: 200})
	if err != nil {
		pos := diag.Pos{}
		if ye, ok := err.(*yamltree.Error); ok {
			pos = diag.Pos{Line: ye.Line, Column: ye.Column}
			err = fmt.Errorf("%s", ye.Msg)
		}
		return []RefFinding{{Code: "yaml-invalid", Message: fmt.Sprintf("Invalid YAML in frontmatter: %v", err), YAMLPos: pos}}
	}
	if node != nil {
		if ps := strictYAMLProblems(node); len(ps) > 0 {
			p := ps[0]
			return []RefFinding{{Code: "yaml-strict", Message: "Invalid YAML in frontmatter: " + p.msg,
				YAMLPos: diag.Pos{Line: p.node.Line, Column: p.node.Column}}}
		}
	}
	if node == nil || node.Kind != yaml.MappingNode {
		return []RefFinding{{Code: "frontmatter-not-mapping", Message: "SKILL.md frontmatter must be a YAML mapping"}}
	}
	return refValidateMetadata(node, dirName)
}

// refValue is a frontmatter value as strictyaml gives it: text for a
// scalar, or a marker for a mapping or list.
type refValue struct {
	text     string
	isString bool
}

func refValueOf(n *yaml.Node) refValue {
	if n.Kind == yaml.ScalarNode {
		return refValue{text: n.Value, isString: true}
	}
	return refValue{}
}

func refValidateMetadata(m *yaml.Node, dirName string) []RefFinding {
	fields := map[string]refValue{}
	var keys []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if _, dup := fields[k]; !dup {
			keys = append(keys, k)
		}
		fields[k] = refValueOf(m.Content[i+1])
	}
	var out []RefFinding
	var extra []string
	for _, k := range keys {
		if !contains(refAllowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		quoted := make([]string, len(refAllowed))
		for i, a := range refAllowed {
			quoted[i] = "'" + a + "'"
		}
		code := "unknown-field"
		field := extra[0]
		out = append(out, RefFinding{Code: code, Field: field, Message: fmt.Sprintf(
			"Unexpected fields in frontmatter: %s. Only [%s] are allowed.", strings.Join(extra, ", "), strings.Join(quoted, ", "))})
	}

	if v, ok := fields["name"]; !ok {
		out = append(out, RefFinding{Code: "name-missing", Message: "Missing required field in frontmatter: name"})
	} else if !v.isString || strings.TrimSpace(v.text) == "" {
		out = append(out, RefFinding{Code: "name-missing", Field: "name", Message: "Field 'name' must be a non-empty string"})
	} else {
		name := nfkc(strings.TrimSpace(v.text))
		for _, p := range nameProblems(name) {
			out = append(out, RefFinding{Code: p.code, Field: "name", Message: p.ref})
		}
		if dirName != "" && nfkc(dirName) != name {
			out = append(out, RefFinding{Code: "name-dir-mismatch", Field: "name",
				Message: fmt.Sprintf("Directory name '%s' must match skill name '%s'", dirName, name)})
		}
	}

	if v, ok := fields["description"]; !ok {
		out = append(out, RefFinding{Code: "description-missing", Message: "Missing required field in frontmatter: description"})
	} else if !v.isString || strings.TrimSpace(v.text) == "" {
		out = append(out, RefFinding{Code: "description-missing", Field: "description", Message: "Field 'description' must be a non-empty string"})
	} else if n := utf8.RuneCountInString(v.text); n > maxDescriptionLength {
		out = append(out, RefFinding{Code: "description-too-long", Field: "description",
			Message: fmt.Sprintf("Description exceeds %d character limit (%d chars)", maxDescriptionLength, n)})
	}

	if v, ok := fields["compatibility"]; ok {
		if !v.isString {
			out = append(out, RefFinding{Code: "compatibility-type", Field: "compatibility", Message: "Field 'compatibility' must be a string"})
		} else if n := utf8.RuneCountInString(v.text); n > maxCompatibilityLength {
			out = append(out, RefFinding{Code: "compatibility-too-long", Field: "compatibility",
				Message: fmt.Sprintf("Compatibility exceeds %d character limit (%d chars)", maxCompatibilityLength, n)})
		}
	}
	return out
}

// referenceCodes are the codes whose findings, in strict mode, come from
// the skills-ref emulation instead of skilldex's own checks.
var referenceCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range Rules {
		if r.Reference {
			m[r.Code] = true
		}
	}
	return m
}()

// strictify replaces skilldex's findings for the rules skills-ref enforces
// with skills-ref's own, as errors.
func strictify(ds []diag.Diagnostic, s *skill.Skill) []diag.Diagnostic {
	out := ds[:0:0]
	for _, d := range ds {
		if !referenceCodes[d.Code] {
			out = append(out, d)
		}
	}
	file := s.File()
	for _, f := range SkillsRef(s.DirName, s.Source) {
		pos := diag.Pos{Line: 1, Column: 1}
		switch {
		case f.YAMLPos.Line > 0:
			// The emulated frontmatter starts right after the first "---".
			pos = diag.Pos{Line: f.YAMLPos.Line, Column: f.YAMLPos.Column}
		case f.Field != "" && s.Frontmatter != nil:
			if k, v := keyValue(s.Frontmatter.Node, f.Field); v != nil {
				if f.Code == "unknown-field" {
					pos = s.Frontmatter.Pos(k)
				} else {
					pos = s.Frontmatter.Pos(v)
				}
			}
		}
		msg := f.Message
		if f.Code == "frontmatter-missing" && s.Doc != nil && s.Doc.HadBOM {
			msg += " (the file starts with a byte order mark; save it without one)"
		}
		out = append(out, diag.At(file, pos, diag.Error, f.Code, "%s", msg))
	}
	return out
}
