package plugin

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestCorpus reads the real marketplaces of the corpus: wshobson/agents
// (92 plugins in categories, Claude Code, Codex and Cursor manifests, a
// git-subdir source), obra/superpowers (one plugin whose source is the
// repository) and anthropics/skills (plugins listing their skills, with
// strict: false).
func TestCorpus(t *testing.T) {
	fsys := os.DirFS(testutil.Testdata(t, "corpus", "skills"))
	var roots []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if dir, _, ok := MarketplaceDir(p); ok && !slices.Contains(roots, dir) {
			roots = append(roots, dir)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"anthropics__skills", "obra__superpowers", "wshobson__agents"}; !slices.Equal(roots, want) {
		t.Fatalf("marketplace roots %v, want %v", roots, want)
	}
	skills := skillsOf(t, fsys)
	sets := map[string]*Set{}
	for _, root := range roots {
		s := Load(fsys, root, Options{})
		members := s.Assign(skills)
		sets[root] = s
		findings := map[string]int{}
		for _, d := range s.Diagnostics {
			findings[d.Code]++
			if d.Severity == diag.Error {
				t.Errorf("%s: an error on a real manifest: %s", root, d)
			}
		}
		held := 0
		for _, p := range s.Plugins {
			if len(p.Skills) > 0 {
				held++
			}
		}
		t.Logf("%s: %d plugins, %d with skills, %d skills in a plugin; findings %v", root, len(s.Plugins), held, len(members), findings)
	}

	// wshobson/agents: every plugin of the Claude Code marketplace, 50 with
	// skills in the corpus, which holds all 181 of the repository's skills.
	w := sets["wshobson__agents"]
	if len(w.Plugins) != 92 {
		t.Errorf("wshobson/agents has %d plugins, want 92", len(w.Plugins))
	}
	categories := map[string][]string{}
	held, assigned := 0, 0
	for _, p := range w.Plugins {
		categories[p.Category] = append(categories[p.Category], p.Name)
		if len(p.Skills) > 0 {
			held++
			assigned += len(p.Skills)
		}
	}
	if held != 50 || assigned != 181 {
		t.Errorf("wshobson/agents: %d plugins hold %d skills, want 50 holding 181", held, assigned)
	}
	if len(categories) != 26 || len(categories["languages"]) != 10 || len(categories["infrastructure"]) != 5 {
		t.Errorf("wshobson/agents categories: %d (languages %d, infrastructure %d), want 26 (10, 5)", len(categories), len(categories["languages"]), len(categories["infrastructure"]))
	}
	k8s := w.Plugin("kubernetes-operations")
	if k8s == nil || k8s.Category != "infrastructure" || !slices.ContainsFunc(k8s.Skills, func(s SkillRef) bool { return s.Name == "k8s-manifest-generator" }) {
		t.Errorf("kubernetes-operations: %+v, want the category infrastructure and k8s-manifest-generator among its skills", k8s)
	}
	if got := w.Assign(skills)["wshobson__agents/plugins/kubernetes-operations/skills/k8s-manifest-generator"]; !slices.Equal(got, []string{"kubernetes-operations"}) {
		t.Errorf("k8s-manifest-generator belongs to %v", got)
	}
	listed := map[string]int{}
	for _, p := range w.Plugins {
		var cs []string
		for _, li := range p.Listings {
			cs = append(cs, string(li.Client))
		}
		listed[strings.Join(cs, "+")]++
	}
	if want := map[string]int{"claude-code+codex+cursor": 91, "claude-code": 1}; fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("wshobson/agents listings %v, want %v", listed, want)
	}
	pensyve := w.Plugin("pensyve").Listings[0].Entry.Source
	if pensyve.Kind != SourceGitSubdir || pensyve.URL != "https://github.com/major7apps/pensyve.git" || pensyve.Path != "integrations/claude-code" {
		t.Errorf("pensyve's source %+v", pensyve)
	}
	// pptx-deck-creation's plugin.json lists its five skills.
	if got := skillNames(w.Plugin("pptx-deck-creation")); len(got) != 5 {
		t.Errorf("pptx-deck-creation holds %v, want its 5 listed skills", got)
	}

	// anthropics/skills: the skills lists decide; the corpus leaves out the
	// document skills (their license), which the findings name.
	a := sets["anthropics__skills"]
	sizes := map[string]int{}
	for _, p := range a.Plugins {
		sizes[p.Name] = len(p.Skills)
	}
	if want := map[string]int{"claude-api": 1, "document-skills": 0, "example-skills": 11}; fmt.Sprint(sizes) != fmt.Sprint(want) {
		t.Errorf("anthropics/skills plugin sizes %v, want %v", sizes, want)
	}
	if got := a.Assign(skills)["anthropics__skills/skills/mcp-builder"]; !slices.Equal(got, []string{"example-skills"}) {
		t.Errorf("mcp-builder belongs to %v, want example-skills", got)
	}
	var missing []string
	for _, d := range a.Diagnostics {
		missing = append(missing, d.Code+" "+d.Message[:strings.Index(d.Message, " names")])
	}
	if want := []string{
		`plugin-skill-missing skills path "./skills/xlsx"`, `plugin-skill-missing skills path "./skills/docx"`,
		`plugin-skill-missing skills path "./skills/pptx"`, `plugin-skill-missing skills path "./skills/pdf"`,
		`plugin-skill-missing skills path "./skills/doc-coauthoring"`,
	}; !slices.Equal(missing, want) {
		t.Errorf("anthropics/skills findings %v, want %v", missing, want)
	}

	// obra/superpowers: one plugin, the repository itself, for Claude Code
	// and Codex, holding every skill.
	sp := sets["obra__superpowers"]
	if len(sp.Diagnostics) != 0 || len(sp.Plugins) != 1 {
		t.Fatalf("superpowers: %v plugins, findings:\n%s", pluginNames(sp), diagText(sp.Diagnostics))
	}
	p := sp.Plugins[0]
	if p.Name != "superpowers" || len(p.Skills) != 14 || len(p.Listings) != 2 || p.Listings[1].Client != Codex || p.Version != "6.2.0" {
		t.Errorf("superpowers: %s %s, %d skills, %d listings", p.Name, p.Version, len(p.Skills), len(p.Listings))
	}

	// The 41 findings on wshobson/agents are Codex manifests that declare
	// "./skills/" in plugins that have none (true of the repository too).
	codexSkills := 0
	for _, d := range w.Diagnostics {
		if d.Code == "plugin-skill-missing" && strings.HasSuffix(d.File, ".codex-plugin/plugin.json") {
			codexSkills++
		}
	}
	if codexSkills != 41 || len(w.Diagnostics) != 41 {
		t.Errorf("wshobson/agents: %d findings, %d of them Codex skills paths; want 41 and 41:\n%s", len(w.Diagnostics), codexSkills, diagText(w.Diagnostics))
	}

	if testing.Verbose() {
		names := make([]string, 0, len(categories))
		for c := range categories {
			names = append(names, c)
		}
		sort.Strings(names)
		for _, c := range names {
			t.Logf("category %s: %d plugins", c, len(categories[c]))
		}
		for _, p := range w.Plugins {
			if len(p.Skills) > 0 {
				t.Logf("%s (%s): %d skills", p.Name, p.Category, len(p.Skills))
			}
		}
	}
}
