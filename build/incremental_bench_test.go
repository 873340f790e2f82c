package build

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/serve"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// rebuildProfile names a file for the CPU profile of the rebuilds the
// Rebuild benchmarks time, without the first, full build:
// go test -bench RebuildAfter -rebuildprofile cpu.out ./build.
var rebuildProfile = flag.String("rebuildprofile", "", "write a CPU profile of the timed rebuilds (not the first build) to this `file`, and allocation profiles before and after them to file.allocs-before and file.allocs")

// rebuildTrace names a file for an execution trace of the same rebuilds,
// to see which stage of a rebuild the others wait for (go tool trace).
var rebuildTrace = flag.String("rebuildtrace", "", "write an execution trace of the timed rebuilds to this `file`")

// A rebuildChange changes the sources before rebuild i and returns the
// paths it changed, as serve's watcher reports them.
type rebuildChange func(b *testing.B, src string, i int) []string

// BenchmarkRebuildAfterOneEdit measures what `skilldex serve` does after a
// file is saved: an incremental build of a large catalog (cache and
// manifest from the previous build, told which file changed) after one
// skill changed. Issue 20's goal is well under 1 s at 10,000 skills.
//
// Each rebuild edits another skill, spread over the catalog: a rebuild
// reads the content of every skill of the edited one's bleve chunk, and
// chunks hold from one to hundreds of skills.
func BenchmarkRebuildAfterOneEdit(b *testing.B) {
	originals := map[string][]byte{}
	benchmarkRebuild(b, func(b *testing.B, src string, i int) []string {
		folders := skillFolders(b, src)
		edit := filepath.Join(src, folders[(i*1237)%len(folders)], "SKILL.md")
		if originals[edit] == nil {
			data, err := os.ReadFile(edit)
			if err != nil {
				b.Fatal(err)
			}
			originals[edit] = data
		}
		if err := os.WriteFile(edit, fmt.Appendf(bytes.Clone(originals[edit]), "\nNever deploy on day %d.\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		return []string{edit}
	})
}

// BenchmarkRebuildAfterAdd measures a rebuild after a new skill folder
// appeared: a copy of a skill of the catalog under a new name, so with
// its tags and type, which the listings of its terms then count.
func BenchmarkRebuildAfterAdd(b *testing.B) {
	benchmarkRebuild(b, func(b *testing.B, src string, i int) []string {
		model := skillFolders(b, src)[1]
		data, err := os.ReadFile(filepath.Join(src, model, "SKILL.md"))
		if err != nil {
			b.Fatal(err)
		}
		added++
		name := fmt.Sprintf("%s-copy-%d", model, added)
		dir := filepath.Join(src, name)
		data = bytes.Replace(data, []byte("name: "+model+"\n"), []byte("name: "+name+"\n"), 1)
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), data, 0o644); err != nil {
			b.Fatal(err)
		}
		return []string{dir}
	})
}

// added counts the skills BenchmarkRebuildAfterAdd added, for their names.
var added int

// BenchmarkRebuildAfterRemove measures a rebuild after a skill folder
// was deleted, one from the middle of the catalog.
func BenchmarkRebuildAfterRemove(b *testing.B) {
	benchmarkRebuild(b, func(b *testing.B, src string, i int) []string {
		folders := skillFolders(b, src)
		dir := filepath.Join(src, folders[len(folders)/2])
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		return []string{dir}
	})
}

// skillFolders returns the names of the folders in src, sorted.
func skillFolders(b *testing.B, src string) []string {
	entries, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// rebuildSite is a generated catalog built once per size and rebuilt by
// every Rebuild benchmark in turn: a full build of 10,000 skills takes
// longer than the rebuilds measured.
type rebuildSite struct {
	src string
	opt Options
	res *Result
}

var rebuildSites = map[int]*rebuildSite{}

// rebuildSiteOf returns the site of n generated skills, built.
func rebuildSiteOf(b *testing.B, n int) *rebuildSite {
	if s := rebuildSites[n]; s != nil {
		return s
	}
	// Not b.TempDir: the site outlives the benchmark that made it.
	tmp, err := os.MkdirTemp("", "skilldex-rebuild-")
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(tmp, "skills")
	if err := catalogen.Generate(src, n, 1); err != nil {
		b.Fatal(err)
	}
	// Told what changed as serve's watcher tells it: real paths.
	if src, err = filepath.EvalSymlinks(src); err != nil {
		b.Fatal(err)
	}
	opt := Options{LoadOptions: LoadOptions{Sources: []string{src}, Cache: NewCache()}, Output: filepath.Join(tmp, "site")}
	res, err := Build(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("full build of %d skills: %v", n, res.Duration)
	s := &rebuildSite{src: src, opt: opt, res: res}
	rebuildSites[n] = s
	return s
}

// TestMain removes the sites the Rebuild benchmarks built.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range rebuildSites {
		os.RemoveAll(filepath.Dir(s.src))
	}
	os.Exit(code)
}

// benchmarkRebuild times the incremental rebuilds of a generated catalog
// after change, at 1,000 and 10,000 skills.
func benchmarkRebuild(b *testing.B, change rebuildChange) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			site := rebuildSiteOf(b, n)
			defer serve.TuneGC()() // and a collection between edits, as serve does
			if *rebuildProfile != "" {
				f := benchFile(b, *rebuildProfile, "")
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					b.Fatal(err)
				}
				defer pprof.StopCPUProfile()
				// The allocations of the rebuilds alone: the profile after
				// them, read against the one before (go tool pprof -base).
				writeAllocs := func(suffix string) {
					f := benchFile(b, *rebuildProfile, suffix)
					defer f.Close()
					runtime.GC()
					if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
						b.Fatal(err)
					}
				}
				writeAllocs("allocs-before")
				defer writeAllocs("allocs")
			}
			if *rebuildTrace != "" {
				f := benchFile(b, *rebuildTrace, "")
				defer f.Close()
				if err := trace.Start(f); err != nil {
					b.Fatal(err)
				}
				defer trace.Stop()
			}
			opt := site.opt
			var gcs uint32
			var allocated uint64
			var cpu time.Duration
			var before, after runtime.MemStats
			reads := contentReads.Load()
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				opt.Changed = change(b, site.src, i)
				opt.Previous = site.res.Manifest
				runtime.GC()
				runtime.ReadMemStats(&before)
				cpuBefore := processCPU(b)
				b.StartTimer()
				res, err := Build(context.Background(), opt)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += processCPU(b) - cpuBefore
				runtime.ReadMemStats(&after)
				gcs += after.NumGC - before.NumGC
				allocated += after.TotalAlloc - before.TotalAlloc
				site.res = res
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/rebuild")
			// CPU time (the process's, user and system) varies less than
			// wall time with what else the machine runs.
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/rebuild")
			// What the collector had to do: the heap live before a
			// rebuild, what a rebuild allocated, and the collections
			// that ran while it did.
			b.ReportMetric(float64(before.HeapAlloc)/(1<<20), "MB-live")
			b.ReportMetric(float64(allocated)/float64(b.N)/(1<<20), "MB-alloc/rebuild")
			b.ReportMetric(float64(gcs)/float64(b.N), "gcs/rebuild")
			b.ReportMetric(float64(site.res.Written), "files-written")
			b.ReportMetric(float64(site.res.Kept), "files-kept")
			// The skills whose content a rebuild read: those of the
			// changed skill's bleve chunk, whose size varies the most
			// from one skill to another.
			b.ReportMetric(float64(contentReads.Load()-reads)/float64(b.N), "skills-read/rebuild")
		})
	}
}

// benchFile creates the file named by a profile flag for benchmark b:
// name.BENCHMARK, or name.BENCHMARK.suffix.
func benchFile(b *testing.B, name, suffix string) *os.File {
	p := name + "." + strings.ReplaceAll(b.Name(), "/", "_")
	if suffix != "" {
		p += "." + suffix
	}
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkRebuildAfterEdits is BenchmarkRebuildAfterOneEdit as
// internal/servebench edits: each rebuild after one change, a sentence no
// skill has saved into a skill, then the skill restored, a different skill
// across the catalog each time.
func BenchmarkRebuildAfterEdits(b *testing.B) {
	// The edit each catalog (by folder) has to restore: a sub-benchmark
	// may end with one, which the next run on the same catalog restores.
	type edited struct {
		file string
		data []byte
	}
	pending := map[string]edited{}
	benchmarkRebuild(b, func(b *testing.B, src string, i int) []string {
		if e, ok := pending[src]; ok {
			if err := os.WriteFile(e.file, e.data, 0o644); err != nil {
				b.Fatal(err)
			}
			delete(pending, src)
			return []string{e.file}
		}
		folders := skillFolders(b, src)
		file := filepath.Join(src, folders[(i+1)*7919%len(folders)], "SKILL.md")
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(file, fmt.Appendf(bytes.Clone(data), "\nBenchmark sentence %d-%d.\n", i, time.Now().UnixNano()), 0o644); err != nil {
			b.Fatal(err)
		}
		pending[src] = edited{file, data}
		return []string{file}
	})
}
