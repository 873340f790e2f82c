package source

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

const rediscoverTxtar = `
-- .claude-plugin/marketplace.json --
{"name": "top", "owner": {"name": "o"}, "plugins": []}
-- a/SKILL.md --
---
name: a
description: Top skill.
---
-- a/references/guide.md --
guide
-- a/nested/SKILL.md --
---
name: nested
description: A skill inside a skill.
---
-- a/nested/deep/notes.md --
notes
-- group/b/SKILL.md --
---
name: b
description: In a group.
---
-- group/c/SKILL.md --
---
name: c
description: In a group.
---
-- group/c/scripts/run.sh --
echo
-- docs/mermaid.uasp.yaml --
meta:
  name: mermaid
-- bag/SKILLBAG.md --
# bag
-- bag/CONTEXT.md --
context
-- bag/.skills/SKILLS.md --
- one
-- bag/.skills/one/SKILL.md --
---
name: one
description: A workspace member.
---
-- node_modules/pkg/SKILL.md --
---
name: pkg
description: skipped
---
-- plain/readme.md --
not a skill
`

// view is what a test compares of a Result: everything but the inputs'
// file systems, with workspaces by value.
func view(r *Result) any {
	type input struct {
		Input
		WS string
	}
	var ins []input
	for _, in := range r.Inputs {
		c := *in
		c.FS = nil
		ws := ""
		if c.Workspace != nil {
			ws = c.Workspace.Path
		}
		c.Workspace = nil
		ins = append(ins, input{c, ws})
	}
	var wss []Workspace
	for _, ws := range r.Workspaces {
		wss = append(wss, *ws)
	}
	return []any{ins, wss, r.Diagnostics, r.Skipped, r.Marketplaces}
}

// A change is something done to the sources, and the paths a watcher
// reports for it.
type change struct {
	name string
	do   func(t *testing.T, root string) []string
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skillText(name string) string {
	return "---\nname: " + name + "\ndescription: Made by a change.\n---\n"
}

var changes = []change{
	{"edit a skill's file", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "a", "references", "guide.md")
		writeFile(t, p, "guide, longer than before")
		return []string{p}
	}},
	{"rename-save a SKILL.md", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "group", "b", "SKILL.md")
		tmp := p + ".tmp"
		writeFile(t, tmp, skillText("b")+"saved\n")
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
		return []string{tmp, p}
	}},
	{"add a skill folder", func(t *testing.T, root string) []string {
		d := filepath.Join(root, "group", "new")
		writeFile(t, filepath.Join(d, "SKILL.md"), skillText("new"))
		return []string{d}
	}},
	{"remove a skill folder", func(t *testing.T, root string) []string {
		d := filepath.Join(root, "group", "c")
		os.RemoveAll(d)
		return []string{d}
	}},
	{"rename a skill folder", func(t *testing.T, root string) []string {
		from, to := filepath.Join(root, "group", "b"), filepath.Join(root, "plain", "b2")
		if err := os.Rename(from, to); err != nil {
			return nil // moved already
		}
		return []string{from, to}
	}},
	{"remove a nested SKILL.md", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "a", "nested", "SKILL.md")
		os.Remove(p)
		return []string{p}
	}},
	{"make a subfolder of a skill a skill", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "group", "c", "scripts", "SKILL.md")
		if _, err := os.Stat(filepath.Dir(p)); err != nil {
			return nil
		}
		writeFile(t, p, skillText("scripts"))
		return []string{p}
	}},
	{"make a plain folder a skill", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "plain", "SKILL.md")
		writeFile(t, p, skillText("plain"))
		return []string{p}
	}},
	{"add a document alone", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "docs", "other.uasp.yaml")
		writeFile(t, p, "meta:\n  name: other\n")
		return []string{p}
	}},
	{"name a folder's document after it", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "docs", "docs.uasp.yaml")
		writeFile(t, p, "meta:\n  name: docs\n")
		return []string{p}
	}},
	{"edit a workspace's catalog", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "bag", ".skills", "SKILLS.md")
		writeFile(t, p, "- one\n- two\n")
		return []string{p}
	}},
	{"add a workspace member", func(t *testing.T, root string) []string {
		d := filepath.Join(root, "bag", ".skills", "two")
		writeFile(t, filepath.Join(d, "SKILL.md"), skillText("two"))
		return []string{d}
	}},
	{"end a workspace", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "bag", "SKILLBAG.md")
		os.Remove(p)
		return []string{p}
	}},
	{"start a workspace", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "group", "SKILLBAG.md")
		writeFile(t, p, "# group\n")
		return []string{p}
	}},
	{"mark a folder as a built site", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "group", ".skilldex-site")
		writeFile(t, p, "")
		return []string{p}
	}},
	{"add an installed package", func(t *testing.T, root string) []string {
		d := filepath.Join(root, "plain", "node_modules")
		writeFile(t, filepath.Join(d, "x", "SKILL.md"), skillText("x"))
		return []string{d}
	}},
	{"break a skill's file link", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "a", "link.md")
		os.Remove(p)
		if err := os.Symlink("missing.md", p); err != nil {
			t.Skip("no symbolic links here")
		}
		return []string{p}
	}},
	{"add an archive", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "plain", "z.skill")
		writeFile(t, p, "not a zip")
		return []string{p}
	}},
	{"add a marketplace at the root", func(t *testing.T, root string) []string {
		p := filepath.Join(root, ".claude-plugin", "marketplace.json")
		writeFile(t, p, `{"name": "m", "owner": {"name": "o"}, "plugins": []}`)
		return []string{p}
	}},
	{"add a Codex marketplace in a folder", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "group", ".agents", "plugins", "marketplace.json")
		writeFile(t, p, `{"name": "m", "plugins": []}`)
		return []string{filepath.Join(root, "group", ".agents")}
	}},
	{"remove the root's marketplace folder", func(t *testing.T, root string) []string {
		p := filepath.Join(root, ".claude-plugin")
		os.RemoveAll(p)
		return []string{p}
	}},
	{"remove a folder holding a marketplace", func(t *testing.T, root string) []string {
		p := filepath.Join(root, "group")
		os.RemoveAll(p)
		return []string{p}
	}},
	{"remove the last skill of the root", func(t *testing.T, root string) []string {
		entries, _ := os.ReadDir(root)
		var out []string
		for _, e := range entries {
			p := filepath.Join(root, e.Name())
			os.RemoveAll(p)
			out = append(out, p)
		}
		return out
	}},
}

// TestRediscoverMatchesDiscover: after any sequence of changes, Rediscover
// given the changed paths finds what a whole walk finds.
func TestRediscoverMatchesDiscover(t *testing.T) {
	ctx := context.Background()
	for seed := range 40 {
		rng := rand.New(rand.NewPCG(uint64(seed), 20))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := t.TempDir()
			testutil.WriteTxtar(t, dir, rediscoverTxtar)
			real, err := filepath.EvalSymlinks(dir)
			if err != nil {
				t.Fatal(err)
			}
			roots := []string{dir}
			opt := Options{Display: map[string]string{dir: "src"}}
			prev, err := Discover(ctx, roots, opt)
			if err != nil {
				t.Fatal(err)
			}
			var done []string
			for range 1 + rng.IntN(4) {
				var batch []string
				// Changes between two rebuilds arrive together.
				for range 1 + rng.IntN(3) {
					c := changes[rng.IntN(len(changes))]
					done = append(done, c.name)
					for _, p := range c.do(t, dir) {
						rel, err := filepath.Rel(dir, p)
						if err != nil {
							t.Fatal(err)
						}
						batch = append(batch, filepath.Join(real, rel)) // watchers report real paths
					}
				}
				got, err := Rediscover(ctx, prev, roots, opt, batch)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Discover(ctx, roots, opt)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := view(got), view(want); !reflect.DeepEqual(g, w) {
					t.Fatalf("after %q:\nRediscover %+v\nDiscover   %+v", done, g, w)
				}
				prev = got
			}
		})
	}
}

// TestRediscoverWalksOnlyTheChange: an edit inside one skill does not
// look at another skill's folder.
func TestRediscoverWalksOnlyTheChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	testutil.WriteTxtar(t, dir, rediscoverTxtar)
	real, _ := filepath.EvalSymlinks(dir)
	prev, err := Discover(ctx, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A folder that cannot be listed is reported when walked.
	locked := filepath.Join(dir, "group", "b", "locked")
	if err := os.MkdirAll(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	if _, err := os.ReadDir(locked); err == nil {
		t.Skip("running with privileges that read any folder")
	}
	p := filepath.Join(real, "group", "c", "SKILL.md")
	writeFile(t, p, skillText("c")+"edited\n")
	got, err := Rediscover(ctx, prev, []string{dir}, Options{}, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range got.Diagnostics {
		if d.Code == "source-unreadable" {
			t.Errorf("walked group/b for a change to group/c: %v", d)
		}
	}
	i := slices.IndexFunc(got.Inputs, func(in *Input) bool { return in.RelPath == "group/c" })
	if i < 0 || got.Inputs[i] == prev.Inputs[slices.IndexFunc(prev.Inputs, func(in *Input) bool { return in.RelPath == "group/c" })] {
		t.Errorf("group/c not found again")
	}
	j := slices.IndexFunc(got.Inputs, func(in *Input) bool { return in.RelPath == "group/b" })
	if j < 0 || !slices.Contains(prev.Inputs, got.Inputs[j]) {
		t.Errorf("group/b not kept from the previous discovery")
	}
}
