package skill

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/yamltree"
)

// MaxSkillFileBytes bounds the SKILL.md or UASP document read for a skill.
const MaxSkillFileBytes = 8 << 20

// FrontmatterLimits bound the YAML of a frontmatter.
var FrontmatterLimits = yamltree.Limits{MaxBytes: 512 << 10, MaxDepth: 32, MaxNodes: 50_000}

// Known top-level frontmatter fields, by the spec that defines them.
var (
	AgentSkillsFields = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
	USKFields         = []string{"spec", "version", "interface", "input_schema", "output_schema", "capabilities", "permissions",
		"category", "tags", "author", "license", "homepage", "platform_compatibility", "requirements", "changelog", "examples", "author_agent"}
	SkillBagFields = []string{"dependencies", "parameters"}
)

// USKSpec is the spec value that makes a SKILL.md a USK v3 skill.
const USKSpec = "usk/1.0"

func isIn(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Parse reads and parses one input. It never fails: what cannot be read is
// reported in the skill's diagnostics, and the skill is returned with an
// empty name.
func Parse(in *source.Input) *Skill {
	s := &Skill{Input: in, Format: AgentSkills, BodyLine: 1}
	s.Diagnostics = append(s.Diagnostics, in.Diagnostics...)
	if hasError(in.Diagnostics) {
		return s
	}
	if in.SkillFile != "" {
		src, err := readLimited(in.FS, in.SkillFile)
		if err != nil {
			s.errorf(s.DisplayPath(in.SkillFile), diag.Pos{}, "file-unreadable", "cannot read %s: %v", in.SkillFile, err)
			return s
		}
		s.Source = src
		s.parseSkillMD()
	}
	if in.UASPFile != "" {
		s.readUASP()
	}
	if in.SkillFile == "" && in.UASPFile == "" && !hasError(s.Diagnostics) {
		s.errorf(in.Path, diag.Pos{}, "skill-md-missing", "no SKILL.md found; add one with a name and a description")
	}
	if in.Workspace != nil && s.Frontmatter != nil {
		s.parseSkillBag()
	}
	return s
}

func hasError(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

func readLimited(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Size the buffer from Stat so that reading costs one allocation, as
	// os.ReadFile does; the limit still holds if the file grows meanwhile.
	size := 512
	if st, err := f.Stat(); err == nil && st.Size() > 0 && st.Size() <= MaxSkillFileBytes {
		size = int(st.Size()) + 1 // +1 to see EOF without growing
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			if len(buf) > MaxSkillFileBytes {
				return nil, fmt.Errorf("file is larger than %d bytes", MaxSkillFileBytes)
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(buf) > MaxSkillFileBytes {
		return nil, fmt.Errorf("file is larger than %d bytes", MaxSkillFileBytes)
	}
	return buf, nil
}

func (s *Skill) add(file string, pos diag.Pos, sev diag.Severity, code, format string, args ...any) {
	s.Diagnostics = append(s.Diagnostics, diag.At(file, pos, sev, code, format, args...))
}

func (s *Skill) errorf(file string, pos diag.Pos, code, format string, args ...any) {
	s.add(file, pos, diag.Error, code, format, args...)
}

func (s *Skill) parseSkillMD() {
	file := s.DisplayPath(s.SkillFile)
	d := Split(s.Source)
	s.Doc = d
	s.Body, s.BodyLine = d.Body, d.BodyLine
	if d.InvalidUTF8 {
		s.add(file, diag.Pos{}, diag.Warning, "encoding-invalid-utf8", "%s is not valid UTF-8; invalid bytes are shown as U+FFFD (save the file as UTF-8)", s.SkillFile)
	}
	if d.HadBOM {
		s.add(file, diag.Pos{Line: 1, Column: 1}, diag.Warning, "frontmatter-bom",
			"the file starts with a byte order mark, which the Agent Skills reference parser rejects; save it as UTF-8 without BOM")
	}
	if d.LeadingBlankLines > 0 && d.Opened {
		s.add(file, diag.Pos{Line: 1, Column: 1}, diag.Warning, "frontmatter-not-first",
			"%d blank line(s) before the opening ---; the frontmatter must start on the first line", d.LeadingBlankLines)
	}
	if !d.Opened {
		s.errorf(file, diag.Pos{Line: 1, Column: 1}, "frontmatter-missing",
			"SKILL.md must start with YAML frontmatter: a line '---', then name: and description:, then '---'")
		return
	}
	if !d.Closed {
		s.errorf(file, diag.Pos{Line: d.FrontmatterLine - 1, Column: 1}, "frontmatter-unclosed",
			"the frontmatter opened here is never closed; add a line '---' after the last field")
		return
	}
	s.parseFrontmatter(file, d.Frontmatter, d.FrontmatterLine-1)
}

// parseFrontmatter decodes the YAML and types the known fields. offset is
// added to YAML line numbers to give SKILL.md lines.
func (s *Skill) parseFrontmatter(file string, src []byte, offset int) {
	node, err := yamltree.Parse(src, FrontmatterLimits)
	if err != nil {
		pos := diag.Pos{Line: offset + 1, Column: 1}
		msg := err.Error()
		if ye, ok := err.(*yamltree.Error); ok {
			pos = diag.Pos{Line: ye.Line + offset, Column: ye.Column}
			msg = ye.Msg
		}
		s.errorf(file, pos, "yaml-invalid", "invalid YAML in the frontmatter: %s", msg)
		return
	}
	if node == nil || node.Kind != yaml.MappingNode {
		s.errorf(file, diag.Pos{Line: offset + 1, Column: 1}, "frontmatter-not-mapping",
			"the frontmatter must be a YAML mapping of fields (name: ..., description: ...)")
		return
	}
	val, err := yamltree.Value(node, FrontmatterLimits)
	if err != nil {
		pos := diag.Pos{Line: offset + 1, Column: 1}
		if ye, ok := err.(*yamltree.Error); ok {
			pos = diag.Pos{Line: ye.Line + offset, Column: ye.Column}
		}
		s.errorf(file, pos, "yaml-invalid", "invalid YAML in the frontmatter: %v", strings.TrimPrefix(err.Error(), "line "))
		return
	}
	fm := &Frontmatter{Node: node, Data: val.(*yamltree.Map), lineOffset: offset}
	s.Frontmatter = fm
	t := typer{s: s, fm: fm, file: file}
	t.decode()
	if fm.Spec == USKSpec {
		s.Format = USK
	}
	s.RawName = fm.Name
	s.Name = CanonicalName(fm.Name)
	s.Description = strings.TrimSpace(fm.Description)
}

// CanonicalName trims and NFKC-normalises a name, as the Agent Skills
// reference validator does before comparing it.
func CanonicalName(name string) string {
	return norm.NFKC.String(strings.TrimSpace(name))
}

// UASPLimits bound a UASP document.
var UASPLimits = yamltree.Limits{MaxBytes: MaxSkillFileBytes, MaxDepth: 64, MaxNodes: 500_000}

func (s *Skill) readUASP() {
	file := s.DisplayPath(s.UASPFile)
	src, err := readLimited(s.FS, s.UASPFile)
	if err != nil {
		s.errorf(file, diag.Pos{}, "file-unreadable", "cannot read %s: %v", s.UASPFile, err)
		return
	}
	s.UASPSource = src
	text, hadBOM, _, invalid := Normalize(src)
	if invalid {
		s.add(file, diag.Pos{}, diag.Warning, "encoding-invalid-utf8", "the document is not valid UTF-8; invalid bytes are shown as U+FFFD")
	}
	_ = hadBOM // a BOM is legal at the start of a YAML stream
	node, err := yamltree.Parse(text, UASPLimits)
	var val any
	if err == nil && node != nil {
		val, err = yamltree.Value(node, UASPLimits)
	}
	sev := diag.Warning
	if s.SkillFile == "" {
		sev = diag.Error // the document is all there is of the skill
	}
	if err != nil {
		pos := diag.Pos{Line: 1, Column: 1}
		if ye, ok := err.(*yamltree.Error); ok {
			pos = diag.Pos{Line: ye.Line, Column: ye.Column}
		}
		s.add(file, pos, sev, "uasp-yaml-invalid", "invalid YAML in the UASP document: %s", strings.TrimPrefix(err.Error(), fmt.Sprintf("line %d, column %d: ", pos.Line, pos.Column)))
		return
	}
	root, ok := val.(*yamltree.Map)
	if !ok {
		s.add(file, diag.Pos{Line: 1, Column: 1}, sev, "uasp-not-mapping", "a UASP document must be a YAML mapping with a meta section")
		return
	}
	s.UASPNode, s.UASPValue = node, root
	if s.SkillFile != "" {
		return
	}
	s.Format = UASP
	meta, _ := root.Get("meta")
	m, _ := meta.(*yamltree.Map)
	name, _ := m.Get("name")
	desc, _ := m.Get("description")
	if n, ok := name.(string); ok {
		s.RawName = n
		s.Name = CanonicalName(n)
	}
	if d, ok := desc.(string); ok {
		s.Description = strings.TrimSpace(d)
	}
	if s.Name == "" {
		pos := diag.Pos{Line: 1, Column: 1}
		if n, ok := yamltree.Lookup(node, []string{"meta"}); ok {
			pos = diag.Pos{Line: n.Line, Column: n.Column}
		}
		s.errorf(file, pos, "name-missing", "the UASP document has no meta.name; add one (lowercase letters, digits and hyphens)")
	}
}
