package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/skilldex/skilldex/internal/hostile"
	"github.com/skilldex/skilldex/internal/testutil"
)

// localCatalog is a catalog whose inputs make diagnostics that name files:
// links out of a skill and to nothing, a broken Markdown link, a name
// taken twice, a SkillBag workspace without AGENTS.md, an archive and a
// UASP document. BASE is replaced by the folder above the catalog.
const localCatalog = `
-- skilldex.yaml --
title: Acme skills
base_url: https://acme.example/skills/
repository:
  url: https://github.com/acme/skills
  branch: release/1.x
  path: docs
-- skills/alpha/SKILL.md --
---
name: alpha
description: Alpha reads a file of the catalog and links to things that are not there.
---
See [the guide](missing-guide.md), [beta](../beta/SKILL.md) and ![a picture](gone.png).
-- skills/alpha/escape.md --
symlink: BASE/secret-outside.txt
-- skills/alpha/dangling.md --
symlink: BASE/gone/target.md
-- skills/beta/SKILL.md --
---
name: beta
description: Beta has a field the spec does not know.
argument-hint: "[x]"
---
Body.
-- docs/gamma.uasp.yaml --
meta:
  name: gamma
  version: "00000000"
  type: cli
-- ws/SKILLBAG.md --
# workspace
-- ws/.skills/SKILLS.md --
one: The first.
-- ws/.skills/one/SKILL.md --
---
name: one
description: The first.
---
-- extra/alpha/SKILL.md --
---
name: alpha
description: A second alpha, in another source, so one of the two is shadowed.
---
`

// TestNothingLocalIsPublished builds a catalog that lives under a long,
// unusual absolute path, from absolute source paths and with the working
// folder elsewhere, and checks that no byte of the build machine's paths
// is in any output file: not in pages, the report, the Markdown twins,
// the JSON files and search indexes, nor in any ZIP archive's entries or
// the bleve index's terms and stored fields.
func TestNothingLocalIsPublished(t *testing.T) {
	base := t.TempDir()
	// Unusual words, so that a leak is found in the search index's terms
	// too, where paths are split into words and folded.
	parts := []string{"Ünïcödé zqxwv folder", strings.Repeat("qqlong-", 12) + "end", "catalog ✓ vkjd (copy)"}
	root := filepath.Join(append([]string{base}, parts...)...)
	testutil.WriteTxtar(t, root, strings.ReplaceAll(localCatalog, "BASE", base))
	os.WriteFile(filepath.Join(base, "secret-outside.txt"), []byte("outside\n"), 0o644)
	if err := os.WriteFile(filepath.Join(root, "skills", "delta.skill"), testutil.Zip(t, map[string]string{
		"delta/SKILL.md": "---\nname: delta\ndescription: Delta comes as an archive.\n---\nSee [x](nowhere.md).\n",
	}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())

	builds := []struct {
		name string
		args []string
		// source is where skill alpha's page says its source is, and
		// forge the links to it on the forge.
		source string
		forge  []string
	}{
		// Sources outside the working folder, no config: each named
		// from its own folder.
		{"sources", []string{"--base-url", "https://acme.example/skills/", filepath.Join(root, "skills"), filepath.Join(root, "extra"), filepath.Join(root, "docs", "gamma.uasp.yaml")}, "extra/alpha/SKILL.md", nil},
		// The config's folder is the catalog root.
		{"config", []string{"--config", filepath.Join(root, "skilldex.yaml")}, "skills/alpha/SKILL.md", []string{
			`<ul class="sd-forge"><li><a href="https://github.com/acme/skills/blob/release/1.x/docs/skills/alpha/SKILL.md">View source</a></li><li><a href="https://github.com/acme/skills/edit/release/1.x/docs/skills/alpha/SKILL.md">Edit this skill</a></li></ul>`,
		}},
	}
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			out := filepath.Join(base, "site-"+b.name)
			code, _, stderr := runCLI(t, append([]string{"build", "-q", "-o", out}, b.args...)...)
			if code != exitOK {
				t.Fatalf("build: exit %d, %s", code, stderr)
			}
			page, err := os.ReadFile(filepath.Join(out, "skills", "alpha", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(page, []byte("<dt>Source</dt><dd>"+b.source+"</dd>")) {
				t.Errorf("alpha's page does not name its source %s", b.source)
			}
			for _, want := range b.forge {
				if !bytes.Contains(page, []byte(want)) {
					t.Errorf("alpha's page lacks the links to the forge %s", want)
				}
			}
			if b.forge == nil && bytes.Contains(page, []byte("sd-forge")) {
				t.Error("links to a forge without a repository")
			}
			report, _ := os.ReadFile(filepath.Join(out, "report", "index.html"))
			for _, want := range []string{"alpha/dangling.md", "alpha/escape.md", "symlink-broken", "symlink-outside-skill", "name-shadowed"} {
				if !bytes.Contains(report, []byte(want)) {
					t.Errorf("the report lacks %q: the test needs the diagnostics that name files", want)
				}
			}
			needles := []string{base, filepath.Dir(base), root}
			for _, p := range parts {
				needles = append(needles, p, html.EscapeString(p), url.PathEscape(p), url.QueryEscape(p), jsonString(p))
			}
			problems, err := hostile.Scan(out, hostile.ScanOptions{BasePath: "/skills/", Secrets: needles})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
			words := []string{"zqxwv", "qqlong", "vkjd", strings.ToLower(filepath.Base(filepath.Dir(base)))}
			for _, p := range bleveLeaks(t, filepath.Join(out, "search", "bleve"), needles, words) {
				t.Error(p)
			}
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// bleveLeaks reads what the bleve index holds, which its files store
// compressed: every term of every field, and every stored field of every
// document. It returns a line per needle found in a stored field and per
// term that holds one of words.
func bleveLeaks(t *testing.T, dir string, needles, words []string) []string {
	t.Helper()
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var out []string
	fields, err := idx.Fields()
	if err != nil {
		t.Fatal(err)
	}
	terms := 0
	for _, f := range fields {
		d, err := idx.FieldDict(f)
		if err != nil {
			t.Fatal(err)
		}
		for e, err := d.Next(); e != nil && err == nil; e, err = d.Next() {
			terms++
			for _, w := range words {
				if strings.Contains(e.Term, w) {
					out = append(out, fmt.Sprintf("bleve: field %s has the term %q", f, e.Term))
				}
			}
		}
		d.Close()
	}
	n, _ := idx.DocCount()
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), int(n), 0, false)
	req.Fields = []string{"*"}
	res, err := idx.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		for f, v := range h.Fields {
			s := fmt.Sprint(v)
			for _, nd := range needles {
				if strings.Contains(s, nd) {
					out = append(out, fmt.Sprintf("bleve: document %s, field %s holds %q", h.ID, f, nd))
				}
			}
		}
	}
	if terms == 0 || len(res.Hits) == 0 {
		out = append(out, "bleve: the index holds no term or no document; nothing was checked")
	}
	return out
}
