package catalog

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Taxonomy kinds, which are also the site's folder names.
const (
	Tags         = "tags"
	Categories   = "categories"
	Capabilities = "capabilities"
	Types        = "types"
	Licenses     = "licenses"
	Sources      = "sources"
)

// Taxonomy is one way of grouping skills: by tag, category, capability,
// type, license or source.
type Taxonomy struct {
	Kind  string // tags, categories, capabilities, types, licenses, sources
	Title string // "Tags"
	Terms []*Term
}

// Term is one value of a taxonomy and the published skills that have it.
type Term struct {
	Name   string
	Slug   string
	Skills []*Skill // sorted by name
}

// skillBagTag matches a SkillBag tag in a description: #group/name.
var skillBagTag = regexp.MustCompile(`(?:^|\s)#([a-z0-9-]+/[A-Za-z0-9_-]+)`)

// tagsOf returns a skill's tags: USK tags, metadata.tags (a list or
// comma-separated text) and SkillBag #group/name tags in the description.
func tagsOf(s *skill.Skill) []string {
	var out []string
	if fm := s.Frontmatter; fm != nil {
		out = append(out, fm.Tags...)
		out = append(out, metaList(fm.Metadata, "tags")...)
	}
	// Most descriptions have no '#': the scan costs less than the regexp.
	if strings.IndexByte(s.Description, '#') >= 0 {
		for _, m := range skillBagTag.FindAllStringSubmatch(s.Description, -1) {
			out = append(out, "#"+m[1])
		}
	}
	return dedupe(out)
}

// categoriesOf returns the USK category and metadata.category.
func categoriesOf(s *skill.Skill) []string {
	var out []string
	if fm := s.Frontmatter; fm != nil {
		if fm.Category != "" {
			out = append(out, fm.Category)
		}
		out = append(out, metaList(fm.Metadata, "category")...)
	}
	return dedupe(out)
}

// capabilitiesOf returns the USK capabilities.
func capabilitiesOf(s *skill.Skill) []string {
	if s.Frontmatter == nil {
		return nil
	}
	return dedupe(s.Frontmatter.Capabilities)
}

func metaList(m *yamltree.Map, key string) []string {
	v, ok := m.Get(key)
	if !ok {
		return nil
	}
	var out []string
	switch x := v.(type) {
	case string:
		for _, p := range strings.Split(x, ",") {
			out = append(out, strings.TrimSpace(p))
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}

// The terms of each taxonomy a summary has.
func tags(s *Skill) []string         { return s.Tags }
func categories(s *Skill) []string   { return s.Categories }
func capabilities(s *Skill) []string { return s.Capabilities }
func typesOf(s *Skill) []string      { return one(s.Type()) }
func licenses(s *Skill) []string     { return one(s.License) }
func sources(s *Skill) []string      { return one(s.SourceName) }

// one is the list of the one term t, or none when t is "". Skills have
// one type, license and source: the summary keeps each as a string, which
// takes less room than a list.
func one(t string) []string {
	if t == "" {
		return nil
	}
	return []string{t}
}

// dedupe drops empty and case-insensitively repeated values, keeping order.
func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		s = strings.TrimSpace(s)
		k := strings.ToLower(s)
		if s == "" || seen[k] || len(s) > 100 {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}

// buildTaxonomy groups the published skills by the terms terms gives them.
// Terms that differ only in case are one term, named by the spelling most
// skills use (ties: the first in sort order).
func buildTaxonomy(kind, title string, skills []*Skill, terms func(*Skill) []string) *Taxonomy {
	type group struct {
		spellings map[string]int
		skills    []*Skill
	}
	groups := map[string]*group{}
	for _, s := range skills {
		for _, t := range terms(s) {
			k := strings.ToLower(t)
			g := groups[k]
			if g == nil {
				g = &group{spellings: map[string]int{}}
				groups[k] = g
			}
			g.spellings[t]++
			g.skills = append(g.skills, s)
		}
	}
	tax := &Taxonomy{Kind: kind, Title: title}
	for _, g := range groups {
		name := ""
		for sp, n := range g.spellings {
			if name == "" || n > g.spellings[name] || (n == g.spellings[name] && sp < name) {
				name = sp
			}
		}
		tax.Terms = append(tax.Terms, &Term{Name: name, Skills: g.skills})
	}
	slices.SortFunc(tax.Terms, func(a, b *Term) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	used := map[string]bool{}
	for _, t := range tax.Terms {
		t.Slug = uniqueSlug(used, t.Name)
		slices.SortFunc(t.Skills, func(a, b *Skill) int { return cmp.Compare(a.Name, b.Name) })
	}
	return tax
}

// maxSlugBytes bounds a slug, which names a folder: file systems refuse
// names over 255 bytes, and a plugin's name or a term of pluses ("+" is
// " plus ") can be longer.
const maxSlugBytes = 100

// uniqueSlug is the slug of name (siteinfo.Slug, cut to maxSlugBytes), with
// a number added when used has it already; it adds the slug to used. used
// holds slugs as file systems that ignore case and Unicode normalisation
// (macOS, Windows) compare them: "한" written composed or as jamo, or
// "straße" and "strasse", get two folders there too.
func uniqueSlug(used map[string]bool, name string) string {
	base := siteinfo.Slug(name)
	if len(base) > maxSlugBytes {
		cut := maxSlugBytes
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = strings.TrimRight(base[:cut], "-")
	}
	slug := base
	for i := 2; used[folded(slug)]; i++ {
		slug = fmt.Sprintf("%s-%d", base, i)
	}
	used[folded(slug)] = true
	return slug
}

// folded is a slug as a file system that ignores case and normalisation
// sees it.
func folded(slug string) string { return cases.Fold().String(norm.NFC.String(slug)) }

// Taxonomies returns the catalog's taxonomies in a fixed order; Types is
// among them once every document is known (see Complete).
func (c *Catalog) Taxonomies() []*Taxonomy {
	return c.taxonomies
}

// Taxonomy returns the taxonomy of kind, or nil.
func (c *Catalog) Taxonomy(kind string) *Taxonomy {
	for _, t := range c.taxonomies {
		if t.Kind == kind {
			return t
		}
	}
	return nil
}

// kinds are the taxonomies in their order.
var kinds = []string{Tags, Categories, Capabilities, Types, Licenses, Sources}

func kindOrder(kind string) int { return slices.Index(kinds, kind) }

func (c *Catalog) buildTaxonomies() {
	c.taxonomies = []*Taxonomy{
		buildTaxonomy(Tags, "Tags", c.Skills, tags),
		buildTaxonomy(Categories, "Categories", c.Skills, categories),
		buildTaxonomy(Capabilities, "Capabilities", c.Skills, capabilities),
		buildTaxonomy(Licenses, "Licenses", c.Skills, licenses),
		buildTaxonomy(Sources, "Sources", c.Skills, sources),
	}
	c.Complete()
}
