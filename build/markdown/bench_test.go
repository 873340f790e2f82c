package markdown

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/internal/catalogen"
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
