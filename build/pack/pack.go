// Package pack writes a skill as a ZIP archive: the USK .skill package
// (usk.md section 1: every file under one root folder named after the
// skill) or, with no root folder, the archive the Agent Skills discovery
// index points to. The archive depends only on the files' paths and
// contents: entries are sorted by path, every timestamp is 1980-01-01
// 00:00 UTC (the earliest a ZIP can record), and modes are fixed (0755
// for a file starting with "#!", 0644 for the rest), so the same skill
// gives the same bytes on every machine and in every build.
package pack

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/source"
)

// Epoch is the modification time of every entry.
var Epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// File is one file of an archive: its slash-separated path and content.
type File struct {
	Path string
	Data []byte
}

// Write writes the files paths of fsys to w as a ZIP archive, each under
// root+"/" (root "" puts them at the top). Paths are slash-separated and
// relative to fsys; duplicates are written once.
func Write(w io.Writer, fsys fs.FS, root string, paths []string) error {
	files, err := ReadFiles(fsys, paths, nil)
	if err != nil {
		return err
	}
	return WriteFiles(w, root, files)
}

// ReadFiles reads the files paths of fsys for WriteFiles: sorted by path,
// duplicates once. have, when not nil, gives the content of a file the
// caller holds already (nil when it does not), which is not read again.
func ReadFiles(fsys fs.FS, paths []string, have func(path string) []byte) ([]File, error) {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	files := make([]File, 0, len(paths))
	for _, p := range paths {
		if !validPath(p) {
			return nil, fmt.Errorf("pack: %q is not a relative slash-separated path; it cannot be stored", p)
		}
		var data []byte
		if have != nil {
			data = have(p)
		}
		if data == nil {
			var err error
			if data, err = fs.ReadFile(fsys, p); err != nil {
				return nil, fmt.Errorf("pack: %w", err)
			}
		}
		files = append(files, File{p, data})
	}
	return files, nil
}

func validPath(p string) bool { return siteinfo.PathProblem(p) == "" }

// WriteFiles writes files to w as a ZIP archive, sorted by path, each under
// root+"/" (root "" puts them at the top). Two files with one path are an
// error.
func WriteFiles(w io.Writer, root string, files []File) error {
	if root != "" && (!fs.ValidPath(root) || strings.Contains(root, "/")) {
		return fmt.Errorf("pack: root folder %q must be a single folder name", root)
	}
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, deflater)
	for i, f := range files {
		if !validPath(f.Path) {
			return fmt.Errorf("pack: %q is not a relative slash-separated path; it cannot be stored", f.Path)
		}
		if i > 0 && files[i-1].Path == f.Path {
			return fmt.Errorf("pack: %s is given twice", f.Path)
		}
		name := f.Path
		if root != "" {
			name = root + "/" + f.Path
		}
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: Epoch}
		h.SetMode(modeOf(f.Data))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("pack: %s: %w", f.Path, err)
		}
		if _, err := fw.Write(f.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// deflateLevel is the compression level of archive entries.
const deflateLevel = 2

// deflaters recycles flate writers, whose state is large: a site writes
// one or two archives per skill.
var deflaters sync.Pool

// deflater compresses with klauspost/compress's flate at level 2, its
// second fastest: on SKILL.md files it is faster than the standard
// library's fastest level, for no more bytes.
func deflater(w io.Writer) (io.WriteCloser, error) {
	if fw, ok := deflaters.Get().(*flate.Writer); ok {
		fw.Reset(w)
		return &pooled{fw}, nil
	}
	fw, err := flate.NewWriter(w, deflateLevel)
	return &pooled{fw}, err
}

// pooled returns its writer to the pool when closed.
type pooled struct{ *flate.Writer }

func (p *pooled) Close() error {
	err := p.Writer.Close()
	deflaters.Put(p.Writer)
	return err
}

// modeOf keeps scripts runnable after unzipping, from their content alone.
func modeOf(data []byte) fs.FileMode {
	if bytes.HasPrefix(data, []byte("#!")) {
		return 0o755
	}
	return 0o644
}

// Skill writes the files of a skill as its .skill archive, under the
// folder name (the skill's name, which is what the archive's folder must
// be called for the name check to pass when it is read back).
func Skill(w io.Writer, in *source.Input, name string) error {
	return Write(w, in.FS, name, Paths(in))
}

// Flat writes the files of a skill at the top of the archive, as the Agent
// Skills discovery spec wants its archives.
func Flat(w io.Writer, in *source.Input) error {
	return Write(w, in.FS, "", Paths(in))
}

// Paths lists the files of a skill.
func Paths(in *source.Input) []string {
	out := make([]string, len(in.Files))
	for i, f := range in.Files {
		out[i] = f.Path
	}
	return out
}

// ErrLimits is wrapped by CheckLimits's errors.
var ErrLimits = errors.New("the skill exceeds the archive limits")

// CheckLimits reports why the .skill archive of in, with root folder name,
// could not be read back under lim (file count, total size, entry name
// length), or nil. Archives over USK's limits are refused by skill stores
// and by skilldex itself unless its limits are raised.
func CheckLimits(in *source.Input, name string, lim source.ArchiveLimits) error {
	if n := len(in.Files); lim.MaxFiles > 0 && n > lim.MaxFiles {
		return fmt.Errorf("%w: %d files, more than the limit of %d; move large or generated files out of the skill, or raise the limit (--archive-max-files)", ErrLimits, n, lim.MaxFiles)
	}
	var total int64
	for _, f := range in.Files {
		total += f.Size
		if lim.MaxFileBytes > 0 && f.Size > lim.MaxFileBytes {
			return fmt.Errorf("%w: %s is %d bytes, more than the limit of %d; remove it or raise the limit", ErrLimits, f.Path, f.Size, lim.MaxFileBytes)
		}
		if entry := path.Join(name, f.Path); lim.MaxNameLength > 0 && utf8.RuneCountInString(entry) > lim.MaxNameLength {
			return fmt.Errorf("%w: the entry name %s is %d characters, more than the limit of %d; shorten it", ErrLimits, entry, utf8.RuneCountInString(entry), lim.MaxNameLength)
		}
	}
	if lim.MaxTotalBytes > 0 && total > lim.MaxTotalBytes {
		return fmt.Errorf("%w: the files add up to %d bytes, more than the limit of %d; remove files or raise the limit (--archive-max-bytes)", ErrLimits, total, lim.MaxTotalBytes)
	}
	return nil
}

// WithoutArchives returns in without the skill archives among its files,
// and their paths: every .skill file, and every .zip holding a SKILL.md at
// its top or in one folder. A skill holding its own archive is never what
// its author meant: packed, the old archive would go into the new one,
// and a catalog build finds a .skill in a skill folder and publishes it
// in the folder's place. A .zip of anything else (templates, test data)
// is a file like any other. When nothing is left out, in itself is
// returned.
func WithoutArchives(in *source.Input) (*source.Input, []string) {
	var out []string
	kept := make([]source.File, 0, len(in.Files))
	for _, f := range in.Files {
		if isSkillArchive(in.FS, f.Path) {
			out = append(out, f.Path)
			continue
		}
		kept = append(kept, f)
	}
	if out == nil {
		return in, nil
	}
	c := *in
	c.Files = kept
	return &c, out
}

// isSkillArchive reports whether the file p of fsys is a skill archive. A
// .zip that cannot be read as one is not: it is packed as it is.
func isSkillArchive(fsys fs.FS, p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".skill":
		return true
	case ".zip":
	default:
		return false
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return false
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return false
	}
	for _, f := range zr.File {
		dir, name := path.Split(strings.TrimPrefix(f.Name, "./"))
		if strings.EqualFold(name, "SKILL.md") && strings.Count(dir, "/") <= 1 {
			return true
		}
	}
	return false
}
