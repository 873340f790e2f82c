package site_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenPages are the demo catalog's files pinned by TestDemoGolden: the
// home page, a skill page of each input format, a taxonomy page, the
// report, 404 and the feed.
var goldenPages = []string{
	"index.html",
	"skills/release-notes/index.html",       // SKILL.md with scripts and references
	"skills/csv-profiler/index.html",        // USK v3 with schemas and examples
	"skills/agent-browser/index.html",       // a UASP document alone
	"skills/commit-message/index.html",      // a .skill archive
	"skills/skillbag-get-skills/index.html", // a SkillBag workspace skill
	"tags/index.html",
	"plugins/index.html",               // the demo's marketplace
	"plugins/release-tools/index.html", // a plugin with install commands
	"report/index.html",
	"404.html",
	"feed.xml",
}

// TestDemoGolden builds the demo catalog (content/) unminified and
// compares pages with testdata/golden. After a deliberate change to the
// templates, run go test ./build/site -run TestDemoGolden -update and
// review the diff.
func TestDemoGolden(t *testing.T) {
	info, err := siteinfo.New("skilldex demo catalog", "https://skilldex.github.io/demo/")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	// A relative source, so that the paths the pages show are the same
	// on every machine.
	opt := build.Options{Output: out, Site: info, NoMinify: true}
	opt.Sources = []string{filepath.Join("..", "..", "content")}
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	for _, p := range goldenPages {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		golden := filepath.Join("testdata", "golden", filepath.FromSlash(p))
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run with -update to create it)", p, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s; run with -update after a deliberate change and review the diff:\n%s", p, golden, firstDiff(want, got))
		}
	}
}

// firstDiff shows the first line where want and got part.
func firstDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, w, g)
		}
	}
	return ""
}
