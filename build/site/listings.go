package site

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/spdx"
)

// card is a skill as listings show it. A skill is listed on the home page
// and on the page of each of its terms, about seven listings in all, so
// its card is rendered once a build (template "card") and the listings
// insert it as it is.
type card struct {
	Name, Link, Summary  string
	Type, Format, Status string
	Tags                 []termLink
	// Plugins link the pages of the skill's plugins.
	Plugins []termLink

	// key digests the fields above, for the keys of the listings that
	// show the card (see listKey.cards).
	key [sha256.Size]byte

	r       *renderer
	memoKey string // "" without a memo
	render  sync.Once
	html    template.HTML
	err     error
}

// cardTemplate is the page template whose "card" renders cards: all of
// them have it, from partials.html.
const cardTemplate = "home.html"

// cardTags is how many tags a card shows.
const cardTags = 5

// cardOf returns the skill's card, made once per build.
func (r *renderer) cardOf(s *catalog.Skill) *card {
	if c, ok := r.cards.Load(s); ok {
		return c.(*card)
	}
	c, _ := r.cards.LoadOrStore(s, r.makeCard(s))
	return c.(*card)
}

func (r *renderer) makeCard(s *catalog.Skill) *card {
	c := &card{
		Name:    s.Name,
		Link:    r.site.Link(siteinfo.SkillPage(s.Name)),
		Summary: firstLine(s.Description, 220),
		Format:  s.Format.Label(),
		Status:  string(s.Status),
	}
	c.Type = s.Type()
	c.Plugins = r.pluginBadges(s)
	for _, t := range s.Tags {
		if len(c.Tags) == cardTags {
			break
		}
		c.Tags = append(c.Tags, termLink{hashTag(t), r.termLink(catalog.Tags, t)})
	}
	k := listKey{h: sha256.New()}
	k.str(c.Name, c.Link, c.Summary, c.Type, c.Format, c.Status)
	k.int(len(c.Tags))
	for _, t := range c.Tags {
		k.str(t.Name, t.Link)
	}
	k.int(len(c.Plugins))
	for _, t := range c.Plugins {
		k.str(t.Name, t.Link)
	}
	k.h.Sum(c.key[:0])
	c.r = r
	if r.memo != nil {
		// serve's builds share cards: a rebuild renders only the cards
		// of skills an edit changed. Each build asks for every card, so
		// that the memo keeps them all (see memo.Sweep).
		c.memoKey = "card\x00" + r.key + string(c.key[:])
		if html, ok := memo.Lookup[template.HTML](r.memo, c.memoKey); ok {
			c.render.Do(func() { c.html = html })
		}
	}
	return c
}

// HTML is the card as listings show it, rendered the first time a listing
// page that shows it is rendered: an incremental build renders the cards
// of the listings it writes only.
func (c *card) HTML() (template.HTML, error) {
	c.render.Do(func() {
		buf := bufPool.Get().(*bytes.Buffer)
		defer bufPool.Put(buf)
		buf.Reset()
		if c.err = c.r.pages[cardTemplate].ExecuteTemplate(buf, "card", c); c.err == nil {
			c.html = template.HTML(buf.String())
			c.r.memo.Put(c.memoKey, c.html)
		}
	})
	return c.html, c.err
}

// pager links the pages of a listing.
type pager struct {
	// Number is this page's, Total how many the listing has.
	Number, Total int
	Prev, Next    string
	// Pages are the links the pager shows (see pagerWindow).
	Pages []pageLink
	// base is the listing's site path: with Number and Total, the links
	// above follow from it (see listKey.pager).
	base string
}

// pageLink is a page the pager links, or, with Gap, pages it leaves out.
type pageLink struct {
	Number  int
	Link    string
	Current bool
	Gap     bool
}

// pagePath returns the site path of page n (1-based) of a listing at base:
// "tags/x/" for the first, "tags/x/page/2/" for the next.
func pagePath(base string, n int) string {
	if n == 1 {
		return base
	}
	return fmt.Sprintf("%spage/%d/", base, n)
}

// paginate splits skills into pages of PageSize and calls write for each
// with its cards and pager, pages in parallel.
func (r *renderer) paginate(base string, skills []*catalog.Skill, write func(sitePath string, cards []*card, p *pager) error) error {
	n := max(1, (len(skills)+PageSize-1)/PageSize)
	return forEach(r.ctx, n, func(k int) error {
		i := k + 1
		lo, hi := (i-1)*PageSize, min(i*PageSize, len(skills))
		cards := make([]*card, 0, hi-lo)
		for _, s := range skills[lo:hi] {
			cards = append(cards, r.cardOf(s))
		}
		return write(pagePath(base, i), cards, r.pagerOf(base, i, n))
	})
}

// pagerOf is the pager of page i of n of the listing at base.
func (r *renderer) pagerOf(base string, i, n int) *pager {
	p := &pager{Number: i, Total: n, base: base}
	for _, j := range pagerWindow(i, n) {
		if j == 0 {
			p.Pages = append(p.Pages, pageLink{Gap: true})
			continue
		}
		p.Pages = append(p.Pages, pageLink{Number: j, Link: r.site.Link(pagePath(base, j)), Current: j == i})
	}
	if i > 1 {
		p.Prev = r.site.Link(pagePath(base, i-1))
	}
	if i < n {
		p.Next = r.site.Link(pagePath(base, i+1))
	}
	return p
}

// pagerSpan is how many pages the pager shows on each side of the
// current one.
const pagerSpan = 2

// pagerWindow returns the page numbers the pager of page i of n shows, 0
// for a gap: the first and the last, and pagerSpan on each side of i. A
// gap of one page shows that page instead. Listing every page would make
// every page of a listing of n pages O(n) long: at 100,000 skills the home
// listing has 834 pages.
func pagerWindow(i, n int) []int {
	lo, hi := max(1, i-pagerSpan), min(n, i+pagerSpan)
	var out []int
	add := func(from, to int) {
		for j := from; j <= to; j++ {
			out = append(out, j)
		}
	}
	switch {
	case lo <= 3: // 1 and 2 shown rather than "1 …"
		add(1, lo-1)
	default:
		out = append(out, 1, 0)
	}
	add(lo, hi)
	switch {
	case hi >= n-2:
		add(hi+1, n)
	default:
		out = append(out, 0, n)
	}
	return out
}

type facetView struct {
	Title  string
	Values []facetValue
	More   string
}

type facetValue struct {
	Name, Link string
	Count      int
}

// homeFacetValues is how many values of a facet the home page lists.
const homeFacetValues = 12

func (r *renderer) writeHome(c *catalog.Catalog, out *output.Writer) error {
	var facets []facetView
	// Where a skill comes from first: filtering by repository is the first
	// thing people do in a catalog that gathers several.
	for _, kind := range []string{catalog.Sources, catalog.Types, catalog.Categories, catalog.Tags, catalog.Capabilities, catalog.Licenses} {
		t := c.Taxonomy(kind)
		if t == nil {
			continue
		}
		terms := slices.Clone(t.Terms)
		// Most used first; ties by name, so the order is stable.
		slices.SortStableFunc(terms, func(a, b *catalog.Term) int { return len(b.Skills) - len(a.Skills) })
		fv := facetView{Title: t.Title}
		for _, term := range terms[:min(len(terms), homeFacetValues)] {
			fv.Values = append(fv.Values, facetValue{term.Name, r.site.Link(siteinfo.TaxonomyPage(kind, term.Slug)), len(term.Skills)})
		}
		if len(terms) > homeFacetValues {
			fv.More = r.site.Link(siteinfo.TaxonomyIndex(kind))
		}
		facets = append(facets, fv)
		if kind == catalog.Sources {
			facets = append(facets, r.pluginFacet(c)...)
		}
	}
	var markets []marketView
	ids := marketplaceIDs(c)
	for _, m := range c.Marketplaces {
		if len(publishedPlugins(m)) > 0 && m.Name != "" {
			markets = append(markets, marketView{m.Name, m.Description, ids[m]})
		}
	}
	addAll := r.addAllOf(c)
	notListed := 0 // skills the skills CLI does not install from the site
	for _, s := range c.Skills {
		if !skillsCLIInstalls(s, r.site) {
			notListed++
		}
	}
	return r.paginate("", c.Skills, func(sitePath string, cards []*card, p *pager) error {
		title := ""
		if p.Number > 1 {
			title = fmt.Sprintf("Page %d", p.Number)
		}
		key := r.newListKey("home.html")
		key.int(len(c.Skills))
		key.str(fmt.Sprint(addAll != nil), fmt.Sprintf("%#v", markets))
		key.int(notListed)
		key.cards(cards)
		key.pager(p)
		for _, f := range facets {
			key.str(f.Title, f.More)
			for _, v := range f.Values {
				key.str(v.Name, v.Link)
				key.int(v.Count)
			}
		}
		return r.writeListing(out, sitePath, "home.html", &page{
			Title:       title,
			Description: r.homeDescription(c),
			Section:     "home",
			Data: map[string]any{
				"Total": len(c.Skills), "Cards": cards, "Pager": p, "Facets": facets, "AddAll": addAll, "NotListed": notListed,
				"Marketplaces": markets,
			},
		}, key)
	})
}

// marketView is a marketplace as the home page names it.
type marketView struct{ Name, Description, ID string }

// pluginFacet is the home page's Plugins facet: the plugins with the most
// skills, linking their pages; none when the catalog has no plugins.
func (r *renderer) pluginFacet(c *catalog.Catalog) []facetView {
	if len(c.Plugins) == 0 {
		return nil
	}
	ps := slices.Clone(c.Plugins)
	slices.SortStableFunc(ps, func(a, b *catalog.Plugin) int { return len(b.Skills) - len(a.Skills) })
	fv := facetView{Title: "Plugins"}
	for _, p := range ps[:min(len(ps), homeFacetValues)] {
		fv.Values = append(fv.Values, facetValue{p.Name, r.pluginLink(p), len(p.Skills)})
	}
	if len(ps) > homeFacetValues {
		fv.More = r.site.Link(siteinfo.PluginsIndex)
	}
	return []facetView{fv}
}

func (r *renderer) homeDescription(c *catalog.Catalog) string {
	if r.site.Description != "" {
		return r.site.Description
	}
	return fmt.Sprintf("A catalog of %d agent skills.", len(c.Skills))
}

func (r *renderer) writeTaxonomies(c *catalog.Catalog, out *output.Writer) error {
	for _, t := range c.Taxonomies() {
		type termView struct {
			Name, Link string
			Count      int
		}
		var terms []termView
		for _, term := range t.Terms {
			terms = append(terms, termView{term.Name, r.site.Link(siteinfo.TaxonomyPage(t.Kind, term.Slug)), len(term.Skills)})
		}
		key := r.newListKey("taxonomy.html")
		for _, tv := range terms {
			key.str(tv.Name, tv.Link)
			key.int(tv.Count)
		}
		err := r.writeListing(out, siteinfo.TaxonomyIndex(t.Kind), "taxonomy.html", &page{
			Title:       t.Title,
			Description: fmt.Sprintf("Skills by %s.", strings.ToLower(t.Title)),
			Section:     t.Kind,
			Data:        map[string]any{"Title": t.Title, "Terms": terms},
		}, key)
		if err != nil {
			return err
		}
		err = forEach(r.ctx, len(t.Terms), func(i int) error {
			term := t.Terms[i]
			return r.paginate(siteinfo.TaxonomyPage(t.Kind, term.Slug), term.Skills, func(sitePath string, cards []*card, p *pager) error {
				indexLink := r.site.Link(siteinfo.TaxonomyIndex(t.Kind))
				note := termNote(t.Kind, term.Name)
				key := r.newListKey("term.html")
				key.str(t.Title, indexLink, term.Name, note)
				key.int(len(term.Skills))
				key.cards(cards)
				key.pager(p)
				title := term.Name + " · " + t.Title
				if p.Number > 1 {
					title = fmt.Sprintf("Page %d · %s", p.Number, title)
				}
				return r.writeListing(out, sitePath, "term.html", &page{
					Title:       title,
					Description: fmt.Sprintf("%d skills with %s %s.", len(term.Skills), strings.ToLower(strings.TrimSuffix(t.Title, "s")), term.Name),
					Section:     t.Kind,
					Data: map[string]any{
						"Kind": t.Title, "IndexLink": indexLink, "Note": note,
						"Name": term.Name, "Total": len(term.Skills), "Cards": cards, "Pager": p,
					},
				}, key)
			})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// termNote is what the page of a term says besides its skills: what the
// License facet's Other holds.
func termNote(kind, term string) string {
	if kind == catalog.Licenses && term == spdx.Other {
		return "Skills whose license, as written, names no SPDX license (\"Complete terms in LICENSE.txt\", a URL, \"Proprietary\"): each skill's page shows what it says."
	}
	return ""
}

func (r *renderer) writeSearch(c *catalog.Catalog, out *output.Writer) error {
	return r.writePage(out, "search/", "search.html", &page{
		Title:       "Search",
		Description: fmt.Sprintf("Search %d agent skills.", len(c.Skills)),
		Section:     "search",
		Module:      r.view.Asset("search.js"),
	})
}

func (r *renderer) writeNotFound(c *catalog.Catalog, out *output.Writer) error {
	p := &page{Title: "Page not found", Description: "Nothing is published at this address."}
	data, err := r.render("notfound.html", p)
	if err != nil {
		return err
	}
	return out.WriteRaw("404.html", data)
}

// reportPageSize is how many skills one page of the report lists: a large
// catalog has a few findings a skill.
const reportPageSize = 100

// reportSkill is one skill of the validation report.
type reportSkill struct {
	ID, Name, Link, Path, Status, Note string
	Diagnostics                        []diagView

	// key digests the fields above, for the keys of the report page
	// that shows the skill and of its HTML in serve's memo.
	key [sha256.Size]byte
	// html is the skill's part of its page, from the memo (or once
	// rendered): a page whose summary changed, as it does whenever a
	// skill comes or goes, renders only the skills that changed.
	html template.HTML
	r    *renderer
}

// reportSkillTemplate is the page template whose "report-skill" renders a
// skill of the report.
const reportSkillTemplate = "report.html"

// keyed digests the skill's fields and takes its HTML from the memo,
// which it keeps for the next build, whether or not its page is written.
func (rs *reportSkill) keyed(r *renderer) {
	k := listKey{h: sha256.New()}
	k.str(rs.ID, rs.Name, rs.Link, rs.Path, rs.Status, rs.Note)
	k.diags(rs.Diagnostics)
	k.h.Sum(rs.key[:0])
	rs.r = r
	if html, ok := memo.Lookup[template.HTML](r.memo, rs.memoKey()); ok {
		rs.html = html
	}
}

func (rs *reportSkill) memoKey() string {
	return "report-skill\x00" + rs.r.key + string(rs.key[:])
}

// HTML is the skill's part of its report page.
func (rs *reportSkill) HTML() (template.HTML, error) {
	if rs.html != "" {
		return rs.html, nil
	}
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	if err := rs.r.pages[reportSkillTemplate].ExecuteTemplate(buf, "report-skill", rs); err != nil {
		return "", err
	}
	rs.html = template.HTML(buf.String())
	rs.r.memo.Put(rs.memoKey(), rs.html)
	return rs.html, nil
}

// reportID is the anchor of a skill in the report: skills of one name can
// appear several times (shadowed, rejected), so the id comes from the
// skill's place in the sources.
func reportID(s *catalog.Skill) string {
	return "sd-r-" + siteinfo.Hyphenate(fmt.Sprintf("%d %s %s", s.RootIndex, s.RelPath, s.Name))
}

func (r *renderer) writeReport(c *catalog.Catalog, out *output.Writer) error {
	var skills []*reportSkill
	for _, s := range c.All {
		if len(s.Diagnostics) == 0 {
			continue
		}
		rs := &reportSkill{
			ID: reportID(s), Name: s.Name, Path: s.Path, Status: string(s.Status),
			Diagnostics: diagViews(s.Diagnostics),
		}
		if rs.Name == "" {
			rs.Name = s.Path
		}
		if s.Published() {
			rs.Link = r.site.Link(siteinfo.SkillPage(s.Name))
		} else if s.ShadowedBy != nil {
			rs.Note = "not published: shadowed by " + s.ShadowedBy.File()
		} else {
			rs.Note = "not published"
		}
		skills = append(skills, rs)
	}
	// Worst first, then by name, so what needs fixing is on top.
	rank := map[string]int{"rejected": 0, "caution": 1, "approved": 2}
	slices.SortStableFunc(skills, func(a, b *reportSkill) int {
		if d := rank[a.Status] - rank[b.Status]; d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
	n := max(1, (len(skills)+reportPageSize-1)/reportPageSize)
	summary := c.Summarize()
	global := diagViews(diag.Sort(slices.Clone(c.Diagnostics))) // the catalog's, which other writers may read
	return forEach(r.ctx, n, func(k int) error {
		i := k + 1
		p := r.pagerOf("report/", i, n)
		title := "Validation report"
		if i > 1 {
			title = fmt.Sprintf("Validation report, page %d", i)
		}
		these := skills[(i-1)*reportPageSize : min(i*reportPageSize, len(skills))]
		data := map[string]any{"Summary": summary, "Skills": these, "Pager": p}
		key := r.newListKey("report.html")
		key.str(fmt.Sprintf("%+v", summary))
		key.pager(p)
		key.int(len(these))
		for _, s := range these {
			s.keyed(r)
			key.h.Write(s.key[:])
		}
		if i == 1 {
			data["Global"] = global
			key.diags(global)
		}
		return r.writeListing(out, pagePath("report/", i), "report.html", &page{
			Title:       title,
			Description: "Every finding skilldex made while reading this catalog.",
			Section:     "report",
			Data:        data,
		}, key)
	})
}
