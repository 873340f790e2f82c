package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// catalogRepo is a catalog repository as people have them: skills/, a
// config, version control data and installed packages, each of the last
// two holding a SKILL.md that is not the catalog's.
const catalogRepo = `
-- skilldex.yaml --
title: Acme skills
-- skills/alpha/SKILL.md --
---
name: alpha
description: Alpha does the first thing, for the integration test of sources.
---
Body.
-- skills/beta/SKILL.md --
---
name: beta
description: Beta does the second thing, for the integration test of sources.
---
Body.
-- skills/group/gamma/SKILL.md --
---
name: gamma
description: Gamma does the third thing, for the integration test of sources.
---
Body.
-- .git/refs/old/SKILL.md --
---
name: in-git
description: An old revision kept by version control, never a skill of the catalog.
---
-- node_modules/some-package/SKILL.md --
---
name: in-node-modules
description: A package's own skill, installed as a dependency, never the catalog's.
---
`

var repoSkills = []string{"alpha", "beta", "gamma"}

// TestSourcesAreSkillsOnly: in a catalog repository that holds the sites
// of earlier builds (public/, the configured output, and old-site/, which
// is not), validate, build and query see exactly the skills in skills/.
func TestSourcesAreSkillsOnly(t *testing.T) {
	repo := testutil.WriteTxtar(t, t.TempDir(), catalogRepo)
	t.Chdir(repo)
	// Earlier builds, really built: each holds a copy of every skill.
	for _, out := range []string{"public", "old-site"} {
		if code, _, stderr := runCLI(t, "build", "-q", "skills", "-o", out); code != exitOK {
			t.Fatalf("earlier build into %s: exit %d, %s", out, code, stderr)
		}
	}
	if !exists(filepath.Join(repo, "public", "skills", "alpha", "SKILL.md")) {
		t.Fatal("the earlier build holds no copy of the skills; the test would prove nothing")
	}

	validated := func(args ...string) []string {
		t.Helper()
		code, out, stderr := runCLI(t, append([]string{"validate", "--format", "json"}, args...)...)
		if code != exitOK {
			t.Fatalf("validate %v: exit %d, %s", args, code, stderr)
		}
		var r struct {
			Skills []struct{ Name string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range r.Skills {
			names = append(names, s.Name)
		}
		slices.Sort(names)
		return names
	}
	for _, args := range [][]string{{"."}, {}, {"--config", filepath.Join(repo, "skilldex.yaml")}, {repo}} {
		if got := validated(args...); !slices.Equal(got, repoSkills) {
			t.Errorf("validate %v sees %v, want %v", args, got, repoSkills)
		}
	}

	// --verbose says what was skipped, on stderr.
	_, out, stderr := runCLI(t, "validate", "--verbose")
	for _, want := range []string{
		"skipped .git/: version control data", "skipped node_modules/: installed packages",
		"skipped old-site/: a site skilldex built (.skilldex-site)", "skipped public/: the output folder of the build",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("validate --verbose: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(out, "skipped") {
		t.Errorf("validate --verbose: what was skipped is on stdout, in the report:\n%s", out)
	}

	for _, args := range [][]string{{"build", "."}, {"build"}} {
		code, _, stderr := runCLI(t, append(args, "--verbose")...)
		if code != exitOK || !strings.Contains(stderr, "skipped public/") || !strings.Contains(stderr, "published 3 skills to public") {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(repo, "public", "api", "v1", "index.json"))
		if err != nil {
			t.Fatal(err)
		}
		var idx struct {
			Skills []struct{ Name string }
		}
		if err := json.Unmarshal(b, &idx); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range idx.Skills {
			names = append(names, s.Name)
		}
		if slices.Sort(names); !slices.Equal(names, repoSkills) {
			t.Errorf("%v published %v, want %v", args, names, repoSkills)
		}
	}

	for _, name := range repoSkills {
		if code, _, stderr := runCLI(t, "query", name+":meta.name"); code != exitOK {
			t.Errorf("query %s: exit %d, %s", name, code, stderr)
		}
	}
	for _, name := range []string{"in-git", "in-node-modules"} {
		if code, out, _ := runCLI(t, "query", name+":meta.name"); code != exitFindings || !strings.Contains(out, "SKILL_NOT_FOUND") {
			t.Errorf("query %s: exit %d, %s; want SKILL_NOT_FOUND", name, code, out)
		}
	}
	if _, _, stderr := runCLI(t, "query", "--verbose", "alpha:meta.name"); !strings.Contains(stderr, "skipped old-site/") {
		t.Errorf("query --verbose: %s", stderr)
	}

	// A site given as the source is an error that says what to give.
	code, _, stderr := runCLI(t, "validate", "public")
	if code != exitFailure || !strings.Contains(stderr, "give the folder of the skills it was built from") {
		t.Errorf("validate public: exit %d, %s", code, stderr)
	}
}

// TestConfigReadAlike: validate and query read the config's sources and
// strict setting as build does; the arguments win.
func TestConfigReadAlike(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog+`
-- site/skilldex.yaml --
sources: [../warn]
strict: true
`)
	config := filepath.Join(dir, "site", "skilldex.yaml")
	// strict: true judges as the reference validator, which rejects the
	// unknown field.
	if code, out, _ := runCLI(t, "validate", "--config", config); code != exitFindings || !strings.Contains(out, "1 skill: 0 approved, 0 caution, 1 rejected") {
		t.Errorf("validate --config: exit %d, want 1 (strict rejects the skill); %s", code, out)
	}
	if code, out, _ := runCLI(t, "validate", "--config", config, "--strict=false"); code != exitOK || !strings.Contains(out, "1 skill: 0 approved, 1 caution") {
		t.Errorf("validate --config --strict=false: exit %d, %s", code, out)
	}
	if code, out, _ := runCLI(t, "validate", "--config", config, filepath.Join(dir, "ok")); !strings.Contains(out, "1 skill: 1 approved") || code != exitOK {
		t.Errorf("validate --config with a source: exit %d, %s", code, out)
	}
	if code, out, _ := runCLI(t, "query", "--config", config, "warn:meta.name"); code != exitFindings || !strings.Contains(out, "is not published") {
		t.Errorf("query --config: exit %d, want 1 (strict rejects the skill); %s", code, out)
	}
	if code, out, _ := runCLI(t, "query", "--config", config, "--strict=false", "warn:meta.name"); code != exitOK || !strings.Contains(out, `"value": "warn"`) {
		t.Errorf("query --config --strict=false: exit %d, %s", code, out)
	}
	t.Chdir(filepath.Join(dir, "site"))
	if code, out, _ := runCLI(t, "query", "ok:meta.name"); code != exitFindings || !strings.Contains(out, "SKILL_NOT_FOUND") {
		t.Errorf("query in the config's folder reads the config's sources: exit %d, %s", code, out)
	}
}

// TestValidateAnnotationPaths: GitHub annotations and SARIF name files
// relative to the repository (the catalog root, under repository.path);
// the text report names them as the user gave them.
func TestValidateAnnotationPaths(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog+`
-- skilldex.yaml --
repository:
  url: https://github.com/acme/monorepo
  path: catalogs/acme
`)
	warn := filepath.Join(dir, "warn")
	config := filepath.Join(dir, "skilldex.yaml")
	t.Chdir(t.TempDir())
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--format", "github", "--config", config, warn}, "::warning file=catalogs/acme/warn/SKILL.md,line=4,col=1,"},
		{[]string{"--format", "sarif", "--config", config, warn}, `"uri": "catalogs/acme/warn/SKILL.md"`},
		{[]string{"--format", "text", "--config", config, warn}, filepath.Join(warn, "SKILL.md") + ":4:1: warning:"},
	}
	for _, c := range cases {
		_, out, stderr := runCLI(t, append([]string{"validate"}, c.args...)...)
		if !strings.Contains(out, c.want) {
			t.Errorf("validate %v: want %q in\n%s%s", c.args, c.want, out, stderr)
		}
	}
	// In the catalog, its skilldex.yaml is read without --config.
	t.Chdir(dir)
	if _, out, _ := runCLI(t, "validate", "--format", "github", warn); !strings.Contains(out, "::warning file=catalogs/acme/warn/SKILL.md,") {
		t.Errorf("validate --format github in the catalog: %s", out)
	}
	// Without a config, the current folder is the catalog root.
	plain := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	t.Chdir(plain)
	if _, out, _ := runCLI(t, "validate", "--format", "github", filepath.Join(plain, "warn")); !strings.Contains(out, "::warning file=warn/SKILL.md,") {
		t.Errorf("validate --format github without a config: %s", out)
	}
}
