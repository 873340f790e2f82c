// Package testutil finds the project's real-world test inputs (testdata/)
// and writes small catalogs for tests.
package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// ProjectRoot returns the folder holding go.mod.
func ProjectRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testutil: no go.mod above the working directory")
		}
		dir = parent
	}
}

// TestdataDir is the folder of the real-world test inputs (the corpus,
// the conformance cases, the UASP spec): testdata/ at the project root.
func TestdataDir(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(ProjectRoot(tb), "testdata")
}

// Testdata returns the path of elem inside TestdataDir, failing the test
// when it is missing: a clone of the repository always has it.
func Testdata(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{TestdataDir(tb)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("test input missing: %v (testdata/ is part of the repository; is the clone complete?)", err)
	}
	return p
}

// WriteTxtar writes the files of a txtar archive under dir and returns dir.
// A file whose content is one line "symlink: TARGET" becomes a symbolic
// link to TARGET; a file named .keep only makes its folder.
func WriteTxtar(tb testing.TB, dir, archive string) string {
	tb.Helper()
	a := txtar.Parse([]byte(archive))
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if target, ok := strings.CutPrefix(strings.TrimSpace(string(f.Data)), "symlink:"); ok {
			if err := os.Symlink(strings.TrimSpace(target), p); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		if strings.HasSuffix(f.Name, "/.keep") {
			continue // an empty folder
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
