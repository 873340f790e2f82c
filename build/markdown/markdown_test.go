package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// resolve is the ResolveLink of the tests: files of the skill folder map
// to their published place, and everything else stays as written.
func resolve(dest string) (string, bool) {
	switch {
	case strings.HasPrefix(dest, "references/"), strings.HasPrefix(dest, "assets/"):
		return "/site/skills/demo/" + dest, true
	case strings.HasPrefix(dest, "./scripts/"):
		return "/site/skills/demo/" + strings.TrimPrefix(dest, "./"), true
	case dest == "evil.md":
		return "javascript:alert(1)", true
	case dest == "missing.md":
		return "", true
	}
	return "", false
}

var testOptions = Options{ResolveLink: resolve}

func render(t *testing.T, src string) string {
	t.Helper()
	res, err := Render([]byte(src), testOptions)
	if err != nil {
		t.Fatalf("Render(%q): %v", src, err)
	}
	if err := checkSafe([]byte(res.HTML)); err != nil {
		t.Fatalf("Render(%q) is unsafe: %v\n%s", src, err, res.HTML)
	}
	return res.HTML
}

// TestRender checks each rule on a small body: the output must contain
// every want and none of the notWant.
func TestRender(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		want    []string
		notWant []string
	}{
		// GFM and footnotes.
		{"table", "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n",
			[]string{`<table tabindex="0">`, `<th align="left">a</th>`, `<td align="center">2</td>`, `<td align="right">3</td>`}, []string{"style="}},
		{"strikethrough", "~~gone~~\n", []string{"<del>gone</del>"}, nil},
		{"task list", "- [x] done\n- [ ] todo\n",
			[]string{`<input checked="" disabled="" type="checkbox" aria-label="done"> done`, `<input disabled="" type="checkbox" aria-label="to do"> todo`}, nil},
		{"autolink www", "see www.example.com now\n",
			[]string{`<a href="http://www.example.com" rel="nofollow noopener noreferrer">www.example.com</a>`}, nil},
		{"autolink url", "see https://example.com/a?b=1&c=2.\n",
			[]string{`<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">https://example.com/a?b=1&amp;c=2</a>.`}, nil},
		{"autolink email", "mail foo@example.com\n", []string{`<a href="mailto:foo@example.com">foo@example.com</a>`}, []string{"rel="}},
		{"autolink angle", "<https://example.com>\n", []string{`<a href="https://example.com" rel="nofollow noopener noreferrer">https://example.com</a>`}, nil},
		{"ftp is not linkified", "ftp://example.com/x\n", []string{"ftp://example.com/x"}, []string{"<a"}},
		{"footnote", "Text[^n].\n\n[^n]: The note.\n",
			[]string{`<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`, `<li id="fn:1">`, "The note."}, nil},

		// Raw HTML is text.
		{"html block", "<div onclick=\"x()\">\n<script>alert(1)</script>\n</div>\n",
			[]string{"<p>&lt;div onclick=&quot;x()&quot;&gt;\n&lt;script&gt;alert(1)&lt;/script&gt;\n&lt;/div&gt;</p>"}, []string{"<div", "<script"}},
		{"script block", "<script>\nalert(1)\n</script>\n", []string{"&lt;script&gt;\nalert(1)\n&lt;/script&gt;"}, []string{"<script"}},
		{"inline html", "a <b onmouseover=x>bold</b> <img src=x onerror=alert(1)> z\n",
			[]string{"a &lt;b onmouseover=x&gt;bold&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt; z"}, []string{"<b", "<img"}},
		{"html comment block", "<!-- secret note -->\n\nvisible\n", []string{"<p>visible</p>"}, []string{"secret", "&lt;!--"}},
		{"html comment inline", "a <!-- secret --> b\n", []string{"a  b"}, []string{"secret"}},
		{"iframe", "<iframe src=\"https://evil.example\"></iframe>\n", []string{"&lt;iframe"}, []string{"<iframe"}},

		// Dangerous URLs: the link goes, the text stays.
		{"javascript", "[x](javascript:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript case", "[x](JaVaScRiPt:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript tab entity", "[x](java&#x09;script:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript newline entity", "[x](java&NewLine;script:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript numeric entity", "[x](&#106;avascript:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript colon entity", "[x](javascript&colon;alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript double entity", "[x](&amp;#106;avascript:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript angle space", "[x](< javascript:alert(1)>)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript angle tab", "[x](<java\tscript:alert(1)>)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript percent", "[x](java%0ascript:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript escape", "[x](javascript\\:alert(1))\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript control", "[x](\x01javascript:alert(1))\n", []string{"x</p>"}, []string{"href"}},
		{"javascript reference", "[x][r]\n\n[r]: javascript:alert(1)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript autolink", "<javascript:alert(1)>\n", []string{"<p>javascript:alert(1)</p>"}, []string{"href"}},
		{"vbscript", "[x](vbscript:msgbox)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"data html", "[x](data:text/html;base64,PHNjcmlwdD4=)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"data image", "![pic](data:image/png;base64,iVBORw0KGgo=)\n", []string{"<p>pic</p>"}, []string{"src", "href"}},
		{"file", "[x](file:///etc/passwd)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"ftp link", "[x](ftp://example.com/f)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"unknown scheme", "[x](steam://run/1)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"javascript image", "![x](javascript:alert(1))\n", []string{"<p>x</p>"}, []string{"src", "href"}},
		{"emphasis survives a dropped link", "[*x*](javascript:1)\n", []string{"<p><em>x</em></p>"}, []string{"href"}},

		// Links.
		{"external link", "[x](https://example.com/a \"T\")\n",
			[]string{`<a href="https://example.com/a" title="T" rel="nofollow noopener noreferrer">x</a>`}, nil},
		{"http link", "[x](http://example.com)\n", []string{`<a href="http://example.com" rel="nofollow noopener noreferrer">x</a>`}, nil},
		{"protocol-relative link", "[x](//example.com/a)\n", []string{`<a href="//example.com/a" rel="nofollow noopener noreferrer">x</a>`}, nil},
		{"backslash protocol-relative link", "[x](/\\\\example.com/a)\n", []string{`rel="nofollow noopener noreferrer">x</a>`}, nil},
		{"mailto link", "[x](mailto:a@example.com)\n", []string{`<a href="mailto:a@example.com">x</a>`}, nil},
		{"fragment link", "[x](#usage)\n", []string{`<a href="#usage">x</a>`}, []string{"rel="}},
		{"resolved link", "[style](references/style.md)\n", []string{`<a href="/site/skills/demo/references/style.md">style</a>`}, []string{"rel="}},
		{"resolved script", "[run](./scripts/run.sh)\n", []string{`<a href="/site/skills/demo/scripts/run.sh">run</a>`}, nil},
		{"unresolved relative", "[other](../other/SKILL.md)\n", []string{`<a href="../other/SKILL.md">other</a>`}, []string{"rel="}},
		{"relative with space", "[x](<my file.md>)\n", []string{`<a href="my%20file.md">x</a>`}, nil},
		{"resolver returns javascript", "[x](evil.md)\n", []string{"<p>x</p>"}, []string{"href"}},
		{"resolver removes the link", "[the *text* stays](missing.md)\n", []string{"<p>the <em>text</em> stays</p>"}, []string{"href"}},
		{"link title escaped", "[x](https://e.com \"a\\\"><script>\")\n", []string{`title="a&quot;&gt;&lt;script&gt;"`}, []string{"<script"}},

		// Images.
		{"remote image", "![A diagram](https://cdn.example.com/d.png)\n",
			[]string{`<a href="https://cdn.example.com/d.png" rel="nofollow noopener noreferrer" class="remote-image">A diagram</a>`}, []string{"<img"}},
		{"remote image without alt", "![](https://cdn.example.com/d.png)\n",
			[]string{`class="remote-image">https://cdn.example.com/d.png</a>`}, []string{"<img"}},
		{"protocol-relative image", "![x](//cdn.example.com/d.png)\n", []string{`class="remote-image">x</a>`}, []string{"<img"}},
		{"backslash image", "![x](/\\\\cdn.example.com/d.png)\n", []string{`class="remote-image">x</a>`}, []string{"<img"}},
		{"resolved image", "![Diagram](assets/diagram.png#x)\n",
			[]string{`<img src="/site/skills/demo/assets/diagram.png#x" alt="Diagram" loading="lazy">`}, nil},
		{"unresolved relative image", "![D](img/d.png \"Title\")\n", []string{`<img src="img/d.png" alt="D" title="Title" loading="lazy">`}, nil},
		{"image alt markup", "![a *b* `c`](img/d.png)\n", []string{`alt="a b c"`}, nil},
		{"badge in link", "[![build](https://img.shields.io/b.svg)](https://github.com/o/r)\n",
			[]string{`<p><a href="https://github.com/o/r" rel="nofollow noopener noreferrer">build</a></p>`}, []string{"<img", "shields"}},
		{"local badge in link", "[![build](assets/b.svg)](https://github.com/o/r)\n",
			[]string{`<a href="https://github.com/o/r" rel="nofollow noopener noreferrer"><img src="/site/skills/demo/assets/b.svg" alt="build" loading="lazy"></a>`}, nil},
		{"link in remote image alt", "![see [x](https://a.example)](https://b.example/i.png)\n",
			[]string{`<a href="https://b.example/i.png" rel="nofollow noopener noreferrer" class="remote-image">see x</a>`}, []string{"a.example"}},
		{"empty badge in link", "[![](https://img.shields.io/b.svg)](https://github.com/o/r)\n", []string{`rel="nofollow noopener noreferrer">image</a>`}, nil},

		// Attributes cannot be injected.
		{"heading attribute syntax", "# Title {#custom .cls onclick=alert(1)}\n", []string{`<h1 id="title-custom-cls-onclickalert1">Title {#custom .cls onclick=alert(1)}</h1>`}, []string{`class="cls"`, `id="custom"`}},
		{"paragraph attribute syntax", "para\n{: onclick=\"x\" style=\"color:red\"}\n", []string{"<p>para\n{: onclick=&quot;x&quot;"}, nil},

		// Code.
		{"go code", "```go\nfunc main() {}\n```\n",
			[]string{`<pre class="chroma" tabindex="0"><code class="language-go"><span class="kd">func</span> <span class="nf">main</span>`}, []string{"style="}},
		{"language case", "```Python\nx = 1\n```\n", []string{`<pre class="chroma" tabindex="0"><code class="language-Python">`}, nil},
		{"pandoc info", "```{.python}\nx = 1\n```\n", []string{`<pre class="chroma" tabindex="0"><code class="language-python">`}, nil},
		{"no language", "```\n<b>x</b>\n```\n", []string{"<pre tabindex=\"0\"><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>"}, []string{"chroma"}},
		{"unknown language", "```nosuchlang\n<b>x</b>\n```\n", []string{`<pre tabindex="0"><code class="language-nosuchlang">&lt;b&gt;x&lt;/b&gt;`}, []string{"chroma"}},
		{"hostile language", "```\"><script>\nx\n```\n", []string{"<pre tabindex=\"0\"><code>x\n"}, []string{"<script"}},
		{"plaintext language", "```text\nx\n```\n", []string{`<pre tabindex="0"><code class="language-text">x`}, []string{"chroma"}},
		{"code escapes", "```html\n<script>alert(\"x\")</script>\n```\n", []string{"&lt;", "&gt;"}, []string{"<script"}},
		{"indented code", "    <b>x</b>\n", []string{"<pre tabindex=\"0\"><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>"}, nil},
		{"code span", "`<b>`\n", []string{"<code>&lt;b&gt;</code>"}, nil},
		{"huge block plain", "```go\n" + strings.Repeat("x := 1\n", 3000) + "```\n", []string{`<pre tabindex="0"><code class="language-go">x := 1`}, []string{"chroma"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, c.src)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(out, w) {
					t.Errorf("unwanted %q in\n%s", w, out)
				}
			}
		})
	}
}

// TestManyBlocksArePlain: a body with an absurd number of fenced blocks is
// not highlighted at all; one under the limit is.
func TestManyBlocksArePlain(t *testing.T) {
	block := "```go\nx := 1\n```\n\n"
	if out := render(t, strings.Repeat(block, maxHighlightBlocks)); strings.Count(out, `class="chroma"`) != maxHighlightBlocks {
		t.Errorf("%d blocks: want all highlighted", maxHighlightBlocks)
	}
	if out := render(t, strings.Repeat(block, maxHighlightBlocks+1)); strings.Contains(out, "chroma") {
		t.Errorf("%d blocks: want none highlighted", maxHighlightBlocks+1)
	}
}

// TestHighlightBudget: once a body has had maxHighlightBytes highlighted,
// the rest is plain.
func TestHighlightBudget(t *testing.T) {
	block := "```go\n" + strings.Repeat("x := 1\n", maxHighlightBlock/8) + "```\n\n"
	n := maxHighlightBytes/(maxHighlightBlock/8*7) + 2
	out := render(t, strings.Repeat(block, n))
	got := strings.Count(out, `class="chroma"`)
	if got == 0 || got >= n {
		t.Errorf("%d blocks of %d bytes: %d highlighted, want some but not all", n, maxHighlightBlock/8*7, got)
	}
}

func TestHeadings(t *testing.T) {
	src := "# Intro\n\n## Setup & *Install*\n\n## Setup & Install\n\n## Intro\n\n### intro-1\n\n" +
		"#### `go test` with [links](https://x.example)\n\n##### Ünïcödé — ok!\n\n###### !!!\n\n## SD cards\n\nSetext\n======\n\n" +
		"## Has <kbd>raw</kbd> tags\n\n> ## Quoted\n"
	res, err := Render([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Heading{
		{1, "intro", "Intro"},
		{2, "setup--install", "Setup & Install"},
		{2, "setup--install-1", "Setup & Install"},
		{2, "intro-1", "Intro"},
		{3, "intro-1-1", "intro-1"},
		{4, "go-test-with-links", "go test with links"},
		{5, "ünïcödé--ok", "Ünïcödé — ok!"},
		{6, "section", "!!!"},
		{2, "h-sd-cards", "SD cards"},
		{1, "setext", "Setext"},
		{2, "has-raw-tags", "Has raw tags"},
		{2, "quoted", "Quoted"},
	}
	if !reflect.DeepEqual(res.Headings, want) {
		t.Errorf("headings:\n got %+v\nwant %+v", res.Headings, want)
	}
	for _, h := range want {
		tag := fmt.Sprintf(`<h%d id="%s">`, h.Level, h.ID)
		if !strings.Contains(res.HTML, tag) {
			t.Errorf("missing %s in\n%s", tag, res.HTML)
		}
	}
}

// TestHeadingOptions: a prefixed, shifted document keeps its ids apart
// from the page's other documents and its headings under the page's h1.
func TestHeadingOptions(t *testing.T) {
	res, err := Render([]byte("# Title\n\n## Usage\n\n###### Deep\n"), Options{IDPrefix: "uasp-", HeadingShift: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []Heading{{2, "uasp-title", "Title"}, {3, "uasp-usage", "Usage"}, {6, "uasp-deep", "Deep"}}
	if !reflect.DeepEqual(res.Headings, want) {
		t.Errorf("headings:\n got %+v\nwant %+v", res.Headings, want)
	}
	for _, tag := range []string{`<h2 id="uasp-title">`, `<h3 id="uasp-usage">`, `<h6 id="uasp-deep">`} {
		if !strings.Contains(res.HTML, tag) {
			t.Errorf("missing %s in\n%s", tag, res.HTML)
		}
	}
}

// TestManyDuplicateHeadings: ids stay unique, and the cost linear.
func TestManyDuplicateHeadings(t *testing.T) {
	res, err := Render([]byte(strings.Repeat("## Step\n\n", 5000)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, h := range res.Headings {
		if seen[h.ID] {
			t.Fatalf("duplicate id %q", h.ID)
		}
		seen[h.ID] = true
	}
	if len(seen) != 5000 || res.Headings[4999].ID != "step-4999" {
		t.Errorf("got %d ids, last %q", len(seen), res.Headings[len(res.Headings)-1].ID)
	}
}

func TestLongHeadingID(t *testing.T) {
	res, err := Render([]byte("# "+strings.Repeat("é", 500)+"\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if id := res.Headings[0].ID; len(id) > maxIDLen || !strings.HasPrefix(id, "éé") {
		t.Errorf("id %q (%d bytes)", id, len(id))
	}
}

// TestResolveLinkInput: ResolveLink sees relative destinations as written
// (escapes and entities resolved), and never fragments or absolute URLs.
func TestResolveLinkInput(t *testing.T) {
	var got []string
	opt := Options{ResolveLink: func(dest string) (string, bool) {
		got = append(got, dest)
		return "", false
	}}
	src := "[a](references/a&amp;b.md) [b](#frag) [c](https://x.example) ![d](assets/d\\_e.png) [e](mailto:x@y.example) [f](//x.example/y) [g](my%20file.md)\n"
	if _, err := Render([]byte(src), opt); err != nil {
		t.Fatal(err)
	}
	want := []string{"references/a&b.md", "assets/d_e.png", "my%20file.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ResolveLink saw %q, want %q", got, want)
	}
}

func TestClassify(t *testing.T) {
	cases := map[string]urlKind{
		"":                       urlRelative,
		"a/b.md":                 urlRelative,
		"./a":                    urlRelative,
		"../a":                   urlRelative,
		"/abs":                   urlRelative,
		"?q":                     urlRelative,
		"#x":                     urlFragment,
		"http://a":               urlExternal,
		"HTTPS://a":              urlExternal,
		"//a":                    urlExternal,
		"\\\\a":                  urlExternal,
		"/\\a":                   urlExternal,
		" //a":                   urlExternal,
		"mailto:a@b":             urlMailto,
		"javascript:x":           urlUnsafe,
		" \x00javascript:x":      urlUnsafe,
		"java\tscript:x":         urlUnsafe,
		"java%09script:x":        urlUnsafe,
		"&#106;avascript:x":      urlUnsafe,
		"&amp;#106;avascript:x":  urlUnsafe,
		"javascript&colon;x":     urlUnsafe,
		"data:image/png;base64,": urlUnsafe,
		"vbscript:x":             urlUnsafe,
		"file:///x":              urlUnsafe,
		"a:b":                    urlUnsafe,
		"1x:y":                   urlUnsafe,
		"a/b:c":                  urlRelative,
		"a?b:c":                  urlRelative,
		"a#b:c":                  urlRelative,
	}
	for u, want := range cases {
		if got := classify(u); got != want {
			t.Errorf("classify(%q) = %d, want %d", u, got, want)
		}
	}
}

func TestPlain(t *testing.T) {
	cases := []struct {
		src  string
		max  int
		want string
	}{
		{"# Title\n\nFirst *para* with [a link](x) and `code`.\n\nSecond.\n", 0, "First para with a link and code."},
		{"[![build](https://b.example/b.svg)](https://x)\n![logo](l.png)\n\nReal text &amp; more.\n", 0, "Real text & more."},
		{"<div>\nraw\n</div>\n\nText <b>bold</b>\nnext line.\n", 0, "Text bold next line."},
		{"```\ncode\n```\n\n- list item\n\nAfter.\n", 0, "After."},
		{"One two three four five six seven.\n", 20, "One two three four…"},
		{"Supercalifragilisticexpialidocious word.\n", 10, "Supercali…"},
		{"Short.\n", 100, "Short."},
		{"# Only a heading\n", 100, ""},
		{"", 10, ""},
	}
	for _, c := range cases {
		if got := Plain([]byte(c.src), c.max); got != c.want {
			t.Errorf("Plain(%q, %d) = %q, want %q", c.src, c.max, got, c.want)
		}
	}
}

func TestCSS(t *testing.T) {
	css := string(CSS())
	for _, want := range []string{
		"@media (prefers-color-scheme: dark) {\n  :root:not([data-theme=light]) .chroma {",
		"\n  :root:not([data-theme=light]) .chroma .k {",
		"\n:root[data-theme=dark] .chroma .k {",
		"@media (prefers-color-scheme: light) {\n  :root:not([data-theme=dark]) .chroma {",
		"\n  :root:not([data-theme=dark]) .chroma .k {",
		"\n:root[data-theme=light] .chroma .k {",
		":root[data-theme=dark] .chroma { color: #e6edf3; background-color: #0d1117;",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("CSS lacks %q", want)
		}
	}
	for _, bad := range []string{".chroma .ln ", ".chroma .line ", ".bg ", "url("} {
		if strings.Contains(css, bad) {
			t.Errorf("CSS has %q", bad)
		}
	}
	if strings.Count(css, "{") != strings.Count(css, "}") {
		t.Error("unbalanced braces")
	}
	if c := CSS(); &c[0] == &CSS()[0] {
		t.Error("CSS returns a shared slice")
	}
}

// TestConcurrent: Render is safe for concurrent use and deterministic.
func TestConcurrent(t *testing.T) {
	srcs := []string{
		"# A\n\n```go\nfunc f() {}\n```\n\n[x](references/a.md)\n",
		"# B\n\n```python\ndef f(): pass\n```\n\n![i](https://e.example/i.png)\n",
		"# C\n\n```bash\necho hi\n```\n\n| a |\n|---|\n| b |\n",
	}
	want := make([]string, len(srcs))
	for i, s := range srcs {
		want[i] = render(t, s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				k := (g + i) % len(srcs)
				res, err := Render([]byte(srcs[k]), testOptions)
				if err != nil || string(res.HTML) != want[k] {
					errs <- fmt.Sprintf("body %d: %v\n%s", k, err, res.HTML)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestInvalidUTF8(t *testing.T) {
	render(t, "# \xff\xfe\n\n[\xc3](\xe2\x82) \xed\xa0\x80 ![x](\xf0.png)\n\n```go\n\xff\n```\n")
	_ = Plain([]byte("\xff\xfe text"), 5)
}

// TestDeepNesting: quotes and lists nested thousands deep render as a tree
// no deeper than maxNesting containers, with their text kept.
func TestDeepNesting(t *testing.T) {
	for name, src := range map[string]string{
		"quotes": strings.Repeat(">", 5000) + " deep text\n",
		"lists":  deepList(600),
	} {
		t.Run(name, func(t *testing.T) {
			out := render(t, src)
			if n := strings.Count(out, "<blockquote>") + strings.Count(out, "<ul>"); n > maxNesting {
				t.Errorf("%d nested containers, want at most %d", n, maxNesting)
			}
			if !strings.Contains(out, "deep text") {
				t.Errorf("the text is lost:\n%.300s", out)
			}
		})
	}
}

func deepList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	b.WriteString(strings.Repeat("  ", n) + "- deep text\n")
	return b.String()
}
