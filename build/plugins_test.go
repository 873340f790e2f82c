package build

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/internal/testutil"
)

// pluginCatalog is a marketplace of two plugins: tools (its own folder,
// with a plugin.json, a category and keywords) and docs (strict: false,
// listing one skill of tools' folder), and a plain skill outside both.
const pluginCatalog = `-- .claude-plugin/marketplace.json --
{
  "name": "acme-market",
  "owner": {"name": "Acme"},
  "metadata": {"description": "Acme's <tools> for agents"},
  "plugins": [
    {"name": "tools", "source": "./plugins/tools", "description": "Tools & more", "category": "infrastructure", "keywords": ["ops"]},
    {"name": "docs", "source": "./", "strict": false, "skills": ["./plugins/tools/skills/writer"], "description": "Writing"}
  ]
}
-- plugins/tools/.claude-plugin/plugin.json --
{"name": "tools", "version": "1.2.0", "author": {"name": "Ann"}, "license": "MIT"}
-- plugins/tools/agents/a.md --
agent
-- plugins/tools/agents/b.md --
agent
-- plugins/tools/commands/c.md --
command
-- plugins/tools/skills/deployer/SKILL.md --
---
name: deployer
description: Deploys things. Use when deploying.
---
Body.
-- plugins/tools/skills/writer/SKILL.md --
---
name: writer
description: Writes docs. Use when writing.
metadata:
  category: writing
---
See tools:deployer.
-- plain/SKILL.md --
---
name: plain
description: A skill of no plugin. Use when testing.
---
Body.
`

func TestLoadPlugins(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), pluginCatalog)
	c, err := Load(context.Background(), LoadOptions{Sources: []string{dir}, NoDerive: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("findings: %v", c.Diagnostics)
	}
	if len(c.Marketplaces) != 1 || c.Marketplaces[0].Name != "acme-market" || c.Marketplaces[0].Description != "Acme's <tools> for agents" {
		t.Fatalf("marketplaces: %+v", c.Marketplaces)
	}
	got := map[string][]string{}
	for _, s := range c.Skills {
		got[s.Name] = s.PluginNames()
	}
	want := map[string][]string{"deployer": {"tools"}, "writer": {"docs", "tools"}, "plain": {}}
	for name, w := range want {
		if !slices.Equal(got[name], w) && !(len(w) == 0 && len(got[name]) == 0) {
			t.Errorf("%s: plugins %q, want %q", name, got[name], w)
		}
	}
	deployer := c.Lookup("deployer")
	if !slices.Equal(deployer.Categories, []string{"infrastructure"}) || !deployer.Inherited.Categories ||
		!slices.Equal(deployer.Tags, []string{"ops"}) || !deployer.Inherited.Tags {
		t.Errorf("deployer inherits %q %q (%+v), want infrastructure and ops", deployer.Categories, deployer.Tags, deployer.Inherited)
	}
	if w := c.Lookup("writer"); !slices.Equal(w.Categories, []string{"writing"}) || w.Inherited.Categories {
		t.Errorf("writer has categories %q (%+v): its own must win", w.Categories, w.Inherited)
	}
	tools := c.Plugin("tools")
	if tools == nil || tools.Version != "1.2.0" || tools.Author.Name != "Ann" || tools.Source != "./plugins/tools" ||
		tools.Components["agents"] != 2 || tools.Components["commands"] != 1 || len(tools.Skills) != 2 {
		t.Fatalf("tools: %+v", tools)
	}
	if term := c.Taxonomy(catalog.Categories); term == nil || len(term.Terms) != 2 {
		t.Errorf("categories: %+v", term)
	}
}

// TestBrokenManifestsKeepSkills breaks the marketplace in each way a
// person may, and checks that the finding names the file, line and
// column, and that every skill is still published.
func TestBrokenManifestsKeepSkills(t *testing.T) {
	skills := `-- plugins/tools/skills/deployer/SKILL.md --
---
name: deployer
description: Deploys things. Use when deploying.
---
Body.
-- plugins/tools/skills/writer/SKILL.md --
---
name: writer
description: Writes docs. Use when writing.
---
Body.
`
	cases := []struct {
		name, files string
		code, where string
		// plugins are the names of the plugins that hold deployer.
		plugins string
	}{
		// The trailing comma is the error.
		{"syntax error", `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./plugins/tools"},]}
`, "plugin-json-syntax", ".claude-plugin/marketplace.json:2:60", ""},
		{"missing source", `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./plugins/tool"}]}
`, "plugin-source-missing", ".claude-plugin/marketplace.json:2:42", ""},
		{"listed skill missing", `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./plugins/tools",
   "skills": ["./skills/deployer", "./skills/gone"]}]}
`, "plugin-skill-missing", ".claude-plugin/marketplace.json:3:36", "tools"},
		{"duplicate names", `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./plugins/tools"},
             {"name": "tools", "source": "./plugins/tools"}]}
`, "plugin-name-duplicate", ".claude-plugin/marketplace.json:3:23", "tools"},
		{"mismatched plugin.json", `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./plugins/tools", "version": "1.0.0"}]}
-- plugins/tools/.claude-plugin/plugin.json --
{"name": "tools",
 "version": "2.0.0"}
`, "plugin-manifest-mismatch", "plugins/tools/.claude-plugin/plugin.json:2:13", "tools"},
		{"broken plugin.json", `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./plugins/tools"}]}
-- plugins/tools/.claude-plugin/plugin.json --
{"name": "tools" "version": "2.0.0"}
`, "plugin-json-syntax", "plugins/tools/.claude-plugin/plugin.json:1:18", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := testutil.WriteTxtar(t, t.TempDir(), tc.files+skills)
			c, err := Load(context.Background(), LoadOptions{Sources: []string{dir}, NoDerive: true})
			if err != nil {
				t.Fatal(err)
			}
			var found []string
			for _, d := range c.Diagnostics {
				rel, _ := filepath.Rel(dir, d.File)
				found = append(found, fmt.Sprintf("%s %s:%d:%d", d.Code, filepath.ToSlash(rel), d.Line, d.Column))
			}
			want := tc.code + " " + tc.where
			if !slices.Contains(found, want) {
				t.Errorf("findings %q, want %q", found, want)
			}
			for _, d := range c.Diagnostics {
				if d.Severity == diag.Error && !strings.HasSuffix(d.Message, "the skills it would hold are published as plain skills") {
					t.Errorf("%s does not say what becomes of the skills", d.Message)
				}
			}
			if len(c.Skills) != 2 {
				t.Errorf("%d skills published, want 2", len(c.Skills))
			}
			if d := c.Lookup("deployer"); d == nil || strings.Join(d.PluginNames(), ",") != tc.plugins {
				t.Errorf("deployer's plugins: %v, want %q", d.PluginNames(), tc.plugins)
			}
		})
	}
}

// TestCorpusPlugins checks the corpus' marketplaces: wshobson/agents'
// plugins that have skills in the corpus, their categories given to their
// skills, and anthropics/skills' plugins that list their skills.
func TestCorpusPlugins(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the whole corpus")
	}
	root := testutil.Testdata(t, "corpus", "skills")
	c, err := Load(context.Background(), LoadOptions{Sources: []string{root}, NoDerive: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Plugins) < 50 {
		t.Errorf("%d plugins hold skills, want at least 50", len(c.Plugins))
	}
	k8s := c.Lookup("k8s-manifest-generator")
	if k8s == nil || !slices.Equal(k8s.PluginNames(), []string{"kubernetes-operations"}) || !slices.Contains(k8s.Categories, "infrastructure") || !k8s.Inherited.Categories {
		t.Errorf("k8s-manifest-generator: plugins %v, categories %v", k8s.PluginNames(), k8s.Categories)
	}
	if m := c.Lookup("mcp-builder"); m == nil || !slices.Contains(m.PluginNames(), "example-skills") {
		t.Errorf("mcp-builder: plugins %v, want example-skills", m.PluginNames())
	}
	if p := c.Plugin("superpowers"); p == nil || len(p.Skills) != 14 {
		t.Errorf("superpowers: %+v", p)
	}
	for _, s := range c.All {
		if !s.Published() && s.ShadowedBy == nil {
			t.Errorf("%s is not published", s.Path)
		}
	}
}
