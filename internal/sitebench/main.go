// Command sitebench measures full builds of generated catalogs with skilldex
// and with the usual alternative, Hugo for the pages plus Pagefind for
// search, on the same machine in the same run, and prints them side by
// side: wall time, CPU time, peak memory, output bytes and file count.
//
//	go run ./internal/sitebench -n 1000,10000
//
// It installs Hugo (go install of a pinned release) and Pagefind (npm, a
// pinned version) into a cache folder when they are missing; -skip-others
// measures skilldex alone. Catalogs come from internal/catalogen (seed 1)
// and are kept between runs. Each build writes a fresh folder, and the
// tools take turns (-runs, the fastest of each reported), so that neither
// is charged for the other's leftovers. It then times skilldex's
// incremental rebuild after one skill changed, in this process, as
// `skilldex serve` does it.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skilldex/skilldex/internal/catalogen"
)

// Pinned versions of the tools measured against. Hugo v0.165.0 is the
// newest that builds with Go 1.26; its install takes about 7 minutes, so
// it is cached.
const (
	hugoModule      = "github.com/gohugoio/hugo@v0.165.0"
	pagefindVersion = "1.6.0"
)

func main() {
	sizes := flag.String("n", "1000,10000", "catalog sizes, comma-separated")
	cache := flag.String("cache", catalogen.BenchCache(), "folder for the tools, catalogs and sites")
	skipOthers := flag.Bool("skip-others", false, "measure skilldex only")
	runs := flag.Int("runs", 2, "builds per tool and size, the tools taking turns; the fastest is reported")
	flag.BoolVar(&opts.rebuild, "rebuild", true, "time skilldex's rebuild after one edit too")
	flag.StringVar(&opts.config, "config", "", "a skilldex.yaml for skilldex's builds (its publish and api settings; sources and output are the benchmark's)")
	flag.Parse()
	if err := run(*sizes, *cache, *skipOthers, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "sitebench:", err)
		os.Exit(1)
	}
}

// opts are the settings of skilldex's builds.
var opts struct {
	rebuild bool
	config  string
}

// measurement is one build.
type measurement struct {
	wall, cpu time.Duration
	// sys is the part of cpu spent in the kernel: mostly creating files,
	// which the disk's state can make many times dearer (see settle).
	sys     time.Duration
	peakRSS int64 // bytes
	bytes   int64
	files   int
}

func run(sizeList, cache string, skipOthers bool, runs int) error {
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-n %q: want sizes such as 1000,10000", sizeList)
		}
		sizes = append(sizes, n)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	skilldex := filepath.Join(cache, "bin", "skilldex")
	if err := command("", "go", "build", "-o", skilldex, "./cmd/skilldex").Run(); err != nil {
		return fmt.Errorf("building skilldex (run from the repository root): %w", err)
	}
	var hugo, pagefind string
	if !skipOthers {
		var err error
		if hugo, err = installHugo(cache); err != nil {
			return err
		}
		if pagefind, err = installPagefind(cache); err != nil {
			return err
		}
	}
	// Sites of earlier runs are moved aside now and deleted at the end:
	// on some file systems (ext4 without a journal, as here) creating
	// files is many times slower for minutes after many were deleted, which
	// would charge the deletion to whichever tool runs first.
	trash, err := os.MkdirTemp(cache, "trash-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(trash)
	if old, _ := filepath.Glob(filepath.Join(cache, "out-*")); len(old) > 0 {
		for i, o := range old {
			os.Rename(o, filepath.Join(trash, strconv.Itoa(i)))
		}
	}
	fmt.Printf("machine: %d CPUs, %s/%s, %s; best of %d runs, tools taking turns\n\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, goVersion(), runs)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "skills\ttool\twall\tCPU\tof it system\tpeak RSS\toutput\tfiles\t")
	var parts []sizeParts
	var rebuilds []rebuild
	for _, n := range sizes {
		src, err := catalog(cache, n)
		if err != nil {
			return err
		}
		var hugoSrc string
		if !skipOthers {
			if hugoSrc, err = hugoSite(cache, src, n); err != nil {
				return err
			}
		}
		out := filepath.Join(cache, fmt.Sprintf("out-%d", n))
		var sd, hm, pm measurement
		var sdSite string
		for r := range max(runs, 1) {
			// Every build writes a folder of its own: deleting the
			// previous one is no part of a build.
			site := filepath.Join(out, fmt.Sprintf("skilldex-%d", r))
			args := []string{"build", "-q", src, "-o", site}
			if opts.config != "" {
				args = append(args, "--config", opts.config)
			}
			m, err := measure(site, command("", skilldex, args...))
			if err != nil {
				return fmt.Errorf("skilldex on %d skills: %w", n, err)
			}
			if r == 0 || m.wall < sd.wall {
				sd, sdSite = m, site
			}
			if skipOthers {
				continue
			}
			hsite := filepath.Join(out, fmt.Sprintf("hugo-%d", r))
			m, err = measure(hsite, command(hugoSrc, hugo, "--quiet", "--destination", hsite))
			if err != nil {
				return fmt.Errorf("hugo on %d skills: %w", n, err)
			}
			if r == 0 || m.wall < hm.wall {
				hm = m
			}
			m, err = measure(filepath.Join(hsite, "pagefind"), command("", pagefind, "--site", hsite, "--quiet"))
			if err != nil {
				return fmt.Errorf("pagefind on %d skills: %w", n, err)
			}
			if r == 0 || m.wall < pm.wall {
				pm = m
			}
		}
		row(tw, n, "skilldex", sd)
		parts = append(parts, partsOf(sdSite, n))
		if opts.rebuild {
			rb, err := measureRebuild(src, filepath.Join(out, "rebuild"))
			if err != nil {
				return fmt.Errorf("skilldex rebuild on %d skills: %w", n, err)
			}
			rb.n = n
			rebuilds = append(rebuilds, rb)
		}
		if skipOthers {
			continue
		}
		both := measurement{
			wall: hm.wall + pm.wall, cpu: hm.cpu + pm.cpu, sys: hm.sys + pm.sys,
			peakRSS: max(hm.peakRSS, pm.peakRSS),
		}
		both.bytes, both.files = tree(filepath.Join(out, "hugo-0"))
		hm.bytes, hm.files = both.bytes-pm.bytes, both.files-pm.files
		row(tw, n, "hugo", hm)
		row(tw, n, "pagefind", pm)
		row(tw, n, "hugo+pagefind", both)
		fmt.Fprintf(tw, "%d\tskilldex is\t%.1f× faster\t%.1f× less CPU\t\t%.1f× less memory\t\t\t\n", n,
			ratio(both.wall, sd.wall), ratio(both.cpu, sd.cpu), float64(both.peakRSS)/float64(sd.peakRSS))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Println("\nskilldex output per skill, by part (bytes and files per skill):")
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "skills\t")
	for _, p := range partNames {
		fmt.Fprintf(tw, "%s\t", p)
	}
	fmt.Fprintln(tw, "total\t")
	for _, ps := range parts {
		fmt.Fprintf(tw, "%d\t", ps.n)
		var total int64
		var files int
		for _, p := range partNames {
			fmt.Fprintf(tw, "%s\t", perSkill(ps.bytes[p], ps.files[p], ps.n))
			total += ps.bytes[p]
			files += ps.files[p]
		}
		fmt.Fprintf(tw, "%s\t\n", perSkill(total, files, ps.n))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rebuilds) == 0 {
		return nil
	}
	fmt.Println("\nskilldex rebuild after one skill changed (what serve does on a save; median of the edits):")
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "skills\tfirst build\trebuild\tfiles written\tfiles kept\t")
	for _, rb := range rebuilds {
		fmt.Fprintf(tw, "%d\t%.2fs\t%.3fs\t%d\t%d\t\n", rb.n, rb.first.Seconds(), rb.median.Seconds(), rb.written, rb.kept)
	}
	return tw.Flush()
}

// partNames are the parts of a skilldex site, as a user may trade them off.
var partNames = []string{"pages", "sources", "archives", "api", "search", "discovery"}

type sizeParts struct {
	n     int
	bytes map[string]int64
	files map[string]int
}

func perSkill(bytes int64, files, n int) string {
	return fmt.Sprintf("%.1f KB / %.1f", float64(bytes)/float64(n)/1024, float64(files)/float64(n))
}

// partsOf splits a skilldex site's files into parts: every file counts in
// exactly one, so that the parts add up to the whole site.
func partsOf(site string, n int) sizeParts {
	ps := sizeParts{n: n, bytes: map[string]int64{}, files: map[string]int{}}
	filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(site, p)
		part := partOf(filepath.ToSlash(rel))
		ps.bytes[part] += info.Size()
		ps.files[part]++
		return nil
	})
	return ps
}

// partOf names the part of the site path rel:
//
//	archives   *.skill, and the flat .zip archives under .well-known/
//	search     search/ (the JSON shards, bleve), but for the search page
//	api        api/ (the UASP documents and one answer per query path)
//	discovery  .well-known/ (Agent Skills and legacy indexes, their
//	           SKILL.md copies), v1/ (the USK mirror), llms.txt,
//	           llms-full.txt, SKILLS.md
//	sources    the skills' own files under skills/NAME/
//	pages      everything else: HTML, Markdown twins, assets, feeds,
//	           sitemap
func partOf(rel string) string {
	switch {
	case strings.HasSuffix(rel, ".skill"),
		strings.HasPrefix(rel, ".well-known/") && strings.HasSuffix(rel, ".zip"):
		return "archives"
	case strings.HasPrefix(rel, "search/") && rel != "search/index.html":
		return "search"
	case strings.HasPrefix(rel, "api/"):
		return "api"
	case strings.HasPrefix(rel, ".well-known/"), strings.HasPrefix(rel, "v1/"),
		strings.HasPrefix(rel, "llms"), rel == "SKILLS.md":
		return "discovery"
	case strings.HasPrefix(rel, "skills/") && strings.Count(rel, "/") >= 2 &&
		!strings.HasSuffix(rel, "/index.html") && !strings.HasSuffix(rel, "/index.html.md"):
		return "sources"
	}
	return "pages"
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func row(tw *tabwriter.Writer, n int, tool string, m measurement) {
	fmt.Fprintf(tw, "%d\t%s\t%.2fs\t%.2fs\t%.2fs\t%d MB\t%d MB\t%d\t\n", n, tool,
		m.wall.Seconds(), m.cpu.Seconds(), m.sys.Seconds(), m.peakRSS>>20, m.bytes>>20, m.files)
}

func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	return cmd
}

// measure runs cmd and reads its resource use from the kernel: CPU time
// and peak resident memory include the children it waited for.
func measure(site string, cmd *exec.Cmd) (measurement, error) {
	var out bytes.Buffer
	cmd.Stdout = &out
	settle()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return measurement{}, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, out.String())
	}
	ps := cmd.ProcessState
	m := measurement{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), sys: ps.SystemTime()}
	m.peakRSS = peakRSS(ps.SysUsage())
	m.bytes, m.files = tree(site)
	return m, nil
}

// tree returns the bytes and file count under dir.
func tree(dir string) (size int64, files int) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
				files++
			}
		}
		return nil
	})
	return size, files
}

// catalog generates the catalog of n skills once.
func catalog(cache string, n int) (string, error) {
	src := filepath.Join(cache, fmt.Sprintf("catalog-%d", n))
	if _, err := os.Stat(filepath.Join(src, ".done")); err == nil {
		return src, nil
	}
	os.RemoveAll(src)
	fmt.Fprintf(os.Stderr, "generating %d skills…\n", n)
	if err := catalogen.Generate(src, n, 1); err != nil {
		return "", err
	}
	return src, os.WriteFile(filepath.Join(src, ".done"), nil, 0o644)
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

func installHugo(cache string) (string, error) {
	bin := filepath.Join(cache, "bin", "hugo")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	fmt.Fprintf(os.Stderr, "installing %s (about 7 minutes, once)…\n", hugoModule)
	cmd := command("", "go", "install", hugoModule)
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Dir(bin))
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("installing hugo: %w", err)
	}
	return bin, nil
}

// installPagefind installs Pagefind from npm and returns its native binary,
// so that the measurement does not include Node.
func installPagefind(cache string) (string, error) {
	dir := filepath.Join(cache, "pagefind-"+pagefindVersion)
	find := func() string {
		matches, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@pagefind", "*", "bin", "pagefind*"))
		for _, m := range matches {
			if info, err := os.Stat(m); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
				return m
			}
		}
		return ""
	}
	if bin := find(); bin != "" {
		return bin, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", errors.New("npm is needed to install Pagefind (apt-get install npm), or pass -skip-others")
	}
	fmt.Fprintf(os.Stderr, "installing pagefind %s…\n", pagefindVersion)
	os.MkdirAll(dir, 0o755)
	if err := command(dir, "npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "pagefind@"+pagefindVersion).Run(); err != nil {
		return "", fmt.Errorf("installing pagefind: %w", err)
	}
	if bin := find(); bin != "" {
		return bin, nil
	}
	return "", fmt.Errorf("pagefind installed in %s but its native binary was not found", dir)
}
