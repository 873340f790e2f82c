package lint

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
)

// Options configure the checks.
type Options struct {
	// Strict makes a SKILL.md skill invalid exactly when skills-ref, the
	// Agent Skills reference validator, says so; its findings are errors.
	Strict bool
}

// Check returns every diagnostic for s: those found while parsing and those
// of the rules. It does not look at other skills; see CheckWorkspace and
// the catalog for rules across skills.
func Check(s *skill.Skill, opt Options) []diag.Diagnostic {
	c := &checker{s: s, file: s.File()}
	c.ds = append(c.ds, s.Diagnostics...)
	if s.Frontmatter != nil {
		c.frontmatter()
		c.body()
		if s.Format == skill.USK {
			c.usk()
		}
		c.packageLimits()
	} else if s.Format == skill.UASP && s.Name != "" {
		c.uaspOnly()
	}
	if opt.Strict && s.SkillFile != "" {
		c.ds = strictify(c.ds, s)
	}
	return diag.Sort(c.ds)
}

type checker struct {
	s    *skill.Skill
	file string
	ds   []diag.Diagnostic
}

func (c *checker) add(pos diag.Pos, code, format string, args ...any) {
	r, ok := byCode[code]
	if !ok {
		panic("lint: unregistered rule " + code)
	}
	c.ds = append(c.ds, diag.At(c.file, pos, r.Severity, code, format, args...))
}

func (c *checker) frontmatter() {
	s, fm := c.s, c.s.Frontmatter

	// Fields.
	for _, k := range fm.Unknown {
		if isUSKOnly(k) {
			continue
		}
		c.add(fm.KeyPos(k), "unknown-field", "%s is not a field of Agent Skills, USK or SkillBag; clients ignore it (move it under metadata: to keep it)", k)
	}
	if s.Format != skill.USK {
		for _, k := range fm.Data.Keys() {
			if isUSKOnly(k) {
				c.add(fm.KeyPos(k), "usk-field-without-spec", "%s is a USK v3 field; add spec: %s to declare a USK skill, or move it under metadata:", k, skill.USKSpec)
			}
		}
		if fm.Spec != "" && fm.Spec != skill.USKSpec {
			c.add(fm.ValuePos("spec"), "usk-spec-unknown", "spec is %q; the USK version skilldex knows is %s", fm.Spec, skill.USKSpec)
		}
	}
	c.strictYAML()

	// Name.
	_, nameNode := keyValue(fm.Node, "name")
	switch {
	case nameNode == nil:
		c.add(fm.KeyPos("name"), "name-missing", "the frontmatter has no name; add name: with lowercase letters, digits and hyphens (e.g. %s)", suggestName(s.DirName))
	case s.Name == "":
		c.add(fm.Pos(nameNode), "name-missing", "name must be non-empty text; write e.g. name: %s", suggestName(s.DirName))
	default:
		pos := fm.Pos(nameNode)
		if why := siteinfo.NameProblem(s.Name); why != "" {
			c.add(pos, "name-unsafe", "name %q cannot be published: %s; use lowercase letters, digits and hyphens", s.Name, why)
		}
		for _, p := range nameProblems(s.Name) {
			c.add(pos, p.code, "%s; %s", strings.TrimSuffix(p.ref, "."), p.advice)
		}
		if dir := nfkc(s.DirName); dir != s.Name && s.DirName != "" {
			c.add(pos, "name-dir-mismatch", "name %q differs from the folder name %q; rename the folder or the skill so that they match", s.Name, s.DirName)
		}
	}

	// Description.
	_, descNode := keyValue(fm.Node, "description")
	switch {
	case descNode == nil:
		c.add(fm.KeyPos("description"), "description-missing", "the frontmatter has no description; add one that says what the skill does and when to use it")
	case s.Description == "":
		c.add(fm.Pos(descNode), "description-missing", "description must be non-empty text saying what the skill does and when to use it")
	default:
		if n := utf8.RuneCountInString(fm.Description); n > maxDescriptionLength {
			c.add(fm.Pos(descNode), "description-too-long", "the description is %d characters, more than %d; move detail into the body", n, maxDescriptionLength)
		}
		if n := utf8.RuneCountInString(s.Description); n < 20 {
			c.add(fm.Pos(descNode), "description-short", "the description is only %s; say what the skill does and when to use it, with words a user would type", characters(n))
		}
	}

	// Optional fields.
	if _, v := keyValue(fm.Node, "compatibility"); v != nil {
		if v.Kind != yaml.ScalarNode {
			c.add(fm.Pos(v), "compatibility-type", "compatibility must be text describing the environment the skill needs")
		} else if n := utf8.RuneCountInString(fm.Compatibility); n > maxCompatibilityLength {
			c.add(fm.Pos(v), "compatibility-too-long", "compatibility is %d characters, more than %d", n, maxCompatibilityLength)
		}
	}
	if _, v := keyValue(fm.Node, "metadata"); v != nil && v.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(v.Content); i += 2 {
			if val := v.Content[i+1]; val.Kind != yaml.ScalarNode {
				c.add(fm.Pos(val), "metadata-type", "metadata.%s must be text; metadata maps text keys to text values", v.Content[i].Value)
			}
		}
	}
	if _, v := keyValue(fm.Node, "allowed-tools"); v != nil && v.Kind == yaml.SequenceNode {
		c.add(fm.Pos(v), "allowed-tools-list", "allowed-tools is specified as space-delimited text, e.g. allowed-tools: %s", strings.Join(fm.AllowedTools, " "))
	}
}

// isUSKOnly reports USK v3 fields that Agent Skills does not define.
func isUSKOnly(k string) bool {
	for _, f := range skill.USKFields {
		if f == k {
			for _, a := range skill.AgentSkillsFields {
				if a == k {
					return false
				}
			}
			return true
		}
	}
	return false
}

func keyValue(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	for v != nil && v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	return k, v
}

// suggestName turns a folder name into a valid skill name for messages.
func suggestName(dir string) string {
	if s := siteinfo.Hyphenate(dir); s != "" {
		return s
	}
	return "my-skill"
}

func (c *checker) body() {
	s := c.s
	body := bytes.TrimSpace(s.Body)
	if len(body) == 0 {
		c.add(diag.Pos{Line: s.BodyLine, Column: 1}, "body-empty", "SKILL.md has no instructions after the frontmatter; write what the agent should do")
		return
	}
	if lines := bytes.Count(s.Doc.Text, []byte("\n")) + 1; lines > 500 {
		c.add(diag.Pos{Line: 501, Column: 1}, "body-too-long", "SKILL.md is %d lines; keep it under 500 and move detail into references/", lines)
	}
	c.links()
}

// packageLimits applies USK's upload limits to the skill's files: warnings
// for a USK skill, advice for others.
func (c *checker) packageLimits() {
	s := c.s
	if s.Packaging == source.Archive {
		return // enforced while reading
	}
	sev := diag.Info
	if s.Format == skill.USK {
		sev = diag.Warning
	}
	add := func(code, format string, args ...any) {
		c.ds = append(c.ds, diag.At(s.Path, diag.Pos{}, sev, code, format, args...))
	}
	var total int64
	for _, f := range s.Files {
		total += f.Size
		if utf8.RuneCountInString(f.Path) > source.DefaultArchiveLimits.MaxNameLength {
			add("usk-file-name-too-long", "file name %.40q… is longer than %d characters; USK stores refuse the package", f.Path, source.DefaultArchiveLimits.MaxNameLength)
		}
	}
	if n := len(s.Files); n > source.DefaultArchiveLimits.MaxFiles {
		add("usk-package-too-many-files", "the skill has %d files; USK packages hold at most %d", n, source.DefaultArchiveLimits.MaxFiles)
	}
	if total > source.DefaultArchiveLimits.MaxTotalBytes {
		add("usk-package-too-large", "the skill's files total %d bytes; USK packages hold at most %d", total, source.DefaultArchiveLimits.MaxTotalBytes)
	}
}

// uaspOnly checks the name of a skill that is only a UASP document.
func (c *checker) uaspOnly() {
	s := c.s
	pos := diag.Pos{Line: 1, Column: 1}
	if why := siteinfo.NameProblem(s.Name); why != "" {
		c.add(pos, "name-unsafe", "meta.name %q cannot be published: %s", s.Name, why)
	}
	if s.Description == "" {
		c.ds = append(c.ds, diag.At(c.file, pos, diag.Warning, "uasp-schema", "meta.description is missing or empty; add a description of at most 500 characters so that the skill can be found"))
	}
	switch {
	case s.Packaging == source.Folder && nfkc(s.DirName) != s.Name:
		c.add(pos, "name-dir-mismatch", "meta.name %q differs from the folder name %q", s.Name, s.DirName)
	case s.Packaging == source.Document && nfkc(s.DirName) != s.Name:
		c.add(pos, "name-dir-mismatch", "meta.name %q differs from the file name %s%s; rename the file to %s%s or change meta.name", s.Name, s.DirName, source.UASPSuffix, s.Name, source.UASPSuffix)
	}
}

// characters says n characters, singular for one.
func characters(n int) string {
	if n == 1 {
		return "1 character"
	}
	return strconv.Itoa(n) + " characters"
}
