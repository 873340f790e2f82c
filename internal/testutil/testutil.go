// Package testutil finds the shared test inputs (../shared next to the
// project root, or $SKILLDEX_SHARED) and writes small catalogs for tests.
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

// SharedDir is the folder of the shared inputs (the real-world corpus and
// conformance cases): $SKILLDEX_SHARED when set, else ../shared next to
// the project root.
func SharedDir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("SKILLDEX_SHARED"); d != "" {
		return d
	}
	return filepath.Join(ProjectRoot(tb), "..", "shared")
}

// Shared returns the path of elem inside SharedDir. A test that needs it
// fails when it is missing, unless SKILLDEX_SKIP_SHARED=1, which skips it
// instead.
func Shared(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{SharedDir(tb)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("SKILLDEX_SKIP_SHARED") == "1" {
			tb.Skipf("shared inputs missing (%v); SKILLDEX_SKIP_SHARED=1", err)
		}
		tb.Fatalf("shared inputs missing: %v (clone the project next to ../shared, set SKILLDEX_SHARED to their folder, or set SKILLDEX_SKIP_SHARED=1)", err)
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
