package site_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/spdx"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/sitecheck"
	"github.com/skilldex/skilldex/internal/testutil"
)

// facetsTxtar holds two source roots: team/, a git checkout whose origin
// names it, and vendor/, which the build names; their skills write their
// licenses as people do.
const facetsTxtar = `
-- team/.git/config --
[core]
	bare = false
[remote "origin"]
	url = https://x-access-token:SECRET@github.com/acme/team-skills.git
-- team/skills/alpha/SKILL.md --
---
name: alpha
description: Alpha does the first thing.
license: MIT license
---
Body.
-- team/skills/beta/SKILL.md --
---
name: beta
description: Beta does the second thing.
license: Apache License, Version 2.0
---
Body.
-- team/skills/gamma/SKILL.md --
---
name: gamma
description: Gamma has no license at all.
---
Body.
-- vendor/delta/SKILL.md --
---
name: delta
description: Delta is MIT, spelt the SPDX way.
license: MIT
---
Body.
-- vendor/epsilon/SKILL.md --
---
name: epsilon
description: Epsilon points at a file.
license: Complete terms in LICENSE.txt
---
Body.
-- vendor/zeta/SKILL.md --
---
name: zeta
description: Zeta is dual-licensed.
license: mit or apache-2.0
---
Body.
-- vendor/eta/SKILL.md --
---
spec: usk/1.0
name: eta
description: Eta is a USK skill under a long license name.
version: 1.0.0
license: The MIT License (MIT)
---
Body.
`

// TestFacetsIntegration builds a catalog of two source roots and messy
// license values, and finds its sources and licenses, normalised, on the
// home page, the taxonomy pages, the skill pages, the JSON search index
// and the bleve index.
func TestFacetsIntegration(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), facetsTxtar)
	team, vendor := filepath.Join(dir, "team"), filepath.Join(dir, "vendor")
	info, err := siteinfo.New("Facets", "/")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	opt := build.Options{Output: out, Site: info}
	opt.Sources = []string{team, vendor}
	opt.SourceNames = map[string]string{vendor: "Vendor <skills>"}
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	checkSite(t, out, sitecheck.Options{BasePath: "/"})
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	wantSources := map[string]int{"acme/team-skills": 3, "Vendor <skills>": 4}
	wantLicenses := map[string]int{"MIT": 3, "Apache-2.0": 1, "MIT OR Apache-2.0": 1, "Other": 1}

	// The home page lists both facets, each value linking its page.
	home := read("index.html")
	for _, want := range []string{
		`<a href="/sources/acme-team-skills/">acme/team-skills</a> <span class="sd-count">3</span>`,
		`<a href="/sources/vendor-skills/">Vendor &lt;skills&gt;</a> <span class="sd-count">4</span>`,
		`<a href="/licenses/mit/">MIT</a> <span class="sd-count">3</span>`,
		`<a href="/licenses/apache-2-0/">Apache-2.0</a> <span class="sd-count">1</span>`,
		`<a href="/licenses/mit-or-apache-2-0/">MIT OR Apache-2.0</a> <span class="sd-count">1</span>`,
		`<a href="/licenses/other/">Other</a> <span class="sd-count">1</span>`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("the home page lacks %s", want)
		}
	}
	if i, j := strings.Index(home, "<h2>Sources</h2>"), strings.Index(home, "<h2>Types</h2>"); i < 0 || j < 0 || i > j {
		t.Error("the Sources facet is not the first of the home page")
	}

	// Taxonomy pages: an index per facet, a page per value listing its
	// skills and no other.
	for page, skills := range map[string][]string{
		"sources/acme-team-skills/index.html":   {"alpha", "beta", "gamma"},
		"sources/vendor-skills/index.html":      {"delta", "epsilon", "zeta", "eta"},
		"licenses/mit/index.html":               {"alpha", "delta", "eta"},
		"licenses/apache-2-0/index.html":        {"beta"},
		"licenses/other/index.html":             {"epsilon"},
		"licenses/mit-or-apache-2-0/index.html": {"zeta"},
	} {
		text := read(page)
		for _, name := range []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"} {
			if listed := strings.Contains(text, `href="/skills/`+name+`/"`); listed != slices.Contains(skills, name) {
				t.Errorf("%s: lists %s: %v", page, name, listed)
			}
		}
	}
	for page, want := range map[string][]string{
		"sources/index.html":  {"acme/team-skills", "Vendor &lt;skills&gt;"},
		"licenses/index.html": {"MIT", "Apache-2.0", "MIT OR Apache-2.0", "Other"},
	} {
		text := read(page)
		for _, w := range want {
			if !strings.Contains(text, ">"+w+" <span") {
				t.Errorf("%s lacks %s", page, w)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, "licenses", "mit-license")); err == nil {
		t.Error(`"MIT license" has a page of its own`)
	}

	// Skill pages: the badges link the facets' pages; Details keeps the
	// license as written.
	alpha := read("skills/alpha/index.html")
	for _, want := range []string{
		`<a class="sd-badge" href="/sources/acme-team-skills/">source: acme/team-skills</a>`,
		`<a class="sd-badge" href="/licenses/mit/">license: MIT</a>`,
		`<dt>License</dt><dd>MIT license</dd>`,
	} {
		if !strings.Contains(alpha, want) {
			t.Errorf("alpha's page lacks %s", want)
		}
	}
	if other := read("licenses/other/index.html"); !strings.Contains(other, "names no SPDX license") {
		t.Error("licenses/other/ does not say what Other holds")
	}
	if epsilon := read("skills/epsilon/index.html"); !strings.Contains(epsilon, `license: Other</a>`) || !strings.Contains(epsilon, `<dd>Complete terms in LICENSE.txt</dd>`) {
		t.Error("epsilon's page lacks the Other badge or its license as written")
	}
	if gamma := read("skills/gamma/index.html"); strings.Contains(gamma, "license: ") {
		t.Error("gamma, with no license, has a license badge")
	}

	// The JSON index: the browser's facets.
	facets := map[string]map[string]int{}
	for _, f := range manifestFacets(t, out) {
		facets[f.ID] = map[string]int{}
		for _, v := range f.Values {
			facets[f.ID][v.Name] = v.Count
		}
	}
	if !maps.Equal(facets["source"], wantSources) {
		t.Errorf("search/manifest.json: source facet %v, want %v", facets["source"], wantSources)
	}
	if !maps.Equal(facets["license"], wantLicenses) {
		t.Errorf("search/manifest.json: license facet %v, want %v", facets["license"], wantLicenses)
	}

	// The bleve index (skilldex search): each hit's source and license,
	// and the facet counts.
	ix, err := index.Open(filepath.Join(out, "search", "bleve.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	res, err := ix.Search("thing", 10)
	if err != nil {
		t.Fatal(err)
	}
	hits := map[string]index.Hit{}
	for _, h := range res.Hits {
		hits[h.Name] = h
	}
	if a, b := hits["alpha"], hits["beta"]; a.Source != "acme/team-skills" || a.License != "MIT" || b.License != "Apache-2.0" {
		t.Errorf("bleve hits: alpha %q %q, beta %q", a.Source, a.License, b.License)
	}
	if got := res.Facets["source"]; !maps.Equal(got, map[string]int{"acme/team-skills": 2}) {
		t.Errorf("bleve source facet of \"thing\": %v", got)
	}

	// Nothing of the remote's credentials is published.
	for p, data := range tree(t, out) {
		for _, leak := range []string{"SECRET", "x-access-token"} {
			if strings.Contains(string(data), leak) {
				t.Errorf("%s holds %q", p, leak)
			}
		}
	}
}

// TestCorpusFacets builds the corpus with each repository's folder as a
// source of its own, named as a config names it: the Source facet lists
// the seven repositories, every License value is an SPDX expression or
// Other, and the marketplaces' plugins have their pages (corpusPlugins).
func TestCorpusFacets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole corpus")
	}
	corpus := testutil.Testdata(t, "corpus", "skills")
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	info, err := siteinfo.New("Corpus", "/")
	if err != nil {
		t.Fatal(err)
	}
	info.Parts.Bleve, info.Parts.Archives, info.Parts.Markdown = false, false, false
	opt := build.Options{Output: filepath.Join(t.TempDir(), "public"), Site: info}
	opt.SourceNames = map[string]string{}
	var repos []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		root := filepath.Join(corpus, e.Name())
		repo := strings.Replace(e.Name(), "__", "/", 1) // owner__repo
		opt.Sources = append(opt.Sources, root)
		opt.SourceNames[root] = repo
		repos = append(repos, repo)
	}
	if len(repos) != 7 {
		t.Fatalf("the corpus has %d repositories, want 7", len(repos))
	}
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string][]string{}
	for _, f := range manifestFacets(t, opt.Output) {
		// The checks below read every value of these (tags and plugins
		// have more than the manifest lists).
		if f.All && (f.ID == "source" || f.ID == "license") {
			t.Errorf("facet %s has more values than the manifest lists", f.ID)
		}
		for _, v := range f.Values {
			values[f.ID] = append(values[f.ID], v.Name)
		}
	}
	slices.Sort(values["source"])
	slices.Sort(repos)
	if !slices.Equal(values["source"], repos) {
		t.Errorf("source facet %v, want the seven repositories %v", values["source"], repos)
	}
	if len(values["license"]) == 0 {
		t.Fatal("no license facet")
	}
	for _, v := range values["license"] {
		if v != spdx.Other && !spdx.Valid(v) {
			t.Errorf("license facet value %q is neither an SPDX expression nor Other", v)
		}
	}
	// The home page's facets and the taxonomy pages agree.
	home, _ := os.ReadFile(filepath.Join(opt.Output, "index.html"))
	for _, repo := range repos {
		if !strings.Contains(string(home), ">"+repo+"</a>") {
			t.Errorf("the home page's Sources facet lacks %s", repo)
		}
		if _, err := os.Stat(filepath.Join(opt.Output, "sources", siteinfo.Slug(repo), "index.html")); err != nil {
			t.Errorf("no page for source %s", repo)
		}
	}
	if strings.Contains(string(home), "MIT license") || strings.Contains(string(home), "Apache-2.0 license") {
		t.Error("the home page lists a license as written instead of normalised")
	}
	t.Logf("%d skills; licenses %v", len(res.Catalog.Skills), values["license"])
	corpusPlugins(t, opt.Output)
}

// corpusPlugins checks the plugin pages of the corpus site: one for each
// plugin with skills in the corpus, with its skills and how Claude Code
// installs it from its repository; k8s-manifest-generator's page names its
// plugin and the category it inherits; anthropics/skills' lists put
// mcp-builder in example-skills.
func corpusPlugins(t *testing.T, site string) {
	pages, err := filepath.Glob(filepath.Join(site, "plugins", "*", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 50 {
		t.Errorf("%d plugin pages, want at least 50", len(pages))
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	k8s := read("plugins/kubernetes-operations/index.html")
	for _, want := range []string{
		"/plugin marketplace add wshobson/agents", "/plugin install kubernetes-operations@claude-code-workflows",
		`href="/skills/k8s-manifest-generator/"`, "category: infrastructure",
	} {
		if !strings.Contains(k8s, want) {
			t.Errorf("plugins/kubernetes-operations/ lacks %q", want)
		}
	}
	skill := read("skills/k8s-manifest-generator/index.html")
	for _, want := range []string{`href="/plugins/kubernetes-operations/">plugin: kubernetes-operations<`, "category: infrastructure (from its plugin)"} {
		if !strings.Contains(skill, want) {
			t.Errorf("skills/k8s-manifest-generator/ lacks %q", want)
		}
	}
	if !strings.Contains(read("plugins/example-skills/index.html"), `href="/skills/mcp-builder/"`) {
		t.Error("plugins/example-skills/ does not list mcp-builder")
	}
	// superpowers' skills name each other superpowers:NAME.
	if !strings.Contains(read("skills/subagent-driven-development/index.html"), `<a href="/skills/using-git-worktrees/">superpowers:using-git-worktrees</a>`) {
		t.Error("skills/subagent-driven-development/ does not link superpowers:using-git-worktrees")
	}
}

// manifestFacet is a facet of a site's JSON search index.
type manifestFacet struct {
	ID     string
	Values []facetCount
	All    bool // the manifest lists some of the values only
}

// facetCount is a value of a facet and how many skills have it.
type facetCount struct {
	Name  string
	Count int
}

// manifestFacets reads the facets of a site's search/manifest.json, whose
// values are [name, count, file number].
func manifestFacets(t *testing.T, site string) []manifestFacet {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(site, "search", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Facets []struct {
			ID     string   `json:"id"`
			Values [][3]any `json:"values"`
			All    bool     `json:"all"`
		} `json:"facets"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []manifestFacet
	for _, f := range m.Facets {
		mf := manifestFacet{ID: f.ID, All: f.All}
		for _, v := range f.Values {
			name, _ := v[0].(string)
			n, _ := v[1].(float64)
			mf.Values = append(mf.Values, facetCount{name, int(n)})
		}
		out = append(out, mf)
	}
	return out
}
