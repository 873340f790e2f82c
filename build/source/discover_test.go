package source

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

const catalogTxtar = `
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
-- a/nested/notes.md --
notes
-- .hidden/h/SKILL.md --
---
name: h
description: In a hidden folder.
---
-- .git/x/SKILL.md --
---
name: in-git
description: must be skipped
---
-- node_modules/pkg/SKILL.md --
---
name: in-node-modules
description: must be skipped
---
-- lower/skill.md --
---
name: lower
description: lowercase file name
---
-- docs/mermaid.uasp.yaml --
meta:
  name: mermaid
  version: "00000000"
  type: hybrid
-- docs/README.md --
not a skill
-- agent/agent.uasp.yaml --
meta:
  name: agent
  version: "00000000"
  type: cli
-- agent/references/r.md --
r
-- both/SKILL.md --
---
name: both
description: SKILL.md with a UASP document beside it.
---
-- both/both.uasp.yaml --
meta:
  name: both
  version: "00000000"
  type: knowledge
-- a/escape.md --
symlink: ../../outside.txt
-- a/inside.md --
symlink: references/guide.md
-- ws/SKILLBAG.md --
# workspace
-- ws/.skills/SKILLS.md --
one: The first.
-- ws/.skills/one/SKILL.md --
---
name: one
description: The first.
---
`

func TestDiscover(t *testing.T) {
	base := t.TempDir()
	os.WriteFile(filepath.Join(base, "outside.txt"), []byte("secret"), 0o644)
	root := testutil.WriteTxtar(t, filepath.Join(base, "root"), catalogTxtar)
	res, err := Discover(context.Background(), []string{root}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Input{}
	var rels []string
	for _, in := range res.Inputs {
		got[in.RelPath] = in
		rels = append(rels, in.RelPath)
	}
	want := []string{".hidden/h", "a", "a/nested", "agent", "both", "docs/mermaid.uasp.yaml", "lower", "ws/.skills/one"}
	if strings.Join(rels, ",") != strings.Join(want, ",") {
		t.Fatalf("found %v\nwant  %v", rels, want)
	}
	files := func(in *Input) string {
		var ps []string
		for _, f := range in.Files {
			ps = append(ps, f.Path)
		}
		sort.Strings(ps)
		return strings.Join(ps, ",")
	}
	// Nested skills are not part of their parent; links inside the skill
	// are files, links leaving it are not.
	if f := files(got["a"]); f != "SKILL.md,inside.md,references/guide.md" {
		t.Errorf("a's files: %s", f)
	}
	if b, err := fs.ReadFile(got["a"].FS, "inside.md"); err != nil || string(b) != "guide\n" {
		t.Errorf("inside.md: %q %v", b, err)
	}
	if _, err := fs.ReadFile(got["a"].FS, "escape.md"); err == nil {
		t.Error("a link leaving the skill was readable")
	}
	if _, err := got["a"].FS.Open("../outside.txt"); err == nil {
		t.Error("the FS opened a path outside the skill")
	}
	var sawEscape bool
	for _, d := range res.Diagnostics {
		if d.Code == "symlink-outside-skill" && strings.HasSuffix(d.File, "escape.md") {
			sawEscape = true
		}
	}
	if !sawEscape {
		t.Errorf("no symlink-outside-skill diagnostic: %v", res.Diagnostics)
	}
	if in := got["lower"]; in.SkillFile != "skill.md" {
		t.Errorf("lower: SkillFile %q", in.SkillFile)
	}
	if in := got["both"]; in.UASPFile != "both.uasp.yaml" || in.SkillFile != "SKILL.md" {
		t.Errorf("both: %q %q", in.SkillFile, in.UASPFile)
	}
	if in := got["agent"]; in.Packaging != Folder || in.UASPFile != "agent.uasp.yaml" || files(in) != "agent.uasp.yaml,references/r.md" {
		t.Errorf("agent: %s %q %s", in.Packaging, in.UASPFile, files(in))
	}
	if in := got["docs/mermaid.uasp.yaml"]; in.Packaging != Document || in.DirName != "mermaid" || files(in) != "mermaid.uasp.yaml" {
		t.Errorf("mermaid: %s %q %s", in.Packaging, in.DirName, files(in))
	}
	one := got["ws/.skills/one"]
	if one.Workspace == nil || len(res.Workspaces) != 1 || one.Workspace.SkillDirs[0] != "one" || string(one.Workspace.Catalog) != "one: The first.\n" {
		t.Errorf("workspace: %+v", one.Workspace)
	}
	if got["a"].Workspace != nil {
		t.Error("a skill outside the workspace belongs to it")
	}
}

func TestDiscoverRoots(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- one/x/SKILL.md --
---
name: x
description: first root
---
-- two/x/SKILL.md --
---
name: x
description: second root
---
-- empty/.keep --
`)
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	res, err := Discover(context.Background(), []string{filepath.Join(dir, "one"), filepath.Join(dir, "two"), filepath.Join(dir, "one", "x", "SKILL.md")}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Inputs) != 3 || res.Inputs[0].RootIndex != 0 || res.Inputs[1].RootIndex != 1 || res.Inputs[2].RootIndex != 2 {
		t.Fatalf("inputs: %+v", res.Inputs)
	}
	if res.Inputs[2].DirName != "x" {
		t.Errorf("a SKILL.md given as a source stands for its folder: DirName %q", res.Inputs[2].DirName)
	}
	if _, err := Discover(context.Background(), []string{filepath.Join(dir, "missing")}, DefaultOptions); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing root: %v", err)
	}
	res, err = Discover(context.Background(), []string{filepath.Join(dir, "empty")}, DefaultOptions)
	if err != nil || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "skill-md-missing" {
		t.Errorf("empty root: %v %v", err, res.Diagnostics)
	}
}

func TestDiscoverArchives(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.skill"), makeZip(t, []zipEntry{{name: "good/SKILL.md", body: skillMD}}), 0o644)
	os.WriteFile(filepath.Join(dir, "other.zip"), makeZip(t, []zipEntry{{name: "data.csv", body: "a,b"}}), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.skill"), makeZip(t, []zipEntry{{name: "data.csv", body: "a,b"}}), 0o644)
	os.WriteFile(filepath.Join(dir, "evil.zip"), makeZip(t, []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "../../x", body: "x"}}), 0o644)
	res, err := Discover(context.Background(), []string{dir}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	for _, in := range res.Inputs {
		c := ""
		if len(in.Diagnostics) > 0 {
			c = in.Diagnostics[0].Code
		}
		codes[in.RelPath] = c
	}
	want := map[string]string{"good.skill": "", "empty.skill": "archive-no-skill-md", "evil.zip": "archive-unsafe-path"}
	if len(codes) != len(want) {
		t.Fatalf("inputs %v, want %v", codes, want)
	}
	for k, v := range want {
		if codes[k] != v {
			t.Errorf("%s: %q, want %q", k, codes[k], v)
		}
	}
}

func TestDiscoverDisplay(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- ws/SKILLBAG.md --
# SKILLBAG
-- ws/.skills/SKILLS.md --
a: A skill.
-- ws/.skills/a/SKILL.md --
---
name: a
description: A skill.
---
-- b.uasp.yaml --
meta:
  name: b
`)
	opt := DefaultOptions
	opt.Display = map[string]string{dir: "content"}
	res, err := Discover(context.Background(), []string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, in := range res.Inputs {
		paths = append(paths, filepath.ToSlash(in.Path))
		if in.Workspace == nil && in.DirName == "a" {
			t.Errorf("skill a lost its workspace under a display root")
		}
	}
	if got, want := strings.Join(paths, " "), "content/b.uasp.yaml content/ws/.skills/a"; got != want {
		t.Errorf("paths = %q, want %q", got, want)
	}
	if len(res.Workspaces) != 1 || filepath.ToSlash(res.Workspaces[0].Path) != "content/ws" {
		t.Errorf("workspaces = %+v, want one at content/ws", res.Workspaces)
	}
}
