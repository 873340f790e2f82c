package fswatch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/source"
)

// TestDebounceBurst: changes that come closer together than the quiet
// window, within MaxDelay of the first, make one batch, due a quiet window
// after the last; a stream that never pauses is cut every MaxDelay.
func TestDebounceBurst(t *testing.T) {
	d := debouncer{quiet: 50 * time.Millisecond, max: time.Second}
	t0 := time.Unix(1e9, 0)
	for i := range 1000 {
		now := t0.Add(time.Duration(i) * 200 * time.Microsecond)
		if d.ready(now) {
			t.Fatalf("a batch due in the middle of the burst, at change %d", i)
		}
		d.add(fmt.Sprintf("/src/s%d/SKILL.md", i%300), false, now)
	}
	last := t0.Add(999 * 200 * time.Microsecond)
	if d.ready(last.Add(49 * time.Millisecond)) {
		t.Error("due before the quiet window ended")
	}
	if !d.ready(last.Add(50 * time.Millisecond)) {
		t.Fatal("not due once the quiet window ended")
	}
	if b := d.take(); b.All || len(b.Paths) != 300 {
		t.Errorf("batch of %d paths (All %v), want the 300 changed", len(b.Paths), b.All)
	}
	if _, ok := d.due(); ok {
		t.Error("a batch left after take")
	}

	// A change every 10 ms for 3 s: a batch every second.
	batches := 0
	for i := range 300 {
		now := t0.Add(time.Duration(i) * 10 * time.Millisecond)
		if d.ready(now) {
			d.take()
			batches++
		}
		d.add("/src/a/SKILL.md", false, now)
	}
	if batches != 2 {
		t.Errorf("%d batches in 3 s of changes, want 2 cut by MaxDelay before the last", batches)
	}

	d.take()
	d.add("/src/a", false, t0)
	d.add("", true, t0)
	d.add("/src/b", false, t0)
	if b := d.take(); !b.All || b.Paths != nil {
		t.Errorf("after an overflow: %+v, want All", b)
	}
}

// TestRenamedFolderRewatched: a folder renamed is watched under its new
// name only, and its subfolders with it; a folder removed is no longer
// watched.
func TestRenamedFolderRewatched(t *testing.T) {
	src, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(src, "a", "sub"), 0o755)
	os.MkdirAll(filepath.Join(src, "node_modules", "x"), 0o755)
	w, err := Start(Options{Roots: []string{src}, Quiet: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wait := func(want string) { waitFor(t, w, want) }
	watched := func() []string { return watchList(w, src) }
	if got := watched(); !slices.Equal(got, []string{".", "a", "a/sub"}) {
		t.Errorf("watching %q at the start", got)
	}
	os.Rename(filepath.Join(src, "a"), filepath.Join(src, "b"))
	wait(filepath.Join(src, "b"))
	p := filepath.Join(src, "b", "sub", "x.md")
	os.WriteFile(p, []byte("x"), 0o644)
	wait(p)
	if got := watched(); !slices.Equal(got, []string{".", "b", "b/sub"}) {
		t.Errorf("watching %q after a rename", got)
	}
	os.RemoveAll(filepath.Join(src, "b"))
	wait(filepath.Join(src, "b"))
	if got := watched(); !slices.Equal(got, []string{"."}) {
		t.Errorf("watching %q after a removal", got)
	}
}

// waitFor waits for a batch of w with the path want.
func waitFor(t *testing.T, w *Watcher, want string) {
	t.Helper()
	for {
		select {
		case <-w.Ready():
		case <-time.After(20 * time.Second):
			t.Fatalf("no batch with %s", want)
		}
		if b := w.Take(); slices.Contains(b.Paths, want) {
			return
		}
	}
}

// watchList is what w watches, relative to dir, sorted. The watch list
// belongs to the watcher's goroutine; it is read after a batch, when
// that goroutine waits for events.
func watchList(w *Watcher, dir string) []string {
	var out []string
	for _, p := range w.notifier.fsw.WatchList() {
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out
}

// TestRootBack: a root that goes (removed, moved away, its parent
// removed) and comes back is watched again, as a git checkout or a sync
// tool makes it: its return is a change, and so is an edit inside it
// afterwards. Nothing above it stays watched once it is back.
func TestRootBack(t *testing.T) {
	mkdir := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	move := func(from, to string) {
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		gone func(root, away string)
		back func(root, away string)
		// settle waits for the root's going to be seen before it comes
		// back; else it comes back at once.
		settle bool
	}{
		{"removed", func(root, _ string) { os.RemoveAll(root) }, func(root, _ string) { mkdir(filepath.Join(root, "alpha")) }, true},
		{"moved away and back", func(root, away string) { move(root, away) }, func(root, away string) { move(away, root) }, true},
		{"moved away and back at once", func(root, away string) { move(root, away) }, func(root, away string) { move(away, root) }, false},
		{"parent removed", func(root, _ string) { os.RemoveAll(filepath.Dir(root)) }, func(root, _ string) { mkdir(filepath.Join(root, "alpha")) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(src, "catalog", "skills")
			away := filepath.Join(src, "away")
			mkdir(filepath.Join(root, "alpha"))
			w, err := Start(Options{Roots: []string{root}, Quiet: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			c.gone(root, away)
			if c.settle {
				waitFor(t, w, root)
			}
			c.back(root, away)
			waitFor(t, w, root)
			p := filepath.Join(root, "alpha", "SKILL.md")
			if err := os.WriteFile(p, []byte("edited"), 0o644); err != nil {
				t.Fatal(err)
			}
			waitFor(t, w, p)
			if got := watchList(w, root); !slices.Equal(got, []string{".", "alpha"}) {
				t.Errorf("watching %q once the root is back", got)
			}
		})
	}
}

// TestLimitError: the system's limits on watches say what to do.
func TestLimitError(t *testing.T) {
	for _, errno := range []error{syscall.ENOSPC, syscall.EMFILE} {
		msg := limitError(fmt.Errorf("add /src: %w", errno)).Error()
		if !strings.Contains(msg, "sysctl fs.inotify.max_user_") || !strings.Contains(msg, "--poll") {
			t.Errorf("%v: %q says not what to do", errno, msg)
		}
	}
	other := os.ErrPermission
	if limitError(other) != other {
		t.Error("another error was rewritten")
	}
}

// TestFingerprintSkips: polling sees edits, and not what discovery skips.
func TestFingerprintSkips(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(s), 0o644)
	}
	write(filepath.Join(dir, "a", "SKILL.md"), "x")
	skip := source.NewSkipper(source.Options{Exclude: []string{filepath.Join(dir, "out")}})
	f0 := Fingerprint([]string{dir}, skip)
	write(filepath.Join(dir, ".git", "HEAD"), "ref")
	write(filepath.Join(dir, "out", "index.html"), "x")
	write(filepath.Join(dir, ".out.skilldex-01", "index.html"), "x")
	write(filepath.Join(dir, "public", ".skilldex-site"), "")
	write(filepath.Join(dir, "public", "index.html"), "x")
	write(filepath.Join(dir, "a", ".SKILL.md.swp"), "vim")
	if Fingerprint([]string{dir}, skip) != f0 {
		t.Error("a skipped folder or an editor's swap file changes the fingerprint")
	}
	os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	if Fingerprint([]string{dir}, skip) == f0 {
		t.Error("a rename does not change the fingerprint")
	}
}

// TestJunkIsNoChange: an editor's swap file, which Vim writes every few
// seconds while one types, is no change: no skill holds it (IsJunk), and
// a rebuild for it would reload the pages being read.
func TestJunkIsNoChange(t *testing.T) {
	src, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(src, "a"), 0o755)
	w, err := Start(Options{Roots: []string{src}, Quiet: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	swap, edit := filepath.Join(src, "a", ".SKILL.md.swp"), filepath.Join(src, "a", "SKILL.md")
	os.WriteFile(swap, []byte("vim"), 0o644)
	os.WriteFile(edit, []byte("x"), 0o644)
	for {
		select {
		case <-w.Ready():
		case <-time.After(20 * time.Second):
			t.Fatalf("no batch with %s", edit)
		}
		b := w.Take()
		if slices.Contains(b.Paths, swap) {
			t.Errorf("a batch holds the swap file: %q", b.Paths)
		}
		if slices.Contains(b.Paths, edit) {
			return
		}
	}
}

// TestFileRootFolderBack: when the folder holding a root that is a file
// goes, with a folder root beside it, and comes back, both are watched
// again: the folder root's return and an edit of the file root are
// changes, and nothing above them stays watched.
func TestFileRootFolderBack(t *testing.T) {
	src, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(src, "x")
	root, doc := filepath.Join(x, "skills"), filepath.Join(x, "doc.uasp.yaml")
	os.MkdirAll(filepath.Join(root, "alpha"), 0o755)
	os.WriteFile(doc, []byte("meta: {}"), 0o644)
	w, err := Start(Options{Roots: []string{root, doc}, Quiet: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	os.RemoveAll(x)
	waitFor(t, w, root)
	os.MkdirAll(filepath.Join(root, "alpha"), 0o755)
	waitFor(t, w, root)
	os.WriteFile(doc, []byte("meta: {name: doc}"), 0o644)
	waitFor(t, w, doc)
	p := filepath.Join(root, "alpha", "SKILL.md")
	os.WriteFile(p, []byte("edited"), 0o644)
	waitFor(t, w, p)
	if got := watchList(w, src); !slices.Equal(got, []string{"x", "x/skills", "x/skills/alpha"}) {
		t.Errorf("watching %q once the folder is back", got)
	}
}

// TestJunkNamedFolderIsAChange: a folder whose name an editor's file
// could have (old~) is a folder of the sources like any other: moving
// one in or out is a change.
func TestJunkNamedFolderIsAChange(t *testing.T) {
	src, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(src, "skills")
	os.MkdirAll(root, 0o755)
	os.MkdirAll(filepath.Join(src, "old~", "alpha"), 0o755)
	w, err := Start(Options{Roots: []string{root}, Quiet: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	in := filepath.Join(root, "old~")
	os.Rename(filepath.Join(src, "old~"), in)
	waitFor(t, w, in)
	os.Rename(in, filepath.Join(src, "old~"))
	waitFor(t, w, in)
}

// TestFileRootFolderMovedAway: when the folder of a root that is a file is
// moved away, the file root has changed (it is gone).
func TestFileRootFolderMovedAway(t *testing.T) {
	src, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(src, "x")
	doc := filepath.Join(x, "doc.uasp.yaml")
	os.MkdirAll(x, 0o755)
	os.WriteFile(doc, []byte("meta: {}"), 0o644)
	w, err := Start(Options{Roots: []string{doc}, Quiet: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	os.Rename(x, filepath.Join(src, "away"))
	waitFor(t, w, doc)
}
