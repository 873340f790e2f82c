//go:build linux

// Command servebench measures `skilldex serve` over a generated catalog,
// as a person writing skills meets it: the CPU it takes while nothing
// changes, and the time from saving a SKILL.md to the served page holding
// the edit.
//
//	go run ./internal/servebench -n 10000 \
//	    -serve new=./skilldex -serve poll='./skilldex --poll 300ms'
//
// Each -serve names a skilldex binary and its extra arguments. The
// binaries take turns (-runs rounds of each), so that a busy neighbour on
// the machine weighs on all of them alike. In each run serve starts on a
// free port, builds, and then:
//
//   - idle: the CPU time (user and system, /proc/PID/stat) serve uses over
//     -idle while nothing changes;
//   - save: -saves times, a SKILL.md is saved as editors save (a temporary
//     file renamed over it) with a new sentence, and the page is fetched
//     until it holds the sentence;
//   - add and remove: a new skill folder is made, and its page fetched
//     until it is served; then it is removed, and fetched until it is not.
//
// Catalogs come from internal/catalogen (seed 1), kept in -cache.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/skilldex/skilldex/internal/catalogen"
)

type servers []string

func (s *servers) String() string     { return strings.Join(*s, ", ") }
func (s *servers) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	var serve servers
	n := flag.Int("n", 10000, "skills in the generated catalog")
	cache := flag.String("cache", catalogen.BenchCache(), "folder for the catalogs")
	runs := flag.Int("runs", 2, "runs of each -serve, taking turns")
	idle := flag.Duration("idle", 10*time.Second, "how long the idle CPU is measured")
	saves := flag.Int("saves", 10, "saves timed per run")
	flag.Var(&serve, "serve", "NAME=BINARY [ARGS...]: a skilldex to measure (repeatable)")
	flag.Parse()
	if len(serve) == 0 {
		fmt.Fprintln(os.Stderr, "servebench: give at least one -serve NAME=BINARY")
		os.Exit(2)
	}
	if err := run(serve, *n, *cache, *runs, *idle, *saves); err != nil {
		fmt.Fprintln(os.Stderr, "servebench:", err)
		os.Exit(1)
	}
}

// result is one run of one serve.
type result struct {
	idleCPU        time.Duration
	saves          []time.Duration
	added, removed time.Duration
	firstBuild     time.Duration
}

func run(serve servers, n int, cache string, runs int, idle time.Duration, saves int) error {
	src := filepath.Join(cache, fmt.Sprintf("catalog-%d", n))
	if _, err := os.Stat(src); err != nil {
		fmt.Fprintf(os.Stderr, "generating %d skills in %s\n", n, src)
		if err := catalogen.Generate(src, n, 1); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	var skills []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "zz-servebench") {
			skills = append(skills, e.Name())
		}
	}
	results := map[string][]result{}
	for r := range runs {
		for _, s := range serve {
			name, cmdline, ok := strings.Cut(s, "=")
			if !ok {
				return fmt.Errorf("-serve %q: want NAME=BINARY [ARGS...]", s)
			}
			fmt.Fprintf(os.Stderr, "run %d: %s\n", r+1, name)
			res, err := measure(strings.Fields(cmdline), src, skills, r, idle, saves)
			if err != nil {
				// The others are still measured; the table leaves the run out.
				fmt.Fprintf(os.Stderr, "run %d: %s: %v\n", r+1, name, err)
				continue
			}
			fmt.Fprintf(os.Stderr, "run %d: %s: idle CPU %s, save -> served median %s (%v), added %s, removed %s, first build %s\n",
				r+1, name, res.idleCPU, median(res.saves), res.saves, res.added, res.removed, res.firstBuild)
			results[name] = append(results[name], res)
		}
	}
	fmt.Printf("serve over %d skills, %d runs each (ranges over runs; save: median of %d saves per run)\n", n, runs, saves)
	fmt.Printf("%-10s %-22s %-22s %-20s %-20s %-20s\n", "serve", "idle CPU per "+idle.String(), "save -> served", "new skill served", "removed skill gone", "first build")
	for _, s := range serve {
		name, _, _ := strings.Cut(s, "=")
		rs := results[name]
		if len(rs) == 0 {
			fmt.Printf("%-10s no run completed\n", name)
			continue
		}
		var cpu, med, add, rm, first []time.Duration
		for _, r := range rs {
			cpu = append(cpu, r.idleCPU)
			med = append(med, median(r.saves))
			add = append(add, r.added)
			rm = append(rm, r.removed)
			first = append(first, r.firstBuild)
		}
		fmt.Printf("%-10s %-22s %-22s %-20s %-20s %-20s\n", name, span(cpu), span(med), span(add), span(rm), span(first))
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func span(ds []time.Duration) string {
	lo, hi := slices.Min(ds), slices.Max(ds)
	round := func(d time.Duration) string {
		switch {
		case d < time.Second:
			return d.Round(time.Millisecond).String()
		default:
			return d.Round(10 * time.Millisecond).String()
		}
	}
	if lo == hi {
		return round(lo)
	}
	return round(lo) + "–" + round(hi)
}

// measure runs one serve over src and takes its measures.
func measure(cmdline []string, src string, skills []string, runIndex int, idle time.Duration, saves int) (result, error) {
	var res result
	port, err := freePort()
	if err != nil {
		return res, err
	}
	args := append([]string{"serve", src, "--port", strconv.Itoa(port), "--quiet"}, cmdline[1:]...)
	cmd := exec.Command(cmdline[0], args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return res, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, err
	}
	defer func() {
		// SIGTERM, not an interrupt: a command started in the background
		// of a shell inherits SIGINT ignored, and serve would not end.
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	lines := bufio.NewScanner(stderr)
	base := ""
	for lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "serving on "); ok {
			base = strings.Fields(rest)[0]
			break
		}
	}
	if base == "" {
		return res, errors.New("serve ended before serving")
	}
	go io.Copy(os.Stderr, prefixed(stderr))
	// The first build is done once the home page is served.
	if err := waitFor(base, "", func(code int, _ string) bool { return code == http.StatusOK }); err != nil {
		return res, err
	}
	res.firstBuild = time.Since(start)
	// Let the collection after the build end before the idle clock.
	time.Sleep(2 * time.Second)
	before, err := cpuTime(cmd.Process.Pid)
	if err != nil {
		return res, err
	}
	time.Sleep(idle)
	after, err := cpuTime(cmd.Process.Pid)
	if err != nil {
		return res, err
	}
	res.idleCPU = after - before

	for i := range saves {
		name := skills[(runIndex*saves+i)*7919%len(skills)]
		mark := fmt.Sprintf("Servebench sentence %d-%d-%d.", runIndex, i, time.Now().UnixNano())
		file := filepath.Join(src, name, "SKILL.md")
		b, err := os.ReadFile(file)
		if err != nil {
			return res, err
		}
		t0 := time.Now()
		if err := renameSave(file, append(b, "\n"+mark+"\n"...)); err != nil {
			return res, err
		}
		if err := waitFor(base, "skills/"+name+"/", func(code int, body string) bool { return strings.Contains(body, mark) }); err != nil {
			return res, err
		}
		res.saves = append(res.saves, time.Since(t0))
		// The catalog returns to what it was, for the next run.
		if err := renameSave(file, b); err != nil {
			return res, err
		}
		if err := waitFor(base, "skills/"+name+"/", func(code int, body string) bool { return !strings.Contains(body, mark) }); err != nil {
			return res, err
		}
	}

	added := "zz-servebench-added"
	dir := filepath.Join(src, added)
	t0 := time.Now()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	if err := renameSave(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+added+"\ndescription: A skill added while serve runs, to time its arrival.\n---\n# Added\n")); err != nil {
		return res, err
	}
	if err := waitFor(base, "skills/"+added+"/", func(code int, _ string) bool { return code == http.StatusOK }); err != nil {
		return res, err
	}
	res.added = time.Since(t0)
	t0 = time.Now()
	if err := os.RemoveAll(dir); err != nil {
		return res, err
	}
	if err := waitFor(base, "skills/"+added+"/", func(code int, _ string) bool { return code == http.StatusNotFound }); err != nil {
		return res, err
	}
	res.removed = time.Since(t0)
	return res, nil
}

// renameSave writes data to file as editors do: to a temporary file
// beside it, renamed over it.
func renameSave(file string, data []byte) error {
	tmp := filepath.Join(filepath.Dir(file), "."+filepath.Base(file)+".servebench~")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// waitFor fetches base+path every 10 ms until ok says it is what is
// awaited, for at most a minute.
func waitFor(base, path string, ok func(code int, body string) bool) error {
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := http.Get(base + path)
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if ok(res.StatusCode, string(body)) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s%s: not as awaited after a minute", base, path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// cpuTime is the user and system time of the process pid, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", pid, b)
	}
	f := strings.Fields(rest) // f[0] is field 3
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// prefixed passes serve's output on, each line marked as serve's.
func prefixed(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			fmt.Fprintf(pw, "  serve: %s\n", sc.Text())
		}
		pw.Close()
	}()
	return pr
}
