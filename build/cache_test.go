package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

// loadJSON loads dir and returns its validation report and every UASP
// document, which together say everything a load produced.
func loadJSON(t *testing.T, opt LoadOptions) []byte {
	t.Helper()
	c, err := Load(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.JSON(&b, c); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.All {
		if s.Doc != nil {
			y, err := uasp.MarshalYAML(s.Doc)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(y)
		}
	}
	return b.Bytes()
}

func TestCacheRedoesOnlyWhatChanged(t *testing.T) {
	dir := t.TempDir()
	if err := catalogen.Generate(dir, 40, 3); err != nil {
		t.Fatal(err)
	}
	testutil.WriteTxtar(t, dir, `
-- ws/SKILLBAG.md --
# SKILLBAG
-- ws/.skills/SKILLS.md --
a: A workspace skill.
-- ws/.skills/a/SKILL.md --
---
name: a
description: A workspace skill.
---
Always check.
`)
	cache := NewCache()
	opt := LoadOptions{Sources: []string{dir}, Cache: cache}
	fresh := func() []byte { return loadJSON(t, LoadOptions{Sources: []string{dir}}) }

	first := loadJSON(t, opt)
	if hits, misses := cache.Stats(); hits != 0 || misses != 41 {
		t.Fatalf("first load: %d hits, %d misses; want 0, 41", hits, misses)
	}
	if !bytes.Equal(first, fresh()) {
		t.Fatal("a load through an empty cache differs from a load without one")
	}
	if again := loadJSON(t, opt); !bytes.Equal(again, first) {
		t.Fatal("a load from the cache differs from the first")
	}
	if hits, misses := cache.Stats(); hits != 41 || misses != 0 {
		t.Fatalf("unchanged reload: %d hits, %d misses; want 41, 0", hits, misses)
	}

	// Edit one skill, rename another's folder, delete a third, and change
	// the workspace catalog (a check across skills, never cached).
	entries, _ := os.ReadDir(dir)
	var folders []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "ws" {
			folders = append(folders, e.Name())
		}
	}
	edit := filepath.Join(dir, folders[0], "SKILL.md")
	b, _ := os.ReadFile(edit)
	os.WriteFile(edit, append(b, "\nNever edit this line.\n"...), 0o644)
	os.Rename(filepath.Join(dir, folders[1]), filepath.Join(dir, "renamed-"+folders[1]))
	os.RemoveAll(filepath.Join(dir, folders[2]))
	os.WriteFile(filepath.Join(dir, "ws", ".skills", "SKILLS.md"), []byte("a: Another description.\n"), 0o644)

	got := loadJSON(t, opt)
	if hits, misses := cache.Stats(); hits != 38 || misses != 2 {
		t.Errorf("after the edits: %d hits, %d misses; want 38, 2 (the edit and the rename)", hits, misses)
	}
	if want := fresh(); !bytes.Equal(got, want) {
		t.Errorf("a load through the cache differs from a fresh load after edits")
	}
	if !bytes.Contains(got, []byte("skillbag-catalog-description-mismatch")) {
		t.Error("the workspace check did not run again")
	}
}
