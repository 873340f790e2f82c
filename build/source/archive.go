package source

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/diag"
)

// ArchiveLimits bound what reading one archive may cost. The defaults are
// USK's upload limits: 50 files, 5 MB in all, names of at most 200
// characters.
type ArchiveLimits struct {
	// MaxFiles is the most entries (files and folders) an archive may hold.
	MaxFiles int
	// MaxTotalBytes bounds the inflated size of all entries together, and
	// MaxFileBytes that of any one entry. Both are enforced while inflating,
	// whatever the archive's headers claim.
	MaxTotalBytes int64
	MaxFileBytes  int64
	// MaxNameLength is the longest entry name, in characters.
	MaxNameLength int
}

// DefaultArchiveLimits are USK's limits.
var DefaultArchiveLimits = ArchiveLimits{MaxFiles: 50, MaxTotalBytes: 5 << 20, MaxFileBytes: 5 << 20, MaxNameLength: 200}

// archiveSlack is how much larger than MaxTotalBytes the compressed file
// itself may be (headers, the central directory, stored entries).
const archiveSlack = 1 << 20

// readArchive opens the archive at file (display path disp) and returns its
// files with the single root folder, if any, stripped. A problem that makes
// the archive unsafe or unreadable is returned as an error diagnostic and
// no files; lesser problems come back as warnings beside the files.
func readArchive(file, disp string, lim ArchiveLimits) (files map[string][]byte, rootDir string, diags []diag.Diagnostic) {
	fail := func(code, format string, args ...any) (map[string][]byte, string, []diag.Diagnostic) {
		return nil, "", append(diags, diag.At(disp, diag.Pos{}, diag.Error, code, format, args...))
	}
	f, err := os.Open(file)
	if err != nil {
		return fail("archive-unreadable", "cannot open the archive: %v", pathless(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fail("archive-unreadable", "cannot read the archive: %v", pathless(err))
	}
	maxSize := lim.MaxTotalBytes + archiveSlack
	if st.Size() > maxSize {
		return fail("archive-too-large", "the archive is %d bytes, more than %d (limit: %d bytes inflated); split the skill or raise the archive size limit", st.Size(), maxSize, lim.MaxTotalBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return fail("archive-unreadable", "cannot read the archive: %v", pathless(err))
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fail("archive-invalid", "not a valid ZIP archive (%v); re-create it with `skilldex pack`", err)
	}
	if len(zr.File) > lim.MaxFiles {
		return fail("archive-too-many-files", "the archive has %d entries, more than the limit of %d; remove files or raise the limit (--archive-max-files)", len(zr.File), lim.MaxFiles)
	}

	type entry struct {
		name string
		f    *zip.File
	}
	var entries []entry
	seen := map[string]bool{}
	folded := map[string]string{}
	for _, zf := range zr.File {
		name := zf.Name
		if utf8.RuneCountInString(name) > lim.MaxNameLength {
			return fail("archive-name-too-long", "entry name %.60q… is %d characters, more than the limit of %d", name, utf8.RuneCountInString(name), lim.MaxNameLength)
		}
		clean, ok := safeEntryName(name)
		if !ok {
			return fail("archive-unsafe-path", "entry %q would be written outside the skill folder; remove it (paths must be relative, without '..')", name)
		}
		if zf.Mode()&os.ModeSymlink != 0 {
			return fail("archive-unsafe-path", "entry %q is a symbolic link, which could point outside the skill; store the file itself", name)
		}
		if !zf.Mode().IsDir() && !zf.Mode().IsRegular() {
			return fail("archive-unsafe-path", "entry %q is not a regular file (mode %v)", name, zf.Mode())
		}
		if clean == "" || IsJunk(clean) {
			continue
		}
		if zf.Mode().IsDir() || strings.HasSuffix(name, "/") {
			continue
		}
		if seen[clean] {
			return fail("archive-duplicate-entry", "entry %q appears twice; which copy is meant is ambiguous", clean)
		}
		seen[clean] = true
		if other, dup := folded[strings.ToLower(clean)]; dup {
			diags = append(diags, diag.At(disp, diag.Pos{}, diag.Warning, "archive-case-conflict",
				"entries %q and %q differ only in case and collide on macOS and Windows; rename one", other, clean))
		}
		folded[strings.ToLower(clean)] = clean
		entries = append(entries, entry{clean, zf})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })

	// A single root folder holding everything is the skill folder.
	rootDir = singleRoot(entries, func(e entry) string { return e.name })
	files = make(map[string][]byte, len(entries))
	var total int64
	for _, e := range entries {
		name := e.name
		if rootDir != "" {
			name = strings.TrimPrefix(name, rootDir+"/")
		}
		budget := min(lim.MaxFileBytes, lim.MaxTotalBytes-total)
		content, err := inflate(e.f, budget)
		if errors.Is(err, errTooLarge) {
			if budget < lim.MaxFileBytes {
				return fail("archive-too-large", "the archive inflates to more than %d bytes; remove files or raise the limit (--archive-max-bytes)", lim.MaxTotalBytes)
			}
			return fail("archive-too-large", "entry %q inflates to more than %d bytes; remove it or raise the limit", e.name, lim.MaxFileBytes)
		}
		if err != nil {
			return fail("archive-invalid", "entry %q cannot be read: %v", e.name, err)
		}
		total += int64(len(content))
		files[name] = content
	}
	return files, rootDir, diags
}

var errTooLarge = errors.New("entry too large")

// inflate reads the entry, never holding more than limit+1 bytes whatever
// the header claims, so that a zip bomb stops at the limit.
func inflate(zf *zip.File, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = 0
	}
	if zf.UncompressedSize64 > uint64(limit) {
		return nil, errTooLarge
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, errTooLarge
	}
	return buf.Bytes(), nil
}

// safeEntryName cleans a ZIP entry name and reports whether it stays inside
// the folder it is extracted to.
func safeEntryName(name string) (string, bool) {
	if name == "" || strings.ContainsRune(name, 0) || !utf8.ValidString(name) {
		return "", false
	}
	n := strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') {
		return "", false
	}
	for _, seg := range strings.Split(n, "/") {
		if seg == ".." {
			return "", false
		}
		for _, r := range seg {
			if r < 0x20 || r == 0x7f {
				return "", false
			}
		}
	}
	clean := path.Clean(n)
	if clean == "." {
		return "", true
	}
	return clean, true
}

// singleRoot returns the folder that every item sits in, or "" when some
// item is at the top level or items sit in different folders.
func singleRoot[T any](items []T, name func(T) string) string {
	root := ""
	for i, it := range items {
		first, _, nested := strings.Cut(name(it), "/")
		if !nested {
			return ""
		}
		if i == 0 {
			root = first
		} else if first != root {
			return ""
		}
	}
	return root
}

// describeLimits is used in help texts.
func (l ArchiveLimits) String() string {
	return fmt.Sprintf("%d files, %d bytes in all, %d bytes per file, %d-character names", l.MaxFiles, l.MaxTotalBytes, l.MaxFileBytes, l.MaxNameLength)
}
