// Package catalog is the catalog the writers read: a summary of every skill
// found (what listings, feeds, indexes, discovery and the report show of
// it) with its final diagnostics and status, the published skills sorted
// by name with one skill per name (the later source root, or the later
// path, wins), and the taxonomies the site lists them by.
//
// A skill's content (the text of its SKILL.md, its body, its UASP
// document) is not part of the catalog: Catalog.Content reads it again
// when a writer needs it, so that what a build holds grows with the
// summaries, not with the skills' text.
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
	// Marketplaces are the plugin marketplaces found, in source order.
	Marketplaces []*Marketplace
	// AllPlugins are every plugin of the marketplaces, sorted by name;
	// Plugins those that hold a published skill, which have a page.
	AllPlugins, Plugins []*Plugin

	taxonomies []*Taxonomy
	loader     Loader
}

// A Loader reads a skill's content from its files.
type Loader interface {
	// Content returns the content of s, a skill of the catalog, and
	// completes its summary with its UASP document when that was still to
	// be derived (Skill.DocPending). It fails when the skill's files can
	// no longer be read, or no longer hold what the summary was made
	// from. It may be called for several skills at once, but for one
	// skill at a time.
	Content(s *Skill) (*Content, error)
}

// Content is what a skill's own files are made from: read for the writers
// of its files and dropped when they are done.
type Content struct {
	// Skill is the skill as parsed from its files: the text of SKILL.md,
	// its frontmatter and body, the UASP document as written. Its
	// Diagnostics are those of parsing alone; the summary's are final.
	*skill.Skill
	// Doc is the skill's UASP document, given or derived; nil when it has
	// none (no usable name, or derivation turned off).
	Doc *uasp.Document
}

// New builds the catalog. all must be in source order; each skill's
// diagnostics must be final but for shadowing, which New adds, and its
// plugins set (Skill.SetPlugins), plugins of marketplaces. loader reads
// the skills' content (Catalog.Content).
func New(all []*Skill, workspaces []*source.Workspace, marketplaces []*Marketplace, global []diag.Diagnostic, loader Loader) *Catalog {
	c := &Catalog{All: all, Workspaces: workspaces, Diagnostics: diag.Sort(global), loader: loader}
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
			s.Diagnostics = diag.Sort(append(s.Diagnostics, diag.At(s.File(), s.NamePos, diag.Warning, "name-shadowed",
				"the name %q is taken by %s (%s), which is published instead; rename one of them to publish both", s.Name, w.File(), why)))
			s.Status = lint.StatusOf(s.Diagnostics)
		}
		if s.Published() {
			c.Skills = append(c.Skills, s)
		}
	}
	slices.SortFunc(c.Skills, func(a, b *Skill) int { return cmp.Compare(a.Name, b.Name) })
	c.setPlugins(marketplaces)
	c.buildTaxonomies()
	return c
}

// Content returns the content of s, a skill of c (see Loader.Content).
func (c *Catalog) Content(s *Skill) (*Content, error) {
	if c.loader == nil {
		return nil, fmt.Errorf("%s: the catalog has no loader to read its content", s.File())
	}
	return c.loader.Content(s)
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

// DocsPending reports whether a skill's document is still to be derived
// (Skill.DocPending).
func (c *Catalog) DocsPending() bool {
	for _, s := range c.All {
		if s.DocPending() {
			return true
		}
	}
	return false
}

// CanonicalTypes reports whether every UASP type the catalog knows of its
// published skills is one of the schema's (uasp.Types), or none. A derived
// document's type always is: then the terms of the Types taxonomy, their
// spellings and their slugs, do not depend on the documents still to be
// derived, and a skill's type links to the page of the type itself.
func (c *Catalog) CanonicalTypes() bool {
	for _, s := range c.Skills {
		if t := s.Type(); t != "" && !slices.Contains(uasp.Types, t) {
			return false
		}
	}
	return true
}

// Complete builds what depends on every skill's UASP document, the Types
// taxonomy, once no document is pending: New does when none is, and the
// build once its pass has derived them.
func (c *Catalog) Complete() {
	if c.DocsPending() || c.Taxonomy(Types) != nil {
		return
	}
	c.taxonomies = append(c.taxonomies, buildTaxonomy(Types, "Types", c.Skills, typesOf))
	slices.SortStableFunc(c.taxonomies, func(a, b *Taxonomy) int { return cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)) })
}
