package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

func TestIsJunk(t *testing.T) {
	for p, want := range map[string]bool{
		".DS_Store":                 true,
		"references/.DS_Store":      true,
		"Thumbs.db":                 true,
		"assets/desktop.ini":        true,
		"._SKILL.md":                true,
		"__MACOSX/x/SKILL.md":       true,
		".SKILL.md.swp":             true,
		"scripts/.run.py.swo":       true,
		"SKILL.md~":                 true,
		".#SKILL.md":                true,
		"#SKILL.md#":                true,
		"SKILL.md":                  false,
		"references/guide.md":       false,
		".gitignore":                false,
		"._":                        false,
		"~":                         false,
		"#":                         false,
		"#notes.md":                 false,
		"notes.swp":                 false, // Vim's swap files are hidden
		".swp":                      false,
		"scripts/.env.swz":          false,
		"assets/thumbs.db.md":       false,
		"__MACOSX.md":               false,
		"references/README~old.txt": false,
	} {
		if got := IsJunk(p); got != want {
			t.Errorf("IsJunk(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestJunkIsNoFileOfASkill: what Finder, Windows, Vim and Emacs leave in
// a skill folder or archive is not among the skill's files (it would be
// published and packed), and draws no finding, not even Emacs' lock file,
// a link to nowhere.
func TestJunkIsNoFileOfASkill(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- tidy/SKILL.md --
---
name: tidy
description: A skill edited on a Mac in Vim.
---
-- tidy/.DS_Store --
x
-- tidy/.SKILL.md.swp --
x
-- tidy/SKILL.md~ --
x
-- tidy/.#SKILL.md --
symlink: alice@host.1234:1700000000
-- tidy/references/guide.md --
guide
-- tidy/references/Thumbs.db --
x
`)
	os.WriteFile(filepath.Join(dir, "packed.skill"), makeZip(t, []zipEntry{
		{name: "packed/SKILL.md", body: skillMD}, {name: "packed/.DS_Store", body: "x"},
		{name: "packed/._SKILL.md", body: "x"}, {name: "packed/notes.md~", body: "x"},
	}), 0o644)
	res, err := Discover(context.Background(), []string{dir}, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"tidy":         {"SKILL.md", "references/guide.md"},
		"packed.skill": {"SKILL.md"},
	}
	if len(res.Inputs) != len(want) {
		t.Fatalf("%d inputs, want %d", len(res.Inputs), len(want))
	}
	for _, in := range res.Inputs {
		var got []string
		for _, f := range in.Files {
			got = append(got, f.Path)
		}
		if !slices.Equal(got, want[in.RelPath]) {
			t.Errorf("%s: files %q, want %q", in.RelPath, got, want[in.RelPath])
		}
		if len(in.Diagnostics) > 0 {
			t.Errorf("%s: findings %v", in.RelPath, in.Diagnostics)
		}
	}
}
