// Package uasp is skilldex's UASP engine (specs/uasp.md): it validates
// UASP documents against the schema of section 3.1, computes their content
// version (3.3), checks their internal references (7.1.5), answers queries
// (6.1-6.5), derives a document from a SKILL.md when the author wrote none
// (7.1, deterministically, without an LLM), and writes a document back as
// Markdown (7.2).
//
// Every skill of a catalog gets a Document: the author's NAME.uasp.yaml
// when there is one, else one derived from its SKILL.md. Documents are
// plain ordered trees (yamltree values), so that the same bytes come out
// whatever the machine or the parallelism.
package uasp

import (
	"fmt"
	"strings"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
)

// Sections are the top-level keys of a document, in the order of the
// schema's properties; documents skilldex publishes keep this order.
var Sections = []string{"meta", "triggers", "constraints", "decisions", "state", "commands",
	"global_flags", "workflows", "reference", "templates", "environment", "sources"}

// metaFields are meta's keys in the schema's order.
var metaFields = []string{"name", "version", "type", "description"}

// Types are the values of meta.type.
var Types = []string{"knowledge", "cli", "api", "hybrid"}

// Diagnostic codes this package reports; each is registered in build/lint's
// rule list with severity Warning (a test checks).
const (
	CodeSchema          = "uasp-schema"
	CodeVersionMismatch = "uasp-version-mismatch"
	CodeNameMismatch    = "uasp-name-mismatch"
	CodeReference       = "uasp-reference"
)

// Codes lists the diagnostic codes this package reports.
var Codes = []string{CodeSchema, CodeVersionMismatch, CodeNameMismatch, CodeReference}

// Document is a skill's UASP document, given or derived.
type Document struct {
	// Root is the document: meta first, then the sections in the schema's
	// order (keys the schema does not define follow, in the author's
	// order); meta.version holds the computed hash.
	Root *yamltree.Map
	// Derived reports a document derived from SKILL.md rather than written
	// by the author.
	Derived bool
	// Version is the computed content hash (8 hex digits).
	Version string
	// DeclaredVersion is meta.version as the author wrote it; "" when
	// derived or absent.
	DeclaredVersion string
	// Origins maps query paths of derived items ("constraints.never.0",
	// "commands.git.commit") to the SKILL.md line they came from. Lines are
	// kept here and not in the document, which must validate.
	Origins map[string]int

	// skill is the name queries address the document by.
	skill string
	// problems are the schema violations, reported as warnings (info for
	// a derived document): queries are answered all the same.
	problems []Problem
}

// NewDocument makes a document of root as an author wrote it, addressed
// by name (meta.name when name is ""). It validates root, computes the
// version and reorders the sections; root itself is not changed.
func NewDocument(name string, root *yamltree.Map) *Document {
	d := &Document{Root: arrange(root), skill: name}
	d.problems = Validate(root)
	if meta, ok := getMap(root, "meta"); ok {
		if v, ok := meta.Get("version"); ok && v != nil {
			d.DeclaredVersion = scalarText(v)
		}
		if d.skill == "" {
			d.skill, _ = getString(meta, "name")
		}
	}
	d.stamp()
	return d
}

// stamp computes the version and writes it into meta.version.
func (d *Document) stamp() {
	meta, ok := getMap(d.Root, "meta")
	if !ok {
		d.Version = streamHash(d.Root) // no meta.version to leave out
		return
	}
	// ContentVersion hashes a copy of the tree without meta.version; d.Root
	// is the document's own (arrange made it), so the version is taken out
	// of it for the hash instead, and the new one put back.
	meta.Delete("version")
	d.Version = streamHash(d.Root)
	meta.Set("version", d.Version)
	d.Root.Set("meta", arrangeMeta(meta))
}

// Name returns the skill name the document answers queries for.
func (d *Document) Name() string { return d.skill }

// Type returns meta.type ("" when absent).
func (d *Document) Type() string {
	meta, _ := getMap(d.Root, "meta")
	s, _ := getString(meta, "type")
	return s
}

// Description returns meta.description, trimmed ("" when absent).
func (d *Document) Description() string {
	meta, _ := getMap(d.Root, "meta")
	s, _ := getString(meta, "description")
	return strings.TrimSpace(s)
}

// Valid reports whether the document conforms to the UASP schema.
func (d *Document) Valid() bool { return len(d.problems) == 0 }

// Problems returns the schema violations, as messages.
func (d *Document) Problems() []string {
	out := make([]string, len(d.problems))
	for i, p := range d.problems {
		out[i] = p.Message
	}
	return out
}

// arrange returns a copy of root with meta first and the sections in the
// schema's order, then the other keys in document order.
func arrange(root *yamltree.Map) *yamltree.Map {
	return arrangeOwned(yamltree.Clone(root).(*yamltree.Map))
}

// arrangeOwned is arrange for a tree nothing else holds, such as one the
// deriver has just built: its values move to the result uncopied.
func arrangeOwned(src *yamltree.Map) *yamltree.Map {
	out := yamltree.NewMap()
	for _, k := range Sections {
		if v, ok := src.Get(k); ok {
			if m, isMap := v.(*yamltree.Map); isMap && k == "meta" {
				v = arrangeMeta(m)
			}
			out.Set(k, v)
		}
	}
	for k, v := range src.All() {
		if !out.Has(k) {
			out.Set(k, v)
		}
	}
	return out
}

func arrangeMeta(meta *yamltree.Map) *yamltree.Map {
	out := yamltree.NewMap()
	for _, k := range metaFields {
		if v, ok := meta.Get(k); ok {
			out.Set(k, v)
		}
	}
	for k, v := range meta.All() {
		if !out.Has(k) {
			out.Set(k, v)
		}
	}
	return out
}

func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case yamltree.Timestamp:
		return string(x)
	}
	b, err := yamltree.JSON(v, "")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Converter derives a UASP document from a skill that has none. The
// default, Deterministic, reads the SKILL.md and its frontmatter with fixed
// rules; a converter using an LLM (section 7.1.1) can be plugged in here
// later, off by default.
type Converter interface {
	// Convert returns the derived document (sections in any order; meta
	// included) and, for each derived item, the SKILL.md line it came from,
	// keyed by query path.
	Convert(s *skill.Skill) (root *yamltree.Map, origins map[string]int, err error)
}

// DefaultConverter is the converter ForSkill uses.
var DefaultConverter Converter = Deterministic{}

// ForSkill returns the skill's UASP document and what is wrong with it:
// the author's document when there is one (s.UASPValue), else one derived
// from SKILL.md with DefaultConverter. The document is nil only when the
// skill has no usable name.
func ForSkill(s *skill.Skill) (*Document, []diag.Diagnostic) {
	if s == nil || s.Name == "" {
		return nil, nil
	}
	if root, ok := s.UASPValue.(*yamltree.Map); ok {
		return given(s, root)
	}
	return derived(s, DefaultConverter)
}

func given(s *skill.Skill, root *yamltree.Map) (*Document, []diag.Diagnostic) {
	file := s.DisplayPath(s.UASPFile)
	d := NewDocument(s.Name, root)
	var ds []diag.Diagnostic
	warn := func(path []string, code, format string, args ...any) {
		ds = append(ds, diag.At(file, nodePos(s.UASPNode, path), diag.Warning, code, format, args...))
	}
	for _, p := range d.problems {
		warn(p.Path, CodeSchema, "%s", p.Message)
	}
	if d.DeclaredVersion != "" && d.DeclaredVersion != d.Version {
		warn([]string{"meta", "version"}, CodeVersionMismatch,
			"meta.version is %q but the content hash (uasp.md 3.3) is %q; set version: %q (skilldex publishes the computed one)",
			d.DeclaredVersion, d.Version, d.Version)
	}
	if s.SkillFile != "" {
		meta, _ := getMap(root, "meta")
		if n, ok := getString(meta, "name"); ok && skill.CanonicalName(n) != s.Name {
			warn([]string{"meta", "name"}, CodeNameMismatch,
				"meta.name is %q but %s names the skill %q; make them the same (the skill is published as %q)",
				n, s.DisplayPath(s.SkillFile), s.Name, s.Name)
		}
	}
	for _, p := range Consistency(d.Root) {
		warn(p.Path, CodeReference, "%s", p.Message)
	}
	return d, diag.Sort(ds)
}

func derived(s *skill.Skill, conv Converter) (*Document, []diag.Diagnostic) {
	file := s.File()
	root, origins, err := conv.Convert(s)
	if err != nil || root == nil {
		msg := "no UASP document could be derived"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, []diag.Diagnostic{diag.At(file, diag.Pos{Line: 1, Column: 1}, diag.Info, CodeSchema,
			"%s; add a %s.uasp.yaml beside SKILL.md", msg, s.Name)}
	}
	// Deterministic builds a new tree for every call; another converter
	// may keep and reuse what it returns.
	arranged := arrange
	if _, fresh := conv.(Deterministic); fresh {
		arranged = arrangeOwned
	}
	d := &Document{Root: arranged(root), Derived: true, Origins: origins, skill: s.Name}
	d.stamp()
	d.problems = Validate(d.Root)
	var ds []diag.Diagnostic
	// What is wrong with a derived document is skilldex's inference, not
	// the author's mistake: it is reported as info and never changes the
	// skill's status, so that validate, which derives nothing, and build
	// agree. A derived document that breaks the schema is a skilldex bug,
	// but the reader deserves to know why queries fail.
	for _, p := range d.problems {
		ds = append(ds, diag.At(file, diag.Pos{Line: d.origin(p.Path), Column: 0}, diag.Info, CodeSchema,
			"the UASP document derived from SKILL.md breaks the schema (please report this): %s", p.Message))
	}
	for _, p := range Consistency(d.Root) {
		ds = append(ds, diag.At(file, diag.Pos{Line: d.origin(p.Path)}, diag.Info, CodeReference,
			"in the UASP document derived from SKILL.md, %s", p.Message))
	}
	return d, diag.Sort(ds)
}

// origin returns the SKILL.md line of the deepest derived item on path.
func (d *Document) origin(path []string) int {
	for n := len(path); n > 0; n-- {
		if l, ok := d.Origins[strings.Join(path[:n], ".")]; ok {
			return l
		}
	}
	return 0
}
