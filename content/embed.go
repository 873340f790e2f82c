// Package content is skilldex's demo catalog, embedded in the binary: what
// `skilldex build` and `skilldex serve` publish when they are given no
// source and no config file. NOTICE.md says what each folder shows.
package content

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed NOTICE.md all:.claude-plugin all:skills all:uasp all:archives all:workspace
var files embed.FS

// FS returns the demo catalog.
func FS() fs.FS { return files }

// Extract writes the demo catalog into dir, which must exist, so that it can
// be read like any other source folder.
func Extract(dir string) error {
	return fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Ext(p) == ".sh" || filepath.Ext(p) == ".py" {
			mode = 0o755 // the embedded copy loses the executable bit
		}
		return os.WriteFile(target, data, mode)
	})
}
