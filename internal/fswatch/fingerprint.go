package fswatch

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/skilldex/skilldex/build/source"
)

// Fingerprint hashes the path, size, mode and modification time of every
// file under the roots (skipping the folders skip leaves out: .git,
// node_modules, the output folder, a site skilldex built, ...) and the
// files no skill holds (source.IsJunk), so that any edit, addition,
// removal or rename changes it, and writing a site inside the sources,
// or an editor's swap file, does not. It is what polling compares.
func Fingerprint(roots []string, skip source.Skipper) uint64 {
	h := fnv.New64a()
	var entries []string
	for _, root := range roots {
		// Walked by real path, as the skipper knows the output folder.
		if real, err := realPath(root); err == nil {
			root = real
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				entries = append(entries, p+"\x00error")
				return nil
			}
			if d.IsDir() {
				if p != root && skip.Folder(p) != "" {
					return filepath.SkipDir
				}
				return nil // its files say what changed; its own mtime moves with .git
			}
			if source.IsJunk(d.Name()) {
				return nil // an editor's swap file, saved every few seconds: no skill holds it
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			entries = append(entries, fmt.Sprintf("%s\x00%d\x00%d\x00%d", p, info.Size(), info.Mode(), info.ModTime().UnixNano()))
			return nil
		})
	}
	sort.Strings(entries)
	for _, e := range entries {
		h.Write([]byte(e))
		h.Write([]byte{'\n'})
	}
	return h.Sum64()
}
