package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/testutil"
)

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestBuildExitCodes(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	ok, warn := filepath.Join(dir, "ok"), filepath.Join(dir, "warn")
	out := filepath.Join(t.TempDir(), "site")
	cases := []struct {
		name  string
		args  []string
		code  int
		err   string // in stderr
		wrote bool   // the site exists afterwards
	}{
		{"clean", []string{"build", ok, "-o", out}, 0, "published 1 skill to", true},
		{"warning is not failure", []string{"build", warn, "-o", out}, 0, "1 warning", true},
		{"strict fails on a warning", []string{"build", "--strict", warn, "-o", out + "-strict"}, 1, "--strict", false},
		{"a rejected skill is reported, the rest published", []string{"build", dir, "-o", out}, 1, "must start with YAML frontmatter", true},
		{"missing source", []string{"build", filepath.Join(dir, "missing"), "-o", out + "-missing"}, 2, "does not exist", false},
		{"bad base URL", []string{"build", ok, "--base-url", "ftp://x/", "-o", out + "-ftp"}, 2, "want http or https", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.err) {
				t.Errorf("exit %d, want %d; stderr %q should mention %q", code, c.code, stderr, c.err)
			}
			site := c.args[len(c.args)-1]
			if got := exists(filepath.Join(site, ".skilldex-site")); got != c.wrote {
				t.Errorf("site written = %v, want %v", got, c.wrote)
			}
		})
	}
}

// A folder skilldex did not make is never replaced.
func TestBuildRefusesForeignFolder(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "precious.txt"), []byte("mine"), 0o644)
	code, _, stderr := runCLI(t, "build", filepath.Join(dir, "ok"), "-o", out)
	if code != exitFailure || !strings.Contains(stderr, "refusing to replace") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "precious.txt")); string(b) != "mine" {
		t.Error("the user's file was touched")
	}
}

// With no source and no config, build publishes the embedded demo catalog
// and reports its files as content/...
func TestBuildDemoDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := runCLI(t, "build")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "published 8 skills to public") {
		t.Errorf("summary: %s", stderr)
	}
	if !exists(filepath.Join("public", ".skilldex-site")) {
		t.Error("no site in public/")
	}
	// What fails the demo under --strict names its file as the repository
	// has it.
	code, _, stderr = runCLI(t, "build", "--strict", "-o", "strict")
	if code != exitFindings || !strings.Contains(stderr, "content/skills/csv-profiler/SKILL.md") {
		t.Errorf("strict demo build: exit %d, stderr %q", code, stderr)
	}
}

// TestBuildBaseURLNote: a build without a base URL says once, in one
// line, what the site lacks and how to set it; with one, or with -q, it
// says nothing of the kind.
func TestBuildBaseURLNote(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		want int // lines that start with "note: "
	}{
		{[]string{"build"}, 1},
		{[]string{"build", "--base-url", "/skills/", "-o", "path"}, 1},
		{[]string{"build", "--base-url", "https://acme.github.io/skills/", "-o", "absolute"}, 0},
		{[]string{"build", "-q", "-o", "quiet"}, 0},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", c.args, code, stderr)
		}
		var notes []string
		for _, line := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(line, "note: ") {
				notes = append(notes, line)
			}
		}
		if len(notes) != c.want {
			t.Errorf("%q: %d notes, want %d:\n%s", c.args, len(notes), c.want, stderr)
			continue
		}
		for _, n := range notes {
			for _, want := range []string{"sitemap.xml", "base_url in skilldex.yaml", "--base-url"} {
				if !strings.Contains(n, want) {
					t.Errorf("%q: the note does not say %q: %s", c.args, want, n)
				}
			}
		}
	}
}

func TestBuildConfig(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog+`
-- site/skilldex.yaml --
title: Acme skills
base_url: https://acme.github.io/skills/
sources:
  - ../ok
output: out
-- typo/skilldex.yaml --
title: Acme
sourcs: [x]
-- badpaths/skilldex.yaml --
api:
  paths: some
-- badlegacy/skilldex.yaml --
discovery:
  legacy: maybe
-- settings/skilldex.yaml --
sources: [../ok]
api:
  paths: none
discovery:
  legacy: false
publish:
  markdown: false
  bleve: false
`)
	// Sources and output are relative to the config file, not the
	// working folder.
	code, _, stderr := runCLI(t, "build", "--config", filepath.Join(dir, "site", "skilldex.yaml"))
	if code != exitOK || !exists(filepath.Join(dir, "site", "out", ".skilldex-site")) {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	// A flag overrides the file.
	other := filepath.Join(t.TempDir(), "flag")
	code, _, stderr = runCLI(t, "build", "--config", filepath.Join(dir, "site", "skilldex.yaml"), "-o", other)
	if code != exitOK || !exists(filepath.Join(other, ".skilldex-site")) {
		t.Errorf("-o did not override output: exit %d, %s", code, stderr)
	}
	// skilldex.yaml in the working folder is read without --config.
	t.Chdir(filepath.Join(dir, "site"))
	if code, _, stderr := runCLI(t, "build", "-o", filepath.Join(t.TempDir(), "cwd")); code != exitOK || !strings.Contains(stderr, "published 1 skill to") {
		t.Errorf("skilldex.yaml in the working folder: exit %d, %s", code, stderr)
	}
	// api.paths and discovery.legacy take effect; YAML's false is
	// accepted where the setting also takes "auto".
	out := filepath.Join(t.TempDir(), "settings")
	if code, _, stderr := runCLI(t, "build", "--config", filepath.Join(dir, "settings", "skilldex.yaml"), "-o", out); code != exitOK {
		t.Errorf("settings: exit %d, %s", code, stderr)
	}
	if exists(filepath.Join(out, ".well-known", "skills", "index.json")) {
		t.Error("discovery.legacy: false still wrote the v0.1 index")
	}
	if m, _ := filepath.Glob(filepath.Join(out, "api", "v1", "skills", "*", "paths.json")); len(m) > 0 {
		t.Errorf("api.paths: none still wrote %s", m[0])
	}
	if m, _ := filepath.Glob(filepath.Join(out, "skills", "*", "index.html.md")); len(m) > 0 || exists(filepath.Join(out, "search", "bleve.zip")) {
		t.Error("publish.markdown or publish.bleve: false did not take effect")
	}
	if m, _ := filepath.Glob(filepath.Join(out, "skills", "*", "*.skill")); len(m) == 0 {
		t.Error("publish.archives, not named, was turned off")
	}
	for file, want := range map[string]string{
		"typo":      "skilldex.yaml:2:1: key sourcs is not a known key",
		"badpaths":  `api.paths is "some"`,
		"badlegacy": `discovery.legacy is "maybe"`,
		"missing":   "skilldex.yaml does not exist; give the path of a skilldex.yaml, or run skilldex init to make one",
	} {
		code, _, stderr := runCLI(t, "build", "--config", filepath.Join(dir, file, "skilldex.yaml"))
		if code != exitFailure || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", file, code, stderr, want)
		}
	}
}

func TestLargeCatalogNote(t *testing.T) {
	many := &catalog.Catalog{Skills: make([]*catalog.Skill, siteinfo.LargeCatalog+1)}
	few := &catalog.Catalog{Skills: make([]*catalog.Skill, 3)}
	info := func(paths, legacy string) *siteinfo.Info {
		i, _ := siteinfo.New("", "/")
		i.QueryPaths, i.LegacyDiscovery = paths, legacy
		return i
	}
	for _, tc := range []struct {
		name      string
		requested *siteinfo.Info
		c         *catalog.Catalog
		want      []string // nil for no note
	}{
		{"auto, large", info("", ""), many, []string{
			"api.paths auto chose sections: every path would take about 50,040 answer files",
			"over 1000 skills: left out the v0.1 discovery copies (set discovery.legacy: true"}},
		{"auto, small", info("", ""), few, []string{"api.paths auto chose all: about 120 answer files, within the budget of 50,000"}},
		{"chosen none", info("none", "false"), many, nil},
		{"paths kept", info("all", ""), many, []string{"over 1000 skills: left out the v0.1 discovery copies (set discovery.legacy: true"}},
	} {
		size := siteinfo.CatalogSize{Skills: len(tc.c.Skills), Pending: len(tc.c.Skills)}
		if tc.name == "auto, large" {
			size.Pending = siteinfo.PathFileBudget/siteinfo.DerivedPathFiles + 1
		}
		res := &build.Result{Catalog: tc.c, Site: tc.requested.ForCatalog(size)}
		got := largeCatalogNote(tc.requested, res)
		lines := strings.Split(got, "\n")
		if got == "" {
			lines = nil
		}
		if len(lines) != len(tc.want) {
			t.Errorf("%s: note %q, want %q", tc.name, got, tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%s: line %q, want %q", tc.name, lines[i], w)
			}
		}
	}
}
