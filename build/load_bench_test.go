package build

import (
	"context"
	"fmt"
	"testing"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// BenchmarkLoad measures reading, parsing, checking and deriving the UASP
// documents of generated catalogs (issue 2's goal: 10,000 skills in under
// 2 s on 2 cores). The catalog is generated once per size, outside the timer.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			if err := catalogen.Generate(dir, n, 1); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var c *catalog.Catalog
			for range b.N {
				var err error
				c, err = Load(context.Background(), LoadOptions{Sources: []string{dir}})
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
