package site_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/sitecheck"
	"github.com/skilldex/skilldex/internal/testutil"
)

// catalogTxtar is a small catalog with each input format and the awkward
// cases pages must survive: markup in every field, links between a skill's
// files, a USK skill with schemas and examples, a UASP document alone.
const catalogTxtar = `
-- skills/pdf-tools/SKILL.md --
---
name: pdf-tools
description: Extract text and tables from PDF files. Use when the user mentions PDFs <script>alert(1)</script>.
license: MIT
metadata:
  tags: [pdf, "documents"]
  updated: 2025-03-04
---
# PDF tools

Read [the reference](references/forms.md#fields) first, and run [the script](scripts/extract.py).
See [the forms skill](forms/SKILL.md), [its script](forms/fill.py), [a sibling's file](../csv-stats/main.py)
and [a file that is not there](references/missing.md).

## Usage

` + "```bash\npython scripts/extract.py input.pdf\n```" + `

<img src=x onerror=alert(1)>

[bad](javascript:alert(1)) and ![remote](https://evil.example/x.png)

## Usage

Never edit the original PDF.
-- skills/pdf-tools/forms/SKILL.md --
---
name: pdf-forms
description: Fill PDF forms.
---
Nested inside pdf-tools.
-- skills/pdf-tools/forms/fill.py --
print("fill")
-- skills/pdf-tools/references/forms.md --
# Fields
-- skills/pdf-tools/scripts/extract.py --
print("hi")
-- skills/pdf-tools/assets/evil.html --
<script>alert(1)</script>
-- skills/csv-stats/SKILL.md --
---
name: csv-stats
description: "Profile a CSV file: column types, null counts and distributions."
spec: usk/1.0
version: 1.2.0
category: data
tags: [csv, data]
capabilities: [data.profile]
interface:
  type: cli
  entry_point: main.py
  runtime: python3
  call_pattern: stdin_stdout
input_schema:
  type: object
  required: [path]
  properties:
    path: {type: string, description: "CSV file <b>path</b>"}
    options:
      type: object
      properties:
        delimiter: {type: string, default: ","}
output_schema:
  type: object
  properties:
    columns: {type: array, items: {type: object}}
permissions:
  network: false
  filesystem: true
  subprocess: false
  env_vars: [CSV_HOME]
examples:
  - name: basic
    description: Profile a small file
    input: {path: data.csv}
    output: {columns: []}
---
Run main.py with a JSON object on stdin.
-- skills/csv-stats/main.py --
print("{}")
-- docs/mermaid-diagrams.uasp.yaml --
meta:
  name: mermaid-diagrams
  type: knowledge
  description: Write Mermaid diagrams "quoted" & <escaped>.
triggers:
  keywords: [mermaid, diagram]
constraints:
  never: [Use HTML labels]
  always: [Quote labels with spaces]
reference:
  sequence.parallel:
    syntax: "par ... and ... end"
-- skills/broken/SKILL.md --
---
name: [not, a, string]
---
body
`

func buildCatalog(t *testing.T, base string) (string, *build.Result) {
	t.Helper()
	return buildFrom(t, writeCatalog(t), base)
}

// writeCatalog writes catalogTxtar into a new folder.
func writeCatalog(t *testing.T) string {
	t.Helper()
	return testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
}

func buildFrom(t *testing.T, src, base string) (string, *build.Result) {
	t.Helper()
	info, err := siteinfo.New("Test skills", base)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	opt := build.Options{Output: out, Site: info}
	opt.Sources = []string{src}
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return out, res
}

func TestSiteBuild(t *testing.T) {
	for _, base := range []string{"/", "https://acme.github.io/skills/"} {
		t.Run(base, func(t *testing.T) {
			out, _ := buildCatalog(t, base)
			opt := sitecheck.Options{BasePath: "/"}
			if base != "/" {
				opt = sitecheck.Options{BasePath: "/skills/", Origin: "https://acme.github.io"}
			}
			checkSite(t, out, opt)
			for _, f := range []string{
				"index.html", "skills/pdf-tools/index.html", "skills/csv-stats/index.html",
				"skills/mermaid-diagrams/index.html", "tags/index.html", "tags/pdf/index.html",
				"categories/data/index.html", "capabilities/data-profile/index.html", "types/knowledge/index.html",
				"search/index.html", "report/index.html", "404.html", "robots.txt",
				"feed.xml", ".nojekyll", "assets/style.css", "assets/search.js", "assets/search-core.js", "assets/theme.js",
			} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("missing %s", f)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "skills/broken")); err == nil {
				t.Error("the rejected skill was published")
			}
		})
	}
}

func TestSkillPageContent(t *testing.T) {
	out, _ := buildCatalog(t, "https://acme.github.io/skills/")
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	pdf := read("skills/pdf-tools/index.html")
	for _, want := range []string{
		`href="/skills/skills/pdf-tools/references/forms.md#fields"`, // link to the skill's own file
		`rel="alternate" type="text/markdown"`,
		`<link rel="canonical" href="https://acme.github.io/skills/skills/pdf-tools/">`,
		`pdf-tools.skill`,
		`href="/skills/skills/pdf-forms/">the forms skill</a>`,
		`href="/skills/skills/pdf-forms/fill.py">its script</a>`,
		`href="/skills/skills/csv-stats/main.py">a sibling's file</a>`,
		`Structured docs (UASP)`,
		`Derived from SKILL.md`,
	} {
		if !strings.Contains(pdf, want) {
			t.Errorf("pdf-tools page lacks %s", want)
		}
	}
	// What the author wrote is shown as text, markup included, and never
	// becomes markup (sitecheck, in TestSiteBuild, finds live markup).
	text := pageText(t, pdf)
	for _, want := range []string{
		"mentions PDFs <script>alert(1)</script>.",
		"<img src=x onerror=alert(1)>",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("pdf-tools page does not show %q as text", want)
		}
	}
	if !strings.Contains(text, "a file that is not there") || regexp.MustCompile(`href="[^"]*missing\.md`).MatchString(pdf) {
		t.Error("a link to a missing file should keep its text and lose its href")
	}
	if strings.Contains(pdf, "javascript:") || strings.Contains(pdf, `src="https://evil.example`) {
		t.Error("pdf-tools page keeps a javascript: link or loads a remote image")
	}
	csv := read("skills/csv-stats/index.html")
	for _, want := range []string{"Input schema", "options.delimiter", "CSV file <b>path</b>", "env CSV_HOME", "Profile a small file", "stdin_stdout"} {
		if !strings.Contains(pageText(t, csv), want) {
			t.Errorf("csv-stats page lacks %s", want)
		}
	}
	mermaid := read("skills/mermaid-diagrams/index.html")
	for _, want := range []string{"sequence.parallel", "Quote labels with spaces", `Write Mermaid diagrams "quoted" & <escaped>.`} {
		if !strings.Contains(pageText(t, mermaid), want) {
			t.Errorf("mermaid-diagrams page lacks %s", want)
		}
	}
	if strings.Contains(mermaid, "Derived from SKILL.md") {
		t.Error("an author's UASP document is marked as derived")
	}
	report := read("report/index.html")
	if !strings.Contains(report, "broken") {
		t.Error("the report does not list the rejected skill")
	}
	feed := read("feed.xml")
	if !strings.Contains(feed, "<updated>2025-03-04T00:00:00Z</updated>") {
		t.Errorf("feed.xml lacks the date from the frontmatter:\n%s", feed)
	}
}

// TestWithoutBaseURL: a site built without a base URL claims no origin.
// It has no sitemap (whose URLs must be absolute) and no Sitemap line in
// robots.txt, its feed's ids are URNs that stay the same from build to
// build, no page has a canonical link, no file names a made-up host, and
// the build says once what was left out.
func TestWithoutBaseURL(t *testing.T) {
	src := writeCatalog(t)
	out, res := buildFrom(t, src, "/")
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
		t.Error("sitemap.xml was written without a base URL")
	}
	files := tree(t, out)
	if robots := string(files["robots.txt"]); strings.Contains(robots, "Sitemap") {
		t.Errorf("robots.txt points at a sitemap:\n%s", robots)
	}
	feed := string(files["feed.xml"])
	ids := regexp.MustCompile(`<id>([^<]*)</id>`).FindAllStringSubmatch(feed, -1)
	if len(ids) < 4 {
		t.Fatalf("feed.xml has %d ids:\n%s", len(ids), feed)
	}
	uuid := regexp.MustCompile(`^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, id := range ids {
		if !uuid.MatchString(id[1]) {
			t.Errorf("feed id %q is not a version 5 UUID URN", id[1])
		}
	}
	again, _ := buildFrom(t, src, "/")
	if b, _ := os.ReadFile(filepath.Join(again, "feed.xml")); string(b) != feed {
		t.Error("feed.xml differs between two builds: its ids are not permanent")
	}
	for name, data := range files {
		for _, bad := range []string{"YOUR-SITE", "://YOUR", `rel="canonical"`, `property="og:url"`} {
			if bytes.Contains(data, []byte(bad)) {
				t.Errorf("%s holds %q", name, bad)
			}
		}
	}
	if len(res.Notices) != 1 || res.Notices[0].Setting != build.SettingBaseURL || !strings.Contains(res.Notices[0].Message, "sitemap.xml") ||
		!strings.Contains(res.Notices[0].Message, "works only served at the root of a host") {
		t.Errorf("notices %+v, want one about the base URL that names sitemap.xml and where the site works", res.Notices)
	}
	if _, res := buildFrom(t, src, "/skills/"); len(res.Notices) != 1 || strings.Contains(res.Notices[0].Message, "root of a host") {
		t.Errorf("a base URL of a path: notices %+v, want one that does not say the site needs a host's root", res.Notices)
	}
	if _, res := buildFrom(t, src, "https://acme.github.io/skills/"); len(res.Notices) != 0 {
		t.Errorf("a build with a base URL has notices %+v", res.Notices)
	}
}

// TestSitemapLastmod: with a base URL, robots.txt points at the sitemap,
// and a skill's page has its lastmod from the date its sources give, and
// no lastmod when they give none (SOURCE_DATE_EPOCH dates the feed, never
// the sitemap).
func TestSitemapLastmod(t *testing.T) {
	info, err := siteinfo.New("Test skills", "https://acme.github.io/skills/")
	if err != nil {
		t.Fatal(err)
	}
	info.Date = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	out := filepath.Join(t.TempDir(), "public")
	opt := build.Options{Output: out, Site: info}
	opt.Sources = []string{writeCatalog(t)}
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	files := tree(t, out)
	if robots := string(files["robots.txt"]); !strings.Contains(robots, "\nSitemap: https://acme.github.io/skills/sitemap.xml\n") {
		t.Errorf("robots.txt does not point at the sitemap:\n%s", robots)
	}
	sitemap := string(files["sitemap.xml"])
	for _, want := range []string{
		"<url><loc>https://acme.github.io/skills/skills/pdf-tools/</loc><lastmod>2025-03-04</lastmod></url>\n",
		"<url><loc>https://acme.github.io/skills/skills/csv-stats/</loc></url>\n",
		"<url><loc>https://acme.github.io/skills/</loc></url>\n",
	} {
		if !strings.Contains(sitemap, want) {
			t.Errorf("sitemap.xml lacks %q:\n%s", want, sitemap)
		}
	}
	if strings.Contains(sitemap, "2024-01-02") {
		t.Error("sitemap.xml dates a page with SOURCE_DATE_EPOCH's date")
	}
	if !strings.Contains(string(files["feed.xml"]), "<id>https://acme.github.io/skills/skills/pdf-tools/</id>") {
		t.Error("with a base URL, the feed's ids are not the pages' URLs")
	}
}

// TestInstallBox: a skill page leads with the skills CLI's command when
// the CLI can install the skill (a UASP document alone is no Agent Skill),
// then the command that unpacks the archive; the home page adds the whole
// catalog. Without a base URL the commands wait for the page's script to
// know the address, and prose says what to type meanwhile.
func TestInstallBox(t *testing.T) {
	src := writeCatalog(t)
	abs, _ := buildFrom(t, src, "https://acme.github.io/skills/")
	for _, c := range []struct {
		page, id, want string // want "" for no such element
	}{
		{"skills/pdf-tools/", "sd-install-cli", "npx skills add https://acme.github.io/skills/ --skill pdf-tools"},
		{"skills/pdf-tools/", "sd-install-zip", "dir=~/.claude/skills\ncurl -fsSLo /tmp/pdf-tools.skill https://acme.github.io/skills/skills/pdf-tools/pdf-tools.skill" +
			` && mkdir -p "$dir" && unzip -o /tmp/pdf-tools.skill -d "$dir"`},
		{"skills/csv-stats/", "sd-install-cli", "npx skills add https://acme.github.io/skills/ --skill csv-stats"},
		{"skills/mermaid-diagrams/", "sd-install-cli", ""},
		{"skills/mermaid-diagrams/", "sd-install-zip", "dir=~/.claude/skills\ncurl -fsSLo /tmp/mermaid-diagrams.skill https://acme.github.io/skills/skills/mermaid-diagrams/mermaid-diagrams.skill" +
			` && mkdir -p "$dir" && unzip -o /tmp/mermaid-diagrams.skill -d "$dir"`},
		{"", "sd-addall", "npx skills add https://acme.github.io/skills/"},
	} {
		n := byID(t, abs, c.page, c.id)
		switch {
		case c.want == "" && n != nil:
			t.Errorf("%s has #%s: %q", c.page, c.id, testutil.Text(n))
		case c.want != "" && n == nil:
			t.Errorf("%s has no #%s", c.page, c.id)
		case c.want != "" && testutil.Text(n) != c.want:
			t.Errorf("%s #%s is %q, want %q", c.page, c.id, testutil.Text(n), c.want)
		}
	}
	// The box of a skill only the archive installs has its manual part open.
	if d := byClass(t, abs, "skills/mermaid-diagrams/", "sd-manual"); d == nil || !hasAttr(d, "open") {
		t.Error("mermaid-diagrams: the manual install is not open, though the CLI cannot install it")
	}
	if d := byClass(t, abs, "skills/pdf-tools/", "sd-manual"); d == nil || hasAttr(d, "open") {
		t.Error("pdf-tools: the manual install is open below the CLI's command, or missing")
	}

	rel, _ := buildFrom(t, src, "/")
	for _, c := range []struct{ page, id, link string }{
		{"skills/pdf-tools/", "sd-install-cli", "/"},
		{"skills/pdf-tools/", "sd-install-zip", "/skills/pdf-tools/pdf-tools.skill"},
		{"", "sd-addall", "/"},
	} {
		pre := byID(t, rel, c.page, c.id)
		if pre == nil {
			t.Errorf("%s has no #%s", c.page, c.id)
			continue
		}
		var link string
		for n := range pre.Descendants() {
			if v, ok := testutil.Attr(n, "data-shell-url"); ok {
				link = v
			}
		}
		if link != c.link || strings.Contains(testutil.Text(pre), "://") {
			t.Errorf("%s #%s: %q, data-shell-url %q: want no address, and the link %s for the script", c.page, c.id, testutil.Text(pre), link, c.link)
		}
		if snippet := pre.Parent; !hasAttr(snippet, "hidden") || !hasAttr(snippet, "data-needs-site") {
			t.Errorf("%s #%s: its snippet is not hidden until the script fills it in", c.page, c.id)
		}
		prose := pre.Parent.NextSibling
		for prose != nil && prose.Type != html.ElementNode {
			prose = prose.NextSibling
		}
		if prose == nil || !hasAttr(prose, "data-without-site") || !strings.Contains(testutil.Text(prose), "unzip") && !strings.Contains(testutil.Text(prose), "this site's address") {
			t.Errorf("%s #%s: no prose stands in for the command without JavaScript", c.page, c.id)
		}
	}
}

// byID returns the element of the site page with id, or nil.
func byID(t *testing.T, out, page, id string) *html.Node {
	t.Helper()
	return testutil.ElementByID(readPage(t, out, page), id)
}

// byClass returns the first element of the site page with class, or nil.
func byClass(t *testing.T, out, page, class string) *html.Node {
	t.Helper()
	return testutil.FindElement(readPage(t, out, page), func(n *html.Node) bool {
		v, _ := testutil.Attr(n, "class")
		return slices.Contains(strings.Fields(v), class)
	})
}

func readPage(t *testing.T, out, page string) *html.Node {
	t.Helper()
	return testutil.ReadHTML(t, filepath.Join(out, filepath.FromSlash(siteinfo.FileOf(page))))
}

func hasAttr(n *html.Node, key string) bool { _, ok := testutil.Attr(n, key); return ok }

func TestSiteDeterministic(t *testing.T) {
	src := writeCatalog(t)
	a, _ := buildFrom(t, src, "/")
	b, _ := buildFrom(t, src, "/")
	fa, fb := tree(t, a), tree(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("builds wrote %d and %d files", len(fa), len(fb))
	}
	for p, data := range fa {
		if !bytes.Equal(data, fb[p]) {
			t.Errorf("%s differs between two builds of the same catalog", p)
		}
	}
}

// checkSite reports every problem internal/sitecheck finds in a built
// site: broken links, invalid HTML, pages missing from the sitemap.
func checkSite(t *testing.T, site string, opt sitecheck.Options) {
	t.Helper()
	problems, err := sitecheck.Check(site, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// pageText returns the text of an HTML page as a reader sees it.
func pageText(t *testing.T, page string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for n := range doc.Descendants() {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
	}
	return b.String()
}

func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(filepath.Base(rel), ".skilldex") {
			return nil // the marker file
		}
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLargeCatalogPages: listings and the report are split into pages,
// and the pages link to each other (sitecheck checks every link).
func TestLargeCatalogPages(t *testing.T) {
	src := t.TempDir()
	if err := catalogen.Generate(src, 250, 3); err != nil {
		t.Fatal(err)
	}
	out, res := buildFrom(t, src, "/")
	if len(res.Catalog.Skills) != 250 {
		t.Fatalf("%d skills published, want 250", len(res.Catalog.Skills))
	}
	for _, p := range []string{"index.html", "page/2/index.html", "page/3/index.html", "report/index.html"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "page/4/index.html")); err == nil {
		t.Error("250 skills at 120 a page made a fourth page")
	}
	// Generated skills have findings, so the report needs more than one
	// page of 100.
	if s := res.Catalog.Summarize(); s.Caution <= 100 {
		t.Fatalf("only %d generated skills have findings; the report pager is not exercised", s.Caution)
	}
	if _, err := os.Stat(filepath.Join(out, "report/page/2/index.html")); err != nil {
		t.Error("the report of 250 skills with findings has one page")
	}
	// Every page has a title of its own: the second page of a listing
	// is not titled as the first.
	titled := map[string]string{}
	title := regexp.MustCompile(`<title>([^<]*)</title>`)
	for name, data := range tree(t, out) {
		if !strings.HasSuffix(name, ".html") || name == "404.html" {
			continue
		}
		m := title.FindSubmatch(data)
		if m == nil {
			t.Errorf("%s has no title", name)
			continue
		}
		if other, ok := titled[string(m[1])]; ok {
			t.Errorf("%s and %s are both titled %q", other, name, m[1])
		}
		titled[string(m[1])] = name
	}
	checkSite(t, out, sitecheck.Options{BasePath: "/"})
}

// TestTermSlugCollision: "C#" and "c-sharp" are two tags with one slug; the
// catalog gives the second "c-sharp-2", and every link to a tag, on skill
// pages and on cards, leads to the page of that very tag.
func TestTermSlugCollision(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), `
-- sharp/SKILL.md --
---
name: sharp
description: Writes C# code.
metadata:
  tags: ["C#"]
---
Body.
-- dashed/SKILL.md --
---
name: dashed
description: Writes c-sharp code.
metadata:
  tags: [c-sharp]
---
Body.
`)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: out}); err != nil {
		t.Fatal(err)
	}
	tagLink := regexp.MustCompile(`href="/(tags/[^"/]+/)"`)
	for _, name := range []string{"sharp", "dashed"} {
		page, err := os.ReadFile(filepath.Join(out, "skills", name, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		m := tagLink.FindSubmatch(page)
		if m == nil {
			t.Fatalf("%s: no tag link", name)
		}
		term, err := os.ReadFile(filepath.Join(out, string(m[1]), "index.html"))
		if err != nil {
			t.Fatalf("%s links %s, which does not exist", name, m[1])
		}
		if !bytes.Contains(term, []byte(`href="/skills/`+name+`/"`)) {
			t.Errorf("%s links %s, which does not list it", name, m[1])
		}
	}
}

// TestPartsLeftOut: a site with every optional part left out (and no
// per-path answers or v0.1 copies) has none of their files and no link to
// any of them, and still links correctly everywhere.
func TestPartsLeftOut(t *testing.T) {
	info, err := siteinfo.New("Test skills", "/")
	if err != nil {
		t.Fatal(err)
	}
	info.Parts = siteinfo.Parts{}
	info.QueryPaths, info.LegacyDiscovery = siteinfo.QueryPathsNone, "false"
	out := filepath.Join(t.TempDir(), "public")
	opt := build.Options{Output: out, Site: info}
	opt.Sources = []string{writeCatalog(t)}
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	checkSite(t, out, sitecheck.Options{BasePath: "/"})
	gone := regexp.MustCompile(`\.html\.md$|\.skill$|\.zip$|^llms-full\.txt$|^search/bleve|^skills/[^/]+/.+[^l]$|^api/v1/skills/[^/]+/|^\.well-known/skills/`)
	var files []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	for _, f := range files {
		if gone.MatchString(f) && f != "search/index.html" {
			t.Errorf("%s was published", f)
		}
	}
	// Nothing links to what is gone, in pages or in what agents read.
	// (Pages name their source file in text, so only their links count.)
	target := `(index\.html\.md|\.skill\b|/SKILL\.md|llms-full|paths\.json|bleve)`
	link := regexp.MustCompile(target)
	href := regexp.MustCompile(`(?:href|src)="[^"]*` + target)
	for _, f := range append([]string{"llms.txt", "api/v1/index.json", "api/v1/openapi.json", ".well-known/agent-skills/index.json", "v1/agent/search"},
		"skills/pdf-tools/index.html", "skills/csv-stats/index.html", "index.html") {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		re := link
		if strings.HasSuffix(f, ".html") {
			re = href
		}
		if m := re.Find(b); m != nil {
			t.Errorf("%s still links %s", f, m)
		}
	}
	// With neither the sources nor the archives, nothing installs a skill:
	// no page offers to.
	for _, f := range []string{"skills/pdf-tools/index.html", "skills/csv-stats/index.html", "index.html"} {
		if b, _ := os.ReadFile(filepath.Join(out, f)); bytes.Contains(b, []byte("npx skills")) || bytes.Contains(b, []byte("sd-install")) {
			t.Errorf("%s offers an install command, though the site publishes nothing to install", f)
		}
	}
	// Derived docs are left out; a document the author wrote is the page.
	pdf, _ := os.ReadFile(filepath.Join(out, "skills", "pdf-tools", "index.html"))
	mermaid, _ := os.ReadFile(filepath.Join(out, "skills", "mermaid-diagrams", "index.html"))
	if bytes.Contains(pdf, []byte("sd-uasp")) || !bytes.Contains(mermaid, []byte("sd-uasp")) {
		t.Error("derived docs shown, or a written document hidden")
	}
	if len(res.Catalog.Skills) < 4 {
		t.Fatalf("%d skills published", len(res.Catalog.Skills))
	}
}

// TestNavLeavesOutEmptyTaxonomies: the navigation links no taxonomy the
// catalog has no term of (its page would say "0 capabilities"), and
// links those it has.
func TestNavLeavesOutEmptyTaxonomies(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), "-- plain/SKILL.md --\n---\nname: plain\ndescription: A skill with tags but no category or capability.\nmetadata:\n  tags: [alpha]\n---\nBody.\n")
	out, _ := buildFrom(t, src, "https://example.org/")
	nav := byClass(t, out, "index.html", "sd-nav")
	var links []string
	for n := range nav.Descendants() {
		if n.Type == html.ElementNode && n.Data == "a" {
			href, _ := testutil.Attr(n, "href")
			links = append(links, href)
		}
	}
	for _, want := range []string{"/tags/", "/types/", "/report/"} {
		if !slices.Contains(links, want) {
			t.Errorf("the navigation lacks %s: %q", want, links)
		}
	}
	for _, empty := range []string{"/categories/", "/capabilities/"} {
		if slices.Contains(links, empty) {
			t.Errorf("the navigation links %s, which has no term: %q", empty, links)
		}
	}
}

// TestDescriptionCodeSpans: a description's `code spans` are code on the
// skill's page and its card (on the home page), escaped, and the page's
// meta description keeps the text as written.
func TestDescriptionCodeSpans(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), "-- wrap/SKILL.md --\n---\nname: wrap\ndescription: Wraps `npx tool <dir>` for CI. Use when checking a repository.\n---\nBody.\n")
	out, _ := buildFrom(t, src, "https://example.org/")
	for _, page := range []string{"skills/wrap/index.html", "index.html"} {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "Wraps <code>npx tool &lt;dir&gt;</code> for CI.") {
			t.Errorf("%s does not show the code span as code", page)
		}
		if page != "index.html" && !strings.Contains(string(data), `content="Wraps `+"`npx tool &lt;dir&gt;`") {
			t.Errorf("%s: the meta description changed", page)
		}
	}
}
