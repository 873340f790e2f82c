// Package sitecheck inspects a built site folder the way a careful
// reviewer would, for tests: every HTML page parses with balanced tags and
// unique ids, every internal link and fragment points at something the
// site has, no page runs inline script or inline style or loads anything
// from another origin, every page carries the Content Security Policy,
// every page is in the sitemap (which a site without an absolute base URL
// must not have), robots.txt points at the sitemap, and the Atom feed's ids
// are unique absolute IRIs.
package sitecheck

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Problem is one thing wrong with the site.
type Problem struct {
	File    string // site path of the page
	Message string
}

func (p Problem) String() string { return p.File + ": " + p.Message }

// Options say how the site is served.
type Options struct {
	// BasePath is the path the site lives under ("/" or "/repo/").
	BasePath string
	// Origin is the site's own origin ("https://acme.github.io") when it
	// has an absolute base URL: links to it are internal links, and the
	// sitemap's URLs must be on it. Without it the site must have no
	// sitemap, since it cannot give absolute URLs.
	Origin string
	// SkipSitemap skips the sitemap and robots.txt checks (for partial
	// sites).
	SkipSitemap bool
}

type pageInfo struct {
	ids   map[string]bool
	links []link
}

type link struct {
	attr, value string
}

// Check inspects the site in dir and returns every problem found, sorted.
func Check(dir string, opt Options) ([]Problem, error) {
	if opt.BasePath == "" {
		opt.BasePath = "/"
	}
	files := map[string]bool{}
	var htmlFiles []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return nil
		}
		files[rel] = true
		if strings.HasSuffix(rel, ".html") {
			htmlFiles = append(htmlFiles, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(htmlFiles)
	var problems []Problem
	pages := map[string]*pageInfo{}
	for _, f := range htmlFiles {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		info, ps := inspect(f, data)
		pages[f] = info
		problems = append(problems, ps...)
	}
	for _, f := range htmlFiles {
		for _, l := range pages[f].links {
			// A link into the site by its absolute URL is an internal
			// link; one to another path of the same host is not.
			if opt.Origin != "" && strings.HasPrefix(l.value, opt.Origin+opt.BasePath) {
				l.value = strings.TrimPrefix(l.value, opt.Origin)
			}
			if msg := checkLink(f, l, opt.BasePath, files, pages); msg != "" {
				problems = append(problems, Problem{f, msg})
			}
		}
	}
	if !opt.SkipSitemap {
		problems = append(problems, checkSitemap(dir, opt, htmlFiles)...)
	}
	problems = append(problems, checkFeed(dir)...)
	slices.SortStableFunc(problems, func(a, b Problem) int { return strings.Compare(a.File, b.File) })
	return problems, nil
}

// voidElements have no end tag.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// optionalEnd lists elements whose end tag HTML lets the parser imply.
var optionalEnd = map[string]bool{"li": true, "p": true, "td": true, "th": true, "tr": true, "thead": true, "tbody": true,
	"option": true, "dt": true, "dd": true, "html": true, "head": true, "body": true}

// inspect tokenizes a page: tags must balance, ids be unique, and nothing
// may run or load from elsewhere. It returns the page's ids and links.
func inspect(file string, data []byte) (*pageInfo, []Problem) {
	info := &pageInfo{ids: map[string]bool{}}
	var problems []Problem
	bad := func(format string, args ...any) {
		problems = append(problems, Problem{file, fmt.Sprintf(format, args...)})
	}
	z := html.NewTokenizer(bytes.NewReader(data))
	var stack []string
	// Headings go down one level at a time (h1, h2, h3), but in the
	// skills' own Markdown (.sd-body), whose levels are their authors'.
	lastHeading, bodyAt := 0, -1
	sawCSP, sawDoctype := false, false
	inScript := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case html.DoctypeToken:
			sawDoctype = true
		case html.TextToken:
			if inScript && strings.TrimSpace(tok.Data) != "" {
				bad("inline script: %.60q", tok.Data)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name := tok.Data
			attrs := map[string]string{}
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Key)
				if _, dup := attrs[key]; dup {
					bad("<%s> has attribute %s twice", name, key)
				}
				attrs[key] = a.Val
				if strings.HasPrefix(key, "on") {
					bad("<%s> has an event handler attribute %s", name, key)
				}
				if key == "style" {
					bad("<%s> has an inline style attribute", name)
				}
				if key == "id" {
					if info.ids[a.Val] {
						bad("id %q is used twice", a.Val)
					}
					info.ids[a.Val] = true
				}
				if key == "href" || key == "src" || key == "action" || key == "srcset" || key == "poster" || key == "formaction" {
					info.links = append(info.links, link{name + "@" + key, a.Val})
				}
			}
			if bodyAt < 0 && slices.Contains(strings.Fields(attrs["class"]), "sd-body") {
				bodyAt = len(stack)
			}
			if len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6' && bodyAt < 0 {
				level := int(name[1] - '0')
				if level > lastHeading+1 {
					bad("<%s> follows <h%d>: a heading level is skipped", name, lastHeading)
				}
				lastHeading = level
			}
			switch atom.Lookup([]byte(name)) {
			case atom.Script:
				if _, ok := attrs["src"]; !ok {
					inScript = true
				}
			case atom.Style:
				bad("<style> element: styles belong in the stylesheet")
			case atom.Iframe, atom.Object, atom.Embed, atom.Frame, atom.Frameset, atom.Base:
				bad("<%s> element", name)
			case atom.Meta:
				if strings.EqualFold(attrs["http-equiv"], "content-security-policy") {
					sawCSP = true
					if !strings.Contains(attrs["content"], "script-src 'self'") || strings.Contains(attrs["content"], "unsafe-inline") {
						bad("weak Content Security Policy %q", attrs["content"])
					}
				}
			}
			if tt == html.StartTagToken && !voidElements[name] {
				stack = append(stack, name)
			}
		case html.EndTagToken:
			name := tok.Data
			if name == "script" {
				inScript = false
			}
			// Pop to the matching element; only elements whose end tag is
			// optional may be closed implicitly on the way.
			i := len(stack) - 1
			for i >= 0 && stack[i] != name {
				i--
			}
			if i < 0 {
				bad("</%s> closes nothing", name)
				continue
			}
			for _, open := range stack[i+1:] {
				if !optionalEnd[open] {
					bad("<%s> is not closed before </%s>", open, name)
				}
			}
			stack = stack[:i]
			if bodyAt >= 0 && len(stack) <= bodyAt {
				bodyAt = -1
			}
		}
	}
	if err := z.Err(); err != nil && err.Error() != "EOF" {
		bad("tokenizer: %v", err)
	}
	for _, open := range stack {
		if !optionalEnd[open] {
			bad("<%s> is never closed", open)
		}
	}
	if !sawDoctype {
		bad("no <!DOCTYPE html>")
	}
	if !sawCSP {
		bad("no Content-Security-Policy meta element")
	}
	return info, problems
}

// checkLink returns what is wrong with one link of page file, or "".
func checkLink(file string, l link, base string, files map[string]bool, pages map[string]*pageInfo) string {
	v := strings.TrimSpace(l.value)
	if l.attr == "img@srcset" {
		return fmt.Sprintf("%s %q: srcset is not expected", l.attr, v)
	}
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Sprintf("%s %q does not parse: %v", l.attr, v, err)
	}
	switch u.Scheme {
	case "":
	case "http", "https", "mailto":
		if l.attr != "a@href" {
			return fmt.Sprintf("%s %q loads from another origin", l.attr, v)
		}
		return ""
	default:
		return fmt.Sprintf("%s %q has the scheme %s", l.attr, v, u.Scheme)
	}
	if u.Host != "" {
		if l.attr != "a@href" {
			return fmt.Sprintf("%s %q loads from another origin", l.attr, v)
		}
		return ""
	}
	target := file
	if u.Path != "" {
		var p string
		if strings.HasPrefix(u.Path, "/") {
			if !strings.HasPrefix(u.Path, base) {
				return fmt.Sprintf("%s %q is outside the base path %s", l.attr, v, base)
			}
			p = strings.TrimPrefix(u.Path, base)
		} else {
			p = path.Join(path.Dir(file), u.Path)
			if strings.HasSuffix(u.Path, "/") {
				p += "/"
			}
		}
		switch {
		case p == "" || strings.HasSuffix(p, "/"):
			target = p + "index.html"
		case files[p]:
			target = p
		case files[p+"/index.html"]:
			return fmt.Sprintf("%s %q: a folder link should end in /", l.attr, v)
		default:
			return fmt.Sprintf("%s %q: the site has no %s", l.attr, v, p)
		}
		if !files[target] {
			return fmt.Sprintf("%s %q: the site has no %s", l.attr, v, target)
		}
	}
	if u.Fragment != "" && strings.HasSuffix(target, ".html") {
		if pg := pages[target]; pg != nil && !pg.ids[u.Fragment] {
			return fmt.Sprintf("%s %q: %s has no id %q", l.attr, v, target, u.Fragment)
		}
	}
	return ""
}

// checkSitemap reports pages that sitemap.xml (or the sitemaps it lists)
// does not name, sitemap entries that are not pages or not absolute URLs
// of the site, and a robots.txt that does not point at the sitemap. A site
// without an absolute base URL must have neither a sitemap nor a Sitemap
// line: the protocol wants absolute URLs.
func checkSitemap(dir string, opt Options, htmlFiles []string) []Problem {
	robots, err := os.ReadFile(filepath.Join(dir, "robots.txt"))
	if err != nil {
		return []Problem{{"robots.txt", "missing"}}
	}
	data, err := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if opt.Origin == "" {
		var problems []Problem
		if err == nil {
			problems = append(problems, Problem{"sitemap.xml", "written for a site without an absolute base URL, which cannot give the absolute URLs a sitemap needs"})
		}
		if bytes.Contains(robots, []byte("Sitemap:")) {
			problems = append(problems, Problem{"robots.txt", "has a Sitemap line, but the site has no absolute base URL"})
		}
		return problems
	}
	if err != nil {
		return []Problem{{"sitemap.xml", "missing"}}
	}
	var problems []Problem
	base := opt.BasePath
	site := opt.Origin + base
	if want := "Sitemap: " + site + "sitemap.xml\n"; !bytes.Contains(robots, []byte(want)) {
		problems = append(problems, Problem{"robots.txt", fmt.Sprintf("lacks the line %q", strings.TrimSpace(want))})
	}
	listed := map[string]bool{}
	// add records a <loc> of file, which must be an absolute URL of the
	// site, and returns its site path.
	add := func(file, loc string) (string, bool) {
		if !strings.HasPrefix(loc, site) {
			problems = append(problems, Problem{file, fmt.Sprintf("lists %q, which is not an absolute URL under %s", loc, site)})
			return "", false
		}
		u, err := url.Parse(loc)
		if err != nil {
			problems = append(problems, Problem{file, fmt.Sprintf("lists %q, which does not parse: %v", loc, err)})
			return "", false
		}
		return strings.TrimPrefix(u.Path, base), true
	}
	for _, loc := range extractLocs(data) {
		p, ok := add("sitemap.xml", loc)
		if !ok {
			continue
		}
		if strings.HasPrefix(p, "sitemap-") && strings.HasSuffix(p, ".xml") {
			sub, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				return append(problems, Problem{"sitemap.xml", "lists " + p + ", which is missing"})
			}
			for _, l := range extractLocs(sub) {
				if sp, ok := add(p, l); ok {
					listed[sp] = true
				}
			}
			continue
		}
		listed[p] = true
	}
	for _, f := range htmlFiles {
		if f == "404.html" || !strings.HasSuffix(f, "index.html") {
			continue
		}
		p := strings.TrimSuffix(f, "index.html")
		if !listed[p] {
			problems = append(problems, Problem{f, "not in sitemap.xml"})
		}
		delete(listed, p)
	}
	for _, p := range sortedKeys(listed) {
		problems = append(problems, Problem{"sitemap.xml", "lists " + p + ", which is not a page"})
	}
	return problems
}

// checkFeed reports Atom ids of feed.xml that are not absolute IRIs (a
// relative reference such as "/" is no id) or that two elements share.
func checkFeed(dir string) []Problem {
	data, err := os.ReadFile(filepath.Join(dir, "feed.xml"))
	if err != nil {
		return nil
	}
	var problems []Problem
	seen := map[string]bool{}
	for _, id := range extractTag(data, "id") {
		u, err := url.Parse(id)
		switch {
		case err != nil || u.Scheme == "":
			problems = append(problems, Problem{"feed.xml", fmt.Sprintf("the id %q is not an absolute IRI", id)})
		case seen[id]:
			problems = append(problems, Problem{"feed.xml", fmt.Sprintf("the id %q is used twice", id)})
		}
		seen[id] = true
	}
	return problems
}

func extractLocs(data []byte) []string { return extractTag(data, "loc") }

// extractTag returns the text of every <tag> element of an XML document
// whose elements of that name hold text only.
func extractTag(data []byte, tag string) []string {
	open, end := []byte("<"+tag+">"), []byte("</"+tag+">")
	var out []string
	for {
		i := bytes.Index(data, open)
		if i < 0 {
			return out
		}
		data = data[i+len(open):]
		j := bytes.Index(data, end)
		if j < 0 {
			return out
		}
		out = append(out, html.UnescapeString(string(data[:j])))
		data = data[j:]
	}
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
