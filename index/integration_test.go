package index_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

const catalogTxtar = `
-- skills/pdf-tools/SKILL.md --
---
name: pdf-tools
description: Extract text and tables from PDF documents, fill PDF forms and merge files.
license: MIT
metadata:
  tags: pdf, documents
---
# PDF tools

Use pdfplumber to read tables. Merge with qpdf.
-- skills/kubernetes-deploy/SKILL.md --
---
name: kubernetes-deploy
description: Deploy services to a Kubernetes cluster with kubectl and Helm charts.
spec: usk/1.0
version: 1.0.0
category: devops
tags: [kubernetes, deployment]
capabilities: [deployment, automation]
---
# Deploying to Kubernetes

Write manifests, apply them with kubectl, watch the rollout.
-- skills/kubernetes-deploy/kubernetes-deploy.uasp.yaml --
meta:
  name: kubernetes-deploy
  type: cli
  description: Deploy services to a Kubernetes cluster with kubectl and Helm charts.
triggers:
  keywords: [kubectl, rollout]
  intents:
    - ship a container to production
-- skills/code-review/SKILL.md --
---
name: code-review
description: Review pull requests for correctness, tests and style before merging.
---
# Reviewing code

Read the diff, run the tests, comment on what must change. Kubernetes manifests are out of scope.
-- skills/tables/SKILL.md --
---
name: tables
description: Format Markdown tables.
---
# Tables

| a | b |
| - | - |
`

// assertArchiveHoldsFolder checks that the ZIP archive holds the files of
// folder, byte for byte, under the folder's name, and nothing else.
func assertArchiveHoldsFolder(t *testing.T, archive, folder string) {
	t.Helper()
	zr, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	inArchive := map[string]bool{}
	for _, f := range zr.File {
		inArchive[f.Name] = true
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s in %s: %v", f.Name, archive, err)
		}
		want, err := os.ReadFile(filepath.Join(filepath.Dir(folder), filepath.FromSlash(f.Name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s in %s is not the file in the folder (%v)", f.Name, archive, err)
		}
	}
	filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Dir(folder), p)
			if !inArchive[filepath.ToSlash(rel)] {
				t.Errorf("%s is not in %s", rel, archive)
			}
		}
		return err
	})
}

// TestSearchIntegration builds a small catalog and queries both indexes.
func TestSearchIntegration(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	site := buildSite(t, filepath.Join(t.TempDir(), "public"), src)

	for _, p := range []string{"search/manifest.json", "search/t/0.json", "search/c/0.json", "search/bleve/index_meta.json", "search/bleve/store/root.bolt", "search/bleve/store/000000000000.zap", "search/bleve.zip"} {
		if _, err := os.Stat(filepath.Join(site, p)); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	assertArchiveHoldsFolder(t, filepath.Join(site, "search", "bleve.zip"), filepath.Join(site, "search", "bleve"))

	// The pages writer owns search/index.html: it must be the page that
	// runs the search client, not anything this package wrote.
	if page, err := os.ReadFile(filepath.Join(site, "search/index.html")); err != nil || !bytes.Contains(page, []byte(`id="search-app"`)) {
		t.Errorf("search/index.html is not the search page (%v)", err)
	}

	var m index.Manifest
	data, _ := os.ReadFile(filepath.Join(site, "search/manifest.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Count != 4 {
		t.Errorf("manifest counts %d skills, want 4", m.Count)
	}
	facets := map[string][]any{}
	for _, f := range m.Facets {
		for _, v := range f.Values {
			facets[f.ID] = append(facets[f.ID], v[0])
		}
	}
	if !slices.Contains(facets["type"], any("cli")) || !slices.Contains(facets["tags"], any("pdf")) || !slices.Contains(facets["category"], any("devops")) {
		t.Errorf("facets %v: want type cli (from the UASP document), tag pdf, category devops", facets)
	}

	cases := []struct {
		query string
		first string
	}{
		{"pdf", "pdf-tools"},
		{"kube", "kubernetes-deploy"},
		{"kubernets", "kubernetes-deploy"},
		{"review pull requests", "code-review"},
		{"rollout", "kubernetes-deploy"},
		{"ship container", "kubernetes-deploy"},
		// Exclusions alone: every other skill, by name.
		{"-tag:pdf", "code-review"},
		{"-code -tag:pdf", "kubernetes-deploy"},
	}
	for _, archive := range []bool{false, true} {
		p := site
		if archive {
			p = filepath.Join(site, "search", "bleve.zip")
		}
		ix, err := index.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			res, err := ix.Search(c.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || res.Hits[0].Name != c.first {
				t.Errorf("bleve (archive %v) %q: %+v, want %s first", archive, c.query, res.Hits, c.first)
				continue
			}
			h := res.Hits[0]
			if h.URL != "/skills/"+c.first+"/" || h.Status == "" || h.Format == "" {
				t.Errorf("bleve %q: hit %+v lacks url, status or format", c.query, h)
			}
		}
		res, _ := ix.Search("pdf", 5)
		if d := res.Hits[0].Highlights["description"]; len(d) == 0 || !bytes.Contains([]byte(d[0]), []byte("<mark>PDF</mark>")) {
			t.Errorf("no highlight of PDF in %v", res.Hits[0].Highlights)
		}
		if res, _ := ix.Search("zzzxqj", 5); len(res.Hits) != 0 {
			t.Errorf("nonsense matched %v", res.Hits)
		}
		ix.Close()
	}

	if _, err := os.Stat(coreScript(t)); err != nil {
		t.Fatal(err)
	}
	queries := make([]string, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	for i, r := range runCore(t, site, queries, 5) {
		if len(r.Names) == 0 || r.Names[0] != cases[i].first {
			t.Errorf("JSON index %q: %v, want %s first", cases[i].query, r.Names, cases[i].first)
		}
		if r.Bytes <= 0 || r.Requests < 3 {
			t.Errorf("JSON index %q: %d bytes in %d requests", cases[i].query, r.Bytes, r.Requests)
		}
	}
}

// readFiles returns every file under dir with its bytes.
func readFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSearchDeterministic builds the same catalog twice and compares every
// byte under search/, the bleve index and its archive included. The
// catalog is large enough for the bleve index to have many segments,
// built in parallel; under -short it is not (one merged segment), and
// TestRebuildReusesSegments's catalog, with several, is what the race
// detector sees merged in parallel.
func TestSearchDeterministic(t *testing.T) {
	n := 2100
	if testing.Short() {
		n = 300
	}
	src := filepath.Join(t.TempDir(), "catalog")
	if err := catalogen.Generate(src, n, 3); err != nil {
		t.Fatal(err)
	}
	a := readFiles(t, filepath.Join(buildSite(t, filepath.Join(t.TempDir(), "a"), src), "search"))
	b := readFiles(t, filepath.Join(buildSite(t, filepath.Join(t.TempDir(), "b"), src), "search"))
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Errorf("search/%s differs between two builds", p)
		}
	}
	for _, p := range []string{"bleve/store/root.bolt", "bleve/store/000000000000.zap", "bleve.zip", "manifest.json"} {
		if _, ok := a[p]; !ok {
			t.Errorf("no search/%s", p)
		}
	}
}

// TestChunksAreLocal: removing a name moves no chunk or group boundary but
// its own, so an edit rebuilds one chunk and re-merges one group; every
// group ends where a chunk does.
func TestChunksAreLocal(t *testing.T) {
	var names []string
	for i := range 30000 {
		names = append(names, fmt.Sprintf("skill-%05d", i))
	}
	// Boundaries are known by the name they come after.
	bounds := func(names []string) (chunks, groups map[string]bool) {
		c, g := index.ChunkEnds(names)
		chunks, groups = map[string]bool{}, map[string]bool{}
		for _, e := range c {
			chunks[names[e-1]] = true
		}
		for _, e := range g {
			groups[names[e-1]] = true
			if !chunks[names[e-1]] {
				t.Errorf("a group ends after %s, inside a chunk", names[e-1])
			}
		}
		return chunks, groups
	}
	chunks, groups := bounds(names)
	if len(chunks) < 300 || len(groups) < 10 || len(groups) > 60 {
		t.Fatalf("%d chunks and %d groups for 30,000 names", len(chunks), len(groups))
	}
	for _, removed := range []int{1500, 17000, 29999} {
		c2, g2 := bounds(slices.Delete(slices.Clone(names), removed, removed+1))
		for _, tc := range []struct {
			kind          string
			before, after map[string]bool
		}{{"chunk", chunks, c2}, {"group", groups, g2}} {
			moved := 0
			for last := range tc.before {
				if !tc.after[last] && last != names[removed] {
					moved++
				}
			}
			if moved > 0 {
				t.Errorf("removing %s moved %d %s boundaries", names[removed], moved, tc.kind)
			}
		}
	}
}

// TestRebuildReusesSegments: with a cache (serve), a rebuild after one
// skill changed builds one bleve segment, and its search files are those
// of a clean build.
func TestRebuildReusesSegments(t *testing.T) {
	src := filepath.Join(t.TempDir(), "catalog")
	if err := catalogen.Generate(src, 400, 4); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}, Cache: build.NewCache()}, Output: out}
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	first := index.SegmentsBuilt.Load()
	entries, _ := os.ReadDir(src)
	edit := filepath.Join(src, entries[len(entries)/2].Name(), "SKILL.md")
	b, err := os.ReadFile(edit)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edit, append(b, "\nNever deploy on a Friday without a rollback plan.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Previous = res.Manifest
	before := index.SegmentsBuilt.Load()
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if n := index.SegmentsBuilt.Load() - before; n != 1 {
		t.Errorf("the rebuild built %d segments (the first build %d); want 1", n, first)
	}
	clean := readFiles(t, filepath.Join(buildSite(t, filepath.Join(t.TempDir(), "clean"), src), "search"))
	inc := readFiles(t, filepath.Join(out, "search"))
	if len(clean) != len(inc) {
		t.Fatalf("%d search files, a clean build %d", len(inc), len(clean))
	}
	for p, data := range clean {
		if !bytes.Equal(data, inc[p]) {
			t.Errorf("search/%s differs from a clean build", p)
		}
	}
}

// TestAdditionKeepsSearchFiles: a skill added whose name sorts first
// changes few files of the JSON index besides those of its own terms: the
// other documents keep their numbers (docnum.go), so the cards and facet
// lists that do not hold it stay as they were. Numbered in name order,
// every card file and most facet lists changed.
func TestAdditionKeepsSearchFiles(t *testing.T) {
	src := filepath.Join(t.TempDir(), "catalog")
	if err := catalogen.Generate(src, 300, 4); err != nil {
		t.Fatal(err)
	}
	before := readFiles(t, filepath.Join(buildSite(t, filepath.Join(t.TempDir(), "before"), src), "search"))
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	model := entries[1].Name()
	data, err := os.ReadFile(filepath.Join(src, model, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("name: "+model+"\n"), []byte("name: aaa-added\n"), 1)
	testutil.WriteTxtar(t, src, "-- aaa-added/SKILL.md --\n"+string(data))
	after := readFiles(t, filepath.Join(buildSite(t, filepath.Join(t.TempDir(), "after"), src), "search"))

	changed := map[string][]string{} // by folder: c, f, x, ...
	total := map[string]int{}
	for p, b := range after {
		folder, _, _ := strings.Cut(p, "/")
		total[folder]++
		if a, ok := before[p]; !ok || !bytes.Equal(a, b) {
			changed[folder] = append(changed[folder], p)
		}
	}
	for folder, ps := range changed {
		t.Logf("%s: %d of %d files changed", folder, len(ps), total[folder])
	}
	if n := len(changed["c"]); n == 0 || n > 2 {
		t.Errorf("%d card files of %d changed, want the added skill's and at most one more: %v", n, total["c"], changed["c"])
	}
	// The added skill's facet values' lists, and those whose numbers
	// its counts moved.
	if n := len(changed["f"]); n*4 > total["f"] {
		t.Errorf("%d facet files of %d changed", n, total["f"])
	}
}

// TestBleveFiltersAloneByName: in the bleve index, a query of filters
// alone lists skills by name, though documents are numbered by the hashes
// of their names.
func TestBleveFiltersAloneByName(t *testing.T) {
	src := filepath.Join(t.TempDir(), "catalog")
	if err := catalogen.Generate(src, 40, 2); err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(buildSite(t, filepath.Join(t.TempDir(), "site"), src))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, q := range []string{"format:skill-md", "-format:uasp format:skill-md", "-format:uasp"} {
		res, err := ix.Search(q, 40)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, h := range res.Hits {
			names = append(names, h.Name)
		}
		if len(names) < 10 || !slices.IsSorted(names) {
			t.Errorf("%q: %v, want most of the 40 skills, by name", q, names)
		}
	}
}

// TestUASPDocumentIsItsBody: a skill that is a UASP document alone has no
// SKILL.md body; its document, as the Markdown its page shows, is what
// both engines search, so its commands and their arguments are found.
func TestUASPDocumentIsItsBody(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), `
-- browse/browse.uasp.yaml --
meta:
  name: browse
  version: "00000000"
  type: cli
  description: Drive a web browser from the command line.
commands:
  snapshot:
    syntax: browse snapshot FILE
    description: Save the page as a portable document.
  cookies:
    syntax: browse cookies
    description: List the cookies the page has set.
-- other/SKILL.md --
---
name: other
description: A skill about something else entirely, such as gardening.
---
Water the plants.
`)
	site := buildSite(t, filepath.Join(t.TempDir(), "public"), src)
	ix, err := index.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	queries := []string{"cookies", "portable document"}
	core := runCore(t, site, queries, 3)
	for i, q := range queries {
		res, err := ix.Search(q, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Name != "browse" {
			t.Errorf("bleve: %q finds %+v, want browse first", q, res.Hits)
		}
		if len(core[i].Names) == 0 || core[i].Names[0] != "browse" {
			t.Errorf("JSON index: %q finds %v, want browse first", q, core[i].Names)
		}
	}
}
