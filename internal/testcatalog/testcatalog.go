// Package testcatalog loads generated catalogs for the tests and
// benchmarks of the packages that build.Load feeds (a package that
// build imports cannot call build.Load from its own internal tests).
package testcatalog

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// Generated writes catalogen's catalog of n skills (from seed) in a
// temporary folder and loads it.
func Generated(tb testing.TB, n int, seed int64) *catalog.Catalog {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "gen")
	if err := catalogen.Generate(dir, n, seed); err != nil {
		tb.Fatal(err)
	}
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
