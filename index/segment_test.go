package index_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

// benchCatalog1000 is the generated catalog of 1,000 skills that
// `make bench` leaves; tests and benchmarks that use it skip without it.
var benchCatalog1000 = catalogen.BenchCatalog(1000)

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

// segmentSources are the catalogs segments are built from: the
// corpus and, where it exists, the generated catalog of 1,000 skills.
func segmentSources(tb testing.TB) map[string]string {
	out := map[string]string{"corpus": testutil.Testdata(tb, "corpus", "skills")}
	if _, err := os.Stat(benchCatalog1000); err == nil {
		out["catalog-1000"] = benchCatalog1000
	}
	return out
}

// BenchmarkBuildSegments measures the analysis of documents and the
// building of their zap segments, chunk by chunk as a build does it, with
// no loading and no merging. One op builds every chunk of the catalog;
// cpu-ns/doc is the process's CPU time, which a busy machine disturbs less
// than the wall time.
func BenchmarkBuildSegments(b *testing.B) {
	benchChunks(b, func(ch *index.Chunks) error { _, err := ch.Segments(); return err })
}

// BenchmarkBuildSegmentsBleve is BenchmarkBuildSegments with bleve's
// MapDocument and analyzers, which buildSegment replaces.
func BenchmarkBuildSegmentsBleve(b *testing.B) {
	benchChunks(b, func(ch *index.Chunks) error { _, err := ch.BleveSegments(); return err })
}

// BenchmarkAnalyse measures the making and analysis of the documents
// alone: BenchmarkBuildSegments without zap.
func BenchmarkAnalyse(b *testing.B) { benchChunks(b, (*index.Chunks).Analyse) }

// BenchmarkAnalyseBleve is BenchmarkAnalyse with bleve's MapDocument and
// analyzers.
func BenchmarkAnalyseBleve(b *testing.B) { benchChunks(b, (*index.Chunks).BleveAnalyse) }

// benchChunks runs op over the chunks of the corpus and of the generated
// catalog of 1,000 skills.
func benchChunks(b *testing.B, op func(*index.Chunks) error) {
	for _, name := range []string{"corpus", "catalog-1000"} {
		b.Run(name, func(b *testing.B) {
			src, ok := segmentSources(b)[name]
			if !ok {
				b.Skip(benchCatalog1000 + " is missing (make bench generates it)")
			}
			ch := loadChunks(b, src)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0, measured := testutil.ProcessCPU()
			for b.Loop() {
				if err := op(ch); err != nil {
					b.Fatal(err)
				}
			}
			docs := float64(b.N * ch.Len())
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/docs, "ns/doc")
			if cpu1, _ := testutil.ProcessCPU(); measured {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/docs, "cpu-ns/doc")
			}
		})
	}
}

// TestSegmentsAsBleveBuildsThem builds the segments of the corpus and of
// the generated catalog of 1,000 skills both ways, with skilldex's
// document builder and analyzer and with bleve's MapDocument and
// analyzers, and compares their bytes.
func TestSegmentsAsBleveBuildsThem(t *testing.T) {
	for name, src := range segmentSources(t) {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name != "corpus" {
				t.Skip("-short: the corpus only")
			}
			ch := loadChunks(t, src)
			got, err := ch.Segments()
			if err != nil {
				t.Fatal(err)
			}
			want, err := ch.BleveSegments()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d segments, bleve makes %d", len(got), len(want))
			}
			for k := range want {
				if !bytes.Equal(got[k], want[k]) {
					t.Errorf("segment %d (%s...): %d bytes differ from bleve's %d", k, ch.ID(k, 0), len(got[k]), len(want[k]))
				}
			}
			if !t.Failed() {
				t.Logf("%d documents, %d segments alike", ch.Len(), len(want))
			}
		})
	}
}

// TestMergeSegmentsAsZap merges the corpus's first chunk segments, runs
// of several lengths, as a build does and as zap's own merge into a file
// does, and compares the bytes: the build writes zap's footer itself.
func TestMergeSegmentsAsZap(t *testing.T) {
	ch := loadChunks(t, testutil.Testdata(t, "corpus", "skills"))
	if ch.Chunks() < 4 {
		t.Fatalf("the corpus makes %d chunks; the test needs 4 or more", ch.Chunks())
	}
	for _, n := range []int{2, 3, ch.Chunks()} {
		ours, zaps, err := ch.Merged(n, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ours, zaps) {
			t.Errorf("%d chunks merged: %d bytes, zap writes %d", n, len(ours), len(zaps))
		}
	}
}

// BenchmarkMergeSegments merges the segments of every chunk of the corpus
// into one, as a build merges a group's chunks.
func BenchmarkMergeSegments(b *testing.B) {
	loadChunks(b, testutil.Testdata(b, "corpus", "skills")).MergeBench(b)
}
