package hostile_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/hostile"
	"github.com/skilldex/skilldex/internal/sitecheck"
)

// maxHeapInUse bounds the heap the build of the adversarial catalog may
// hold at any moment. The catalog is small on disk but holds inputs that
// would take gigabytes if expanded (alias bombs, zip bombs). Heap in use
// counts garbage the collector has not reached yet, which grows when the
// collector is short of CPU (the whole suite running at once): the bound
// leaves room for that and still fails on any bomb expanded in memory.
const maxHeapInUse = 3 << 29

// built is the adversarial catalog, built once for all the tests.
type built struct {
	cat     *hostile.Catalog
	out     string
	base    string
	res     *build.Result
	err     error
	peak    uint64 // most heap in use seen during the build
	alloc   uint64 // bytes allocated by the build
	elapsed time.Duration
	before  map[string]string // the temp folder before the build
	after   map[string]string // and after, the output left out
	tmp     string
}

var (
	once   sync.Once
	shared built
)

// buildHostile writes the adversarial catalog (with its large inputs) and
// builds it, measuring time and memory, and snapshots every file under the
// test's folder, and under TMPDIR, before and after.
func buildHostile(t *testing.T) *built {
	t.Helper()
	once.Do(func() {
		b := &shared
		root, err := os.MkdirTemp("", "skilldex-hostile-")
		if err != nil {
			b.err = err
			return
		}
		b.tmp = filepath.Join(root, "tmp")
		os.Mkdir(b.tmp, 0o755)
		b.cat, b.err = hostile.Write(filepath.Join(root, "catalog"), hostile.Options{Large: !testing.Short()})
		if b.err != nil {
			return
		}
		b.out = filepath.Join(root, "site", "public")
		if b.err = os.Mkdir(filepath.Dir(b.out), 0o755); b.err != nil {
			return
		}
		b.base = "/hostile/"
		site, err := siteinfo.New(`Hostile </title><script>alert(1)</script>`, "https://example.com"+b.base)
		if err != nil {
			b.err = err
			return
		}
		// Whatever the build writes to the system's temporary folder lands
		// in tmp, which must be empty afterwards.
		oldTmp := os.Getenv("TMPDIR")
		os.Setenv("TMPDIR", b.tmp)
		defer os.Setenv("TMPDIR", oldTmp)
		b.before = snapshot(root, "")

		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		startAlloc := ms.TotalAlloc
		var peak atomic.Uint64
		done := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-done:
					return
				case <-tick.C:
				}
			}
		}()
		// The deadline catches a hang, not a slow build: under the race
		// detector on two busy cores the build takes over a minute. The
		// time is logged above; benchmarks, not tests, hold speed goals.
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		start := time.Now()
		b.res, b.err = build.Build(ctx, build.Options{
			LoadOptions: build.LoadOptions{Sources: b.cat.Sources},
			Output:      b.out,
			Site:        site,
		})
		b.elapsed = time.Since(start)
		close(done)
		<-sampled
		runtime.ReadMemStats(&ms)
		b.alloc = ms.TotalAlloc - startAlloc
		b.peak = max(peak.Load(), ms.HeapInuse)
		b.after = snapshot(root, b.out)
	})
	if shared.cat == nil {
		t.Fatalf("writing the adversarial catalog: %v", shared.err)
	}
	return &shared
}

// mustBuild is buildHostile for the tests that need the site.
func mustBuild(t *testing.T) *built {
	t.Helper()
	b := buildHostile(t)
	if b.err != nil {
		t.Fatalf("building the adversarial catalog: %v", b.err)
	}
	return b
}

// TestMain removes the shared build's folder.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cat != nil {
		os.RemoveAll(filepath.Dir(shared.cat.Dir))
	}
	os.Exit(code)
}

// snapshot maps every path under root (but under skip) to its type, size
// and modification time. Symlinks are recorded, never followed.
func snapshot(root, skip string) map[string]string {
	m := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			m[p] = "error: " + err.Error()
			return nil
		}
		if skip != "" && p == skip {
			return fs.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			m[p] = "error: " + err.Error()
			return nil
		}
		if d.IsDir() {
			m[p] = "dir " + info.Mode().String()
		} else {
			m[p] = fmt.Sprintf("%v %v %d", info.Mode(), info.ModTime(), info.Size())
		}
		return nil
	})
	return m
}

func TestBuildFinishesWithBoundedMemory(t *testing.T) {
	b := buildHostile(t)
	t.Logf("build took %v; allocated %d MB, peak heap in use %d MB", b.elapsed.Round(time.Millisecond), b.alloc>>20, b.peak>>20)
	if b.peak > maxHeapInUse {
		t.Errorf("peak heap in use %d MB, more than %d MB", b.peak>>20, maxHeapInUse>>20)
	}
	if b.err != nil {
		t.Fatalf("building the adversarial catalog: %v", b.err)
	}
	t.Logf("%d inputs, %d published, %d files", len(b.res.Catalog.All), len(b.res.Catalog.Skills), b.res.Files)
}

func TestGoodSkillsArePublished(t *testing.T) {
	b := mustBuild(t)
	c := b.res.Catalog
	for _, name := range b.cat.Good {
		s := c.Lookup(name)
		if s == nil {
			t.Errorf("good skill %s is not published; its copies: %s", name, describe(c, name))
			continue
		}
		page := filepath.Join(b.out, "skills", name, "index.html")
		if _, err := os.Stat(page); err != nil {
			t.Errorf("good skill %s has no page: %v", name, err)
		}
	}
	if s := c.Lookup("good-two"); s != nil && !strings.Contains(s.Root, "catalog-b") {
		t.Errorf("good-two published from %s, want the second root", s.Root)
	}
	// Every published skill has a page, and its name is one plain path
	// segment with no control, format or bidi characters.
	for _, s := range c.Skills {
		if !safeName(s.Name) {
			t.Errorf("published a skill named %q (from %s)", s.Name, s.Path)
			continue
		}
		if _, err := os.Stat(filepath.Join(b.out, "skills", s.Name, "index.html")); err != nil {
			t.Errorf("published skill %s has no page: %v", s.Name, err)
		}
	}
}

// safeName reports whether a name is a single, visible path segment.
func safeName(name string) bool {
	if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
		return false
	}
	for _, r := range name {
		if unicode.Is(unicode.Cf, r) || unicode.IsControl(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

func describe(c *catalog.Catalog, name string) string {
	var out []string
	for _, s := range c.All {
		if s.Name == name || s.DirName == name {
			out = append(out, s.Path+" "+string(s.Status)+" "+diagList(s.Diagnostics))
		}
	}
	return strings.Join(out, "; ")
}

func diagList(ds []diag.Diagnostic) string {
	var out []string
	for _, d := range ds {
		if d.Severity >= diag.Warning {
			out = append(out, d.Code+": "+d.Message)
		}
	}
	return "[" + strings.Join(out, " | ") + "]"
}

// TestBadInputsAreReported checks that every input that is not published
// says why, with a code and a file, and that the inputs built to be bad
// are rejected for the right reason.
func TestBadInputsAreReported(t *testing.T) {
	b := mustBuild(t)
	c := b.res.Catalog
	for _, s := range c.All {
		for _, d := range s.Diagnostics {
			if d.Code == "" || d.File == "" {
				t.Errorf("%s: diagnostic without a code or file: %+v", s.Path, d)
			}
		}
		if s.Published() || s.ShadowedBy != nil {
			continue
		}
		if !slices.ContainsFunc(s.Diagnostics, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }) {
			t.Errorf("%s is not published but has no error: %s", s.Path, diagList(s.Diagnostics))
		}
	}
	for _, d := range c.Diagnostics {
		if d.Code == "" || d.File == "" {
			t.Errorf("source diagnostic without a code or file: %+v", d)
		}
	}
	// What each bad input must be rejected with: the input's path relative
	// to the catalog, and a diagnostic code among its errors.
	cases := []struct{ path, code string }{
		{"catalog-a/archives/climb.skill", "archive-unsafe-path"},
		{"catalog-a/archives/climb-bare.skill", "archive-unsafe-path"},
		{"catalog-a/archives/backslash.skill", "archive-unsafe-path"},
		{"catalog-a/archives/absolute.skill", "archive-unsafe-path"},
		{"catalog-a/archives/drive.skill", "archive-unsafe-path"},
		{"catalog-a/archives/symlink.skill", "archive-unsafe-path"},
		{"catalog-a/archives/device.skill", "archive-unsafe-path"},
		{"catalog-a/archives/control.skill", "archive-unsafe-path"},
		{"catalog-a/archives/dup.skill", "archive-duplicate-entry"},
		{"catalog-a/archives/long-name.skill", "archive-name-too-long"},
		{"catalog-a/archives/many.skill", "archive-too-many-files"},
		{"catalog-a/archives/spread.skill", "archive-too-large"},
		{"catalog-a/archives/bomb.skill", "archive-too-large"},
		{"catalog-a/archives/bomb-lies.skill", "archive-invalid"}, // Go's zip reader stops at the size the header claims
		{"catalog-a/archives/truncated.skill", "archive-invalid"},
		{"catalog-a/archives/corrupt.skill", "archive-invalid"},
		{"catalog-a/archives/text.skill", "archive-invalid"},
		{"catalog-a/archives/empty.skill", "archive-invalid"},
		{"catalog-a/archives/no-skill-md.skill", "archive-no-skill-md"},
		{"catalog-a/unclosed", "frontmatter-unclosed"},
		{"catalog-a/missing-fm", "frontmatter-missing"},
		{"catalog-a/html-skill", "frontmatter-missing"},
		{"catalog-a/utf16", "frontmatter-missing"},
		{"catalog-a/not-mapping", "frontmatter-not-mapping"},
		{"catalog-a/alias-bomb", "yaml-invalid"},
		{"catalog-a/merge-bomb", "yaml-invalid"},
		{"catalog-a/alias-self", "yaml-invalid"},
		{"catalog-a/alias-missing", "yaml-invalid"},
		{"catalog-a/deep-flow", "yaml-invalid"},
		{"catalog-a/deep-map", "yaml-invalid"},
		{"catalog-a/deep-block", "yaml-invalid"},
		{"catalog-a/uasp-bomb.uasp.yaml", "uasp-yaml-invalid"},
		{"catalog-a/uasp-deep.uasp.yaml", "uasp-yaml-invalid"},
		{"catalog-a/linked-skill-md", ""},
	}
	if !testing.Short() {
		cases = append(cases, []struct{ path, code string }{
			{"catalog-a/huge-description", "yaml-invalid"},
			{"catalog-a/huge-list", "yaml-invalid"},
			{"catalog-a/oversize", "file-unreadable"},
		}...)
	}
	// Names that are paths, or hide characters; those that are merely
	// not lowercase letters, digits and hyphens ("CON", "index.html",
	// "x%2f..%2fy", "-": 11 to 14) are published with a warning.
	for _, i := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15} {
		cases = append(cases, struct{ path, code string }{filepath.ToSlash(filepath.Join("catalog-a", "name-"+strconv.Itoa(i))), ""})
		cases = append(cases, struct{ path, code string }{filepath.ToSlash(filepath.Join("catalog-a", "name-doc-"+strconv.Itoa(i)+".uasp.yaml")), ""})
	}
	for _, tc := range cases {
		want := filepath.Join(b.cat.Dir, filepath.FromSlash(tc.path))
		var s *catalog.Skill
		for _, x := range c.All {
			if x.Path == want {
				s = x
			}
		}
		if s == nil {
			t.Errorf("%s: not found among the inputs", tc.path)
			continue
		}
		if s.Status != lint.Rejected {
			t.Errorf("%s: %s as %q, want it rejected", tc.path, s.Status, s.Name)
			continue
		}
		if tc.code != "" && !slices.ContainsFunc(s.Diagnostics, func(d diag.Diagnostic) bool { return d.Severity == diag.Error && d.Code == tc.code }) {
			t.Errorf("%s: want an error %s, got %s", tc.path, tc.code, diagList(s.Diagnostics))
		}
	}
	// Symlinks out of a skill are reported, and the good parts published.
	if s := c.Lookup("symlinks"); s == nil {
		t.Errorf("the skill with outside symlinks is not published: %s", describe(c, "symlinks"))
	} else if !slices.ContainsFunc(append(s.Diagnostics, c.Diagnostics...), func(d diag.Diagnostic) bool { return d.Code == "symlink-outside-skill" }) {
		t.Errorf("no symlink-outside-skill diagnostic: %s", diagList(s.Diagnostics))
	}
	// The archive inside an archive is a file, never a skill.
	if c.Lookup("inner") != nil {
		t.Errorf("the archive inside nested.skill was published as a skill")
	}
	if c.Lookup("leaked-secret") != nil || c.Lookup("leaked-uasp") != nil {
		t.Errorf("a skill outside the sources, reached through a symlink, was published")
	}
}

// TestNothingWrittenOutside compares every file under the build's
// folder, and the temporary folder, before and after the build. It holds
// for a failed build too, which must also leave no output folder.
func TestNothingWrittenOutside(t *testing.T) {
	b := buildHostile(t)
	if _, err := os.Stat(b.out); b.err != nil && err == nil {
		t.Errorf("the build failed (%v) but left an output folder", b.err)
	}
	for p, v := range b.after {
		if w, ok := b.before[p]; !ok {
			t.Errorf("the build created %s (%s) outside the output folder", p, v)
		} else if w != v && !strings.HasPrefix(v, "dir") {
			t.Errorf("the build changed %s outside the output folder: %s -> %s", p, w, v)
		}
	}
	for p := range b.before {
		if _, ok := b.after[p]; !ok && !strings.HasPrefix(p, b.out) {
			t.Errorf("the build removed %s", p)
		}
	}
	for _, p := range []string{"/tmp/skilldex-escaped.txt", filepath.Join(b.cat.Dir, "escaped.txt"), filepath.Join(filepath.Dir(b.cat.Dir), "escaped.txt")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("an archive entry escaped to %s", p)
		}
	}
}

// TestNoLiveScriptOrSecret scans every output file for script that could
// run, active documents the site did not make, and the secret.
func TestNoLiveScriptOrSecret(t *testing.T) {
	b := mustBuild(t)
	problems, err := hostile.Scan(b.out, hostile.ScanOptions{BasePath: b.base, Secrets: b.cat.Secrets, Markers: b.cat.Markers})
	if err != nil {
		t.Fatal(err)
	}
	report(t, problems)
	// The secret is in no diagnostic either (validate prints them).
	c := b.res.Catalog
	all := slices.Clone(c.Diagnostics)
	for _, s := range c.All {
		all = append(all, s.Diagnostics...)
		if strings.Contains(s.Description, hostile.Secret) {
			t.Errorf("%s: the secret was read into the skill", s.Path)
		}
		if k, err := c.Content(s); err == nil && strings.Contains(string(k.Source), hostile.Secret) {
			t.Errorf("%s: the secret was read into the skill's SKILL.md", s.Path)
		}
	}
	for _, d := range all {
		if strings.Contains(d.Message, hostile.Secret) {
			t.Errorf("diagnostic quotes the secret: %s %s: %s", d.File, d.Code, d.Message)
		}
	}
}

// TestSiteCheck runs the site checker over the output.
func TestSiteCheck(t *testing.T) {
	b := mustBuild(t)
	problems, err := sitecheck.Check(b.out, sitecheck.Options{BasePath: b.base, Origin: "https://example.com"})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range problems {
		lines = append(lines, p.String())
	}
	report(t, lines)
}

// report fails with the first problems, and how many there are.
func report(t *testing.T, problems []string) {
	t.Helper()
	const show = 40
	for i, p := range problems {
		if i == show {
			t.Errorf("... and %d more", len(problems)-show)
			break
		}
		t.Error(p)
	}
}

// TestScanFindsLiveScript makes sure the scanner is not blind: it must
// flag each kind of live content in a page of its own.
func TestScanFindsLiveScript(t *testing.T) {
	cases := []struct{ name, file, content, want string }{
		{"inline script", "index.html", `<script>alert(1)</script>`, "inline script"},
		{"foreign script", "index.html", `<script src="https://evil.example/x.js"></script>`, "not one of the site's own assets"},
		{"climbing script", "index.html", `<script src="/hostile/assets/../skills/x/evil.js"></script>`, "not one of the site's own assets"},
		{"event handler", "index.html", `<img src=x onerror=alert(1)>`, "event handler"},
		{"style", "index.html", `<p style="color:red">x</p>`, "style attribute"},
		{"javascript href", "index.html", `<a href="jav&#x09;ascript:alert(1)">x</a>`, "script URL"},
		{"data src", "index.html", `<img src=" data:image/svg+xml,x">`, "script URL"},
		{"vbscript action", "index.html", `<form action="VBScript:x"></form>`, "script URL"},
		{"iframe", "index.html", `<iframe src="x"></iframe>`, "<iframe> element"},
		{"object", "index.html", `<object data="x"></object>`, "<object> element"},
		{"embed", "index.html", `<embed src="x">`, "<embed> element"},
		{"base", "index.html", `<base href="https://evil.example/">`, "<base> element"},
		{"meta refresh", "index.html", `<meta http-equiv="refresh" content="0;url=x">`, "meta refresh"},
		{"svg script", "index.html", `<svg><script>alert(1)</script></svg>`, "inline script"},
		{"svg handler", "index.html", `<svg><a xlink:href="javascript:alert(1)"><circle onmouseover="x"/></a></svg>`, "event handler"},
		{"skill page", "skills/x/evil.html", `x`, "did not make"},
		{"skill svg", "skills/x/evil.svg", `<svg/>`, "did not make"},
		{"xhtml", "x.xhtml", `x`, "did not make"},
		{"marker", "skills/x/index.html", hostile.Marker, "marker"},
		{"site svg with script", "assets/icon.svg", `<svg><script>alert(1)</script></svg>`, "<script> element"},
		{"site svg handler", "assets/icon.svg", `<svg onload="alert(1)"/>`, "event handler"},
		{"feed html text", "feed.xml", `<feed><summary type="html">&lt;img src=x onerror=alert(1)&gt;</summary></feed>`, "in text of type html"},
		{"feed stylesheet", "feed.xml", `<?xml-stylesheet href="x.xsl"?><feed/>`, "xml-stylesheet"},
		{"secret", "api/v1/x.json", `{"d":"` + hostile.Secret + `"}`, "secret"},
		{"symlink", "", "", "symbolic link"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.file == "" {
				if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
			} else {
				p := filepath.Join(dir, filepath.FromSlash(tc.file))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			problems, err := hostile.Scan(dir, hostile.ScanOptions{BasePath: "/hostile/", Secrets: []string{hostile.Secret}, Markers: []string{hostile.Marker}})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Errorf("want a problem with %q, got %q", tc.want, problems)
			}
		})
	}
	// A clean page of the site's own passes.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<!doctype html><html><head><script src="/hostile/assets/app.js" defer></script></head><body><a href="/hostile/skills/x/">x &lt;script&gt;alert(1)&lt;/script&gt; javascript:alert(1)</a><svg class="icon"><use href="/hostile/assets/icons.svg#x"></use></svg></body></html>`), 0o644)
	os.WriteFile(filepath.Join(dir, "feed.xml"), []byte(`<?xml version="1.0"?><feed><title>&lt;script&gt;alert(1)&lt;/script&gt;</title><summary>&lt;img src=x onerror=alert(1)&gt;</summary><summary type="html">&lt;b&gt;bold&lt;/b&gt;</summary></feed>`), 0o644)
	if problems, err := hostile.Scan(dir, hostile.ScanOptions{BasePath: "/hostile/"}); err != nil || len(problems) > 0 {
		t.Errorf("a clean page: %q, %v", problems, err)
	}
}
