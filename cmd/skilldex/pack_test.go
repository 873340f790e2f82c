package main

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skilldex/skilldex/build/pack"
	"github.com/skilldex/skilldex/internal/testutil"
)

const packCatalog = `
-- good/SKILL.md --
---
name: good-skill
description: A skill to pack. Use when testing skilldex pack.
---
Run scripts/go.sh.
-- good/scripts/go.sh --
#!/bin/sh
echo go
-- warn/SKILL.md --
---
name: warn
description: A skill with an unknown field, which is only a warning.
argument-hint: "[x]"
---
Body.
-- broken/SKILL.md --
no frontmatter at all
-- many/SKILL.md --
---
name: many
description: Three files, more than --archive-max-files 2 allows.
---
Body.
-- many/a.md --
a
-- many/b.md --
b
-- odd/SKILL.md --
---
name: odd
description: A skill with a file whose name no archive can hold.
---
Body.
-- odd/odd\name.txt --
odd
-- out/SKILL.md --
---
name: out
description: A skill with a link to a file outside it.
---
See references/outside.md.
-- out/references/outside.md --
symlink: ../../outside.md
-- dangling/SKILL.md --
---
name: dangling
description: A skill holding a link to nothing. Use when testing skilldex pack.
---
body
-- dangling/references/gone.md --
symlink: nowhere.md
-- outside.md --
A file outside every skill.
-- nest/SKILL.md --
---
name: nest
description: A skill holding an example skill of the same name, which shadows it in a catalog.
---
See examples/nest/SKILL.md.
-- nest/examples/nest/SKILL.md --
---
name: nest
description: The example skill, published in a catalog instead of the one that holds it.
---
Body.
-- doc/doc.uasp.yaml --
meta:
  name: doc
  type: knowledge
  description: A UASP document alone.
`

func TestPackCommand(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), packCatalog)
	out := t.TempDir()
	cases := []struct {
		args []string
		code int
		file string // written, relative to out
		says string // in what pack prints on stderr
	}{
		{[]string{"pack", filepath.Join(dir, "good"), "-o", filepath.Join(out, "a.skill")}, 0, "a.skill", ""},
		{[]string{"pack", filepath.Join(dir, "good"), "-o", out + string(os.PathSeparator)}, 0, "good-skill.skill", ""},
		{[]string{"pack", filepath.Join(dir, "warn"), "-o", filepath.Join(out, "warn.skill")}, 0, "warn.skill", ""},
		{[]string{"pack", "--strict", filepath.Join(dir, "warn"), "-o", filepath.Join(out, "strict.skill")}, 1, "", ""},
		{[]string{"pack", filepath.Join(dir, "broken"), "-o", filepath.Join(out, "broken.skill")}, 1, "", ""},
		{[]string{"pack", "--archive-max-files", "2", filepath.Join(dir, "many"), "-o", filepath.Join(out, "many.skill")}, 1, "", ""},
		{[]string{"pack", filepath.Join(dir, "doc", "doc.uasp.yaml"), "-o", filepath.Join(out, "doc.skill")}, 1, "", ""},
		{[]string{"pack", filepath.Join(dir, "odd"), "-o", filepath.Join(out, "odd.skill")}, 1, "", ""},
		{[]string{"pack", filepath.Join(dir, "out"), "-o", filepath.Join(out, "out.skill")}, 1, "", filepath.Join("references", "outside.md") + ": warning: symbolic link points outside the skill folder"},
		// A link to nothing leaves nothing out, but is said, and fails
		// --strict.
		{[]string{"pack", filepath.Join(dir, "dangling"), "-o", filepath.Join(out, "dangling.skill")}, 0, "dangling.skill", filepath.Join("references", "gone.md") + ": warning: symbolic link cannot be resolved"},
		{[]string{"pack", "--strict", filepath.Join(dir, "dangling"), "-o", filepath.Join(out, "dangling-strict.skill")}, 1, "", "symlink-broken"},
		{[]string{"pack", filepath.Join(dir, "missing")}, 2, "", ""},
		{[]string{"pack"}, 2, "", ""},
	}
	// Being shadowed in a catalog by a skill it holds says nothing of the
	// folder's archive.
	if code, _, stderr := runCLI(t, "pack", "--strict", filepath.Join(dir, "nest"), "-o", filepath.Join(out, "nest.skill")); code != 0 || strings.Contains(stderr, "shadowed") {
		t.Errorf("pack --strict of a skill holding one of its name: exit %d\n%s", code, stderr)
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", c.args, code, c.code, stdout, stderr)
		}
		if c.code != 0 && stderr == "" {
			t.Errorf("%v: exit %d without a message", c.args, code)
		}
		if !strings.Contains(stderr, c.says) {
			t.Errorf("%v: stderr does not say %q:\n%s", c.args, c.says, stderr)
		}
		if c.file != "" {
			if _, err := os.Stat(filepath.Join(out, c.file)); err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
		}
	}
	for _, f := range []string{"strict.skill", "broken.skill", "many.skill", "doc.skill", "odd.skill", "out.skill", "dangling-strict.skill"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s was written by a failed pack", f)
		}
	}
	// Packing twice gives the same bytes; the archive validates as the
	// same skill.
	a, _ := os.ReadFile(filepath.Join(out, "a.skill"))
	b, _ := os.ReadFile(filepath.Join(out, "good-skill.skill"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("two packs of the same folder differ (%d and %d bytes)", len(a), len(b))
	}
	code, stdout, _ := runCLI(t, "validate", filepath.Join(out, "good-skill.skill"))
	if code != 0 || !strings.Contains(stdout, "1 skill: 1 approved") {
		t.Errorf("validate the packed skill: exit %d\n%s", code, stdout)
	}
	// An archive packed onto itself is refused, and left as it was.
	code, _, stderr := runCLI(t, "pack", filepath.Join(out, "a.skill"), "-o", filepath.Join(out, "good-skill.skill"))
	if code != 0 {
		t.Errorf("repack an archive into another file: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "pack", filepath.Join(out, "a.skill"), "-o", filepath.Join(out, "a.skill"))
	if again, _ := os.ReadFile(filepath.Join(out, "a.skill")); code != 1 || !strings.Contains(stderr, "is the archive being packed") || !bytes.Equal(again, a) {
		t.Errorf("pack an archive onto itself: exit %d, archive kept %v\n%s", code, bytes.Equal(again, a), stderr)
	}
}

// TestPackOutsideFolder: pack never writes the archive inside the folder
// it packs, where a catalog build would publish it instead of the folder,
// and leaves out of the archive the archives of skills it finds there.
func TestPackOutsideFolder(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- skills/tricky/SKILL.md --
---
name: tricky
description: A skill packed from inside its folder. Use when testing skilldex pack.
---
Body.
-- skills/tricky/references/a.md --
a
`)
	skill := filepath.Join(dir, "skills", "tricky")
	if err := os.Symlink(filepath.Join(skill, "references"), filepath.Join(dir, "into")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	refused := []struct {
		cwd  string // relative to dir
		args []string
		says string
	}{
		{"skills/tricky", []string{"pack", "."}, "-o " + filepath.Join("..", "tricky.skill")},
		{"skills/tricky", []string{"pack", "./"}, "inside the current folder,"},
		{"skills/tricky/references", []string{"pack", ".."}, "-o " + filepath.Join("..", "..", "tricky.skill")},
		{".", []string{"pack", "skills/tricky", "-o", "skills/tricky/dist/"}, "-o " + filepath.Join("skills", "tricky.skill")},
		{".", []string{"pack", "skills/tricky/SKILL.md", "-o", "skills/tricky/t.skill"}, "inside skills/tricky,"},
		{".", []string{"pack", "skills/tricky", "-o", "into/t.skill"}, "inside skills/tricky,"},
	}
	for _, c := range refused {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Chdir(filepath.Join(dir, c.cwd))
			code, stdout, stderr := runCLI(t, c.args...)
			if code != 1 || !strings.Contains(stderr, "publish it instead of the folder") || !strings.Contains(stderr, c.says) {
				t.Errorf("exit %d, want 1 saying why and %q\nstdout: %s\nstderr: %s", code, c.says, stdout, stderr)
			}
		})
	}
	if err := filepath.WalkDir(skill, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".skill") {
			t.Errorf("a refused pack wrote %s", p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}

	// The archives of a skill in its folder are left out, with a note;
	// a ZIP of something else is a file like any other.
	var old, template bytes.Buffer
	if err := pack.Write(&old, os.DirFS(skill), "tricky", []string{"SKILL.md"}); err != nil {
		t.Fatal(err)
	}
	if err := pack.Write(&template, fstest.MapFS{"README.md": {Data: []byte("r\n")}}, "template", []string{"README.md"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(skill, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string][]byte{"tricky.skill": old.Bytes(), "assets/old.zip": old.Bytes(), "assets/template.zip": template.Bytes()} {
		if err := os.WriteFile(filepath.Join(skill, filepath.FromSlash(p)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(skill)
	dest := filepath.Join(t.TempDir(), "tricky.skill")
	code, stdout, stderr := runCLI(t, "pack", ".", "-o", dest)
	if code != 0 || !strings.Contains(stdout, "3 files") {
		t.Fatalf("pack with old archives in the folder: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	for _, p := range []string{"tricky.skill", filepath.Join("assets", "old.zip")} {
		if !strings.Contains(stderr, p+": note: left out of the archive") {
			t.Errorf("no note that %s is left out:\n%s", p, stderr)
		}
	}
	zr, err := zip.OpenReader(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if want := []string{"tricky/SKILL.md", "tricky/assets/template.zip", "tricky/references/a.md"}; !slices.Equal(names, want) {
		t.Errorf("the archive holds %q, want %q", names, want)
	}
}

// TestInFolder: a folder, or the nearest of its parents that exists, is
// compared with the skill folder as a file, not as a path. (That a path
// in another case is the same folder on macOS cannot be shown on a file
// system that tells case apart.)
func TestInFolder(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "skills", "tricky")
	os.MkdirAll(filepath.Join(skill, "references"), 0o755)
	os.MkdirAll(filepath.Join(dir, "skills", "other"), 0o755)
	for p, want := range map[string]bool{
		skill:                              true,
		filepath.Join(skill, "references"): true,
		filepath.Join(skill, "not", "made", "yet"): true,
		filepath.Join(dir, "skills"):               false,
		filepath.Join(dir, "skills", "other"):      false,
		filepath.Join(dir, "skills", "tricky2"):    false,
	} {
		if got := inFolder(p, skill); got != want {
			t.Errorf("inFolder(%s) = %v, want %v", p, got, want)
		}
	}
}
