package build

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

// loadJSON loads dir and returns every UASP document and summary of one,
// then the validation report, which together say everything a load
// produced and the content read of every skill added.
func loadJSON(t *testing.T, opt LoadOptions) []byte {
	t.Helper()
	c, err := Load(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, s := range c.All {
		k, err := c.Content(s)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%+v\n", s.Doc)
		if k.Doc != nil {
			y, err := uasp.MarshalYAML(k.Doc)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(y)
		}
	}
	if err := report.JSON(&b, c); err != nil {
		t.Fatal(err)
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

// TestCacheTrustsSettledStamps: a load reads no file whose stamp an
// earlier load saw, once the file has settled; a rewrite of a file with
// its old size and modification time is still noticed (its change time
// moved), and a file changed moments ago is read every time.
func TestCacheTrustsSettledStamps(t *testing.T) {
	dir := t.TempDir()
	if err := catalogen.Generate(dir, 10, 5); err != nil {
		t.Fatal(err)
	}
	cache := NewCache()
	opt := LoadOptions{Sources: []string{dir}, Cache: cache}
	load := func() int {
		t.Helper()
		if _, err := Load(context.Background(), opt); err != nil {
			t.Fatal(err)
		}
		return cache.reads
	}

	defer func(s time.Duration) { settle = s }(settle)
	settle = time.Hour // every file changed "moments ago"
	if n := load(); n != 10 {
		t.Errorf("first load read %d inputs, want 10", n)
	}
	if n := load(); n != 10 {
		t.Errorf("with unsettled files a load read %d inputs, want all 10", n)
	}

	settle = 0
	load() // records the settled stamps
	if n := load(); n != 0 {
		t.Errorf("an unchanged catalog was read again: %d inputs", n)
	}
	entries, _ := os.ReadDir(dir)
	edit := filepath.Join(dir, entries[0].Name(), "SKILL.md")
	info, err := os.Stat(edit)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(edit)
	b[len(b)-2] ^= 1 // same size, other content
	if err := os.WriteFile(edit, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(edit, info.ModTime(), info.ModTime())
	if n := load(); n != 1 {
		t.Errorf("after one rewrite a load read %d inputs, want 1", n)
	}
	if hits, misses := cache.Stats(); misses != 1 || hits != 9 {
		t.Errorf("after one rewrite: %d parsed again, %d reused; want 1 and 9", misses, hits)
	}
}
