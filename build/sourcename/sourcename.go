// Package sourcename names a catalog's source roots for people: the
// Source facet and badge say which repository or folder each skill comes
// from. A root is named, in this order, by the name the config gives it,
// by the catalog's repository (when it is the only root), by the remote
// named origin of the git checkout it is, or by its folder; a skill of a
// SkillBag workspace inside a root named by its folder takes the
// workspace's folder's name. It reads what is on disk only
// (.git/config), never runs git and never uses the network, and a name
// never holds more of a path than a folder's own name.
package sourcename

import (
	"path"
	"path/filepath"
	"strings"
)

// Options say what names roots besides what is on disk.
type Options struct {
	// Names maps a root, as given, to the name the config gives it.
	Names map[string]string
	// Repository is the catalog's repository URL (the config's
	// repository:): its owner/name names the root of a catalog of one.
	Repository string
}

// Root is the name of one source root.
type Root struct {
	// Name is what people see.
	Name string
	// folder is set when Name is the root folder's name, which a
	// SkillBag workspace inside the root overrides.
	folder bool
}

// Roots returns the name of each root, in order.
func Roots(roots []string, opt Options) []Root {
	out := make([]Root, len(roots))
	for i, root := range roots {
		out[i] = name(root, opt, len(roots) == 1)
	}
	return out
}

func name(root string, opt Options, only bool) Root {
	if n := clean(opt.Names[root]); n != "" {
		return Root{Name: n}
	}
	if n := filepath.Clean(root); n != root {
		if n := clean(opt.Names[n]); n != "" {
			return Root{Name: n}
		}
	}
	if only {
		if n := RepoName(opt.Repository); n != "" {
			return Root{Name: n}
		}
	}
	if n := RepoName(gitOrigin(root)); n != "" {
		return Root{Name: n}
	}
	return Root{Name: folderName(root), folder: true}
}

// Of returns the name of a skill found in the root. workspace is the
// folder of the skill's SkillBag workspace relative to the root,
// slash-separated ("." for the root itself), or "" when the skill is in
// none.
func (r Root) Of(workspace string) string {
	if r.folder && workspace != "" && workspace != "." {
		if n := clean(path.Base(workspace)); n != "" && n != "." && n != ".." && n != "/" {
			return n
		}
	}
	return r.Name
}

// maxName bounds a name, in bytes: a facet value is a line of a list.
const maxName = 100

// clean trims a name and keeps it to one line of at most maxName bytes
// (cut at a character boundary).
func clean(n string) string {
	n = strings.Join(strings.Fields(n), " ")
	if len(n) > maxName {
		n = strings.ToValidUTF8(n[:maxName], "")
	}
	return n
}

// folderName is the name of the folder a root is: a root that is a
// SKILL.md names its folder; a root that is an archive or a UASP document
// names itself.
func folderName(root string) string {
	p, err := filepath.Abs(root)
	if err != nil {
		p = filepath.Clean(root)
	}
	if strings.EqualFold(filepath.Base(p), "SKILL.md") {
		p = filepath.Dir(p)
	}
	if n := clean(filepath.Base(p)); n != "" && n != "." && n != string(filepath.Separator) {
		return n
	}
	return "sources"
}
