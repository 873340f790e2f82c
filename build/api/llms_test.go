package api_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// TestLLMSFullRebuiltFromThePrevious: a rebuild (serve's, with a Cache)
// with no change, after an edit, an addition and a deletion writes the
// llms-full.txt a clean build writes, reading from their own files only
// the twins that changed; the others come from the previous
// llms-full.txt, unless that file is not the one the previous build
// wrote.
func TestLLMSFullRebuiltFromThePrevious(t *testing.T) {
	src := filepath.Join(t.TempDir(), "skills")
	if err := catalogen.Generate(src, 40, 3); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	site := filepath.Join(t.TempDir(), "site")
	opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}, Cache: build.NewCache()}, Output: site}
	rebuild := func(step string, fromFiles int64) {
		t.Helper()
		api.TwinsFromFiles.Store(0)
		res, err := build.Build(context.Background(), opt)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		opt.Previous = res.Manifest
		copied := api.TwinsFromFiles.Load()
		clean := filepath.Join(t.TempDir(), "clean")
		if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: clean}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(site, api.LLMSFullPath))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(clean, api.LLMSFullPath))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: llms-full.txt differs from a clean build's (%d bytes, want %d)", step, len(got), len(want))
		}
		if fromFiles >= 0 && copied != fromFiles {
			t.Errorf("%s: %d twins read from their files, want %d", step, copied, fromFiles)
		}
	}
	rebuild("first build", -1)
	// Kept as it is; what the next rebuild copies from is still known.
	rebuild("nothing changed", 0)
	edit := filepath.Join(src, names[len(names)/2], "SKILL.md")
	b, err := os.ReadFile(edit)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edit, append(b, "\nNever ship on a Friday.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	rebuild("edit", 1)
	// A previous llms-full.txt that is not what the previous build wrote
	// is not copied from.
	if err := os.Truncate(filepath.Join(site, api.LLMSFullPath), 100); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edit, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rebuild("edit after the site's llms-full.txt was cut short", int64(len(names)))
	if err := catalogen.Generate(filepath.Join(src, "more"), 1, 11); err != nil {
		t.Fatal(err)
	}
	rebuild("addition", 1)
	if err := os.RemoveAll(filepath.Join(src, names[0])); err != nil {
		t.Fatal(err)
	}
	// The title line says how many skills there are: the header changes,
	// the twins are all copied from the previous file.
	rebuild("deletion", 0)
}
