package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/yamltree"
)

// sitemapLimit is the most URLs one sitemap file may hold (the protocol
// allows 50,000); past it, sitemap.xml becomes an index of sitemap-N.xml.
const sitemapLimit = 40000

// feedEntries is how many skills the Atom feed lists, newest first.
const feedEntries = 100

func (r *renderer) writeFeeds(c *catalog.Catalog, out *output.Writer) error {
	if err := r.writeSitemap(out); err != nil {
		return err
	}
	robots := "User-agent: *\nAllow: /\n"
	if r.site.Absolute() {
		robots += "Sitemap: " + r.site.URL("sitemap.xml") + "\n"
	}
	if err := out.WriteRaw("robots.txt", []byte(robots)); err != nil {
		return err
	}
	return r.writeAtom(c, out)
}

// writeSitemap lists every HTML page the site has, which it reads from
// the output so that no page can be missed.
func (r *renderer) writeSitemap(out *output.Writer) error {
	var pages []string
	for _, f := range out.Files() {
		if f == "404.html" || !strings.HasSuffix(f, ".html") || strings.HasPrefix(f, AssetsDir) {
			continue
		}
		if strings.HasSuffix(f, "/index.html") || f == "index.html" {
			pages = append(pages, strings.TrimSuffix(f, "index.html"))
		}
	}
	slices.Sort(pages)
	urlset := func(paths []string) []byte {
		var b bytes.Buffer
		b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, p := range paths {
			b.WriteString("<url><loc>")
			xml.EscapeText(&b, []byte(r.site.URL(p)))
			b.WriteString("</loc></url>\n")
		}
		b.WriteString("</urlset>\n")
		return b.Bytes()
	}
	if len(pages) <= sitemapLimit {
		return out.WriteRaw("sitemap.xml", urlset(pages))
	}
	var index bytes.Buffer
	index.WriteString(xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := 0; i*sitemapLimit < len(pages); i++ {
		name := fmt.Sprintf("sitemap-%d.xml", i+1)
		if err := out.WriteRaw(name, urlset(pages[i*sitemapLimit:min((i+1)*sitemapLimit, len(pages))])); err != nil {
			return err
		}
		index.WriteString("<sitemap><loc>")
		xml.EscapeText(&index, []byte(r.site.URL(name)))
		index.WriteString("</loc></sitemap>\n")
	}
	index.WriteString("</sitemapindex>\n")
	return out.WriteRaw("sitemap.xml", index.Bytes())
}

// Atom document types; encoding/xml escapes every text.
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title    string       `xml:"title"`
	ID       string       `xml:"id"`
	Updated  string       `xml:"updated"`
	Link     atomLink     `xml:"link"`
	Summary  string       `xml:"summary"`
	Category []atomCateg  `xml:"category"`
	Author   *atomAuthor  `xml:"author,omitempty"`
	Content  *atomContent `xml:"content,omitempty"`
}

type atomCateg struct {
	Term string `xml:"term,attr"`
}

type atomContent struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

// writeAtom writes feed.xml. Atom needs a date for every entry, and the
// output must not depend on when it was built: dates come from the skill
// (updated, last_updated or date in its frontmatter or metadata, or USK's
// author_agent.built_at), else from SOURCE_DATE_EPOCH (siteinfo.Info.Date),
// else the Unix epoch.
func (r *renderer) writeAtom(c *catalog.Catalog, out *output.Writer) error {
	type dated struct {
		s *catalog.Skill
		t time.Time
	}
	fallback := r.site.Date
	var all []dated
	for _, s := range c.Skills {
		t, ok := skillDate(s)
		if !ok {
			t = fallback
		}
		all = append(all, dated{s, t.UTC()})
	}
	slices.SortStableFunc(all, func(a, b dated) int { return b.t.Compare(a.t) })
	all = all[:min(len(all), feedEntries)]
	feed := atomFeed{
		Title:  r.site.Title,
		ID:     r.site.URL(""),
		Links:  []atomLink{{Href: r.site.URL("feed.xml"), Rel: "self", Type: "application/atom+xml"}, {Href: r.site.URL(""), Rel: "alternate", Type: "text/html"}},
		Author: atomAuthor{Name: r.site.Title},
	}
	newest := fallback.UTC()
	for _, d := range all {
		if d.t.After(newest) {
			newest = d.t
		}
		e := atomEntry{
			Title:   d.s.Name,
			ID:      r.site.URL(siteinfo.SkillPage(d.s.Name)),
			Updated: d.t.Format(time.RFC3339),
			Link:    atomLink{Href: r.site.URL(siteinfo.SkillPage(d.s.Name)), Rel: "alternate", Type: "text/html"},
			Summary: firstLine(d.s.Description, 1000),
		}
		for _, t := range catalog.TagsOf(d.s) {
			e.Category = append(e.Category, atomCateg{t})
		}
		if fm := d.s.Frontmatter; fm != nil && strings.TrimSpace(fm.Author) != "" {
			e.Author = &atomAuthor{Name: strings.TrimSpace(fm.Author)}
		}
		feed.Entries = append(feed.Entries, e)
	}
	feed.Updated = newest.Format(time.RFC3339)
	data, err := xml.MarshalIndent(feed, "", " ")
	if err != nil {
		return err
	}
	return out.WriteRaw("feed.xml", append([]byte(xml.Header), append(data, '\n')...))
}

// dateKeys are the frontmatter and metadata keys a skill's date is read
// from, in order of preference.
var dateKeys = []string{"updated", "last_updated", "lastUpdated", "date", "created"}

func skillDate(s *catalog.Skill) (time.Time, bool) {
	fm := s.Frontmatter
	if fm == nil {
		return time.Time{}, false
	}
	for _, m := range []*yamltree.Map{fm.Data, fm.Metadata} {
		if m == nil {
			continue
		}
		for _, k := range dateKeys {
			if v, ok := m.Get(k); ok {
				if t, ok := parseDate(v); ok {
					return t, true
				}
			}
		}
	}
	if a := fm.AuthorAgent; a != nil {
		return parseDate(a.BuiltAt)
	}
	return time.Time{}, false
}

func parseDate(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case yamltree.Timestamp:
		return parseDate(string(x))
	case string:
		x = strings.TrimSpace(x)
		for _, layout := range []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
			if t, err := time.Parse(layout, x); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}
