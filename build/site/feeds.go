package site

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// sitemapLimit is the most URLs one sitemap file may hold (the protocol
// allows 50,000); past it, sitemap.xml becomes an index of sitemap-N.xml.
const sitemapLimit = 40000

// feedEntries is how many skills the Atom feed lists, newest first.
const feedEntries = 100

// writeFeeds writes robots.txt, the Atom feed and, when the site has an
// absolute base URL, sitemap.xml: the sitemap protocol wants absolute URLs,
// and a site that does not know its origin has none to give (the build
// says so, see build.Result.Notices).
func (r *renderer) writeFeeds(c *catalog.Catalog, out *output.Writer) error {
	robots := "User-agent: *\nAllow: /\n"
	if r.site.Absolute() {
		if err := r.writeSitemap(c, out); err != nil {
			return err
		}
		robots += "Sitemap: " + r.site.URL("sitemap.xml") + "\n"
	}
	if err := out.WriteRaw("robots.txt", []byte(robots)); err != nil {
		return err
	}
	return r.writeAtom(c, out)
}

// writeSitemap lists every HTML page the site has, which it reads from
// the output so that no page can be missed. A skill's page carries the
// skill's date as its lastmod when the sources give one (catalog.Skill.Date);
// no other page has a date of its own, and a made-up one would mislead
// crawlers.
func (r *renderer) writeSitemap(c *catalog.Catalog, out *output.Writer) error {
	dates := map[string]time.Time{}
	for _, s := range c.Skills {
		if s.Dated {
			dates[siteinfo.SkillPage(s.Name)] = s.Date.UTC()
		}
	}
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
	entry := func(b *bytes.Buffer, loc string, lastmod time.Time) {
		b.WriteString("<loc>")
		xml.EscapeText(b, []byte(loc))
		b.WriteString("</loc>")
		if !lastmod.IsZero() {
			b.WriteString("<lastmod>" + w3cDate(lastmod) + "</lastmod>")
		}
	}
	// urlset writes one sitemap file and returns its newest lastmod.
	urlset := func(paths []string) ([]byte, time.Time) {
		var b bytes.Buffer
		var newest time.Time
		b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, p := range paths {
			t := dates[p]
			if t.After(newest) {
				newest = t
			}
			b.WriteString("<url>")
			entry(&b, r.site.URL(p), t)
			b.WriteString("</url>\n")
		}
		b.WriteString("</urlset>\n")
		return b.Bytes(), newest
	}
	if len(pages) <= sitemapLimit {
		data, _ := urlset(pages)
		return out.WriteRaw("sitemap.xml", data)
	}
	var index bytes.Buffer
	index.WriteString(xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := 0; i*sitemapLimit < len(pages); i++ {
		name := fmt.Sprintf("sitemap-%d.xml", i+1)
		data, newest := urlset(pages[i*sitemapLimit : min((i+1)*sitemapLimit, len(pages))])
		if err := out.WriteRaw(name, data); err != nil {
			return err
		}
		index.WriteString("<sitemap>")
		entry(&index, r.site.URL(name), newest)
		index.WriteString("</sitemap>\n")
	}
	index.WriteString("</sitemapindex>\n")
	return out.WriteRaw("sitemap.xml", index.Bytes())
}

// w3cDate formats t as the sitemap protocol's W3C Datetime: the date alone
// when t is midnight UTC (most sources give a date without a time).
func w3cDate(t time.Time) string {
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
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
// (catalog.Skill.Date), else from SOURCE_DATE_EPOCH (siteinfo.Info.Date),
// else the Unix epoch.
//
// Atom ids are permanent absolute IRIs: the pages' URLs when the site has
// an absolute base URL, else name-based UUIDs (see atomID). Links may be
// relative, and are then resolved against the feed's own URL.
func (r *renderer) writeAtom(c *catalog.Catalog, out *output.Writer) error {
	type dated struct {
		s *catalog.Skill
		t time.Time
	}
	fallback := r.site.Date
	var all []dated
	for _, s := range c.Skills {
		t := s.Date
		if !s.Dated {
			t = fallback
		}
		all = append(all, dated{s, t.UTC()})
	}
	slices.SortStableFunc(all, func(a, b dated) int { return b.t.Compare(a.t) })
	all = all[:min(len(all), feedEntries)]
	feed := atomFeed{
		Title:  r.site.Title,
		ID:     r.atomID(""),
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
			ID:      r.atomID(d.s.Name),
			Updated: d.t.Format(time.RFC3339),
			Link:    atomLink{Href: r.site.URL(siteinfo.SkillPage(d.s.Name)), Rel: "alternate", Type: "text/html"},
			Summary: firstLine(d.s.Description, 1000),
		}
		for _, t := range d.s.Tags {
			e.Category = append(e.Category, atomCateg{t})
		}
		if d.s.Author != "" {
			e.Author = &atomAuthor{Name: d.s.Author}
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

// atomNamespace is the UUID namespace of the feed ids skilldex makes for a
// site without an absolute base URL (a random UUID, fixed for good: the ids
// must not change from one build to the next).
var atomNamespace = [16]byte{0x6f, 0x1c, 0x2b, 0x8e, 0x53, 0x0d, 0x4a, 0x97, 0x9e, 0x21, 0x3c, 0x77, 0xd4, 0x05, 0xb8, 0x6a}

// atomID is the id of the feed (skill "") or of a skill's entry: the page's
// URL when the site has an absolute base URL, else a name-based UUID
// (RFC 9562, version 5) of the site's title and the skill's name, which
// stay the same from one build to the next as a URL would.
func (r *renderer) atomID(skill string) string {
	if r.site.Absolute() {
		if skill == "" {
			return r.site.URL("")
		}
		return r.site.URL(siteinfo.SkillPage(skill))
	}
	name := r.site.Title
	if skill != "" {
		name += "\x00" + skill
	}
	return "urn:uuid:" + uuid5(atomNamespace, name)
}

// uuid5 returns the version 5 (SHA-1, name-based) UUID of name in
// namespace, in its text form.
func uuid5(namespace [16]byte, name string) string {
	h := sha1.New()
	h.Write(namespace[:])
	h.Write([]byte(name))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // the RFC 9562 variant
	x := hex.EncodeToString(u[:])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}
