package index_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// Benchmarks over generated catalogs of 1,000, 10,000 and 100,000 skills.
// The 100,000 case takes minutes to generate and build, so it runs only
// when -bench names it: go test ./index -run XXX -bench 'Search/100k'.
//
// BenchmarkSearch/<n>/bleve times Bleve.SearchWith over the benchmark
// queries as `skilldex search` makes it (ten hits, no facet counts), on
// an open index, and reports the median and p90 per query;
// BenchmarkSearch/<n>/bleve-cold opens the index for each query, as a run
// of `skilldex search` does (the process's start aside).
// BenchmarkSearch/<n>/json runs the queries through static/search-core.js
// under Node, each from a cold index, and reports per query the gzip bytes
// fetched (median and p90), requests and time (median and p90, reading and
// parsing files included). Generated catalogs and their sites are kept in
// $TMPDIR/skilldex-bench (SKILLDEX_BENCH_DIR to move it), since they
// depend only on n.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct {
		label string
		n     int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		b.Run(c.label, func(b *testing.B) {
			if c.n >= 100000 && !strings.Contains(benchFlag(), "100k") {
				b.Skip("100k runs only when -bench names it (-bench Search/100k)")
			}
			site := benchSite(b, c.n)
			queries := benchQueries(c.n)
			cli := index.SearchOptions{Limit: 10}
			b.Run("bleve", func(b *testing.B) {
				ix, err := index.Open(site)
				if err != nil {
					b.Fatal(err)
				}
				defer ix.Close()
				var ms []float64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					start := time.Now()
					if _, err := ix.SearchWith(queries[i%len(queries)], cli); err != nil {
						b.Fatal(err)
					}
					ms = append(ms, float64(time.Since(start).Microseconds())/1000)
				}
				b.StopTimer()
				b.ReportMetric(pct(ms, 50), "ms-p50")
				b.ReportMetric(pct(ms, 90), "ms-p90")
				b.ReportMetric(float64(dirSize(b, filepath.Join(site, "search", "bleve"))), "index-bytes")
			})
			b.Run("bleve-cold", func(b *testing.B) {
				var ms []float64
				for i := 0; i < b.N; i++ {
					start := time.Now()
					ix, err := index.Open(site)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := ix.SearchWith(queries[i%len(queries)], cli); err != nil {
						b.Fatal(err)
					}
					ix.Close()
					ms = append(ms, float64(time.Since(start).Microseconds())/1000)
				}
				b.ReportMetric(pct(ms, 50), "ms-p50")
				b.ReportMetric(pct(ms, 90), "ms-p90")
			})
			b.Run("json", func(b *testing.B) {
				needNode(b)
				var res []coreResult
				for i := 0; i < b.N; i++ {
					res = runCore(b, site, queries, 10)
				}
				var bytes, ms, reqs []float64
				for _, r := range res {
					bytes = append(bytes, float64(r.Bytes))
					ms = append(ms, r.MS)
					reqs = append(reqs, float64(r.Requests))
				}
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(pct(bytes, 50), "gz-bytes-p50")
				b.ReportMetric(pct(bytes, 90), "gz-bytes-p90")
				b.ReportMetric(pct(reqs, 50), "requests-p50")
				b.ReportMetric(pct(ms, 50), "ms-p50")
				b.ReportMetric(pct(ms, 90), "ms-p90")
			})
		})
	}
}

func benchFlag() string {
	if f := flag.Lookup("test.bench"); f != nil {
		return f.Value.String()
	}
	return ""
}

func pct(xs []float64, p int) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, len(s)*p/100)]
}

func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// benchSite generates a catalog of n skills and builds its site, or reuses
// the ones an earlier run left.
func benchSite(tb testing.TB, n int) string {
	tb.Helper()
	root := os.Getenv("SKILLDEX_BENCH_DIR")
	if root == "" {
		root = filepath.Join(os.TempDir(), "skilldex-bench")
	}
	src := filepath.Join(root, fmt.Sprintf("catalog-v2-%d", n))
	// The site is the index format's: a site another skilldex built is
	// not read.
	site := filepath.Join(root, fmt.Sprintf("site-v2-format%d-%d", index.FormatVersion, n))
	if _, err := os.Stat(filepath.Join(src, ".done")); err != nil {
		os.RemoveAll(src)
		start := time.Now()
		if err := catalogen.Generate(src, n, 1); err != nil {
			tb.Fatal(err)
		}
		os.WriteFile(filepath.Join(src, ".done"), nil, 0o644)
		tb.Logf("generated %d skills in %v", n, time.Since(start))
	}
	if _, err := os.Stat(filepath.Join(site, "search", ".done")); err != nil {
		start := time.Now()
		buildSite(tb, site, src)
		os.WriteFile(filepath.Join(site, "search", ".done"), nil, 0o644)
		tb.Logf("built the site of %d skills in %v", n, time.Since(start))
	}
	return site
}

// benchQueries are typical one- and two-word queries over a generated
// catalog: subjects, subject and action, product names, subject terms,
// prefixes being typed and a typo, drawn from the catalog's plan.
func benchQueries(n int) []string {
	plan := catalogen.Plan(n, 1)
	r := rand.New(rand.NewPCG(7, 7))
	var qs []string
	for len(qs) < 60 {
		s := plan[r.IntN(len(plan))]
		words := strings.Fields(strings.ReplaceAll(s.Description, ",", " "))
		term := strings.Trim(words[r.IntN(len(words))], ".:")
		switch len(qs) % 6 {
		case 0:
			qs = append(qs, s.Domain)
		case 1:
			qs = append(qs, s.Domain+" "+s.Action)
		case 2:
			if s.Product != "" {
				qs = append(qs, s.Product)
			} else {
				qs = append(qs, strings.ToLower(term))
			}
		case 3:
			qs = append(qs, strings.ToLower(term)+" "+s.Action)
		case 4:
			qs = append(qs, s.Domain[:min(len(s.Domain), 4)])
		case 5:
			d := []byte(s.Domain)
			if len(d) > 4 {
				d[2], d[3] = d[3], d[2]
			}
			qs = append(qs, string(d))
		}
	}
	return qs
}
