// Package fswatch tells which files changed under a set of source roots,
// in batches: the events of an editor's save, a git checkout or a
// formatter's run arrive as one batch, not one per file. It watches the
// roots' folders with the system's notifications (inotify, kqueue, ...)
// through fsnotify, which watches one folder at a time: folders are added
// as they appear and dropped as they go, and the folders discovery skips
// are never watched. A root that goes (a git checkout, a sync tool, a
// folder moved away and back) is awaited in the nearest folder above it
// that exists, and watched again when it is back. Where notifications
// cannot be had (a file system that sends none, a limit on watches
// reached) it polls instead.
package fswatch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/skilldex/skilldex/build/source"
)

// Defaults of Options.
const (
	// DefaultQuiet is how long the sources must stay still before a batch
	// is sent: long enough to hold an editor's temporary file and rename,
	// short next to a rebuild.
	DefaultQuiet = 50 * time.Millisecond
	// DefaultMaxDelay bounds how long a batch waits under a stream of
	// changes that never pauses: a rebuild every second while a formatter
	// runs, not none until it stops.
	DefaultMaxDelay = time.Second
	// DefaultPoll is the interval of polling, when polling.
	DefaultPoll = 300 * time.Millisecond
)

// Options configure a Watcher.
type Options struct {
	// Roots are the folders and files to watch, as given to discovery.
	Roots []string
	// Skip says which folders are left out, as discovery leaves them out.
	Skip source.Skipper
	// Poll, when positive, polls the roots at that interval instead of
	// asking the system for notifications.
	Poll time.Duration
	// Quiet and MaxDelay time the batches (DefaultQuiet, DefaultMaxDelay
	// when zero): a batch is sent once no change came for Quiet, or
	// MaxDelay after its first change.
	Quiet, MaxDelay time.Duration
	// Log receives notices: a fallback to polling, and why.
	Log func(format string, args ...any)
}

// A Batch is what changed since the previous one.
type Batch struct {
	// Paths are the real paths of the files and folders created,
	// written, removed or renamed (a folder stands for everything under
	// it), sorted. Nil when All.
	Paths []string
	// All is set when what changed is not known (a poll, an overflow of
	// the system's queue of events): everything may have.
	All bool
}

func (b *Batch) empty() bool { return !b.All && len(b.Paths) == 0 }

// A Watcher reports the changes under its roots from the moment Start
// returns.
type Watcher struct {
	opt   Options
	ready chan struct{} // holds a token while a batch waits
	done  chan struct{}
	wg    sync.WaitGroup

	// notifier is nil when polling.
	notifier *notifier

	mu      sync.Mutex
	waiting Batch
	seen    map[string]bool // of waiting.Paths
}

// Start starts watching. It fails only when no root can be read; a watch
// the system refuses makes it poll, with a notice on Log.
func Start(opt Options) (*Watcher, error) {
	if opt.Quiet <= 0 {
		opt.Quiet = DefaultQuiet
	}
	if opt.MaxDelay <= 0 {
		opt.MaxDelay = DefaultMaxDelay
	}
	w := &Watcher{opt: opt, ready: make(chan struct{}, 1), done: make(chan struct{}), seen: map[string]bool{}}
	if opt.Poll > 0 {
		w.poll(opt.Poll)
		return w, nil
	}
	n, err := w.notify()
	if err != nil {
		w.logf("%v; polling every %s instead", err, DefaultPoll)
		w.poll(DefaultPoll)
		return w, nil
	}
	w.notifier = n
	w.wg.Go(n.run)
	return w, nil
}

// Ready receives a value when a batch waits to be taken.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Take returns what changed since the last Take: a batch, or an empty one
// when nothing did.
func (w *Watcher) Take() Batch {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.waiting
	w.waiting = Batch{}
	clear(w.seen)
	sort.Strings(b.Paths)
	return b
}

// Close stops watching.
func (w *Watcher) Close() {
	close(w.done)
	w.wg.Wait()
}

// send adds b to the batch waiting to be taken.
func (w *Watcher) send(b Batch) {
	if b.empty() {
		return
	}
	w.mu.Lock()
	if b.All || w.waiting.All {
		w.waiting = Batch{All: true}
	} else {
		for _, p := range b.Paths {
			if !w.seen[p] {
				w.seen[p] = true
				w.waiting.Paths = append(w.waiting.Paths, p)
			}
		}
	}
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default: // a batch waits already
	}
}

func (w *Watcher) logf(format string, args ...any) {
	if w.opt.Log != nil {
		w.opt.Log(format, args...)
	}
}

// poll checks the roots every interval, and sends a batch of All when
// they changed.
func (w *Watcher) poll(interval time.Duration) {
	last := Fingerprint(w.opt.Roots, w.opt.Skip)
	w.wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
			}
			if now := Fingerprint(w.opt.Roots, w.opt.Skip); now != last {
				last = now
				w.send(Batch{All: true})
			}
		}
	})
}

// notifier watches the roots with fsnotify.
type notifier struct {
	w   *Watcher
	fsw *fsnotify.Watcher
	// dirs are the folders watched, by real path; files the roots that
	// are files, watched through their folder (in parents).
	dirs    map[string]bool
	files   map[string]bool
	parents map[string]bool
	// roots are the real paths of the folders watched whole; fileDirs
	// the folders of the roots that are files (parents when watched).
	roots    []string
	fileDirs []string
	// lookouts are the folders where a root that went is awaited: the
	// nearest above it that exists. The value says whether the watch is
	// the lookout's own, to be removed with it, or one of dirs or
	// parents.
	lookouts map[string]bool
}

// notify starts watching the roots with the system's notifications.
func (w *Watcher) notify() (*notifier, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, limitError(err)
	}
	n := &notifier{w: w, fsw: fsw, dirs: map[string]bool{}, files: map[string]bool{}, parents: map[string]bool{}, lookouts: map[string]bool{}}
	for _, root := range w.opt.Roots {
		real, err := realPath(root)
		if err != nil {
			continue // discovery says what is wrong with it
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		if !st.IsDir() && !isSkillFile(real) {
			n.files[real] = true
			if !n.parents[filepath.Dir(real)] {
				n.fileDirs = append(n.fileDirs, filepath.Dir(real))
				n.parents[filepath.Dir(real)] = true
				if err := fsw.Add(filepath.Dir(real)); err != nil {
					fsw.Close()
					return nil, limitError(err)
				}
			}
			continue
		}
		if !st.IsDir() {
			real = filepath.Dir(real) // a SKILL.md stands for its folder
		}
		n.roots = append(n.roots, real)
		if err := n.addTree(real); err != nil {
			fsw.Close()
			return nil, err
		}
	}
	return n, nil
}

// isDir reports whether p is a folder (not followed if a link).
func isDir(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}

// realPath is p with symbolic links resolved, absolute: events name the
// paths watched, and discovery and the Skipper compare real paths.
func realPath(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

func isSkillFile(p string) bool {
	b := filepath.Base(p)
	return b == "SKILL.md" || b == "skill.md"
}

// addTree watches the folder dir and the folders under it that discovery
// searches. It fails only on a limit of the system.
func (n *notifier) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil // gone already, or a file
		}
		if !n.isRoot(p) && n.w.opt.Skip.Folder(p) != "" {
			return filepath.SkipDir
		}
		if n.dirs[p] {
			return nil
		}
		if err := n.fsw.Add(p); err != nil {
			if lerr := limitError(err); lerr != err {
				return lerr
			}
			return nil // removed since it was listed
		}
		n.dirs[p] = true
		return nil
	})
}

func (n *notifier) isRoot(p string) bool {
	for _, r := range n.roots {
		if r == p {
			return true
		}
	}
	return false
}

// dropTree stops watching dir and the folders under it, lookouts
// included: reconcile finds where to wait instead.
func (n *notifier) dropTree(dir string) {
	for p := range n.dirs {
		if within(p, dir) {
			n.fsw.Remove(p) // an error: the system dropped it already
			delete(n.dirs, p)
		}
	}
	for p, own := range n.lookouts {
		if within(p, dir) {
			if own {
				n.fsw.Remove(p)
			}
			delete(n.lookouts, p)
		}
	}
	for p := range n.parents {
		if within(p, dir) {
			n.fsw.Remove(p)
			delete(n.parents, p)
		}
	}
}

// within reports whether p is dir or under it.
func within(p, dir string) bool {
	return p == dir || len(p) > len(dir) && p[:len(dir)] == dir && p[len(dir)] == filepath.Separator
}

// reconcile watches again the roots that are back, and the folders of
// file roots, adding what they hold to d as changed, and awaits each one
// still gone in the nearest folder above it that exists. It fails only
// on a limit of the system.
func (n *notifier) reconcile(d *debouncer) error {
	want := map[string]bool{}
	for _, r := range n.roots {
		if n.dirs[r] {
			continue
		}
		back, err := n.awaitOrWatch(r, want, func() (bool, error) {
			err := n.addTree(r)
			return n.dirs[r], err
		})
		if err != nil {
			return err
		}
		if back {
			d.add(r, false, time.Now())
		}
	}
	for _, dir := range n.fileDirs {
		if n.parents[dir] {
			continue
		}
		back, err := n.awaitOrWatch(dir, want, func() (bool, error) {
			err := n.fsw.Add(dir)
			if lerr := limitError(err); lerr != err {
				return false, lerr
			}
			n.parents[dir] = err == nil // else gone again: awaited
			return n.parents[dir], nil
		})
		if err != nil {
			return err
		}
		if back {
			n.filesChanged(dir, d)
		}
	}
	for p, own := range n.lookouts {
		if !want[p] {
			if own && !n.dirs[p] && !n.parents[p] {
				n.fsw.Remove(p)
			}
			delete(n.lookouts, p)
		}
	}
	return nil
}

// awaitOrWatch handles dir, a root or the folder of a file root that
// went: it is awaited first, then looked for, so that one back in between
// is seen by the one or the other. When it is there, watch watches it
// again and says whether that took; when it is not, the folder it is
// awaited in goes into want. It reports whether dir is watched again.
func (n *notifier) awaitOrWatch(dir string, want map[string]bool, watch func() (bool, error)) (bool, error) {
	at, err := n.await(dir)
	if err != nil {
		return false, err
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		back, err := watch()
		if err != nil || back {
			return back, err
		}
	}
	if at != "" {
		want[at] = true
	}
	return false, nil
}

// filesChanged adds to d the file roots in dir.
func (n *notifier) filesChanged(dir string, d *debouncer) {
	for f := range n.files {
		if filepath.Dir(f) == dir {
			d.add(f, false, time.Now())
		}
	}
}

// await makes the nearest folder above root that exists a lookout, and
// returns it; "" when no folder above it exists.
func (n *notifier) await(root string) (string, error) {
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if n.awaits(dir) {
			return dir, nil
		}
		if n.dirs[dir] || n.parents[dir] {
			n.lookouts[dir] = false
			return dir, nil
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			err := n.fsw.Add(dir)
			if err == nil {
				n.lookouts[dir] = true
				return dir, nil
			}
			if lerr := limitError(err); lerr != err {
				return "", lerr
			}
			// Gone since the Stat, or not to be watched: look higher.
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}

// limitError says what to do about a limit of the system on watches, and
// returns other errors as they are.
func limitError(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("the system allows no more watched folders (fs.inotify.max_user_watches is %s): raise it, for example with sudo sysctl fs.inotify.max_user_watches=524288, or serve with --poll", sysctl("max_user_watches"))
	case errors.Is(err, syscall.EMFILE):
		return fmt.Errorf("the system allows no more watchers (fs.inotify.max_user_instances is %s, or too many open files): raise it, for example with sudo sysctl fs.inotify.max_user_instances=512, or serve with --poll", sysctl("max_user_instances"))
	}
	return err
}

func sysctl(name string) string {
	b, err := os.ReadFile("/proc/sys/fs/inotify/" + name)
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

// run turns events into batches until the watcher is closed.
func (n *notifier) run() {
	defer n.fsw.Close()
	var d debouncer
	d.quiet, d.max = n.w.opt.Quiet, n.w.opt.MaxDelay
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	arm := func() {
		if at, ok := d.due(); ok {
			timer.Reset(time.Until(at))
		}
	}
	for {
		select {
		case <-n.w.done:
			return
		case ev, ok := <-n.fsw.Events:
			if !ok {
				return
			}
			if err := n.event(ev, &d); err != nil {
				n.fallBack(err)
				return
			}
			arm()
		case err, ok := <-n.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: rebuild everything, and watch the
				// folders made meanwhile.
				d.add("", true, time.Now())
				for _, r := range n.roots {
					if err := n.addTree(r); err != nil {
						n.fallBack(err)
						return
					}
				}
				if err := n.reconcile(&d); err != nil {
					n.fallBack(err)
					return
				}
				arm()
				continue
			}
			if lerr := limitError(err); lerr != err {
				n.fallBack(lerr)
				return
			}
			n.w.logf("watching the sources: %v", err)
		case <-timer.C:
			if d.ready(time.Now()) {
				n.w.send(d.take())
			} else {
				arm()
			}
		}
	}
}

// fallBack polls instead of watching, after err.
func (n *notifier) fallBack(err error) {
	n.w.logf("%v; polling every %s instead", err, DefaultPoll)
	n.w.send(Batch{All: true}) // what changed since the last event is not known
	n.w.poll(DefaultPoll)
}

// event handles one event, adding to d what changed. It fails only on a
// limit of the system.
func (n *notifier) event(ev fsnotify.Event, d *debouncer) error {
	p := ev.Name
	if ev.Op == fsnotify.Chmod {
		return nil // a mode, not a content: no rebuild for a touch or an indexer
	}
	parent := filepath.Dir(p)
	removed := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	watched := n.dirs[parent] || n.dirs[p] || n.files[p]
	if removed && n.parents[p] {
		// The folder of a file root went: its files changed, and it is
		// awaited as a root is.
		n.filesChanged(p, d)
		n.dropTree(p)
		return n.reconcile(d)
	}
	// Where a root is awaited, anything may be its return, or a folder on
	// the way to it.
	awaited := n.awaits(parent) || n.awaits(p)
	if !watched && !awaited {
		return nil // a late event of a folder no longer watched, or a file root's sibling
	}
	if watched {
		if err := n.change(ev, d); err != nil {
			return err
		}
	}
	if awaited && removed {
		n.dropTree(p) // a lookout gone: the wait moves up
	}
	if awaited || removed {
		return n.reconcile(d) // a root gone, or back
	}
	return nil
}

// awaits reports whether dir is a lookout.
func (n *notifier) awaits(dir string) bool {
	_, ok := n.lookouts[dir]
	return ok
}

// change handles an event of a watched folder or file, adding to d what
// changed. It fails only on a limit of the system.
func (n *notifier) change(ev fsnotify.Event, d *debouncer) error {
	p, parent := ev.Name, filepath.Dir(ev.Name)
	wasDir := n.dirs[p]
	if n.w.opt.Skip.Path(p) != "" {
		return nil // .git, node_modules, the output folder: discovery never looks there
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		n.dropTree(p) // a folder renamed is watched again under its new name, which a Create brings
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Lstat(p); err == nil && st.IsDir() && n.dirs[parent] {
			if err := n.addTree(p); err != nil {
				return err
			}
		}
		// A file that makes its folder one discovery skips (a site's
		// marker) ends the watch of the folder.
		if n.dirs[parent] && !n.isRoot(parent) && n.w.opt.Skip.Folder(parent) != "" {
			n.dropTree(parent)
		}
	}
	if source.IsJunk(filepath.Base(p)) && !wasDir && !isDir(p) {
		return nil // an editor's swap file, saved every few seconds: no skill holds it
	}
	d.add(p, false, time.Now())
	return nil
}
