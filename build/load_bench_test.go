package build

import (
	"context"
	"fmt"
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
