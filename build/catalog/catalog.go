// Package catalog assembles checked skills into the catalog the writers
// read: every skill with its final diagnostics and status, the published
// skills sorted by name with one skill per name (the later source root, or
// the later path, wins), and the taxonomies the site lists them by.
package catalog

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/uasp"
)

// Skill is one skill of the catalog.
type Skill struct {
	*skill.Skill
	// Diagnostics are all the skill's findings, sorted.
	Diagnostics []diag.Diagnostic
	Status      lint.Status
	// ShadowedBy is the skill that took this one's name, or nil.
	ShadowedBy *Skill
	// Key is a hash of everything the skill's parse and checks read (its
	// files, where it was found, the options), set when Load has a Cache:
	// writers key the skill's own pages with it in incremental builds. ""
	// when unknown.
	Key string
	// Doc is the skill's UASP document (the author's, or derived from
	// SKILL.md); nil only when the skill has no usable name, or once the
	// skill is released.
	Doc *uasp.Document
	// SourceName names the source the skill comes from for people (a
	// repository's owner/name, a folder's name; see package sourcename):
	// the Source facet's value. "" when unknown.
	SourceName string

	taxonomyTerms skillTerms // see terms
	released      bool
	// packedDoc holds Doc while the skill is unloaded (see Unload).
	packedDoc *uasp.Packed
}

// Published reports whether the skill is part of the site.
func (s *Skill) Published() bool { return s.Status != lint.Rejected && s.ShadowedBy == nil }

// Catalog is the whole set of skills.
type Catalog struct {
	// All holds every skill found, in source order (root, then path).
	All []*Skill
	// Skills holds the published skills, sorted by name.
	Skills []*Skill
	// Workspaces are the SkillBag workspaces found.
	Workspaces []*source.Workspace
	// Diagnostics concern the sources, not one skill.
	Diagnostics []diag.Diagnostic

	taxonomies []*Taxonomy
}

// New builds the catalog. all must be in source order; each skill's
// diagnostics must be final but for shadowing, which New adds.
func New(all []*Skill, workspaces []*source.Workspace, global []diag.Diagnostic) *Catalog {
	c := &Catalog{All: all, Workspaces: workspaces, Diagnostics: diag.Sort(global)}
	for _, s := range all {
		s.Status = lint.StatusOf(s.Diagnostics)
	}
	// Names compare case-folded: skills/Foo and skills/foo are one folder on
	// macOS and Windows.
	winner := map[string]*Skill{}
	for _, s := range all {
		if s.Status == lint.Rejected || s.Name == "" {
			continue
		}
		key := strings.ToLower(s.Name)
		if prev, ok := winner[key]; ok {
			prev.ShadowedBy = s
		}
		winner[key] = s
	}
	for _, s := range all {
		if w := s.ShadowedBy; w != nil {
			for w.ShadowedBy != nil {
				w = w.ShadowedBy
			}
			s.ShadowedBy = w
			why := "a later path in the same source"
			if w.RootIndex != s.RootIndex {
				why = fmt.Sprintf("source %s, which comes later", w.RootShown)
			}
			s.Diagnostics = diag.Sort(append(s.Diagnostics, diag.At(s.File(), diag.Pos{}, diag.Warning, "name-shadowed",
				"the name %q is taken by %s (%s), which is published instead; rename one of them to publish both", s.Name, w.File(), why)))
			s.Status = lint.StatusOf(s.Diagnostics)
		}
		if s.Published() {
			c.Skills = append(c.Skills, s)
		}
	}
	slices.SortFunc(c.Skills, func(a, b *Skill) int { return cmp.Compare(a.Name, b.Name) })
	c.buildTaxonomies()
	return c
}

// Lookup returns the published skill named name, or nil.
func (c *Catalog) Lookup(name string) *Skill {
	i, ok := slices.BinarySearchFunc(c.Skills, name, func(s *Skill, n string) int { return cmp.Compare(s.Name, n) })
	if !ok {
		return nil
	}
	return c.Skills[i]
}

// Summary counts skills by status and diagnostics by severity.
type Summary struct {
	Skills    int `json:"skills"`
	Published int `json:"published"`
	Approved  int `json:"approved"`
	Caution   int `json:"caution"`
	Rejected  int `json:"rejected"`
	Shadowed  int `json:"shadowed"`
	Errors    int `json:"errors"`
	Warnings  int `json:"warnings"`
	Infos     int `json:"infos"`
}

// Summarize counts the catalog.
func (c *Catalog) Summarize() Summary {
	var s Summary
	s.Skills = len(c.All)
	s.Published = len(c.Skills)
	count := func(ds []diag.Diagnostic) {
		e, w, i := diag.Count(ds)
		s.Errors += e
		s.Warnings += w
		s.Infos += i
	}
	for _, sk := range c.All {
		switch sk.Status {
		case lint.Approved:
			s.Approved++
		case lint.Caution:
			s.Caution++
		case lint.Rejected:
			s.Rejected++
		}
		if sk.ShadowedBy != nil {
			s.Shadowed++
		}
		count(sk.Diagnostics)
	}
	count(c.Diagnostics)
	return s
}

// Released reports whether Release was called: the skill's sources, body
// and UASP document are gone.
func (s *Skill) Released() bool { return s.released }

// Unloaded reports whether the skill is unloaded: its sources, body and
// UASP document are gone until Reload.
func (s *Skill) Unloaded() bool { return s.packedDoc != nil || s.Skill.Unloaded() }

// Release lets go of what only the skill's own files are made from: its
// sources, body and UASP document, given or derived. A one-off build
// releases each skill once every writer has written the skill's files;
// what the catalog-wide files read (name, description, frontmatter, file
// list, taxonomy terms, diagnostics) stays. It writes the fields in place,
// so that other skills' work may go on reading the fields that stay; a
// build with a Cache, which keeps the parsed skill, never calls it.
func (s *Skill) Release() {
	s.terms() // made by New already; a released skill could not make them
	s.released = true
	s.Doc, s.packedDoc = nil, nil
	k := s.Skill
	k.Source, k.Doc, k.Body = nil, nil, nil
	k.UASPSource, k.UASPNode, k.UASPValue = nil, nil, nil
}

// Unload lets go of what the skill's own files are made from until Reload
// reads it back: the text of SKILL.md (skill.Skill.UnloadSource), and the
// UASP document's tree, held in binary form (uasp.Packed). A one-off
// build unloads every skill once its writers have begun and reloads each
// as it writes it, so that it holds little of the skills it has not come
// to (10,000 generated skills: 108 MB at the start of the pass instead of
// 203). Like Release, it writes the fields in place; nothing may read
// them until Reload.
func (s *Skill) Unload() {
	s.terms() // made by New already for a published skill; an unloaded skill could not make them
	s.Skill.UnloadSource()
	if s.Doc == nil || s.packedDoc != nil {
		return
	}
	if p, err := s.Doc.Pack(); err == nil {
		s.Doc, s.packedDoc = nil, p
	}
	// A document that cannot be packed (a tree holding a value no tree
	// should) stays as it is.
}

// Reload reads back what Unload let go. It fails when SKILL.md is no
// longer what was read (see skill.Skill.ReloadSource).
func (s *Skill) Reload() error {
	if err := s.Skill.ReloadSource(); err != nil {
		return err
	}
	if p := s.packedDoc; p != nil {
		d, err := p.Unpack()
		if err != nil {
			return fmt.Errorf("%s: its UASP document: %w", s.File(), err)
		}
		s.Doc, s.packedDoc = d, nil
	}
	return nil
}
