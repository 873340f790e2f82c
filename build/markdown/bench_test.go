package markdown

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build/derive"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

// benchBodies returns the bodies of n skills made by catalogen: the
// realistic ~5 KB body (headings, lists, a bash and a JSON fence, a table,
// links) the build renders 10,000 of.
func benchBodies(b *testing.B, n int) (bodies [][]byte, size int64) {
	b.Helper()
	dir := b.TempDir()
	if err := catalogen.Generate(dir, n, 1); err != nil {
		b.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "SKILL.md"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no skills generated: %v", err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		body := skill.Split(src).Body
		bodies = append(bodies, body)
		size += int64(len(body))
	}
	return bodies, size / int64(len(bodies))
}

// BenchmarkRender renders one realistic body per op (cycling through 64
// different ones, so the lexer cache is warm but the bodies vary), with a
// ResolveLink like the site's, and the highlight cache off: the cost of a
// cold build of distinct skills.
func BenchmarkRender(b *testing.B) {
	highlightCacheOff = true
	defer func() { highlightCacheOff = false }()
	bodies, size := benchBodies(b, 64)
	opt := Options{ResolveLink: func(dest string) (string, bool) { return "/skills/x/" + dest, true }}
	b.SetBytes(size)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := Render(bodies[i%len(bodies)], opt); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRenderWarm is BenchmarkRender with the highlight cache on and
// warm: serve rebuilding after an edit.
func BenchmarkRenderWarm(b *testing.B) {
	bodies, size := benchBodies(b, 64)
	opt := Options{ResolveLink: func(dest string) (string, bool) { return "/skills/x/" + dest, true }}
	b.SetBytes(size)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := Render(bodies[i%len(bodies)], opt); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRenderParallel is BenchmarkRender on every CPU, as the build
// runs it (cache off).
func BenchmarkRenderParallel(b *testing.B) {
	highlightCacheOff = true
	defer func() { highlightCacheOff = false }()
	bodies, size := benchBodies(b, 64)
	opt := Options{ResolveLink: func(dest string) (string, bool) { return "/skills/x/" + dest, true }}
	b.SetBytes(size)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := Render(bodies[i%len(bodies)], opt); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

// BenchmarkPlain is the meta-description excerpt of a realistic body.
func BenchmarkPlain(b *testing.B) {
	bodies, size := benchBodies(b, 64)
	b.SetBytes(size)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = Plain(bodies[i%len(bodies)], 160)
		i++
	}
}

// doc is one Markdown document the build renders, with the options it
// renders it with.
type doc struct {
	src []byte
	opt Options
}

// catalogDocs returns what a build renders for the skills under root: each
// skill's body (HeadingShift 1) and its UASP sections (IDPrefix "uasp-"),
// given or derived, as build/site does. It skips the benchmark when root
// is absent: the generated catalog lives in a cache that make bench fills.
func catalogDocs(b testing.TB, root string) (docs []doc, size int64) {
	b.Helper()
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no catalog at %s", root)
	}
	found, err := source.Discover(context.Background(), []string{root}, source.DefaultOptions)
	if err != nil {
		b.Fatal(err)
	}
	resolve := func(dest string) (string, bool) { return "/skills/x/" + dest, true }
	for _, in := range found.Inputs {
		s := skill.Parse(in)
		if len(s.Body) > 0 {
			docs = append(docs, doc{s.Body, Options{ResolveLink: resolve, HeadingShift: 1}})
		}
		if d, _ := derive.ForSkill(s); d != nil {
			docs = append(docs, doc{uasp.SectionsMarkdown(d, 1), Options{ResolveLink: resolve, IDPrefix: "uasp-"}})
		}
	}
	if len(docs) == 0 {
		b.Skipf("no skills in %s", root)
	}
	for _, d := range docs {
		size += int64(len(d.src))
	}
	return docs, size
}

// catalogBenchRoots are the catalogs BenchmarkRenderCatalog renders: the
// 1,000 generated skills make bench writes (internal/sitebench's cache:
// $SKILLDEX_BENCH_CACHE, else the user cache folder) and the corpus
// of real skills.
func catalogBenchRoots(tb testing.TB) []struct{ name, root string } {
	return []struct{ name, root string }{
		{"generated-1000", catalogen.BenchCatalog(1000)},
		{"corpus", filepath.Join(testutil.TestdataDir(tb), "corpus")},
	}
}

// BenchmarkRenderCatalog renders every body and UASP section document of a
// catalog once per op, the highlight cache emptied first: what one build
// process spends in Render, cache hits across skills included.
func BenchmarkRenderCatalog(b *testing.B) {
	for _, c := range catalogBenchRoots(b) {
		b.Run(c.name, func(b *testing.B) {
			docs, size := catalogDocs(b, c.root)
			b.SetBytes(size)
			b.ReportAllocs()
			start, measured := testutil.ProcessCPU()
			for b.Loop() {
				resetHighlightCache()
				for _, d := range docs {
					if _, err := Render(d.src, d.opt); err != nil {
						b.Fatal(err)
					}
				}
			}
			if end, _ := testutil.ProcessCPU(); measured {
				// Garbage collection on other threads included: on a
				// shared machine, wall time per op also counts the time
				// spent waiting for a CPU.
				b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// resetHighlightCache empties the highlight cache, as a new process
// starts.
func resetHighlightCache() {
	hlCache.Lock()
	hlCache.m, hlCache.size = nil, 0
	hlCache.Unlock()
}
