package plugin

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/testutil"
	"golang.org/x/tools/txtar"
)

// catalog writes a txtar archive to a temporary folder and returns it as a
// file system, with the archive's files for locating findings.
func catalog(t *testing.T, archive string) (fs.FS, map[string]string) {
	t.Helper()
	dir := testutil.WriteTxtar(t, t.TempDir(), archive)
	files := map[string]string{}
	for _, f := range txtar.Parse([]byte(archive)).Files {
		files[f.Name] = string(f.Data)
	}
	return os.DirFS(dir), files
}

// skillsOf lists the skill folders of fsys, as discovery would.
func skillsOf(t *testing.T, fsys fs.FS) []SkillRef {
	t.Helper()
	var out []SkillRef
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "SKILL.md" {
			dir := path.Dir(p)
			out = append(out, SkillRef{Dir: dir, Name: path.Base(dir)})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// locate returns "code file line:column" for the nth occurrence of needle
// in a file of the archive, counting columns in characters: the finding a
// test expects there.
func locate(files map[string]string, code, file, needle string, nth int) string {
	text := files[file]
	i := -1
	for range nth {
		j := strings.Index(text[i+1:], needle)
		if j < 0 {
			return fmt.Sprintf("%s %s: %q not found", code, file, needle)
		}
		i += j + 1
	}
	line := strings.Count(text[:i], "\n") + 1
	col := utf8.RuneCountInString(text[strings.LastIndex(text[:i], "\n")+1:i]) + 1
	return fmt.Sprintf("%s %s %d:%d", code, file, line, col)
}

func findingsWithFiles(s *Set) []string {
	out := []string{}
	for _, d := range s.Diagnostics {
		out = append(out, fmt.Sprintf("%s %s %d:%d", d.Code, d.File, d.Line, d.Column))
	}
	slices.Sort(out)
	return out
}

func pluginNames(s *Set) []string {
	var out []string
	for _, p := range s.Plugins {
		out = append(out, p.Name)
	}
	return out
}

func skillNames(p *Plugin) []string {
	out := []string{}
	for _, sk := range p.Skills {
		out = append(out, sk.Name)
	}
	return out
}

const brokenCatalog = `
-- .claude-plugin/marketplace.json --
{
  "name": "shop",
  "owner": {"name": "Ann"},
  "plugins": [
    {"name": "gone", "source": "./plugins/gone"},
    {"name": "listed", "source": "./", "strict": false, "skills": ["./skills/alpha", "./skills/missing", "./skills/empty"]},
    {"name": "renamed", "source": "./plugins/renamed", "version": "1.0.0"},
    {"name": "conflict", "source": "./plugins/conflict", "strict": false},
    {"name": "broken", "source": "./plugins/broken"},
    {"name": "twice", "source": "./plugins/twice-a"},
    {"name": "twice", "source": "./plugins/twice-b"}
  ]
}
-- skills/alpha/SKILL.md --
-- skills/beta/SKILL.md --
-- skills/empty/README.md --
-- plugins/renamed/.claude-plugin/plugin.json --
{
  "name": "other-name",
  "version": "1.0.1"
}
-- plugins/renamed/skills/r1/SKILL.md --
-- plugins/conflict/.claude-plugin/plugin.json --
{"name": "conflict", "skills": "./skills/"}
-- plugins/conflict/skills/c1/SKILL.md --
-- plugins/broken/.claude-plugin/plugin.json --
{"name": "broken",, "version": "1.0.0"}
-- plugins/broken/skills/b1/SKILL.md --
-- plugins/twice-a/skills/t1/SKILL.md --
-- plugins/twice-b/skills/t2/SKILL.md --
`

// TestLoadFindings checks the findings that need more than one file, and
// that a broken manifest or entry loses no skill: its skills are left to
// no plugin, and a finding says why.
func TestLoadFindings(t *testing.T) {
	fsys, files := catalog(t, brokenCatalog)
	s := Load(fsys, ".", Options{})
	const mkt = ".claude-plugin/marketplace.json"
	want := []string{
		locate(files, "plugin-source-missing", mkt, `"./plugins/gone"`, 1),
		locate(files, "plugin-skill-missing", mkt, `"./skills/missing"`, 1),
		locate(files, "plugin-skill-missing", mkt, `"./skills/empty"`, 1),
		locate(files, "plugin-manifest-mismatch", "plugins/renamed/.claude-plugin/plugin.json", `"other-name"`, 1),
		locate(files, "plugin-manifest-mismatch", "plugins/renamed/.claude-plugin/plugin.json", `"1.0.1"`, 1),
		locate(files, "plugin-strict-conflict", mkt, `false`, 2),
		locate(files, "plugin-json-syntax", "plugins/broken/.claude-plugin/plugin.json", `, "version"`, 1),
		locate(files, "plugin-name-duplicate", mkt, `"twice"`, 2),
	}
	slices.Sort(want)
	if got := findingsWithFiles(s); !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), diagText(s.Diagnostics))
	}
	if got := pluginNames(s); !slices.Equal(got, []string{"listed", "renamed", "twice"}) {
		t.Errorf("plugins %v: gone, conflict and broken cannot be installed and are left out", got)
	}
	members := s.Assign(skillsOf(t, fsys))
	wantMembers := map[string][]string{
		"skills/alpha":              {"listed"},
		"plugins/renamed/skills/r1": {"renamed"},
		"plugins/twice-a/skills/t1": {"twice"},
	}
	if fmt.Sprint(members) != fmt.Sprint(wantMembers) {
		t.Errorf("members %v, want %v: skills/beta is not in listed's list; c1, b1 and t2 stay plain skills", members, wantMembers)
	}
	for _, d := range s.Diagnostics {
		if !strings.Contains(d.Message, ":") {
			t.Errorf("%s: the message should say what to change: %q", d.Code, d.Message)
		}
	}
	if got := s.Plugin("renamed").Version; got != "1.0.1" {
		t.Errorf("renamed's version %q; Claude Code installs plugin.json's, 1.0.1", got)
	}
}

const kitCatalog = `
-- .claude-plugin/marketplace.json --
{"name": "kit", "owner": {"name": "A"}, "metadata": {"pluginRoot": "./plugins"}, "plugins": [
  {"name": "core", "source": "./", "category": "development", "version": "2.0.0"},
  {"name": "fmt", "source": "fmt"},
  {"name": "extra", "source": "./plugins/extra", "description": "Extra from Claude"},
  {"name": "bundle", "source": "./", "strict": false, "skills": ["./skills/one"]},
  {"name": "remote", "source": {"source": "github", "repo": "o/remote"}}
]}
-- .claude-plugin/plugin.json --
{"name": "core", "version": "2.0.1", "description": "Core skills", "keywords": ["core"]}
-- .agents/plugins/marketplace.json --
{"name": "kit", "plugins": [
  {"name": "core", "source": {"source": "url", "url": "./"}, "category": "Coding", "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}},
  {"name": "codex-only", "source": {"source": "local", "path": "./plugins/codex-only"}}
]}
-- .codex-plugin/plugin.json --
{"name": "core", "skills": "./skills/", "interface": {"displayName": "Core"}}
-- .cursor-plugin/marketplace.json --
{"name": "kit", "owner": {"name": "A"}, "plugins": [{"name": "extra", "source": "./plugins/extra"}]}
-- plugins/extra/.cursor-plugin/plugin.json --
{"name": "extra", "skills": ["./more"], "displayName": "Extra"}
-- skills/one/SKILL.md --
-- skills/two/SKILL.md --
-- skills/two/nested/SKILL.md --
-- plugins/extra/skills/e1/SKILL.md --
-- plugins/extra/more/e2/SKILL.md --
-- plugins/codex-only/skills/x1/SKILL.md --
-- plugins/fmt/skills/f1/SKILL.md --
`

// TestMembership checks which plugins hold which skills when several
// clients' marketplaces describe the same plugins.
func TestMembership(t *testing.T) {
	fsys, files := catalog(t, kitCatalog)
	s := Load(fsys, ".", Options{})
	if want := []string{locate(files, "plugin-manifest-mismatch", ".claude-plugin/plugin.json", `"2.0.1"`, 1)}; !slices.Equal(findingsWithFiles(s), want) {
		t.Errorf("findings %v, want %v", findingsWithFiles(s), want)
	}
	if got := pluginNames(s); !slices.Equal(got, []string{"bundle", "codex-only", "core", "extra", "fmt", "remote"}) {
		t.Fatalf("plugins %v", got)
	}
	members := s.Assign(skillsOf(t, fsys))
	wantMembers := map[string][]string{
		"skills/one":                   {"bundle", "core"},
		"skills/two":                   {"core"},
		"plugins/extra/skills/e1":      {"extra"},
		"plugins/extra/more/e2":        {"extra"},
		"plugins/codex-only/skills/x1": {"codex-only"},
		"plugins/fmt/skills/f1":        {"fmt"}, // a bare source, under metadata.pluginRoot
	}
	if fmt.Sprint(members) != fmt.Sprint(wantMembers) {
		t.Errorf("members %v\nwant    %v\n(skills/two/nested is a skill inside a skill, which clients do not load from skills/)", members, wantMembers)
	}

	core := s.Plugin("core")
	var clients []Client
	for _, li := range core.Listings {
		clients = append(clients, li.Client)
	}
	if !slices.Equal(clients, []Client{Claude, Codex}) {
		t.Errorf("core is listed for %v, want Claude Code and Codex", clients)
	}
	if core.Category != "development" || core.DisplayName != "Core" || core.Description != "Core skills" || core.Version != "2.0.1" || !slices.Equal(core.Keywords, []string{"core"}) {
		t.Errorf("core's merged metadata %+v: the Claude entry's category, Codex's display name, plugin.json's description, keywords and version", core.Metadata)
	}
	if li := core.Listings[1]; li.Entry.Policy.Installation != "AVAILABLE" || li.Dir != "." || li.Manifest == nil || li.Manifest.Client != Codex {
		t.Errorf("core's Codex listing %+v", li)
	}
	if got := skillNames(core); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("core's skills %v", got)
	}
	extra := s.Plugin("extra")
	if len(extra.Listings) != 2 || extra.Listings[1].Client != Cursor || extra.DisplayName != "Extra" || extra.Description != "Extra from Claude" {
		t.Errorf("extra: %+v", extra)
	}
	remote := s.Plugin("remote")
	if li := remote.Listings[0]; li.Dir != "" || li.SkillDirs != nil || li.Entry.Source.Repo != "o/remote" || len(remote.Skills) != 0 {
		t.Errorf("remote: kept as data, with no folder and no skills: %+v", li)
	}
	if s.Plugin("nothing") != nil {
		t.Errorf("Plugin of an unknown name")
	}
}

// TestLoadDegrades checks that a marketplace file clients reject gives no
// plugin, says why, and leaves every skill alone.
func TestLoadDegrades(t *testing.T) {
	fsys, files := catalog(t, `
-- .claude-plugin/marketplace.json --
{
  "name": "shop",
  "plugins": [{"name": "all", "source": "./"}]
}
-- skills/a/SKILL.md --
`)
	s := Load(fsys, ".", Options{Display: func(rel string) string { return "repo/" + rel }})
	want := []string{"plugin-field-missing repo/" + strings.TrimPrefix(locate(files, "", ".claude-plugin/marketplace.json", "{", 1), " ")}
	if got := findingsWithFiles(s); !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v (the owner is missing)", got, want)
	}
	if len(s.Plugins) != 0 || len(s.Assign(skillsOf(t, fsys))) != 0 {
		t.Errorf("a marketplace without an owner gave plugins %v", pluginNames(s))
	}

	if s := Load(fsys, "skills", Options{}); s != nil {
		t.Errorf("Load of a folder without a marketplace = %+v, want nil", s)
	}
	var none *Set
	if none.Assign(skillsOf(t, fsys)) != nil {
		t.Errorf("Assign on no set gives no membership")
	}
}

func TestLoadUnreadable(t *testing.T) {
	fsys := fstest.MapFS{
		"m/.claude-plugin/marketplace.json":  {Mode: fs.ModeDir},
		"m/.agents/plugins/marketplace.json": {Data: []byte(strings.Repeat(" ", maxManifestBytes+1))},
	}
	s := Load(fsys, "m", Options{})
	want := []string{"plugin-file-unreadable m/.agents/plugins/marketplace.json 0:0", "plugin-file-unreadable m/.claude-plugin/marketplace.json 0:0"}
	if got := findingsWithFiles(s); !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

// TestRulesTriggered checks that the tests trigger every rule.
func TestRulesTriggered(t *testing.T) {
	triggered := map[string]bool{"plugin-file-unreadable": true} // TestLoadUnreadable
	for _, c := range parseCases {
		ds, _ := parseCaseFindings(c)
		for _, d := range ds {
			triggered[d.Code] = true
		}
	}
	for _, a := range []string{brokenCatalog, kitCatalog} {
		fsys, _ := catalog(t, a)
		for _, d := range Load(fsys, ".", Options{}).Diagnostics {
			triggered[d.Code] = true
		}
	}
	for _, r := range Rules {
		if !triggered[r.Code] {
			t.Errorf("rule %s is triggered by no test", r.Code)
		}
		delete(triggered, r.Code)
	}
	for code := range triggered {
		t.Errorf("code %s is not in Rules", code)
	}
}
