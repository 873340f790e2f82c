package index_test

import (
	"context"
	"os"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/testutil"
)

// benchCatalog1000 is the generated catalog of 1,000 skills that
// `make bench` leaves; tests and benchmarks that use it skip without it.
const benchCatalog1000 = "/root/.cache/skilldex-bench/catalog-1000"

// loadChunks loads the skills of sources and cuts their bleve documents
// into chunks.
func loadChunks(tb testing.TB, sources ...string) *index.Chunks {
	tb.Helper()
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: sources})
	if err != nil {
		tb.Fatal(err)
	}
	ch, err := index.NewChunks(c)
	if err != nil {
		tb.Fatal(err)
	}
	return ch
}

// segmentSources are the catalogs segments are built from: the shared
// corpus and, where it exists, the generated catalog of 1,000 skills.
func segmentSources(tb testing.TB) map[string]string {
	out := map[string]string{"corpus": testutil.Shared(tb, "corpus", "skills")}
	if _, err := os.Stat(benchCatalog1000); err == nil {
		out["catalog-1000"] = benchCatalog1000
	}
	return out
}

// BenchmarkBuildSegments measures the analysis of documents and the
// building of their zap segments, chunk by chunk as a build does it, with
// no loading and no merging. One op builds every chunk of the catalog.
func BenchmarkBuildSegments(b *testing.B) {
	for _, name := range []string{"corpus", "catalog-1000"} {
		b.Run(name, func(b *testing.B) {
			src, ok := segmentSources(b)[name]
			if !ok {
				b.Skip(benchCatalog1000 + " is missing (make bench generates it)")
			}
			ch := loadChunks(b, src)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := ch.Segments(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ch.Len()), "ns/doc")
		})
	}
}
