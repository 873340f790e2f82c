package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

// siteDigest maps every file of a site to its SHA-256.
func siteDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(b)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSites(t *testing.T, step string, got, want map[string]string) {
	t.Helper()
	var bad []string
	for p, h := range want {
		if got[p] != h {
			bad = append(bad, p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			bad = append(bad, p+" (extra)")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		if len(bad) > 10 {
			bad = bad[:10]
		}
		t.Errorf("%s: the incremental site differs from a clean build in %v", step, bad)
	}
}

// TestIncrementalBuildEqualsClean edits, adds, renames and deletes skills of
// a generated catalog, rebuilding incrementally after each change, and
// compares every file with a clean build of the same sources.
func TestIncrementalBuildEqualsClean(t *testing.T) {
	src := filepath.Join(t.TempDir(), "skills")
	if err := catalogen.Generate(src, 30, 5); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(src)
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	// A SkillBag workspace whose checks, run on every load, report
	// positions in frontmatters an earlier load parsed.
	testutil.WriteTxtar(t, src, `
-- zz-workspace/SKILLBAG.md --
# SKILLBAG
-- zz-workspace/.skills/SKILLS.md --
Bad_Name: Uses #use/Other_Skill.
-- zz-workspace/.skills/Bad_Name/SKILL.md --
---
description: Uses #use/Other_Skill.
name: Bad_Name
---
Always check.
`)
	inc := filepath.Join(t.TempDir(), "inc")
	opt := Options{LoadOptions: LoadOptions{Sources: []string{src}, Cache: NewCache()}, Output: inc}
	var prev *output.Manifest
	// Each rebuild is told what changed, as serve's watcher tells it, and
	// trusts what stat says of the rest, however recent.
	defer func(s time.Duration) { settle = s }(settle)
	settle = 0
	real, err := filepath.EvalSymlinks(src)
	if err != nil {
		t.Fatal(err)
	}
	build := func(step string, changed ...string) *Result {
		t.Helper()
		opt.Previous = prev
		opt.Changed = nil
		if step != "first build" {
			opt.Changed = []string{}
			for _, c := range changed {
				opt.Changed = append(opt.Changed, filepath.Join(real, filepath.FromSlash(c)))
			}
		}
		res, err := Build(context.Background(), opt)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		prev = res.Manifest
		clean := filepath.Join(t.TempDir(), "clean")
		if _, err := Build(context.Background(), Options{LoadOptions: LoadOptions{Sources: []string{src}, SourceNames: opt.SourceNames}, Output: clean}); err != nil {
			t.Fatal(err)
		}
		diffSites(t, step, siteDigest(t, inc), siteDigest(t, clean))
		return res
	}
	build("first build")
	// Only the bleve index (its few files and its zip) is rebuilt whole;
	// every other file is kept as it was.
	if res := build("nothing changed"); res.Written > 5 || res.Kept < res.Files-5 {
		t.Errorf("a rebuild with no change wrote %d files and kept %d", res.Written, res.Kept)
	}

	edit := filepath.Join(src, names[0], "SKILL.md")
	b, _ := os.ReadFile(edit)
	os.WriteFile(edit, append(b, "\n## Troubleshooting\n\nNever retry a failed deploy without reading its log.\n"...), 0o644)
	build("edit", names[0]+"/SKILL.md")

	// What listings and the catalog-wide API files show of a skill.
	described := filepath.Join(src, names[6], "SKILL.md")
	b, _ = os.ReadFile(described)
	if !bytes.Contains(b, []byte("description: \"")) {
		t.Fatalf("%s has no quoted description to edit", described)
	}
	os.WriteFile(described, bytes.Replace(b, []byte("description: \""), []byte("description: \"Edited: "), 1), 0o644)
	build("description edited", names[6]+"/SKILL.md")

	// A finding, then a second one, which leaves the skill's status as
	// the first made it: the report shows both.
	linking := filepath.Join(src, names[7], "SKILL.md")
	for _, missing := range []string{"first", "second"} {
		b, _ = os.ReadFile(linking)
		os.WriteFile(linking, fmt.Appendf(b, "\nSee [the %s notes](references/%s-missing.md).\n", missing, missing), 0o644)
		build("finding added: "+missing, names[7]+"/SKILL.md")
	}

	if err := catalogen.Generate(filepath.Join(src, "more"), 3, 9); err != nil {
		t.Fatal(err)
	}
	build("additions", "more")

	os.Rename(filepath.Join(src, names[1]), filepath.Join(src, "renamed-folder"))
	build("rename of a folder", names[1], "renamed-folder")

	os.RemoveAll(filepath.Join(src, names[2]))
	os.RemoveAll(filepath.Join(src, "more"))
	build("deletions", names[2], "more")

	// The Source facet's name for every skill, which no file of theirs
	// holds.
	opt.SourceNames = map[string]string{src: "Renamed source"}
	build("source named")

	// A marketplace comes, its plugin's category changes, it breaks, and
	// goes: what each skill shows of its plugins, which no file of the
	// skill holds.
	market := filepath.Join(src, ".claude-plugin", "marketplace.json")
	os.MkdirAll(filepath.Dir(market), 0o755)
	writeMarket := func(plugin, category string) {
		os.WriteFile(market, []byte(`{"name": "m", "owner": {"name": "o"}, "plugins": [
  {"name": "`+plugin+`", "source": "./", "strict": false, "category": "`+category+`", "keywords": ["k"], "skills": ["./`+names[3]+`", "./`+names[4]+`"]}]}`), 0o644)
	}
	writeMarket("p", "ops")
	build("marketplace added", ".claude-plugin/marketplace.json")
	writeMarket("p", "security")
	build("plugin category changed", ".claude-plugin/marketplace.json")
	writeMarket("q", "security")
	build("plugin renamed", ".claude-plugin/marketplace.json")
	os.WriteFile(market, []byte(`{"name": "m",`), 0o644)
	build("marketplace broken", ".claude-plugin/marketplace.json")
	os.RemoveAll(filepath.Dir(market))
	build("marketplace removed", ".claude-plugin")

	// A plugin described by its plugin.json, and a second marketplace
	// with a plugin of the same name: the slugs of their pages depend on
	// each other, and the skills' badges link them.
	os.MkdirAll(filepath.Dir(market), 0o755)
	os.WriteFile(market, []byte(`{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "q", "source": "./", "skills": ["./`+names[3]+`"]}]}`), 0o644)
	manifest := filepath.Join(src, ".claude-plugin", "plugin.json")
	os.WriteFile(manifest, []byte(`{"name": "q", "description": "First words", "version": "1.0.0"}`), 0o644)
	build("plugin with a manifest", ".claude-plugin")
	os.WriteFile(manifest, []byte(`{"name": "q", "description": "Other words", "version": "1.1.0"}`), 0o644)
	build("plugin.json changed", ".claude-plugin/plugin.json")
	// The search index's chunk of a plugin's skill is made again, the
	// skill's own record taken from the last build.
	other := filepath.Join(src, names[4], "SKILL.md")
	b, _ = os.ReadFile(other)
	os.WriteFile(other, append(b, "\nOne more line.\n"...), 0o644)
	build("a skill beside a plugin's skill edited", names[4]+"/SKILL.md")
	second := filepath.Join(src, names[5], ".claude-plugin", "marketplace.json")
	os.MkdirAll(filepath.Dir(second), 0o755)
	os.WriteFile(second, []byte(`{"name": "n", "owner": {"name": "o"}, "plugins": [{"name": "q", "source": "./", "strict": false, "skills": ["./"]}]}`), 0o644)
	build("a second plugin of the same name", names[5]+"/.claude-plugin")
	os.RemoveAll(filepath.Dir(market))
	build("the first plugin gone, the second takes its slug", ".claude-plugin")

	// A workspace member edited: the workspace's checks see it.
	testutil.WriteTxtar(t, src, `
-- zz-workspace/.skills/Bad_Name/SKILL.md --
---
description: Uses #use/Other_Skill, edited.
name: Bad_Name
---
Always check twice.
`)
	build("workspace member edited", "zz-workspace/.skills/Bad_Name/SKILL.md")
}
