package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/fswatch"
	"github.com/skilldex/skilldex/internal/testutil"
)

const watchCatalog = `
-- alpha/SKILL.md --
---
name: alpha
description: The first skill of the catalog.
---
# Alpha

First draft.
-- beta/SKILL.md --
---
name: beta
description: The second skill of the catalog.
---
# Beta
-- gamma/SKILL.md --
---
name: gamma
description: The third skill of the catalog.
---
# Gamma
-- zz-sentinel/README.md --
Where the tests drop files that mark a point in the stream of changes.
`

// timeout bounds every wait of these tests; none passes by waiting.
const timeout = 20 * time.Second

// A rebuild is what one rebuild of a fixture was told, and how it ended.
type rebuild struct {
	changed []string
	err     error
}

// fixture is `skilldex serve` over a small catalog: a watched source
// folder, the first build done, the rebuilds reported on a channel.
type fixture struct {
	t        *testing.T
	src      string // real path
	srv      *Server
	http     *httptest.Server
	rebuilds chan rebuild
	// fail makes the next rebuilds fail before they build.
	fail atomic.Bool
}

type fixtureOptions struct {
	output   string // relative to src; "" for a folder outside it
	poll     time.Duration
	quiet    time.Duration
	maxDelay time.Duration
}

func startFixture(t *testing.T, catalog string, fo fixtureOptions) *fixture {
	t.Helper()
	src, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testutil.WriteTxtar(t, src, catalog)
	out := filepath.Join(t.TempDir(), "site")
	if fo.output != "" {
		out = filepath.Join(src, fo.output)
	}
	opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}, Cache: build.NewCache()}, Output: out}
	f := &fixture{t: t, src: src, rebuilds: make(chan rebuild, 100)}
	f.srv = &Server{
		Dir: out, BasePath: "/",
		Watching: fswatch.Options{
			Roots: []string{src}, Poll: fo.poll, Quiet: fo.quiet, MaxDelay: fo.maxDelay,
			Skip: source.NewSkipper(source.Options{Exclude: []string{out}}),
		},
		Log: t.Logf,
	}
	// As serve does: watching starts before the first build.
	if err := f.srv.Start(); err != nil {
		t.Fatal(err)
	}
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	prev := res.Manifest
	f.srv.Rebuild = func(ctx context.Context, changed []string) error {
		mu.Lock()
		defer mu.Unlock()
		if f.fail.Load() {
			f.rebuilds <- rebuild{slices.Clone(changed), io.ErrUnexpectedEOF}
			return io.ErrUnexpectedEOF
		}
		opt.Previous, opt.Changed = prev, changed
		res, err := build.Build(ctx, opt)
		if err == nil {
			prev = res.Manifest
		}
		f.rebuilds <- rebuild{slices.Clone(changed), err}
		return err
	}
	f.http = httptest.NewServer(f.srv.Handler())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.srv.Watch(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		f.http.Close()
	})
	return f
}

// next returns the next rebuild.
func (f *fixture) next() rebuild {
	f.t.Helper()
	select {
	case r := <-f.rebuilds:
		if r.err != nil {
			f.t.Fatalf("rebuild failed: %v", r.err)
		}
		return r
	case <-time.After(timeout):
		f.t.Fatal("no rebuild")
		return rebuild{}
	}
}

// settled makes a change of its own (a new file, renamed into a folder
// watched from the start: one event) and returns the rebuilds that came
// before the one it makes, and, as one more, the other changes batched
// with it: what the changes made before it gave, since batches follow the
// order of the events.
func (f *fixture) settled() []rebuild {
	f.t.Helper()
	tmp := filepath.Join(f.t.TempDir(), "sentinel.md")
	write(f.t, tmp, "sentinel")
	sentinel := filepath.Join(f.src, "zz-sentinel", fmt.Sprintf("n%d.md", time.Now().UnixNano()))
	if err := os.Rename(tmp, sentinel); err != nil {
		f.t.Fatal(err)
	}
	var before []rebuild
	for {
		r := f.next()
		if i := slices.Index(r.changed, sentinel); i >= 0 {
			if others := slices.Delete(r.changed, i, i+1); len(others) > 0 {
				before = append(before, rebuild{changed: others})
			}
			return before
		}
		before = append(before, r)
	}
}

func (f *fixture) page(path string) (int, string) {
	f.t.Helper()
	code, body, _ := get(f.t, f.http.URL+path)
	return code, body
}

// TestRenameSave: an editor's atomic save (write a temporary file, rename
// it over the original, as vim, VS Code, JetBrains IDEs and sed -i do)
// makes exactly one rebuild, told of the file, and the page shows the new
// text.
func TestRenameSave(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{})
	if _, body := f.page("/skills/alpha/"); !strings.Contains(body, "First draft.") {
		t.Fatalf("first build: %q", body)
	}
	skill := filepath.Join(f.src, "alpha", "SKILL.md")
	b, _ := os.ReadFile(skill)
	tmp := filepath.Join(f.src, "alpha", ".SKILL.md.swx")
	write(t, tmp, strings.Replace(string(b), "First draft.", "Second draft, saved by rename.", 1))
	if err := os.Rename(tmp, skill); err != nil {
		t.Fatal(err)
	}
	r := f.next()
	if !slices.Contains(r.changed, skill) {
		t.Errorf("the rebuild was told %q, not %s", r.changed, skill)
	}
	if _, body := f.page("/skills/alpha/"); !strings.Contains(body, "Second draft, saved by rename.") {
		t.Errorf("after the save: %q", body)
	}
	if more := f.settled(); len(more) > 0 {
		t.Errorf("one save made %d more rebuilds: %v", len(more), more)
	}
}

// TestBurst: a thousand files changed in a burst (a checkout, a
// formatter) make one rebuild, told of every file, as long as no pause
// between two changes lasts the quiet window. The writer below measures
// its own pauses: each one longer than the window allows one more
// rebuild, which is what the debounce promises (MaxDelay, a minute here,
// never ends a batch).
func TestBurst(t *testing.T) {
	const quiet = 500 * time.Millisecond
	f := startFixture(t, watchCatalog, fixtureOptions{quiet: quiet, maxDelay: time.Minute})
	var written []string
	pauses := 0
	last := time.Now()
	for i := range 1000 {
		p := filepath.Join(f.src, []string{"alpha", "beta", "gamma"}[i%3], "references", fmt.Sprintf("r%04d.md", i))
		write(t, p, fmt.Sprintf("reference %d", i))
		written = append(written, p)
		now := time.Now()
		if now.Sub(last) >= quiet {
			pauses++
		}
		last = now
	}
	first := f.next()
	rebuilds := append([]rebuild{first}, f.settled()...)
	if len(rebuilds) > 1+pauses {
		t.Errorf("%d rebuilds for a burst with %d pauses of %s", len(rebuilds), pauses, quiet)
	}
	told := map[string]bool{}
	for _, r := range rebuilds {
		for _, p := range r.changed {
			told[p] = true
		}
	}
	for _, p := range written {
		// The file, or a folder made for it.
		if !told[p] && !told[filepath.Dir(p)] {
			t.Fatalf("no rebuild was told of %s", p)
		}
	}
	if _, body := f.page("/skills/beta/"); !strings.Contains(body, "r0001.md") {
		t.Errorf("the skill page lists no new reference")
	}
}

// TestNewFolderWatched: folders made after serve started are watched, at
// any depth: a skill added in a new folder appears, and an edit to it
// shows.
func TestNewFolderWatched(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{})
	late := filepath.Join(f.src, "later", "delta")
	if err := os.MkdirAll(late, 0o755); err != nil {
		t.Fatal(err)
	}
	f.settled() // the folders are watched once their creation is seen
	write(t, filepath.Join(late, "SKILL.md"), "---\nname: delta\ndescription: A skill made after serve started.\n---\n# Delta\n\nFirst words.\n")
	f.settled()
	if code, body := f.page("/skills/delta/"); code != http.StatusOK || !strings.Contains(body, "First words.") {
		t.Fatalf("new skill: %d %q", code, body)
	}
	write(t, filepath.Join(late, "SKILL.md"), "---\nname: delta\ndescription: A skill made after serve started.\n---\n# Delta\n\nEdited words.\n")
	f.settled()
	if _, body := f.page("/skills/delta/"); !strings.Contains(body, "Edited words.") {
		t.Errorf("edit in a new folder: %q", body)
	}
	// A folder renamed is watched under its new name.
	moved := filepath.Join(f.src, "moved")
	if err := os.Rename(filepath.Join(f.src, "later"), moved); err != nil {
		t.Fatal(err)
	}
	f.settled()
	write(t, filepath.Join(moved, "delta", "SKILL.md"), "---\nname: delta\ndescription: A skill made after serve started.\n---\n# Delta\n\nMoved words.\n")
	f.settled()
	if _, body := f.page("/skills/delta/"); !strings.Contains(body, "Moved words.") {
		t.Errorf("edit in a renamed folder: %q", body)
	}
}

// TestDeletedSkillDisappears: a skill folder removed is gone from the
// site after the rebuild.
func TestDeletedSkillDisappears(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{})
	if code, _ := f.page("/skills/gamma/"); code != http.StatusOK {
		t.Fatalf("gamma: %d before its removal", code)
	}
	gamma := filepath.Join(f.src, "gamma")
	if err := os.RemoveAll(gamma); err != nil {
		t.Fatal(err)
	}
	// Told of it: the site does not depend on the rebuild reading again
	// files it knows (a file less than settle old is always read again).
	told := false
	for _, r := range f.settled() {
		told = told || slices.ContainsFunc(r.changed, func(p string) bool { return p == gamma || strings.HasPrefix(p, gamma+string(filepath.Separator)) })
	}
	if !told {
		t.Errorf("no rebuild was told of %s", gamma)
	}
	if code, _ := f.page("/skills/gamma/"); code != http.StatusNotFound {
		t.Errorf("gamma: %d after its removal, want 404", code)
	}
	if _, body := f.page("/skills/beta/"); !strings.Contains(body, "The second skill") {
		t.Errorf("beta lost with gamma: %q", body)
	}
}

// TestSourceBack: a source folder moved away (a failed rebuild: the
// source is gone) and back, as a git checkout or a sync tool does, is
// rebuilt when it is back, and watched again: a later edit shows.
func TestSourceBack(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{})
	away := filepath.Join(t.TempDir(), "away")
	if err := os.Rename(f.src, away); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-f.rebuilds:
		if r.err == nil {
			t.Fatal("a rebuild without its source did not fail")
		}
	case <-time.After(timeout):
		t.Fatal("no rebuild once the source went")
	}
	if err := os.Rename(away, f.src); err != nil {
		t.Fatal(err)
	}
	f.next()
	write(t, filepath.Join(f.src, "alpha", "SKILL.md"), "---\nname: alpha\ndescription: The first skill of the catalog.\n---\n# Alpha\n\nWords written after the source came back.\n")
	f.settled()
	if _, body := f.page("/skills/alpha/"); !strings.Contains(body, "Words written after the source came back.") {
		t.Errorf("an edit after the source came back: %q", body)
	}
}

// TestOutputWritesNoRebuild: a site written inside the sources (serve -o
// public), by the first build, the rebuilds or anyone, and the build
// folder beside it, make no rebuild.
func TestOutputWritesNoRebuild(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{output: "public"})
	if more := f.settled(); len(more) > 0 {
		t.Fatalf("the first build's writes made %d rebuilds: %v", len(more), more)
	}
	write(t, filepath.Join(f.src, "public", "extra", "x.html"), "x")
	os.MkdirAll(filepath.Join(f.src, ".public.skilldex-0123"), 0o755)
	if more := f.settled(); len(more) > 0 {
		t.Errorf("writes to the output folder made %d rebuilds: %v", len(more), more)
	}
}

// TestPoll: with Poll set, edits are found by polling, and the rebuild is
// told nothing of what changed (it walks everything).
func TestPoll(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{poll: 20 * time.Millisecond})
	write(t, filepath.Join(f.src, "beta", "SKILL.md"), "---\nname: beta\ndescription: The second skill of the catalog.\n---\n# Beta\n\nPolled words.\n")
	if r := f.next(); r.changed != nil {
		t.Errorf("a poll told the rebuild %q", r.changed)
	}
	if _, body := f.page("/skills/beta/"); !strings.Contains(body, "Polled words.") {
		t.Errorf("after a poll: %q", body)
	}
}

// TestReloadEvent: a rebuild sends open pages a reload event; a failed
// one keeps the old site and sends none.
func TestReloadEvent(t *testing.T) {
	f := startFixture(t, watchCatalog, fixtureOptions{})
	res, err := http.Get(f.http.URL + Prefix + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if e, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				events <- e
			}
		}
	}()
	for deadline := time.Now().Add(timeout); f.srv.Clients() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the page did not connect")
		}
	}
	write(t, filepath.Join(f.src, "beta", "SKILL.md"), "---\nname: beta\ndescription: The second skill, edited.\n---\n# Beta\n")
	f.next()
	select {
	case e := <-events:
		if e != "reload" {
			t.Errorf("event %q", e)
		}
	case <-time.After(timeout):
		t.Fatal("no reload event after a rebuild")
	}
	// A failed rebuild keeps the site and sends no event; the next one
	// walks everything, since what the failed one was told is lost.
	f.fail.Store(true)
	write(t, filepath.Join(f.src, "beta", "SKILL.md"), "---\nname: beta\ndescription: The second skill, edited twice.\n---\n# Beta\n")
	if r := <-f.rebuilds; r.err == nil {
		t.Fatal("the rebuild did not fail")
	}
	f.fail.Store(false)
	if _, body := f.page("/skills/beta/"); !strings.Contains(body, "edited.") {
		t.Errorf("site after a failed rebuild: %q", body)
	}
	write(t, filepath.Join(f.src, "gamma", "SKILL.md"), "---\nname: gamma\ndescription: The third skill, edited.\n---\n# Gamma\n")
	if r := f.next(); r.changed != nil {
		t.Errorf("the rebuild after a failed one was told only %q", r.changed)
	}
	select {
	case e := <-events: // the next rebuild's
		if e != "reload" {
			t.Errorf("event %q", e)
		}
	case <-time.After(timeout):
		t.Fatal("no reload event after the settling rebuild")
	}
	select {
	case e := <-events:
		t.Errorf("a second event %q: the failed rebuild sent one", e)
	default:
	}
	if _, body := f.page("/skills/beta/"); !strings.Contains(body, "edited twice.") {
		t.Errorf("the rebuild after a failed one missed its change: %q", body)
	}
}
