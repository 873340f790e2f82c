package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// BenchmarkLoad measures loading generated catalogs: reading, parsing and
// checking every skill, as validate does (issue 2's goal: 10,000 skills in
// under 2 s on 2 cores), and the same with UASP documents derived, as
// build does. The catalog is generated once per size, outside the timer.
func BenchmarkLoad(b *testing.B) {
	for _, c := range []struct {
		n      int
		derive bool
	}{{1000, false}, {10000, false}, {1000, true}, {10000, true}} {
		n := c.n
		derive := c.derive
		b.Run(fmt.Sprintf("skills=%d/derive=%v", n, derive), func(b *testing.B) {
			dir := b.TempDir()
			if err := catalogen.Generate(dir, n, 1); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var c *catalog.Catalog
			for range b.N {
				var err error
				c, err = Load(context.Background(), LoadOptions{Sources: []string{dir}, NoDerive: !derive})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if len(c.Skills) != n {
				b.Fatalf("published %d of %d skills", len(c.Skills), n)
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/load")
		})
	}
}

// BenchmarkLoadAfterOneEdit measures the load of a rebuild after one skill
// changed, with the cache of the previous load: walking every folder of
// the sources to find what changed (as serve did when it polled, and does
// with --poll), or told the changed path (as its watcher tells it).
func BenchmarkLoadAfterOneEdit(b *testing.B) {
	for _, told := range []bool{false, true} {
		b.Run(fmt.Sprintf("skills=10000/told=%v", told), func(b *testing.B) {
			dir, err := filepath.EvalSymlinks(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			if err := catalogen.Generate(dir, 10000, 1); err != nil {
				b.Fatal(err)
			}
			entries, _ := os.ReadDir(dir)
			edit := filepath.Join(dir, entries[len(entries)/2].Name(), "SKILL.md")
			original, err := os.ReadFile(edit)
			if err != nil {
				b.Fatal(err)
			}
			opt := LoadOptions{Sources: []string{dir}, Cache: NewCache()}
			if _, err := Load(context.Background(), opt); err != nil {
				b.Fatal(err)
			}
			if told {
				opt.Changed = []string{edit}
			}
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				os.WriteFile(edit, fmt.Appendf(slices.Clip(original), "\nNever deploy on day %d.\n", i), 0o644)
				b.StartTimer()
				if _, err := Load(context.Background(), opt); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/load")
		})
	}
}
