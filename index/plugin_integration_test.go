package index_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/index/jsonsearch"
	"github.com/skilldex/skilldex/internal/testutil"
)

// pluginTxtar is a marketplace of two plugins, ops (deployer, runbook)
// and docs (writer), and a plain skill; every skill's text says "deploy",
// so that only the plugin: filter and the plugin field tell them apart.
const pluginTxtar = `
-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"}, "plugins": [
  {"name": "ops", "source": "./ops", "description": "Operations"},
  {"name": "docs", "source": "./docs", "description": "Documentation"}
]}
-- ops/skills/deployer/SKILL.md --
---
name: deployer
description: Deploy services. Use when you deploy.
---
Deploy.
-- ops/skills/runbook/SKILL.md --
---
name: runbook
description: Write a runbook to deploy by hand. Use when you deploy.
---
Deploy.
-- docs/skills/writer/SKILL.md --
---
name: writer
description: Write the deploy guide. Use when you deploy.
---
Deploy.
-- plain/SKILL.md --
---
name: plain
description: Deploy nothing in particular. Use when you deploy.
---
Deploy.
`

// TestPluginSearch checks the plugin: filter and the plugin facet in the
// three engines: bleve (skilldex search), the Go reader of the JSON index
// (the MCP server) and static/search-core.js (the browser).
func TestPluginSearch(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), pluginTxtar)
	site := buildSite(t, filepath.Join(t.TempDir(), "public"), src)
	cases := []struct {
		query string
		want  []string // sorted
	}{
		{"plugin:ops deploy", []string{"deployer", "runbook"}},
		{"plugin:OPS", []string{"deployer", "runbook"}},
		{"deploy -plugin:ops", []string{"plain", "writer"}},
		{"plugin:docs plugin:ops", nil},
		{"plugin:nope deploy", nil},
		// The plugin's name is a field of its skills.
		{"ops", []string{"deployer", "runbook"}},
	}
	sorted := func(names []string) []string {
		names = slices.Clone(names)
		slices.Sort(names)
		return names
	}
	ix, err := index.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	js := jsonsearch.New(func(_ context.Context, p, _ string) ([]byte, error) {
		return os.ReadFile(filepath.Join(site, "search", filepath.FromSlash(p)))
	})
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	core := runCore(t, site, queries, 10)
	for i, c := range cases {
		res, err := ix.Search(c.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Name)
		}
		if !slices.Equal(sorted(got), c.want) {
			t.Errorf("bleve %q: %v, want %v", c.query, got, c.want)
		}
		jr, err := js.Search(context.Background(), c.query, jsonsearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var docs []int
		for _, h := range jr.Hits {
			docs = append(docs, h.Doc)
		}
		cards, err := js.Cards(context.Background(), docs)
		if err != nil {
			t.Fatal(err)
		}
		got = nil
		for _, card := range cards {
			got = append(got, card.Name)
			if card.Name == "deployer" && !slices.Equal(card.Plugins, []string{"ops"}) {
				t.Errorf("deployer's card names plugins %v, want ops", card.Plugins)
			}
		}
		if !slices.Equal(sorted(got), c.want) {
			t.Errorf("jsonsearch %q: %v, want %v", c.query, got, c.want)
		}
		if !slices.Equal(sorted(core[i].Names), c.want) {
			t.Errorf("search-core.js %q: %v, want %v", c.query, core[i].Names, c.want)
		}
	}
	manifest, err := os.ReadFile(filepath.Join(site, "search", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(manifest), `"id":"plugin","label":"Plugin"`) {
		t.Errorf("the manifest has no Plugin facet: %s", manifest)
	}
}
