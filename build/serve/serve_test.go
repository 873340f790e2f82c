package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
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
