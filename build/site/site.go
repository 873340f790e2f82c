// Package site writes the pages people read: the catalog home, one page
// per skill, taxonomy pages, the search page, the validation report, 404,
// and the files that go with them (stylesheet and scripts, sitemap.xml,
// robots.txt, the Atom feed, .nojekyll). Pages come from the embedded
// html/template files in templates/, so everything a skill author wrote is
// escaped; Markdown bodies go through build/markdown, which renders no raw
// HTML. Every page carries a Content Security Policy that allows scripts,
// styles and images from the site's own origin only.
package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/forge"
	"github.com/skilldex/skilldex/build/markdown"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/parallel"
	"github.com/skilldex/skilldex/static"
	"github.com/skilldex/skilldex/templates"
)

// CSP is the Content Security Policy of every page. Pages on GitHub Pages
// cannot send headers, so it goes in a <meta http-equiv> element; such a
// policy cannot set frame-ancestors, report-uri or sandbox.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'"

// AssetsDir is the site folder of the stylesheet, scripts and icon.
const AssetsDir = "assets/"

// PageSize is how many skill cards one page of a listing shows.
const PageSize = 120

// Writer writes the pages of a site. It is a build.Writer.
type Writer struct{}

// Name is the build stage name.
func (Writer) Name() string { return "pages" }

// Begin prepares the renderer and writes the assets. The pass renders
// each skill's page; then come the listings, the search page, the report,
// 404, the feeds and the sitemap.
func (Writer) Begin(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) (pass.Work, error) {
	r, err := newRenderer(site, out.Minifies(), len(c.Plugins) > 0, emptyTaxonomies(c))
	if err != nil {
		return pass.Work{}, err
	}
	r.mentions = mentions(c, site)
	r.mentionsWorld = mentionsWorld(r.mentions)
	r.memo, r.ctx = m, ctx
	r.termLinks = termLinks(c, site)
	r.folders = newSkillFolders(c)
	r.linkWorld = linkWorldOf(c)
	if err := r.writeAssets(out); err != nil {
		return pass.Work{}, err
	}
	catalogPages := func() error {
		steps := []func(*catalog.Catalog, *output.Writer) error{
			r.writeHome, r.writeTaxonomies, r.writePlugins, r.writeSearch, r.writeReport, r.writeNotFound, r.writeFeeds,
		}
		for _, step := range steps {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := step(c, out); err != nil {
				return err
			}
		}
		return nil
	}
	return pass.Work{
		Skill:   func(i int, s *pass.Skill) error { return r.writeSkillPage(s, out) },
		Catalog: catalogPages,
	}, nil
}

// renderer holds the parsed templates and what every page shares.
type renderer struct {
	site  *siteinfo.Info
	view  *siteView
	pages map[string]*template.Template
	// key digests the templates, assets and settings: a skill page whose
	// skill and key are unchanged needs no rendering in incremental builds.
	key string
	// folders finds skills by source folder, for links between skills;
	// linkWorld digests what they resolve against (see linkEnv).
	folders   skillFolders
	linkWorld string
	// mentions link PLUGIN:SKILL in bodies to the skill's page;
	// mentionsWorld digests them (see mentionsWorld).
	mentions      map[string]string
	mentionsWorld string
	// ctx is the build's: long loops stop when it is done.
	ctx context.Context
	// memo keeps per-skill work between serve's builds; nil otherwise.
	memo *memo.Memo
	// termLinks are the links of the taxonomy terms' pages, by kind and
	// lowercased term (see termLink).
	termLinks map[string]map[string]string
	// cards holds each listed skill's card (see cardOf).
	cards sync.Map
	// chromes holds each section's *chrome.
	chromes sync.Map
	// assets are the files of static/ as published, by name.
	assets     map[string][]byte
	assetNames []string // sorted
}

// siteView is what base.html knows of the site.
type siteView struct {
	info        *siteinfo.Info
	Title       string
	Description string
	Base        string
	Repository  string // as package forge links it, or "" (forge.Repository)
	CSP         string
	Nav         []navItem
	assets      map[string]string // asset name -> link with version
}

type navItem struct{ Label, Link, Section string }

// Link returns the root-relative link of a site path.
func (v *siteView) Link(p string) string { return v.info.Link(p) }

// Generator names the program that built the site, for the generator
// meta tag.
func (v *siteView) Generator() string { return v.info.Generator }

// Asset returns the link of an asset, with a version query so that browsers
// fetch it anew when it changes.
func (v *siteView) Asset(name string) string { return v.assets[name] }

// emptyTaxonomies are the browsable taxonomies of c without a term: a
// link to a page saying "0 capabilities" leads nowhere.
func emptyTaxonomies(c *catalog.Catalog) []string {
	var out []string
	for _, kind := range []string{catalog.Tags, catalog.Categories, catalog.Capabilities} {
		if t := c.Taxonomy(kind); t == nil || len(t.Terms) == 0 {
			out = append(out, kind)
		}
	}
	return out
}

// pageFiles are the templates that define a page's "content"; each is
// parsed with base.html and partials.html.
var pageFiles = []string{"home.html", "skill.html", "taxonomy.html", "term.html", "search.html", "report.html", "notfound.html", "plugin.html", "plugins.html"}

// newRenderer parses the templates, minified when minify is set: pages are
// then written as rendered, never minified one by one. plugins says that
// the catalog has plugin pages, which the navigation then links; empty
// names the taxonomies without terms, which it does not.
func newRenderer(site *siteinfo.Info, minify, plugins bool, empty []string) (*renderer, error) {
	r := &renderer{site: site, pages: map[string]*template.Template{}}
	digest := sha256.New()
	fmt.Fprintf(digest, "%v\x00%q\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%v\x00", plugins, empty, site.Title, site.Description, site.Base, site.Repository, site.RepositoryBranch, site.QueryPaths, site.Parts)
	repo, _ := forge.Repository(site.Repository)
	v := &siteView{
		info: site, Title: site.Title, Description: site.Description, Base: site.Base.Path,
		Repository: repo, CSP: CSP, assets: map[string]string{},
	}
	v.Nav = []navItem{
		{"Skills", site.Link(""), "home"},
		{"Search", site.Link("search/"), "search"},
		{"Tags", site.Link("tags/"), catalog.Tags},
		{"Categories", site.Link("categories/"), catalog.Categories},
		{"Capabilities", site.Link("capabilities/"), catalog.Capabilities},
		{"Types", site.Link("types/"), catalog.Types},
		{"Report", site.Link("report/"), "report"},
	}
	v.Nav = slices.DeleteFunc(v.Nav, func(n navItem) bool { return slices.Contains(empty, n.Section) })
	if plugins {
		v.Nav = slices.Insert(v.Nav, 2, navItem{"Plugins", site.Link(siteinfo.PluginsIndex), "plugins"})
	}
	names, err := fs.Glob(static.FS, "*")
	if err != nil {
		return nil, err
	}
	r.assetNames = names
	r.assets = map[string][]byte{}
	for _, name := range names {
		data, err := fs.ReadFile(static.FS, name)
		if err != nil {
			return nil, err
		}
		if name == "style.css" {
			// The stylesheet carries the code highlighting styles.
			data = append(data, markdown.CSS()...)
		}
		r.assets[name] = data
		sum := sha256.Sum256(data)
		digest.Write(sum[:])
		v.assets[name] = site.Link(AssetsDir+name) + "?v=" + hex.EncodeToString(sum[:4])
	}
	r.view = v

	fmt.Fprintf(digest, "minify:%v\x00generator:%s\x00", minify, site.Generator)
	funcs := template.FuncMap{"lower": strings.ToLower, "codeSpans": codeSpans, "unbrokenWords": unbrokenWords}
	shared := []string{"base.html", "partials.html"}
	sources := map[string]string{}
	for _, f := range append(slices.Clone(shared), pageFiles...) {
		data, err := fs.ReadFile(templates.FS, f)
		if err != nil {
			return nil, err
		}
		digest.Write(data)
		if minify {
			if data, err = output.MinifyTemplate(data); err != nil {
				return nil, fmt.Errorf("templates: minifying %s: %w", f, err)
			}
		}
		sources[f] = string(data)
	}
	for _, f := range pageFiles {
		t := template.New("base.html").Funcs(funcs)
		for _, name := range append(slices.Clone(shared), f) {
			tmpl := t
			if name != t.Name() {
				tmpl = t.New(name)
			}
			if _, err := tmpl.Parse(sources[name]); err != nil {
				return nil, fmt.Errorf("templates: %w", err)
			}
		}
		r.pages[f] = t
	}
	r.key = hex.EncodeToString(digest.Sum(nil))
	return r, nil
}

// termLinks links every term of every taxonomy to its page, under the
// slug the catalog gave it: two terms with one slug ("C#" and "c-sharp")
// get distinct ones there, so a link cannot be worked out from the term
// alone.
func termLinks(c *catalog.Catalog, site *siteinfo.Info) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, t := range c.Taxonomies() {
		links := map[string]string{}
		for _, term := range t.Terms {
			links[strings.ToLower(term.Name)] = site.Link(siteinfo.TaxonomyPage(t.Kind, term.Slug))
		}
		out[t.Kind] = links
	}
	return out
}

// termLink returns the link of the page of term t of taxonomy kind.
func (r *renderer) termLink(kind, t string) string {
	if l, ok := r.termLinks[kind][strings.ToLower(t)]; ok {
		return l
	}
	// Not a term of the catalog (a skill not published): its slug.
	return r.site.Link(siteinfo.TaxonomyPage(kind, siteinfo.Slug(t)))
}

func (r *renderer) writeAssets(out *output.Writer) error {
	for _, name := range r.assetNames {
		if err := out.WriteFile(AssetsDir+name, r.assets[name]); err != nil {
			return err
		}
	}
	return out.WriteRaw(".nojekyll", nil)
}

// page is what base.html renders.
type page struct {
	Site        *siteView
	Chrome      *chrome
	Title       string
	Description string
	Canonical   string
	Alternate   string // the Markdown twin
	Module      string // an ES module script to load
	Section     string // the nav entry to mark current
	Skill       bool
	Data        any
}

// chrome is what every page of a section shares: base.html's links in
// the head, the header with the site's navigation, and the footer.
type chrome struct {
	Head, Header, Footer template.HTML
}

// chrome returns the chrome of section's pages. It is rendered once per
// section, from base.html's templates chrome-head, chrome-header and
// chrome-footer, which hold many of a page's template actions.
func (r *renderer) chrome(section string) (*chrome, error) {
	if c, ok := r.chromes.Load(section); ok {
		return c.(*chrome), nil
	}
	// Every page's templates hold base.html: any will do.
	t := r.pages[pageFiles[0]]
	data := &page{Site: r.view, Section: section}
	var c chrome
	var buf bytes.Buffer
	for _, part := range []struct {
		name string
		html *template.HTML
	}{{"chrome-head", &c.Head}, {"chrome-header", &c.Header}, {"chrome-footer", &c.Footer}} {
		buf.Reset()
		if err := t.ExecuteTemplate(&buf, part.name, data); err != nil {
			return nil, fmt.Errorf("rendering base.html's %s: %w", part.name, err)
		}
		*part.html = template.HTML(buf.String())
	}
	stored, _ := r.chromes.LoadOrStore(section, &c)
	return stored.(*chrome), nil
}

// bufPool recycles render buffers across pages.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render executes a page template into a new byte slice.
func (r *renderer) render(file string, p *page) ([]byte, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	if err := r.execute(buf, file, p); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

// execute renders a page template into buf, which it resets first.
func (r *renderer) execute(buf *bytes.Buffer, file string, p *page) error {
	p.Site = r.view
	c, err := r.chrome(p.Section)
	if err != nil {
		return err
	}
	p.Chrome = c
	buf.Reset()
	if err := r.pages[file].Execute(buf, p); err != nil {
		return fmt.Errorf("rendering %s: %w", file, err)
	}
	return nil
}

// writePage renders a page into the site file of sitePath.
//
// The page is written as rendered: its templates were minified instead
// (see newRenderer).
func (r *renderer) writePage(out interface {
	WriteRaw(string, []byte) error
}, sitePath, file string, p *page) error {
	if p.Canonical == "" && r.site.Absolute() {
		p.Canonical = r.site.URL(sitePath)
	}
	// The output keeps no reference to what it writes, so the page goes
	// out of the pooled buffer without a copy.
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	if err := r.execute(buf, file, p); err != nil {
		return err
	}
	return out.WriteRaw(siteinfo.FileOf(sitePath), buf.Bytes())
}

// forEach runs fn(i) for i in [0, n) on every core, stopping early when
// ctx is done, and returns the first error by index, so that the error
// reported does not depend on scheduling.
func forEach(ctx context.Context, n int, fn func(i int) error) error {
	errs := make([]error, n)
	parallel.For(ctx, n, 0, func(i int) { errs[i] = fn(i) })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
