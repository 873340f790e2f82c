// Package testcatalog loads catalogs for the tests and benchmarks of the
// packages that build.Load feeds (a package that build imports cannot call
// build.Load from its own internal tests).
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
// temporary folder and loads it (see Load).
func Generated(tb testing.TB, n int, seed int64) *catalog.Catalog {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "gen")
	if err := catalogen.Generate(dir, n, seed); err != nil {
		tb.Fatal(err)
	}
	return Load(tb, build.LoadOptions{Sources: []string{dir}})
}

// Load loads a catalog and reads every published skill's content once,
// as a build's pass does, so that every summary is complete: what the
// catalog-wide files of a build read.
func Load(tb testing.TB, opt build.LoadOptions) *catalog.Catalog {
	tb.Helper()
	c, err := build.Load(context.Background(), opt)
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range c.Skills {
		if s.DocPending() {
			if _, err := c.Content(s); err != nil {
				tb.Fatal(err)
			}
		}
	}
	c.Complete()
	return c
}
