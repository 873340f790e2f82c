package source

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
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
	// A link out of the skill is a file of the folder the skill leaves
	// out, said on the skill, so that pack refuses to drop it unsaid.
	var sawEscape bool
	for _, d := range got["a"].Diagnostics {
		if d.Code == "symlink-outside-skill" && strings.HasSuffix(d.File, "escape.md") {
			sawEscape = true
		}
	}
	if !sawEscape {
		t.Errorf("no symlink-outside-skill diagnostic on the skill: %v", got["a"].Diagnostics)
	}
	if !slices.Equal(got["a"].LeftOut, []string{"escape.md"}) {
		t.Errorf("a's left out files: %q, want the link out of the skill", got["a"].LeftOut)
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
	os.WriteFile(filepath.Join(dir, "flat.skill"), makeZip(t, []zipEntry{{name: "SKILL.md", body: skillMD}}), 0o644)
	res, err := Discover(context.Background(), []string{dir}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	// A file in an archive is named by its whole path in the archive.
	shown := map[string]string{"good.skill": "good.skill!/good/SKILL.md", "flat.skill": "flat.skill!/SKILL.md"}
	for _, in := range res.Inputs {
		if want, ok := shown[in.RelPath]; ok {
			if got := in.DisplayPath(in.SkillFile); got != filepath.Join(dir, want) {
				t.Errorf("%s: SKILL.md shown as %q, want %q", in.RelPath, got, filepath.Join(dir, want))
			}
		}
		c := ""
		if len(in.Diagnostics) > 0 {
			c = in.Diagnostics[0].Code
		}
		codes[in.RelPath] = c
	}
	want := map[string]string{"good.skill": "", "flat.skill": "", "empty.skill": "archive-no-skill-md", "evil.zip": "archive-unsafe-path"}
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

// TestWorkspaceSymlinksOutside checks that the SkillBag files of a
// workspace (SKILLS.md, CONTEXT.md, AGENTS.md, .skills/) are never read
// through a symbolic link that points out of the workspace: what is read
// there is quoted in diagnostics, which the site's report publishes.
func TestWorkspaceSymlinksOutside(t *testing.T) {
	const secret = "secret-token-a1b2: leaked\nsecret-token-a1b2: leaked\n"
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	ws := filepath.Join(dir, "src", "ws")
	for _, d := range []string{filepath.Join(outside, "skills-dir", "secret-folder"), filepath.Join(ws, ".skills", "member"), filepath.Join(dir, "src", "ws2")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, content string) {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "secret.txt"), secret)
	write(filepath.Join(ws, "SKILLBAG.md"), "# ws\n")
	write(filepath.Join(ws, ".skills", "member", "SKILL.md"), "---\nname: member\ndescription: x\n---\n")
	link(filepath.Join(outside, "secret.txt"), filepath.Join(ws, ".skills", "SKILLS.md"))
	link("../../outside/secret.txt", filepath.Join(ws, "CONTEXT.md"))
	link(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "AGENTS.md"))
	// A second workspace whose .skills folder links out, and one whose
	// files link to a file inside it, which is fine.
	ws2 := filepath.Join(dir, "src", "ws2")
	write(filepath.Join(ws2, "SKILLBAG.md"), "# ws2\n")
	link(filepath.Join(outside, "skills-dir"), filepath.Join(ws2, ".skills"))
	write(filepath.Join(ws2, "agents.txt"), "SKILLBAG agents\n")
	link("agents.txt", filepath.Join(ws2, "AGENTS.md"))

	res, err := Discover(context.Background(), []string{filepath.Join(dir, "src")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Workspaces) != 2 {
		t.Fatalf("workspaces: %+v", res.Workspaces)
	}
	w1, w2 := res.Workspaces[0], res.Workspaces[1]
	if w1.Catalog != nil || w1.Context != nil || w1.AgentsMD != nil {
		t.Errorf("read through links out of the workspace: catalog %q, context %q, agents %q", w1.Catalog, w1.Context, w1.AgentsMD)
	}
	if len(w2.SkillDirs) != 0 {
		t.Errorf("listed the folders of a .skills that links out: %v", w2.SkillDirs)
	}
	if string(w2.AgentsMD) != "SKILLBAG agents\n" {
		t.Errorf("AGENTS.md linked to a file inside the workspace: %q", w2.AgentsMD)
	}
	n := 0
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "secret-token") {
			t.Errorf("diagnostic quotes the secret: %+v", d)
		}
		if d.Code == "symlink-outside-skill" {
			n++
		}
	}
	if n < 4 {
		t.Errorf("want a symlink-outside-skill warning per link out, got %d: %+v", n, res.Diagnostics)
	}
}

// TestParallelWalkMatchesSerial discovers the same sources walking one
// folder at a time and eight at a time: the results must be equal,
// diagnostics included; nothing found is lost, doubled or mixed up between
// goroutines. (Discover sorts what it found, so the order of the merge is
// TestDiscover's concern.)
func TestParallelWalkMatchesSerial(t *testing.T) {
	roots := []string{
		testutil.WriteTxtar(t, filepath.Join(t.TempDir(), "root"), catalogTxtar),
		testutil.Testdata(t, "corpus"),
	}
	discover := func(workers int) *Result {
		defer func(n int) { walkWorkers = n }(walkWorkers)
		walkWorkers = workers
		res, err := Discover(context.Background(), roots, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	serial, parallel := discover(0), discover(8)
	if len(serial.Inputs) < 400 {
		t.Fatalf("found %d inputs; the corpus alone has 412 skills", len(serial.Inputs))
	}
	if !reflect.DeepEqual(serial, parallel) {
		for i := range min(len(serial.Inputs), len(parallel.Inputs)) {
			if !reflect.DeepEqual(serial.Inputs[i], parallel.Inputs[i]) {
				t.Fatalf("input %d: one at a time %+v, eight at a time %+v", i, serial.Inputs[i], parallel.Inputs[i])
			}
		}
		t.Fatalf("one at a time: %d inputs, %d workspaces, %d diagnostics; eight at a time: %d, %d, %d",
			len(serial.Inputs), len(serial.Workspaces), len(serial.Diagnostics),
			len(parallel.Inputs), len(parallel.Workspaces), len(parallel.Diagnostics))
	}
}

// TestDiscoverSkips checks the folders that are never searched and that
// Result.Skipped says why, and that hidden folders are still searched.
func TestDiscoverSkips(t *testing.T) {
	const skill = "---\nname: %s\ndescription: x\n---\n"
	var files []string
	for _, p := range []string{
		"skills/keep", ".curated/kept-hidden", ".github/skills/kept-github",
		"public/skills/copy", "old-site/copy2", "out/skills/copy3",
		".git/x", ".hg/x", ".svn/x", ".bzr/x", "_darcs/x", ".jj/x", "CVS/x",
		"node_modules/pkg/x", "bower_components/pkg/x", "__pycache__/x", ".venv/lib/x",
		"skills/keep/node_modules/dep",
	} {
		files = append(files, "-- "+p+"/SKILL.md --\n"+strings.ReplaceAll(skill, "%s", path.Base(p)))
	}
	files = append(files, "-- public/.skilldex-site --\n", "-- old-site/.skilldex-site --\n", "-- .venv/pyvenv.cfg --\nhome = /usr\n")
	root := testutil.WriteTxtar(t, t.TempDir(), strings.Join(files, ""))
	opt := DefaultOptions
	// The output folder is excluded by real path, given relative to the
	// working folder or not built yet.
	t.Chdir(root)
	opt.Exclude = []string{"out", filepath.Join(root, "not-built-yet")}
	res, err := Discover(context.Background(), []string{"."}, opt)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, in := range res.Inputs {
		found = append(found, in.RelPath)
	}
	if got, want := strings.Join(found, " "), ".curated/kept-hidden .github/skills/kept-github skills/keep"; got != want {
		t.Errorf("found %s\nwant  %s", got, want)
	}
	var skipped []string
	for _, s := range res.Skipped {
		skipped = append(skipped, filepath.ToSlash(s.Path)+": "+s.Reason)
	}
	want := []string{
		".bzr: version control data", ".git: version control data", ".hg: version control data", ".jj: version control data",
		".svn: version control data", ".venv: a Python virtualenv (pyvenv.cfg)", "CVS: version control data",
		"__pycache__: Python bytecode", "_darcs: version control data", "bower_components: installed packages",
		"node_modules: installed packages", "old-site: a site skilldex built (.skilldex-site)",
		"out: the output folder of the build", "public: a site skilldex built (.skilldex-site)",
		"skills/keep/node_modules: installed packages",
	}
	if strings.Join(skipped, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Diagnostics) != 0 {
		t.Errorf("skipping is not a finding: %v", res.Diagnostics)
	}

	// A site given as a source is an error that says what to give.
	_, err = Discover(context.Background(), []string{"public"}, opt)
	if err == nil || !strings.Contains(err.Error(), "is a site skilldex built") || !strings.Contains(err.Error(), "query --site public") {
		t.Errorf("a site as the source: %v", err)
	}
}

// TestDiscoverShowsNoRealPath checks that what discovery says of a skill
// (paths, diagnostics) names files as Options.Display shows them, never by
// the real path, which an OS error's text would carry.
func TestDiscoverShowsNoRealPath(t *testing.T) {
	base := t.TempDir()
	root := testutil.WriteTxtar(t, filepath.Join(base, "cat"), `
-- skills/a/SKILL.md --
---
name: a
description: x
---
-- skills/a/escape.md --
symlink: ../../../outside.txt
-- skills/a/dangling.md --
symlink: `+filepath.Join(base, "gone", "target.md")+`
-- broken.skill --
symlink: `+filepath.Join(base, "gone", "archive.skill")+`
`)
	os.WriteFile(filepath.Join(base, "outside.txt"), []byte("x"), 0o644)
	opt := DefaultOptions
	opt.Display = map[string]string{root: "cat"}
	opt.RepoDir = map[string]string{root: "docs/cat"}
	res, err := Discover(context.Background(), []string{root}, opt)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, d := range res.Diagnostics {
		said = append(said, d.File+" "+d.Message)
	}
	for _, in := range res.Inputs {
		said = append(said, in.Path, in.RootShown)
		for _, d := range in.Diagnostics {
			said = append(said, d.File+" "+d.Message)
		}
	}
	codes := map[string]bool{}
	for _, d := range res.Diagnostics {
		codes[d.Code] = true
	}
	for _, in := range res.Inputs {
		for _, d := range in.Diagnostics {
			codes[d.Code] = true
		}
	}
	if !codes["symlink-broken"] || !codes["symlink-outside-skill"] {
		t.Errorf("want symlink-broken and symlink-outside-skill: %v", said)
	}
	for _, s := range said {
		if strings.Contains(s, base) {
			t.Errorf("names a real path: %s", s)
		}
	}
	got := map[string]string{}
	for _, in := range res.Inputs {
		got[in.Path] = in.RepoPath
	}
	want := map[string]string{filepath.Join("cat", "skills", "a"): "docs/cat/skills/a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paths and repository paths: %v, want %v", got, want)
	}
}

// TestNoSkillSaysWhatWasNotSearched: a root without a skill names the
// folders that were not searched, where a skill may be.
func TestNoSkillSaysWhatWasNotSearched(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- node_modules/pkg/SKILL.md --
---
name: pkg
description: A skill inside installed packages.
---
body
-- notes.txt --
nothing here
`)
	res, err := Discover(context.Background(), []string{dir}, DefaultOptions)
	if err != nil || len(res.Diagnostics) != 1 {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	if msg := res.Diagnostics[0].Message; !strings.Contains(msg, "; not searched: "+filepath.Join(dir, "node_modules")+" (installed packages)") {
		t.Errorf("message %q does not name node_modules", msg)
	}
}
