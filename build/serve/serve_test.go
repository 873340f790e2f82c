package serve

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "index.html"), "<html><body><p>home</p></body></html>")
	write(t, filepath.Join(dir, "skills", "x", "index.html"), "<p>x</p>")
	write(t, filepath.Join(dir, "404.html"), "<body>lost</body>")
	write(t, filepath.Join(dir, "api", "v1", "index.json"), `{"skills":[]}`)
	write(t, filepath.Join(filepath.Dir(dir), "secret.txt"), "TOPSECRET")
	s := &Server{Dir: dir, BasePath: "/repo/"}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	cases := []struct {
		path, want string
		code       int
	}{
		{"/repo/", `<p>home</p><script src="/__skilldex/reload.js"></script></body>`, 200},
		{"/repo/skills/x/", `<p>x</p><script src="/__skilldex/reload.js"></script>`, 200},
		{"/repo/skills/x", "", 301},
		{"/", "", 302},
		{"/repo/api/v1/index.json", `{"skills":[]}`, 200},
		{"/repo/nope", "lost", 404},
		{"/other/", "lost", 404},
		{"/repo/../secret.txt", "", 307}, // net/http cleans the path first
		{"/repo/%2e%2e/secret.txt", "lost", 404},
		{"/__skilldex/reload.js", "EventSource", 200},
	}
	for _, c := range cases {
		code, body, _ := get(t, ts.URL+c.path)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("GET %s = %d %q, want %d containing %q", c.path, code, body, c.code, c.want)
		}
		if strings.Contains(body, "TOPSECRET") {
			t.Errorf("GET %s read outside the site", c.path)
		}
	}
}

// An edit to a source triggers a rebuild and a reload event; a failed
// rebuild keeps the old site and sends none.
func TestWatchRebuildsAndReloads(t *testing.T) {
	src, site := t.TempDir(), t.TempDir()
	write(t, filepath.Join(src, "a", "SKILL.md"), "one")
	write(t, filepath.Join(site, "index.html"), "<body>v1</body>")
	var fail atomic.Bool
	var n atomic.Int32
	s := &Server{
		Dir: site, BasePath: "/", Sources: []string{src}, Interval: 10 * time.Millisecond,
		// As serve takes it, before the site's build: the edit below is
		// seen however late the watcher starts.
		Baseline: Fingerprint([]string{src}),
		Rebuild: func(ctx context.Context) error {
			if fail.Load() {
				return io.ErrUnexpectedEOF
			}
			v := n.Add(1) + 1
			return os.WriteFile(filepath.Join(site, "index.html"), []byte("<body>v"+string(rune('0'+v))+"</body>"), 0o644)
		},
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx) }()

	res, err := http.Get(ts.URL + Prefix + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: ") {
				events <- strings.TrimPrefix(sc.Text(), "event: ")
			}
		}
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("the page to connect", func() bool { return s.Clients() == 1 })

	write(t, filepath.Join(src, "a", "SKILL.md"), "two, longer")
	select {
	case e := <-events:
		if e != "reload" {
			t.Errorf("event %q", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no reload event after an edit")
	}
	if _, body, _ := get(t, ts.URL+"/"); !strings.Contains(body, "v2") {
		t.Errorf("served %q after the rebuild", body)
	}

	fail.Store(true)
	os.Remove(filepath.Join(src, "a", "SKILL.md"))
	select {
	case e := <-events:
		t.Errorf("event %q after a failed rebuild", e)
	case <-time.After(200 * time.Millisecond):
	}
	if _, body, _ := get(t, ts.URL+"/"); !strings.Contains(body, "v2") {
		t.Errorf("a failed rebuild changed the site: %q", body)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Watch returned %v", err)
	}
}

func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "SKILL.md"), "x")
	f0 := Fingerprint([]string{dir})
	write(t, filepath.Join(dir, ".git", "HEAD"), "ref")
	if Fingerprint([]string{dir}) != f0 {
		t.Error(".git changes the fingerprint")
	}
	// A site built inside the sources (serve -o public) is not a source.
	write(t, filepath.Join(dir, "public", ".skilldex-site"), "")
	write(t, filepath.Join(dir, "public", "index.html"), "x")
	if Fingerprint([]string{dir}) != f0 {
		t.Error("a site skilldex built changes the fingerprint")
	}
	os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	if Fingerprint([]string{dir}) == f0 {
		t.Error("a rename does not change the fingerprint")
	}
}

// TestTuneGC: serve's heap may grow by 200% between collections unless
// GOGC says otherwise, and restore puts the setting back.
func TestTuneGC(t *testing.T) {
	percent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	before := percent()
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	restore := TuneGC()
	if got := percent(); got != 200 {
		t.Errorf("GOGC unset: GC percent %d, want 200", got)
	}
	restore()
	if got := percent(); got != before {
		t.Errorf("after restore: GC percent %d, want %d", got, before)
	}
	defer func(m uint64) { maxTunedHeap = m }(maxTunedHeap)
	maxTunedHeap = 1 // any live heap is past it
	runtime.GC()
	tuned := func() int {
		restore := TuneGC()
		defer restore()
		return percent()
	}
	if got := tuned(); got != before {
		t.Errorf("a live heap past maxTunedHeap: GC percent %d, want it left at %d", got, before)
	}
	maxTunedHeap = 1 << 62
	t.Setenv("GOGC", "50")
	if got := tuned(); got != before {
		t.Errorf("GOGC=50: GC percent %d, want it left at %d", got, before)
	}
}

// TestWatchFromBaseline: a file saved after the baseline was taken (while
// the first build ran) and before Watch started makes Watch rebuild.
func TestWatchFromBaseline(t *testing.T) {
	src := t.TempDir()
	write(t, filepath.Join(src, "a", "SKILL.md"), "one")
	baseline := Fingerprint([]string{src})
	write(t, filepath.Join(src, "a", "SKILL.md"), "saved during the first build")
	rebuilt := make(chan struct{}, 1)
	s := &Server{
		Dir: t.TempDir(), BasePath: "/", Sources: []string{src}, Interval: 10 * time.Millisecond, Baseline: baseline,
		Rebuild: func(ctx context.Context) error {
			select {
			case rebuilt <- struct{}{}:
			default:
			}
			return nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx)
	select {
	case <-rebuilt:
	case <-time.After(5 * time.Second):
		t.Fatal("no rebuild for a file saved before Watch started")
	}
}
