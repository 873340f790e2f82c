package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/plugin"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestInitBuildsAsItStands: skilldex init in an empty folder, then
// validate and build with no argument, as the Pages workflow runs them:
// the example skill has no finding at all, and the site is written.
func TestInitBuildsAsItStands(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, stderr := runCLI(t, "init")
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	for _, f := range []string{"skilldex.yaml", "skills/write-a-skill/SKILL.md", ".github/workflows/pages.yml", ".gitignore"} {
		if !strings.Contains(out, "wrote "+f+"\n") {
			t.Errorf("init does not say it wrote %s:\n%s", f, out)
		}
		if _, err := os.Stat(filepath.FromSlash(f)); err != nil {
			t.Errorf("init did not write %s", f)
		}
	}
	if !strings.HasPrefix(out, "wrote skilldex.yaml\n") {
		t.Errorf("init does not start with the config:\n%s", out)
	}
	code, out, stderr = runCLI(t, "validate", "--strict", "--verbose")
	if code != exitOK || !strings.Contains(out, "1 skill: 1 approved, 0 caution, 0 rejected; 0 errors, 0 warnings, 0 infos") {
		t.Errorf("validate --strict --verbose of the new catalog: exit %d\n%s%s", code, out, stderr)
	}
	code, _, stderr = runCLI(t, "build")
	if code != exitOK || !strings.Contains(stderr, "0 errors, 0 warnings, 0 infos") || !strings.Contains(stderr, "published 1 skill to ") {
		t.Errorf("build of the new catalog: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{"public/index.html", "public/skills/write-a-skill/index.html", "public/skills/write-a-skill/assets/template.md"} {
		if _, err := os.Stat(filepath.FromSlash(f)); err != nil {
			t.Errorf("the build did not write %s", f)
		}
	}
	// .gitignore keeps the site out of git.
	if b, _ := os.ReadFile(".gitignore"); !strings.Contains(string(b), "/public/\n") {
		t.Errorf(".gitignore:\n%s", b)
	}
}

// TestInitNeverOverwrites: files that exist are kept, byte for byte, and
// said so; the others are written; a folder that does not exist is made.
func TestInitNeverOverwrites(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- cat/skilldex.yaml --
title: Mine
-- cat/.gitignore --
node_modules/
`)
	cat := filepath.Join(dir, "cat")
	code, out, stderr := runCLI(t, "init", cat)
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s", code, stderr)
	}
	shown := filepath.ToSlash(cat)
	for _, want := range []string{
		"kept  " + shown + "/skilldex.yaml (it exists: skilldex init never overwrites a file)\n",
		"kept  " + shown + "/.gitignore (it exists: skilldex init never overwrites a file); add /public/ to it, so that the site is not committed\n",
		"wrote " + shown + "/skills/write-a-skill/SKILL.md\n",
		"wrote " + shown + "/.github/workflows/pages.yml\n",
		"next: cd " + shown + " && skilldex serve",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("init lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(cat, "skilldex.yaml")); string(b) != "title: Mine\n" {
		t.Errorf("skilldex.yaml was overwritten:\n%s", b)
	}
	// Again: nothing left to write.
	if code, out, _ := runCLI(t, "init", cat); code != exitOK || strings.Contains(out, "wrote") || !strings.Contains(out, "nothing written: every file is there already") {
		t.Errorf("init again: exit %d\n%s", code, out)
	}
	fresh := filepath.Join(dir, "new", "deeper")
	if code, _, stderr := runCLI(t, "init", fresh); code != exitOK {
		t.Errorf("init of a folder that does not exist: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(fresh, "skilldex.yaml")); err != nil {
		t.Error(err)
	}
	file := filepath.Join(cat, "skilldex.yaml")
	if code, _, stderr := runCLI(t, "init", file); code != exitFailure || !strings.Contains(stderr, file+" is a file; give the folder to make the catalog in") {
		t.Errorf("init of a file: exit %d, %q", code, stderr)
	}
}

// TestInitPinsItsVersion: the workflow installs the skilldex that wrote
// it, and the config names the schema of its release.
func TestInitPinsItsVersion(t *testing.T) {
	cases := []struct {
		v             buildVersion
		install, tree string
	}{
		{buildVersion{Module: "v1.2.3", Go: "go1.26.8"}, "v1.2.3", "v1.2.3"},
		{buildVersion{Module: "v0.0.0-20260301120000-0123456789ab", Revision: "0123456789ab"}, "v0.0.0-20260301120000-0123456789ab", "main"},
		{buildVersion{Module: "devel", Revision: "0123456789ab"}, "0123456789ab", "main"},
		{buildVersion{Module: "devel"}, "latest", "main"},
	}
	for _, c := range cases {
		files, err := catalogFiles(initOptions{version: c.v})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range files {
			got[f.path] = string(f.data)
		}
		if want := "\n  SKILLDEX_VERSION: " + c.install + "\n"; !strings.Contains(got[".github/workflows/pages.yml"], want) {
			t.Errorf("%s: the workflow lacks %q", c.v, want)
		}
		if want := "# yaml-language-server: $schema=https://raw.githubusercontent.com/skilldex/skilldex/" + c.tree + "/cmd/skilldex/skilldex.schema.json\n"; !strings.HasPrefix(got["skilldex.yaml"], want) {
			t.Errorf("%s: the config does not start with %q:\n%s", c.v, want, got["skilldex.yaml"])
		}
		for p, text := range got {
			if strings.Contains(text, "SCHEMA_URL") || strings.Contains(text, "_VALUE") {
				t.Errorf("%s: %s has a placeholder left", c.v, p)
			}
		}
	}
}

// TestREADMEWorkflowIsInit's: the README shows the workflow skilldex
// init writes, byte for byte.
func TestREADMEWorkflowIsInits(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testutil.ProjectRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := catalogFiles(initOptions{version: buildVersion{Module: "devel"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.path == ".github/workflows/pages.yml" {
			if !strings.Contains(string(readme), "```yaml\n"+string(f.data)+"```\n") {
				t.Errorf("README.md does not show the workflow skilldex init writes:\n%s", f.data)
			}
			return
		}
	}
	t.Fatal("init writes no workflow")
}

// TestInitMarketplace: skilldex init --marketplace makes a Claude Code
// marketplace of one plugin, the repository, that package plugin reads
// with no finding, and that the site publishes with its install command.
func TestInitMarketplace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My_Plugins")
	code, out, stderr := runCLI(t, "init", "--marketplace", dir)
	if code != exitOK || !strings.Contains(out, "/plugin install my-plugins@my-plugins") {
		t.Fatalf("init --marketplace: exit %d\n%s%s", code, out, stderr)
	}
	set := plugin.Load(os.DirFS(dir), ".", plugin.Options{})
	if set == nil || len(set.Diagnostics) != 0 || len(set.Plugins) != 1 || set.Plugins[0].Name != "my-plugins" {
		t.Fatalf("the marketplace: %+v", set)
	}
	set.Assign([]plugin.SkillRef{{Dir: "skills/write-a-skill", Name: "write-a-skill"}})
	if len(set.Plugins[0].Skills) != 1 {
		t.Errorf("the plugin holds %v, want write-a-skill", set.Plugins[0].Skills)
	}
	t.Chdir(dir)
	code, out, stderr = runCLI(t, "validate", "--strict")
	if code != exitOK || !strings.Contains(out, "1 skill: 1 approved, 0 caution, 0 rejected; 0 errors, 0 warnings, 0 infos") {
		t.Errorf("validate --strict: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr = runCLI(t, "build", "--base-url", "https://acme.github.io/my-plugins/"); code != exitOK {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	// The plugin's keywords would become every skill's tags: it has none
	// until someone writes them.
	var api struct{ Tags []string }
	if data, err := os.ReadFile(filepath.Join("public", "api", "v1", "skills", "write-a-skill.json")); err != nil || json.Unmarshal(data, &api) != nil || len(api.Tags) != 0 {
		t.Errorf("write-a-skill's tags: %q (%v)", api.Tags, err)
	}
	page, err := os.ReadFile(filepath.Join("public", "plugins", "my-plugins", "index.html"))
	if err != nil || !strings.Contains(string(page), "/plugin install my-plugins@my-plugins") || !strings.Contains(string(page), `href="/my-plugins/skills/write-a-skill/"`) {
		t.Errorf("the plugin's page (%v):\n%s", err, page)
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"cat":             "cat",
		"/tmp/my-skills":  "/tmp/my-skills",
		"/tmp/with space": "'/tmp/with space'",
		"it's":            `'it'\''s'`,
		"":                "''",
		"a$b":             "'a$b'",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestInitSaysWhenItCannotPin: a skilldex that does not know its version
// writes a workflow that installs the latest release, and says so; one
// that knows it, or that kept the user's workflow, says nothing.
func TestInitSaysWhenItCannotPin(t *testing.T) {
	workflow := []string{"skilldex.yaml", ".github/workflows/pages.yml"}
	cases := []struct {
		v     buildVersion
		wrote []string
		note  bool
	}{
		{buildVersion{Module: "devel"}, workflow, true},
		{buildVersion{Module: "devel"}, workflow[:1], false},
		{buildVersion{Module: "devel", Revision: "0123456789ab"}, workflow, false},
		{buildVersion{Module: "v1.2.3"}, workflow, false},
	}
	for _, c := range cases {
		note := unpinnedNote(c.v, c.wrote)
		if (note != "") != c.note {
			t.Errorf("%s, wrote %v: note %q, want one: %v", c.v, c.wrote, note, c.note)
		}
		if c.note && !strings.Contains(note, "SKILLDEX_VERSION") {
			t.Errorf("%s: the note does not say what to set: %q", c.v, note)
		}
	}
}
