package source

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// listFS serves exactly the files it was given, from memory or from their
// real paths on disk, and nothing else: a skill cannot read what the walk
// did not admit.
type listFS struct {
	mem map[string][]byte // archive content; nil for files on disk
	// files are the files served, sorted by path (the Input's Files).
	files []File
	// dir is the real path of the folder the files on disk are in, each
	// at its own path under it, but for those in links: a link to a file
	// of the skill, a document of another name.
	dir   string
	links map[string]string // skill path -> real path
}

// find returns the index of the file at name in l.files.
func (l *listFS) find(name string) (int, bool) {
	return slices.BinarySearchFunc(l.files, name, func(f File, n string) int { return strings.Compare(f.Path, n) })
}

// realPath returns the real path of the file at name, a path of l.files.
func (l *listFS) realPath(name string) string {
	if real, ok := l.links[name]; ok {
		return real
	}
	return filepath.Join(l.dir, filepath.FromSlash(name))
}

func (l *listFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if l.mem != nil {
		if b, ok := l.mem[name]; ok {
			return &memFile{Reader: bytes.NewReader(b), info: fileInfo{name: path.Base(name), size: int64(len(b))}}, nil
		}
	} else if _, ok := l.find(name); ok {
		// The errors name the file as the skill does: what they say
		// may be published, the real path on disk may not.
		f, err := os.Open(l.realPath(name))
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: pathless(err)}
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, &fs.PathError{Op: "stat", Path: name, Err: pathless(err)}
		}
		if !st.Mode().IsRegular() {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
		}
		return f, nil
	}
	if l.isDir(name) {
		return &dirFile{fsys: l, name: name}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile implements fs.ReadFileFS.
func (l *listFS) ReadFile(name string) ([]byte, error) {
	if l.mem != nil {
		if b, ok := l.mem[name]; ok {
			return bytes.Clone(b), nil
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	f, err := l.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func (l *listFS) isDir(name string) bool {
	if name == "." {
		return true
	}
	prefix := name + "/"
	for _, f := range l.files {
		if strings.HasPrefix(f.Path, prefix) {
			return true
		}
	}
	return false
}

// ReadDir implements fs.ReadDirFS.
func (l *listFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !l.isDir(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, f := range l.files {
		rest, ok := strings.CutPrefix(f.Path, prefix)
		if !ok {
			continue
		}
		first, _, isDir := strings.Cut(rest, "/")
		if seen[first] {
			continue
		}
		seen[first] = true
		info := fileInfo{name: first, dir: isDir}
		if !isDir {
			info.size = f.Size
		}
		out = append(out, fs.FileInfoToDirEntry(info))
	}
	return out, nil
}

type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (fi fileInfo) Name() string { return fi.name }
func (fi fileInfo) Size() int64  { return fi.size }
func (fi fileInfo) Mode() fs.FileMode {
	if fi.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (fi fileInfo) ModTime() time.Time { return time.Time{} }
func (fi fileInfo) IsDir() bool        { return fi.dir }
func (fi fileInfo) Sys() any           { return nil }

type memFile struct {
	*bytes.Reader
	info fileInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type dirFile struct {
	fsys *listFS
	name string
	read bool
}

func (d *dirFile) Stat() (fs.FileInfo, error) {
	return fileInfo{name: path.Base(d.name), dir: true}, nil
}
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: fs.ErrInvalid}
}
func (d *dirFile) Close() error { return nil }
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.read {
		if n > 0 {
			return nil, io.EOF
		}
		return nil, nil
	}
	d.read = true
	return d.fsys.ReadDir(d.name)
}

// pathless returns err without the path it names (an *fs.PathError's or
// *os.LinkError's): diagnostics are published, and a path on the build
// machine is not for the site. The caller names the file as it is shown.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
