// Package output writes a site: every file goes into a hidden folder beside
// the destination, minified by type, and the folder is swapped in only when
// the whole build succeeded. A failed or interrupted build leaves the
// previous site as it was, and skilldex never replaces a non-empty folder
// it did not make.
package output

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/minify/v2/xml"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/arena"
)

// Marker is the file that marks a folder as a site skilldex made. Its
// presence is what allows a later build to replace the folder.
const Marker = siteinfo.Marker

const markerContent = "This folder is a site built by skilldex; skilldex may replace it.\n"

// Options configure a Writer.
type Options struct {
	// Minify minifies HTML, CSS, JavaScript, SVG and XML files.
	Minify bool
	// Previous is the manifest of the site now at dest, from the Writer
	// that committed it (Writer.Manifest). With it, the build is
	// incremental: unchanged files are not written again, groups whose key
	// did not change are not even rendered, and Commit applies only the
	// difference. Without it, or when dest changed since, the new site is
	// written whole and swapped in.
	Previous *Manifest
}

// Writer collects a site's files in a temporary folder. It is safe for
// concurrent use.
type Writer struct {
	dest, tmp string
	opt       Options
	m         *minify.M

	mu    sync.Mutex
	files map[string]*entry
	done  bool

	// dirs holds the folders made under tmp, so that writing a file costs
	// no MkdirAll (a stat per file, at least) when its folder exists.
	dirs sync.Map

	// Incremental builds (see incremental.go): prev is the manifest of the
	// site at dest, or nil for a full build into a fresh folder.
	prev     *Manifest
	groups   map[string]*groupEntry
	fromPrev int      // claimed paths that prev has: all of them, when none is gone
	fresh    []string // claimed paths not kept: what an incremental commit moves into dest
	// paths and entries hold a full build's paths and entries (claim),
	// one of each a file of the site: in blocks, not as objects of
	// their own for every collection to visit.
	paths   arena.Strings
	entries arena.Slab[entry]
	// kept counts the files kept unchanged since prev: their entries are
	// prev's own, shared, not copies (an entry never changes once its
	// build committed).
	kept     int
	manifest *Manifest // set by Commit
}

// entry is one claimed site path.
type entry struct {
	size     int64
	hash     [32]byte
	hashed   bool // hash is known (WriteRaw, or a closed Create)
	reserved bool // a folder filled through Dir()
}

// Open prepares to write the site that will replace dest. It fails when
// dest exists, is not empty, and was not made by skilldex.
func Open(dest string, opt Options) (*Writer, error) {
	dest = filepath.Clean(dest)
	if err := checkReplaceable(dest); err != nil {
		return nil, err
	}
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", parent, err)
	}
	removeStale(dest)
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	tmp := filepath.Join(parent, siteinfo.BuildFolderPrefix(dest)+hex.EncodeToString(rnd[:]))
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the build folder: %w", err)
	}
	w := &Writer{dest: dest, tmp: tmp, opt: opt}
	w.prev = opt.Previous.validFor(dest)
	if w.prev != nil {
		// Sized as the previous site, the maps do not grow while the
		// writers fill them under the lock.
		w.files, w.groups = make(map[string]*entry, len(w.prev.files)), make(map[string]*groupEntry, len(w.prev.groups))
	} else {
		w.files, w.groups = map[string]*entry{}, map[string]*groupEntry{}
	}
	if opt.Minify {
		w.m = newMinifier()
	}
	if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerContent), 0o644); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// removeStale deletes build folders that an interrupted build left behind.
func removeStale(dest string) {
	entries, err := os.ReadDir(filepath.Dir(dest))
	if err != nil {
		return
	}
	prefix := siteinfo.BuildFolderPrefix(dest)
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), prefix) {
			p := filepath.Join(filepath.Dir(dest), e.Name())
			if _, err := os.Stat(filepath.Join(p, Marker)); err == nil {
				os.RemoveAll(p)
			} else {
				// A build killed between making the folder and marking
				// it leaves it empty; Remove deletes only an empty one.
				os.Remove(p)
			}
		}
	}
}

// checkReplaceable allows a missing or empty dest, or one with the marker.
func checkReplaceable(dest string) error {
	st, err := os.Lstat(dest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("refusing to replace %s: it is a file, not a folder; choose another output folder (-o)", dest)
	}
	if _, err := os.Stat(filepath.Join(dest, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dest)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("refusing to replace %s: it is not empty and was not made by skilldex (no %s in it); choose another output folder (-o) or empty it", dest, Marker)
	}
	return nil
}

// htmlMinifier keeps what pages need kept (document tags, end tags,
// quotes, default attribute values): minifying must never change how a
// page parses.
var htmlMinifier = html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true, KeepDefaultAttrVals: true}

func newMinifier() *minify.M {
	m := minify.New()
	m.Add("text/html", &htmlMinifier)
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("application/javascript", js.Minify)
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFunc("application/xml", xml.Minify)
	return m
}

func mediaType(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".html":
		return "text/html"
	case ".css":
		return "text/css"
	case ".js", ".mjs":
		return "application/javascript"
	case ".svg":
		return "image/svg+xml"
	case ".xml":
		return "application/xml"
	}
	return ""
}

// Minifies reports whether the writer minifies what WriteFile writes.
func (w *Writer) Minifies() bool { return w.m != nil }

// MinifyTemplate minifies the source of an html/template file as WriteFile
// minifies a page, leaving its actions ({{...}}) as they are. A site whose
// templates are minified once writes pages minified but for what the
// actions insert, without minifying each page: nearly all the bytes that
// minifying every page saved, at none of its cost a page.
func MinifyTemplate(src []byte) ([]byte, error) {
	m := minify.New()
	tm := htmlMinifier
	tm.TemplateDelims = html.GoTemplateDelims
	m.Add("text/html", &tm)
	return m.Bytes("text/html", src)
}

// Dir returns the folder being written, for writers (such as bleve) that
// create their files themselves under a path reserved with Reserve.
func (w *Writer) Dir() string { return w.tmp }

// claim records site path p as written with entry e, or kept when e is
// the previous build's entry for p (the copy at dest is served, none is
// written to tmp: the name returned is ""). Otherwise it returns the file
// name under tmp to write p to, its folder made. It returns the path and
// the entry as the writer keeps them, which a full build copies into
// blocks (see Writer.paths): callers that keep either use those.
func (w *Writer) claim(p string, e *entry, kept bool) (key string, stored *entry, full string, err error) {
	if !fs.ValidPath(p) || p == "." || strings.Contains(p, "\\") {
		return "", nil, "", fmt.Errorf("output: invalid site path %q", p)
	}
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return "", nil, "", errors.New("output: write after Commit or Abort")
	}
	if _, dup := w.files[p]; dup {
		w.mu.Unlock()
		return "", nil, "", fmt.Errorf("output: %s written twice", p)
	}
	if w.prev == nil {
		// A full build's registry lives until the site is committed
		// (or, in serve, until the files change): in blocks. An
		// incremental one adds few files, whose blocks would outlive
		// them, kept alive by the paths and entries the next builds
		// share.
		p, e = w.paths.String(p), w.entries.New(*e)
	}
	w.files[p] = e
	if w.prev != nil {
		if _, ok := w.prev.files[p]; ok {
			w.fromPrev++
		}
	}
	switch {
	case kept:
		w.kept++
	case w.prev != nil: // a full build moves the whole folder
		w.fresh = append(w.fresh, p)
	}
	w.mu.Unlock()
	if kept {
		return p, e, "", nil
	}
	if err := w.mkdir(path.Dir(p)); err != nil {
		return "", nil, "", err
	}
	return p, e, filepath.Join(w.tmp, filepath.FromSlash(p)), nil
}

// mkdir makes dir, a site path ("." for the root), and its missing
// parents under tmp, remembering each, so that most files need no folder
// system call at all. Writers may race to make the same folder; both
// succeed. The folders are remembered by site path, a part of a file's
// site path, which the writer keeps anyway.
func (w *Writer) mkdir(dir string) error {
	if dir == "." {
		return nil
	}
	if _, ok := w.dirs.Load(dir); ok {
		return nil
	}
	if err := w.mkdir(path.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(w.tmp, filepath.FromSlash(dir)), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	w.dirs.Store(dir, struct{}{})
	return nil
}

// WriteFile writes data to the site path p, minifying it when its type
// allows and Options.Minify is set.
func (w *Writer) WriteFile(p string, data []byte) error {
	data, err := w.minify(p, data)
	if err != nil {
		return err
	}
	return w.WriteRaw(p, data)
}

// maxMinify is the largest file minified. The HTML minifier takes time
// quadratic in runs of escaped text, minutes for a hostile page of a few
// megabytes; no real page is that large, and a hostile one is written as
// generated, which is just as valid.
const maxMinify = 256 << 10

func (w *Writer) minify(p string, data []byte) ([]byte, error) {
	if w.m != nil && len(data) <= maxMinify {
		if mt := mediaType(p); mt != "" {
			// Bytes parses data in place and sizes the output to the
			// input; minifying through a bytes.Reader copied every page
			// once more and grew the output buffer by doubling.
			small, err := w.m.Bytes(mt, data)
			if err != nil {
				return nil, fmt.Errorf("minify %s: %w", p, err)
			}
			return small, nil
		}
	}
	return data, nil
}

// WriteRaw writes data to p exactly as given. It keeps no reference to
// data, which the caller may reuse once it returns.
func (w *Writer) WriteRaw(p string, data []byte) error {
	_, err := w.writeRaw(p, data)
	return err
}

// WriteRawSum is WriteRaw of data whose SHA-256 hash is sum, for bytes a
// caller keeps from build to build with their hash: writing them again
// hashes nothing.
func (w *Writer) WriteRawSum(p string, data []byte, sum [sha256.Size]byte) error {
	_, err := w.writeHashed(p, data, sum)
	return err
}

// writeRaw writes data to p and returns p as claim keeps it.
func (w *Writer) writeRaw(p string, data []byte) (string, error) {
	return w.writeHashed(p, data, sha256.Sum256(data))
}

func (w *Writer) writeHashed(p string, data []byte, sum [sha256.Size]byte) (string, error) {
	if old := w.prev.unchanged(p, sum); old != nil {
		key, _, _, err := w.claim(p, old, true)
		return key, err
	}
	key, _, full, err := w.claim(p, &entry{size: int64(len(data)), hash: sum, hashed: true}, false)
	if err != nil {
		return "", err
	}
	return key, writeFile(full, data)
}

// writeFile writes data to the new file name.
func writeFile(name string, data []byte) error {
	f, err := newFile(name)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Create opens p for streaming raw content.
func (w *Writer) Create(p string) (io.WriteCloser, error) {
	_, f, err := w.create(p)
	return f, err
}

// create opens p for streaming and returns p as claim keeps it.
func (w *Writer) create(p string) (string, io.WriteCloser, error) {
	key, e, full, err := w.claim(p, &entry{size: -1}, false)
	if err != nil {
		return "", nil, err
	}
	f, err := newFile(full)
	if err != nil {
		return "", nil, err
	}
	return key, &hashingFile{f: f, h: sha256.New(), w: w, e: e}, nil
}

// hashingFile records the hash and size of a streamed file when it closes.
type hashingFile struct {
	f *rawFile
	h hash.Hash
	n int64
	w *Writer
	e *entry
}

func (h *hashingFile) Write(p []byte) (int, error) {
	n, err := h.f.Write(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashingFile) Close() error {
	err := h.f.Close()
	h.w.mu.Lock()
	h.e.size = h.n
	h.h.Sum(h.e.hash[:0])
	h.e.hashed = true
	h.w.mu.Unlock()
	return err
}

// Reserve claims the folder p for a writer that fills it itself through
// Dir(); the returned path is where to write. An incremental build
// replaces the whole folder at Commit.
func (w *Writer) Reserve(p string) (string, error) {
	_, _, full, err := w.claim(p, &entry{size: -1, reserved: true}, false)
	if err != nil {
		return "", err
	}
	return full, os.MkdirAll(full, 0o755)
}

// CopyFile copies the bytes served at site path p, as written so far
// (after minifying), to dst. A writer uses it to quote what it wrote
// instead of producing it twice.
func (w *Writer) CopyFile(dst io.Writer, p string) error {
	name, err := w.fileName(p)
	if err != nil {
		return err
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(dst, f)
	return err
}

// fileName returns the file name of site path p, as written so far.
func (w *Writer) fileName(p string) (string, error) {
	w.mu.Lock()
	e, ok := w.files[p]
	w.mu.Unlock()
	if !ok {
		return "", fmt.Errorf("output: %s has not been written", p)
	}
	dir := w.tmp
	if w.prev != nil && w.prev.files[p] == e {
		dir = w.dest // kept
	}
	return filepath.Join(dir, filepath.FromSlash(p)), nil
}

// Digest returns the SHA-256 of the bytes served at site path p, as
// written so far, without reading the file again: the digest of every
// written or kept file is known.
func (w *Writer) Digest(p string) ([32]byte, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.files[p]
	if !ok {
		return [32]byte{}, fmt.Errorf("output: %s has not been written", p)
	}
	if !e.hashed {
		return [32]byte{}, fmt.Errorf("output: %s is still being written", p)
	}
	return e.hash, nil
}

// Len returns how many site paths were written so far.
func (w *Writer) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Files returns the site paths written so far, sorted.
func (w *Writer) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Commit replaces the destination with the new site.
func (w *Writer) Commit() error {
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return errors.New("output: Commit after Commit or Abort")
	}
	w.done = true
	w.mu.Unlock()
	if err := checkReplaceable(w.dest); err != nil {
		os.RemoveAll(w.tmp)
		return err
	}
	if w.prev != nil {
		return w.commitIncremental()
	}
	if err := swap(w.tmp, w.dest); err != nil {
		os.RemoveAll(w.tmp)
		return fmt.Errorf("cannot put the new site in place at %s: %w", w.dest, err)
	}
	w.recordManifest()
	return nil
}

// Abort discards everything written.
func (w *Writer) Abort() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	os.RemoveAll(w.tmp)
}

// swap makes tmp the new dest. Where the system can exchange two folders
// atomically, readers never see dest missing or half-written; elsewhere
// dest is missing for the moment between two renames.
func swap(tmp, dest string) error {
	if _, err := os.Lstat(dest); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dest)
	}
	if err := exchange(tmp, dest); err == nil {
		return os.RemoveAll(tmp) // tmp now holds the previous site
	}
	old := tmp + ".old"
	if err := os.Rename(dest, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.Rename(old, dest)
		return err
	}
	return os.RemoveAll(old)
}
