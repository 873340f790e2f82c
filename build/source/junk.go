package source

import (
	"path"
	"strings"
)

// IsJunk reports whether the file at p (slash-separated) is one an
// operating system or an editor leaves beside the files people write:
// Finder's .DS_Store and AppleDouble ._NAME files, Windows' Thumbs.db and
// desktop.ini, Vim's swap files, Emacs' lock and auto-save files, and
// backup files ending in ~. They are never part of a skill, so neither a
// folder's nor an archive's are published or packed.
func IsJunk(p string) bool {
	if strings.HasPrefix(p, "__MACOSX/") || p == "__MACOSX" {
		return true
	}
	name := path.Base(p)
	switch strings.ToLower(name) {
	case ".ds_store", "thumbs.db", "ehthumbs.db", "desktop.ini":
		return true
	}
	switch {
	case strings.HasPrefix(name, "._") && len(name) > 2,
		strings.HasSuffix(name, "~") && len(name) > 1,
		strings.HasPrefix(name, ".#") && len(name) > 2,
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#") && len(name) > 2:
		return true
	}
	// Vim's swap files: .NAME.swp, then .swo, .swn, ... down to .swa.
	if ext := path.Ext(name); strings.HasPrefix(name, ".") && len(ext) == 4 && strings.HasPrefix(ext, ".sw") && ext[3] >= 'a' && ext[3] <= 'p' && len(name) > len(ext)+1 {
		return true
	}
	return false
}
