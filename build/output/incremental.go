package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skilldex/skilldex/internal/fsstamp"
)

// A Manifest describes a committed site: every file's SHA-256, and the key
// of every group of files (see Writer.Group). Passed to the next build of
// the same folder as Options.Previous, it makes that build incremental.
type Manifest struct {
	dest   string
	marker markerStamp
	files  map[string]*entry
	groups map[string]*groupEntry
}

// markerStamp identifies the marker file a commit left (a new file each
// commit), so that a manifest is trusted only for the very folder it
// describes.
type markerStamp = fsstamp.Stamp

func stampOf(dest string) (markerStamp, bool) {
	st, err := os.Stat(filepath.Join(dest, Marker))
	if err != nil {
		return markerStamp{}, false
	}
	return fsstamp.Of(st), true
}

// validFor returns m if it still describes the site at dest, else nil.
func (m *Manifest) validFor(dest string) *Manifest {
	if m == nil || m.dest != dest {
		return nil
	}
	if st, ok := stampOf(dest); !ok || st != m.marker {
		return nil
	}
	return m
}

// Files returns how many files the site has.
func (m *Manifest) Files() int { return len(m.files) }

// unchanged returns the entry of p when the site has p with this hash,
// else nil.
func (m *Manifest) unchanged(p string, hash [32]byte) *entry {
	if m == nil {
		return nil
	}
	if e, ok := m.files[p]; ok && e.hashed && !e.reserved && e.hash == hash {
		return e
	}
	return nil
}

// groupEntry is a group's key and the files it wrote; a group without a
// key has none (nil).
type groupEntry struct {
	key   string
	files []string
	// sorted: files are in order, as a group kept from the previous
	// build has them.
	sorted bool
}

// A Group is a set of files that depend only on a key the writer computes,
// such as a skill's pages, which depend on the skill's files, the site's
// settings and the templates. In an incremental build a group whose key is
// the same as in the previous build keeps its files without being rendered
// again.
type Group struct {
	w    *Writer
	name string
	ge   *groupEntry
}

// Group starts the group name with key ("" means unknown: never reused).
// When reused is true the previous
// build's files of the group are kept and the caller should write nothing;
// otherwise it writes the group's files through g.
func (w *Writer) Group(name, key string) (g *Group, reused bool, err error) {
	g = &Group{w: w, name: name}
	if key != "" {
		// A group without a key is never reused: the manifest need not
		// know its files.
		g.ge = &groupEntry{key: key}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, dup := w.groups[name]; dup {
		return nil, false, fmt.Errorf("output: group %s started twice", name)
	}
	w.groups[name] = g.ge
	if w.prev == nil || key == "" {
		return g, false, nil
	}
	old := w.prev.groups[name]
	if old == nil || old.key != key {
		return g, false, nil
	}
	for _, p := range old.files {
		if _, dup := w.files[p]; dup {
			return nil, false, fmt.Errorf("output: %s written twice", p)
		}
	}
	for _, p := range old.files {
		w.files[p] = w.prev.files[p]
	}
	w.fromPrev += len(old.files)
	w.kept += len(old.files)
	g.ge.files, g.ge.sorted = old.files, true
	return g, true, nil
}

func (g *Group) add(p string) {
	if g.ge == nil {
		return
	}
	g.w.mu.Lock()
	g.ge.files = append(g.ge.files, p)
	g.w.mu.Unlock()
}

// WriteFile writes data to p, minified as Writer.WriteFile does, as part of
// the group.
func (g *Group) WriteFile(p string, data []byte) error {
	data, err := g.w.minify(p, data)
	if err != nil {
		return err
	}
	return g.WriteRaw(p, data)
}

// WriteRaw writes data to p as given, as part of the group.
func (g *Group) WriteRaw(p string, data []byte) error {
	key, err := g.w.writeRaw(p, data)
	if err != nil {
		return err
	}
	g.add(key)
	return nil
}

// Create opens p for streaming, as part of the group.
func (g *Group) Create(p string) (io.WriteCloser, error) {
	key, f, err := g.w.create(p)
	if err == nil {
		g.add(key)
	}
	return f, err
}

// Incremental reports whether this build updates a previous one: Options
// gave a manifest that still describes the destination.
func (w *Writer) Incremental() bool { return w.prev != nil }

// PreviousFile returns the file that holds site path p as the previous
// build committed it, and that file's SHA-256, in an incremental build
// until Commit: a writer may copy from what it wrote last time instead of
// producing it again. ok is false when there is no such file.
func (w *Writer) PreviousFile(p string) (name string, digest [32]byte, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.prev == nil || w.done {
		return "", digest, false
	}
	e, found := w.prev.files[p]
	if !found || !e.hashed || e.reserved {
		return "", digest, false
	}
	return filepath.Join(w.dest, filepath.FromSlash(p)), e.hash, true
}

// Manifest returns the manifest of the committed site, for the next build's
// Options.Previous; nil before a successful Commit.
func (w *Writer) Manifest() *Manifest {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.manifest
}

// Stats returns how many files this build wrote and how many it kept from
// the previous one.
func (w *Writer) Stats() (written, kept int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files) - w.kept, w.kept
}

func (w *Writer) recordManifest() {
	st, ok := stampOf(w.dest)
	if !ok {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ge := range w.groups {
		if ge == nil || ge.sorted {
			continue
		}
		sort.Strings(ge.files)
		ge.sorted = true
	}
	w.manifest = &Manifest{dest: w.dest, marker: st, files: w.files, groups: w.groups}
}

// commitIncremental moves the files this build wrote into dest, removes
// the files the previous site had and this one has not, and replaces
// reserved folders whole. Unchanged files are never touched. The marker is
// rewritten last, so a manifest describes dest only after a complete
// commit.
func (w *Writer) commitIncremental() error {
	fail := func(err error) error {
		os.RemoveAll(w.tmp)
		return fmt.Errorf("updating the site at %s: %w", w.dest, err)
	}
	// Anything that fails from here leaves dest partly updated; without a
	// fresh marker the next build of it is a full one.
	paths := w.fresh
	sort.Strings(paths)
	var reserved []string
	for _, p := range paths {
		e := w.files[p]
		if e.reserved {
			reserved = append(reserved, p)
			continue
		}
		old, existed := w.prev.files[p]
		if existed && !old.reserved && e.hashed && old.hashed && old.hash == e.hash {
			continue // a streamed file that came out the same
		}
		dst := filepath.Join(w.dest, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fail(err)
		}
		if existed {
			// The old file goes first: on ext4 a rename over a file
			// flushes the new one to disk before it returns
			// (auto_da_alloc), which made renames most of a rebuild's
			// commit. A reader may miss the file between the two calls.
			remove := os.Remove
			if old.reserved {
				remove = os.RemoveAll
			}
			if err := remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fail(err)
			}
		}
		if err := os.Rename(filepath.Join(w.tmp, filepath.FromSlash(p)), dst); err != nil {
			return fail(err)
		}
	}
	for _, p := range reserved {
		dst := filepath.Join(w.dest, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fail(err)
		}
		if err := swap(filepath.Join(w.tmp, filepath.FromSlash(p)), dst); err != nil {
			return fail(err)
		}
	}
	var gone []string
	if w.fromPrev < len(w.prev.files) {
		for p := range w.prev.files {
			if _, ok := w.files[p]; !ok {
				gone = append(gone, p)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(gone)))
	for _, p := range gone {
		dst := filepath.Join(w.dest, filepath.FromSlash(p))
		if err := os.RemoveAll(dst); err != nil {
			return fail(err)
		}
		removeEmptyParents(w.dest, path.Dir(p))
	}
	os.RemoveAll(w.tmp)
	// A new marker file (a new inode) says the commit completed.
	tmpMarker := filepath.Join(w.dest, Marker+".new")
	if err := os.WriteFile(tmpMarker, []byte(markerContent), 0o644); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmpMarker, filepath.Join(w.dest, Marker)); err != nil {
		return fail(err)
	}
	w.recordManifest()
	return nil
}

// removeEmptyParents removes dir and its parents, up to root, while empty.
func removeEmptyParents(root, dir string) {
	for dir != "." && dir != "/" && !strings.HasPrefix(dir, "..") {
		if os.Remove(filepath.Join(root, filepath.FromSlash(dir))) != nil {
			return // not empty, or gone
		}
		dir = path.Dir(dir)
	}
}
