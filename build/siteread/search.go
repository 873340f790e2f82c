package siteread

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/index/jsonsearch"
)

// SearchOptions narrow a search.
type SearchOptions struct {
	// Limit is the number of skills to return (10 when 0).
	Limit int
	// Type keeps the skills of this UASP type (cli, api, knowledge,
	// hybrid); Tag those with this tag; Plugin those of this plugin. They
	// ignore case.
	Type, Tag, Plugin string
}

// Hit is a skill a search found.
type Hit struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Type        string   `json:"type,omitempty"`
	Format      string   `json:"format,omitempty"`
	Status      string   `json:"status,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Plugins     []string `json:"plugins,omitempty"`
	// Page is the link of the skill's page.
	Page string `json:"page"`
	// Install is the skills CLI's command that installs the skill, when
	// the site's address is known and the CLI can install it.
	Install string `json:"install,omitempty"`
}

// SearchResult is what a search found.
type SearchResult struct {
	Hits []Hit
	// Total counts every matching skill (a lower bound when the index
	// answered from the heads of its postings).
	Total int
	// Notes say what in the query or the options may not do what their
	// writer meant: a word written as a filter of no filter's name, a
	// filter value no skill has.
	Notes []string
}

// maxCachedBytes bounds the search index files kept between searches.
const maxCachedBytes = 32 << 20

// Search ranks the site's skills for query with its JSON search index, as
// the site's search page does, fetching only the files the query needs.
// Files are kept between searches while the index's manifest (read again
// for every search) keeps its id.
//
// A Type that is none of UASP's types is an error.
func (s *Site) Search(ctx context.Context, query string, opt SearchOptions) (*SearchResult, error) {
	if opt.Limit <= 0 {
		opt.Limit = 10
	}
	if opt.Type != "" && !slices.ContainsFunc(uasp.Types, func(t string) bool { return strings.EqualFold(t, opt.Type) }) {
		return nil, fmt.Errorf("type is %q, which is no UASP type; give %s", opt.Type, strings.Join(uasp.Types, ", "))
	}
	out := &SearchResult{}
	ix := jsonsearch.New(s.indexFile)
	var filters []jsonsearch.Filter
	var noted []index.Clause // the options' filters already noted as matching nothing
	for _, f := range []struct{ facet, what, value string }{{"type", "of the type", opt.Type}, {"tags", "tagged", opt.Tag}, {"plugin", "in the plugin", opt.Plugin}} {
		if f.value == "" {
			continue
		}
		values, err := ix.FacetValues(ctx, f.facet)
		if err != nil {
			return nil, err
		}
		nums := []int{-1} // no document has value -1: nothing matches
		for _, v := range values {
			if strings.EqualFold(v.Name, f.value) {
				nums = []int{v.Number}
			}
		}
		if nums[0] == -1 {
			out.Notes = append(out.Notes, fmt.Sprintf("no skill of the catalog is %s %q", f.what, f.value))
			noted = append(noted, index.Clause{Facet: f.facet, Value: f.value})
		}
		filters = append(filters, jsonsearch.Filter{ID: f.facet, Values: nums})
	}
	res, err := ix.Search(ctx, query, jsonsearch.Options{Filters: filters})
	if err != nil {
		return nil, err
	}
	// The same filter in the options and in the query is noted once.
	empty := slices.DeleteFunc(res.EmptyFilters, func(c index.Clause) bool {
		return slices.ContainsFunc(noted, func(n index.Clause) bool {
			return n.Facet == c.Facet && strings.EqualFold(n.Value, c.Value)
		})
	})
	out.Notes = append(out.Notes, index.Notes(res.Mistyped, empty)...)
	var docs []int
	for _, h := range res.Hits[:min(opt.Limit, len(res.Hits))] {
		docs = append(docs, h.Doc)
	}
	cards, err := ix.Cards(ctx, docs)
	if err != nil {
		return nil, err
	}
	hits := []Hit{}
	for _, c := range cards {
		if c == nil {
			continue
		}
		h := Hit{Name: c.Name, Description: c.Description, Type: c.Type, Format: c.Format, Status: c.Status, Tags: c.Tags, Plugins: c.Plugins,
			Page: s.Link(siteinfo.SkillPage(c.Name))}
		if s.installs(c) {
			h.Install = siteinfo.InstallCommand(s.URL.String(), c.Name)
		}
		hits = append(hits, h)
	}
	out.Hits, out.Total = hits, res.Total
	return out, nil
}

// installs reports whether npx skills add SITE --skill NAME installs the
// skill of card c, as the skill's page says: the site's address is known,
// the skill has a SKILL.md, the CLI accepts its name, and the site's
// discovery index lists every skill with a SKILL.md, which it does when it
// publishes archives (for skills of several files) and SKILL.md copies
// (under skills/NAME/ or the v0.1 index's). A site that publishes the
// copies but no archives lists only the skills of one file, which a card
// does not tell: no command is given for those.
func (s *Site) installs(c *jsonsearch.Card) bool {
	if s.URL == nil || c.Format == "uasp" || c.Description == "" || !siteinfo.SkillsCLIName(c.Name) {
		return false
	}
	p := s.publishes
	return p["/skills/{name}/{name}.skill"] && (p["/skills/{name}/SKILL.md"] || p["/.well-known/skills/index.json"])
}

// indexFile is the search index's loader: manifest.json is always read
// anew, other files are kept by manifest id.
func (s *Site) indexFile(ctx context.Context, path, id string) ([]byte, error) {
	if id == "" {
		return s.fetch(ctx, "search/"+path)
	}
	key := id + "/" + path
	s.mu.Lock()
	b, ok := s.cache[key]
	s.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := s.fetch(ctx, "search/"+path)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil || s.cached+len(b) > maxCachedBytes {
		s.cache, s.cached = map[string][]byte{}, 0
	}
	s.cache[key] = b
	s.cached += len(b)
	return b, nil
}
