package siteread

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testutil"
)

var (
	scratch  string // removed when the tests end
	demoOnce sync.Once
	demoDir  string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "skilldex-siteread-test-")
	if err != nil {
		panic(err)
	}
	scratch = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// demoSite is the demo catalog (content/) built with per-path files for
// sections only, once per test binary.
func demoSite(t *testing.T) string {
	t.Helper()
	demoOnce.Do(func() {
		demoDir, _ = buildSiteIn(t, filepath.Join(scratch, "demo"), siteinfo.QueryPathsSections, filepath.Join(testutil.ProjectRoot(t), "content"))
	})
	if demoDir == "" {
		t.Fatal("the demo site did not build")
	}
	return demoDir
}

// serve serves dir under /sub/dir/ and returns the site's URL and the
// paths requested.
func serve(t *testing.T, dir string) (string, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var requested []string
	files := http.StripPrefix("/sub/dir", http.FileServer(http.Dir(dir)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requested = append(requested, r.URL.Path)
		mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/sub/dir/", &requested
}

func open(t *testing.T, location string) *Site {
	t.Helper()
	s, err := Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHTTPReadsAsFolder: a site read over HTTP under a sub-path answers
// every call as its folder does, but for the links, which name where it
// is read from.
func TestHTTPReadsAsFolder(t *testing.T) {
	dir := demoSite(t)
	base, requested := serve(t, dir)
	local, remote := open(t, dir), open(t, base)
	ctx := context.Background()
	for _, raw := range []string{
		"agent-browser:commands.click", "agent-browser:commands.record.start.args.file", "stripe-best-practices:decisions?when=*Charges*",
		"stripe-best-practices:sources.stripe:migration/charges.url", "mermaid-diagrams:reference.sequence.parallel.syntax",
		"csv-profiler:meta.description", "agent-browser:commands.nope", "nobody:meta",
	} {
		q, err := uasp.ParseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		a, af, err := local.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		b, bf, err := remote.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) || af != bf {
			t.Errorf("%s: over HTTP\n%s\nfrom the folder\n%s", raw, b, a)
		}
	}
	for _, q := range []string{"csv", "browser", "release notes changelog", "diagram"} {
		r1, err := local.Search(ctx, q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := remote.Search(ctx, q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r1.Total != r2.Total || !slices.EqualFunc(r1.Hits, r2.Hits, func(a, b Hit) bool { return a.Name == b.Name && a.Description == b.Description }) {
			t.Errorf("%q: over HTTP %v, from the folder %v", q, r2.Hits, r1.Hits)
		}
		for _, h := range r2.Hits {
			if !strings.HasPrefix(h.Page, base+"skills/") || (h.Install != "" && !strings.Contains(h.Install, base)) {
				t.Errorf("%q: %s links %s and installs with %q, not from %s", q, h.Name, h.Page, h.Install, base)
			}
		}
	}
	sk1, err := local.Skill(ctx, "release-notes")
	if err != nil {
		t.Fatal(err)
	}
	sk2, err := remote.Skill(ctx, "release-notes")
	if err != nil {
		t.Fatal(err)
	}
	if sk1.Markdown != sk2.Markdown || len(sk1.Files) != len(sk2.Files) {
		t.Errorf("release-notes over HTTP differs")
	}
	for _, p := range *requested {
		if !strings.HasPrefix(p, "/sub/dir/") || strings.HasSuffix(p, "/index.json") || strings.HasSuffix(p, "llms-full.txt") {
			t.Errorf("requested %s: outside the site, or a catalog-wide file", p)
		}
	}
}

func TestSearch(t *testing.T) {
	s := open(t, demoSite(t))
	ctx := context.Background()
	names := func(hits []Hit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.Name)
		}
		return out
	}
	search := func(q string, opt SearchOptions) *SearchResult {
		t.Helper()
		res, err := s.Search(ctx, q, opt)
		if err != nil {
			t.Fatalf("%q %+v: %v", q, opt, err)
		}
		return res
	}
	res := search("csv profile", SearchOptions{})
	hits := res.Hits
	if len(hits) == 0 || hits[0].Name != "csv-profiler" || res.Total < 1 || len(res.Notes) > 0 {
		t.Fatalf("csv profile: %v, notes %v", names(hits), res.Notes)
	}
	h := hits[0]
	if h.Page != "https://example.org/skills/skills/csv-profiler/" || h.Install != "npx skills add https://example.org/skills/ --skill csv-profiler" ||
		!strings.HasPrefix(h.Description, "Profile a CSV file") || !slices.Contains(h.Tags, "csv") {
		t.Errorf("hit %+v", h)
	}
	// A UASP document alone has no SKILL.md: the CLI cannot install it.
	hits = search("browser", SearchOptions{Type: "CLI"}).Hits
	if !slices.Equal(names(hits), []string{"agent-browser"}) || hits[0].Install != "" {
		t.Errorf("browser, type cli: %+v", hits)
	}
	// An empty query with a filter lists what the filter keeps, by name.
	if hits = search("", SearchOptions{Tag: "csv"}).Hits; !slices.Equal(names(hits), []string{"csv-profiler"}) {
		t.Errorf("tag csv: %v", names(hits))
	}
	if _, err := s.Search(ctx, "csv", SearchOptions{Type: "no-such-type"}); err == nil || !strings.Contains(err.Error(), "knowledge, cli, api, hybrid") {
		t.Errorf("an unknown type: %v, want an error naming the types", err)
	}
	if hits = search("e", SearchOptions{Limit: 2}).Hits; len(hits) != 2 {
		t.Errorf("limit 2 gives %d", len(hits))
	}
	// What may not do what was meant is noted.
	for q, c := range map[string]struct {
		opt  SearchOptions
		note string
	}{
		"tpye:cli browser": {SearchOptions{}, "tpye:cli is no filter, so it is searched as words; did you mean type:cli?"},
		"csv":              {SearchOptions{Tag: "no-such-tag"}, `no skill of the catalog is tagged "no-such-tag"`},
		"notes":            {SearchOptions{Plugin: "nope"}, `no skill of the catalog is in the plugin "nope"`},
		"review tag:nope":  {SearchOptions{}, "no skill of the catalog has tag:nope, so nothing matches"},
		`csv plugin:"a b"`: {SearchOptions{}, `no skill of the catalog has plugin:"a b", so nothing matches`},
		"csv -tag:nope":    {SearchOptions{}, ""},
		"csv tag:CSV":      {SearchOptions{}, ""},
		"csv tag:Nope":     {SearchOptions{Tag: "nope"}, `no skill of the catalog is tagged "nope"`},
	} {
		if c.note == "" {
			if res := search(q, c.opt); len(res.Notes) > 0 || len(res.Hits) == 0 {
				t.Errorf("%q: notes %q, %d hits", q, res.Notes, len(res.Hits))
			}
			continue
		}
		if res := search(q, c.opt); !slices.Equal(res.Notes, []string{c.note}) {
			t.Errorf("%q %+v: notes %q, want %q", q, c.opt, res.Notes, c.note)
		}
	}
}

func TestSkill(t *testing.T) {
	dir := demoSite(t)
	s := open(t, dir)
	ctx := context.Background()
	sk, err := s.Skill(ctx, "release-notes")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sk.Markdown, "---\nname: release-notes\n") || !strings.Contains(sk.Markdown, "# Release notes") ||
		sk.MarkdownURL != "https://example.org/skills/skills/release-notes/index.html.md" {
		t.Errorf("twin %s:\n%.200s", sk.MarkdownURL, sk.Markdown)
	}
	wantFiles := []string{"SKILL.md", "references/style.md", "scripts/collect_commits.sh"}
	checkFiles := func(sk *Skill, fromPage bool) {
		t.Helper()
		var paths []string
		for _, f := range sk.Files {
			paths = append(paths, f.Path)
			if f.URL != "https://example.org/skills/skills/release-notes/"+f.Path {
				t.Errorf("file %+v: url", f)
			}
			published, err := os.Stat(filepath.Join(dir, "skills", "release-notes", filepath.FromSlash(f.Path)))
			switch {
			case err != nil:
				t.Error(err)
			case fromPage && (f.Bytes != -1 || f.Size == ""):
				t.Errorf("file %+v: read from the page, it has the page's size only", f)
			case !fromPage && (f.Bytes != published.Size() || f.Size != ""):
				t.Errorf("file %+v: %d bytes published", f, published.Size())
			}
		}
		if !slices.Equal(paths, wantFiles) {
			t.Errorf("files %v, want %v", paths, wantFiles)
		}
	}
	checkFiles(sk, false)
	// A JSON whose list holds paths no skill's file has keeps the others,
	// a size it does not give unknown.
	hostile := open(t, dir)
	readHostile := hostile.fetch
	hostile.fetch = func(ctx context.Context, p string) ([]byte, error) {
		if p == siteinfo.APISkill("release-notes") {
			return []byte(`{"files": [{"path": "../../../etc/passwd", "url": "x"}, {"path": "a\\b", "url": "y"}, {"path": "", "url": "z"}, {"path": "ok.txt", "url": "w"}]}`), nil
		}
		return readHostile(ctx, p)
	}
	if sk, err := hostile.Skill(ctx, "release-notes"); err != nil {
		t.Error(err)
	} else if len(sk.Files) != 1 || sk.Files[0] != (File{Path: "ok.txt", Bytes: -1, URL: "https://example.org/skills/skills/release-notes/ok.txt"}) {
		t.Errorf("files of a hostile list: %+v", sk.Files)
	}
	// A site built before the skill JSON listed the files, and a skill
	// without a JSON: the page lists them.
	for _, jsonMissing := range []bool{false, true} {
		old := open(t, dir)
		readJSON := old.fetch
		old.fetch = func(ctx context.Context, p string) ([]byte, error) {
			b, err := readJSON(ctx, p)
			if err != nil || p != siteinfo.APISkill("release-notes") {
				return b, err
			}
			if jsonMissing {
				return nil, fs.ErrNotExist
			}
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if _, ok := doc["files"]; !ok {
				t.Errorf("%s has no files", p)
			}
			delete(doc, "files")
			return json.Marshal(doc)
		}
		if sk, err := old.Skill(ctx, "release-notes"); err != nil {
			t.Errorf("JSON missing %v: %v", jsonMissing, err)
		} else {
			checkFiles(sk, true)
		}
	}
	if _, err := s.Skill(ctx, "no-such-skill"); !errors.Is(err, ErrNoSkill) {
		t.Errorf("a missing skill: %v", err)
	}
	read := s.fetch
	s.fetch = func(ctx context.Context, p string) ([]byte, error) {
		t.Errorf("read %s for a name that is not one", p)
		return read(ctx, p)
	}
	for _, name := range []string{"", "../release-notes", "https://example.org/x", "release-notes/../../etc", `..\x`, ".well-known", "x\x00"} {
		if _, err := s.Skill(ctx, name); err == nil || errors.Is(err, ErrNoSkill) {
			t.Errorf("Skill(%q): %v", name, err)
		}
	}
	if b, err := open(t, dir).LLMS(ctx); err != nil || !strings.HasPrefix(string(b), "# ") {
		t.Errorf("llms.txt: %v %.40s", err, b)
	}
}

// TestHTTPRefusals: a redirect off the site's host is not followed, an
// address without a site is not one, and a site that vanishes gives
// errors, not answers.
func TestHTTPRefusals(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"version": 1}`))
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirect.Close()
	if _, err := Open(context.Background(), redirect.URL+"/"); err == nil || !strings.Contains(err.Error(), "leaves the site") {
		t.Errorf("a redirect off the host: %v", err)
	}
	empty := httptest.NewServer(http.NotFoundHandler())
	defer empty.Close()
	if _, err := Open(context.Background(), empty.URL+"/skills/"); !errors.Is(err, ErrNotSite) {
		t.Errorf("an address without a site: %v", err)
	}
}
