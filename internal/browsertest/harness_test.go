package browsertest_test

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skilldex/skilldex/internal/browsertest"
)

// TestHarnessCatches checks that a tab records each kind of problem, so that
// a page test that passes means something, and that it blocks requests to
// another origin.
func TestHarnessCatches(t *testing.T) {
	_, b := demo(t)

	// other is another origin; the tab must never reach it.
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()

	cases := []struct {
		name string
		html string
		want browsertest.Kind // "" for a clean page
		text string           // the problem's text contains this
	}{
		{"clean", `<p>fine</p><script src="ok.js"></script>`, "", ""},
		{"alert", `<script>alert("hello")</script>`, browsertest.Dialog, `"hello"`},
		{"throw", `<script>throw new Error("boom")</script>`, browsertest.Exception, "boom"},
		{"rejection", `<script>Promise.reject(new Error("nope"))</script>`, browsertest.Exception, "nope"},
		{"console", `<script>console.error("bad", 42)</script>`, browsertest.Console, "bad 42"},
		{"csp", `<meta http-equiv="Content-Security-Policy" content="script-src 'self'"><script>1</script>`, browsertest.Log, "Content Security Policy"},
		{"missing", `<img src="missing.png" alt="">`, browsertest.Log, "404"},
		{"foreign", `<img src="` + other.URL + `/x.png" alt="">`, browsertest.Request, other.URL + "/x.png"},
		{"foreign-fetch", `<script>fetch("` + other.URL + `/api").catch(() => {})</script>`, browsertest.Request, other.URL + "/api"},
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ok.js"), []byte("document.body.dataset.ok = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		page := "<!DOCTYPE html><html><head><title>" + c.name + `</title><link rel="icon" href="data:,"></head><body>` + c.html + "</body></html>"
		if err := os.WriteFile(filepath.Join(dir, c.name+".html"), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := browsertest.NewServer(t, dir, "/repo/")
	tab, err := b.NewTab(srv.Origin)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := tab.Visit(srv.Page(c.name + ".html")); err != nil {
				t.Fatal(err)
			}
			problems := tab.Problems()
			if c.want == "" {
				for _, p := range problems {
					t.Errorf("clean page: %s", p)
				}
				return
			}
			for _, p := range problems {
				if p.Kind == c.want && strings.Contains(p.Text, c.text) {
					if !strings.HasSuffix(p.Page, c.name+".html") {
						t.Errorf("%s: recorded for page %s", p, p.Page)
					}
					return
				}
			}
			t.Errorf("no %s problem containing %q; got %q", c.want, c.text, problems)
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other origin got %d requests; the tab should have blocked them", n)
	}
}

// TestHarnessChecksAccessibility checks that a tab that checks
// accessibility records a page's WCAG violations, each once, and nothing
// on a page that breaks no rule.
func TestHarnessChecksAccessibility(t *testing.T) {
	_, b := demo(t)
	axe := browsertest.RequireAxe(t)
	dir := t.TempDir()
	const head = `<!DOCTYPE html><html lang="en"><head><title>t</title><link rel="icon" href="data:,"></head><body><main>`
	pages := map[string]string{
		"clean.html": head + `<h1>Fine</h1><p><a href="clean.html">a link</a></p></main></body></html>`,
		"bad.html":   head + `<h1>Not fine</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="30" height="30"><button></button></main></body></html>`,
	}
	for name, page := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := browsertest.NewServer(t, dir, "/repo/")
	tab, err := b.NewTab(srv.Origin)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	tab.CheckAccessibility(axe)

	if err := tab.Visit(srv.Page("clean.html")); err != nil {
		t.Fatal(err)
	}
	for _, p := range tab.Problems() {
		t.Errorf("clean page: %s", p)
	}
	if err := tab.Visit(srv.Page("bad.html")); err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, p := range tab.Problems() {
		if p.Kind != browsertest.Accessibility || !strings.HasSuffix(p.Page, "bad.html") {
			t.Errorf("unexpected problem: %s", p)
			continue
		}
		rules[strings.SplitN(p.Text, " ", 2)[0]]++
	}
	for _, rule := range []string{"image-alt", "button-name"} {
		if rules[rule] != 1 {
			t.Errorf("%s recorded %d times, want once; recorded: %v", rule, rules[rule], rules)
		}
	}
}

// TestServer checks the server behaves as GitHub Pages does for a project
// site: folders answer with their index.html, a folder without its slash is
// redirected, a missing file gets 404.html with status 404, and nothing is
// served outside the base path.
func TestServer(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":          "home",
		"skills/x/index.html": "x",
		"404.html":            "not here",
		"style.css":           "p{}",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := browsertest.NewServer(t, dir, "/repo/")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path   string
		status int
		body   string // the body, or the Location of a redirect
	}{
		{"/repo/", 200, "home"},
		{"/repo", 301, "/repo/"},
		{"/repo/skills/x/", 200, "x"},
		{"/repo/skills/x", 301, "/repo/skills/x/"},
		{"/repo/style.css", 200, "p{}"},
		{"/repo/nope/", 404, "not here"},
		{"/", 404, "not here"},
		{"/repo/../index.html", 404, "not here"},
	} {
		resp, err := client.Get(srv.Origin + c.path)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if loc := resp.Header.Get("Location"); loc != "" {
			got = loc
		} else {
			var body []byte
			body, err = io.ReadAll(resp.Body)
			got = string(body)
		}
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != c.status || got != c.body {
			t.Errorf("GET %s: %d %q, want %d %q", c.path, resp.StatusCode, got, c.status, c.body)
		}
	}
}

// TestBuildDemoSame checks that the demo site the browser tests load is
// the same from build to build, as skilldex build's is: nothing of the
// temporary folder it is unpacked into shows (the Source facet names a
// folder by its name).
func TestBuildDemoSame(t *testing.T) {
	var sites [2]map[string]string
	for i := range sites {
		dir := filepath.Join(t.TempDir(), "site")
		if err := browsertest.BuildDemo(context.Background(), dir, "/skills/"); err != nil {
			t.Fatal(err)
		}
		sites[i] = map[string]string{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			sites[i][filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(sites[0]) == 0 {
		t.Fatal("the demo site has no file")
	}
	for name, a := range sites[0] {
		if b, ok := sites[1][name]; !ok || a != b {
			t.Errorf("%s differs between two builds of the demo", name)
		}
	}
	if home := sites[0]["index.html"]; !strings.Contains(home, ">content</a>") || strings.Contains(home, "skilldex-demo") {
		t.Error(`the home page's Sources facet does not name the demo "content"`)
	}
}
