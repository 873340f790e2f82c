package main

import (
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/skilldex/skilldex/internal/testutil"
)

// TestVersionOf reads the build info of each way skilldex is built.
func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-03-01T12:00:00Z"}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	cases := []struct {
		name        string
		bi          *debug.BuildInfo
		override    string
		line        string
		installable string
	}{
		{"go install ...@v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			"", "skilldex v1.2.3 (go1.26.8)", "v1.2.3"},
		{"go install ...@COMMIT", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20260301120000-0123456789ab"}},
			"", "skilldex v0.0.0-20260301120000-0123456789ab (revision 0123456789ab, go1.26.8)", "v0.0.0-20260301120000-0123456789ab"},
		{"a pseudo-version after a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.4-0.20260301120000-0123456789ab"}},
			"", "skilldex v1.2.4-0.20260301120000-0123456789ab (revision 0123456789ab, go1.26.8)", "v1.2.4-0.20260301120000-0123456789ab"},
		{"go build in a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20260301120000-0123456789ab"}, Settings: vcs(rev, "false")},
			"", "skilldex v0.0.0-20260301120000-0123456789ab (revision 0123456789ab, go1.26.8)", "v0.0.0-20260301120000-0123456789ab"},
		{"go build in a modified checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20260301120000-0123456789ab+dirty"}, Settings: vcs(rev, "true")},
			"", "skilldex v0.0.0-20260301120000-0123456789ab+dirty (revision 0123456789ab, modified, go1.26.8)", "v0.0.0-20260301120000-0123456789ab"},
		{"go build at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: vcs(rev, "false")},
			"", "skilldex v1.2.3 (revision 0123456789ab, go1.26.8)", "v1.2.3"},
		{"older go build: (devel) with a revision", &debug.BuildInfo{GoVersion: "go1.22.0", Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")},
			"", "skilldex devel (revision 0123456789ab, go1.22.0)", rev[:12]},
		{"go run, -buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"", "skilldex devel (go1.26.8)", "latest"},
		{"-ldflags -X main.version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"v2.0.0", "skilldex v2.0.0 (go1.26.8)", "v2.0.0"},
	}
	for _, c := range cases {
		v := versionOf(c.bi, c.override)
		if got := v.String(); got != c.line {
			t.Errorf("%s: %q, want %q", c.name, got, c.line)
		}
		if got := v.Installable(); got != c.installable {
			t.Errorf("%s: installable as @%s, want @%s", c.name, got, c.installable)
		}
	}
	if v := versionOf(nil, ""); !strings.HasPrefix(v.String(), "skilldex devel (go") {
		t.Errorf("without build info: %q", v)
	}
}

// TestVersionCommand: skilldex version and skilldex --version print the
// same line, the binary's; -v is --verbose wherever there is one, never
// --version.
func TestVersionCommand(t *testing.T) {
	want := thisVersion().String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || out != want || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, out, errOut, want)
		}
	}
	code, _, errOut := runCLI(t, "-v")
	if code != exitFailure || !strings.Contains(errOut, "unknown flag -v: skilldex has no --verbose (skilldex --version prints the version)") {
		t.Errorf("-v at the root: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "version", "extra"); code != exitFailure || !strings.Contains(errOut, "skilldex version takes no arguments, not 1 argument (extra); usage: skilldex version") {
		t.Errorf("version with an argument: exit %d, %q", code, errOut)
	}
	// Every command with --verbose has -v for it.
	var with []string
	for _, c := range newRootCmd().Commands() {
		f := c.Flags().Lookup("verbose")
		if f == nil {
			continue
		}
		with = append(with, c.Name())
		if f.Shorthand != "v" {
			t.Errorf("skilldex %s --verbose has the shorthand %q, want -v", c.Name(), f.Shorthand)
		}
	}
	if len(with) < 4 {
		t.Errorf("only %v have --verbose; want build, serve, validate and query", with)
	}
}

// TestGeneratorMetaTag: every page names the skilldex that built it, in
// the same line skilldex version prints, and --verbose starts with it.
func TestGeneratorMetaTag(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCLI(t, "build", filepath.Join(dir, "ok"), "-o", out, "--verbose")
	if code != exitOK {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	want := thisVersion().String()
	if !strings.HasPrefix(stderr, want+"\n") {
		t.Errorf("build --verbose starts with %q, want the version line %q", strings.SplitN(stderr, "\n", 2)[0], want)
	}
	for _, page := range []string{"index.html", "skills/ok/index.html", "404.html"} {
		doc := testutil.ReadHTML(t, filepath.Join(out, filepath.FromSlash(page)))
		meta := testutil.FindElement(doc, func(n *html.Node) bool {
			name, _ := testutil.Attr(n, "name")
			return n.Data == "meta" && name == "generator"
		})
		if meta == nil {
			t.Errorf("%s has no generator meta tag", page)
			continue
		}
		if got, _ := testutil.Attr(meta, "content"); got != want {
			t.Errorf("%s: generator %q, want %q", page, got, want)
		}
	}
}
