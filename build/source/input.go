// Package source finds the skills in a set of source roots: skill folders
// (SKILL.md or skill.md, searched recursively, hidden folders included),
// .skill and .zip archives (read with hard limits, never trusted), UASP
// documents alone or beside a SKILL.md, and SkillBag workspaces. Each skill
// found becomes an Input whose files can be read only through its own FS,
// which cannot reach outside the skill.
package source

import (
	"cmp"
	"io/fs"
	"path"
	"path/filepath"
	"slices"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/internal/fsstamp"
)

// Packaging says how a skill arrived.
type Packaging string

const (
	// Folder is a skill folder holding SKILL.md.
	Folder Packaging = "folder"
	// Archive is a .skill or .zip file.
	Archive Packaging = "archive"
	// Document is a NAME.uasp.yaml with no SKILL.md beside it.
	Document Packaging = "uasp-document"
)

// File is one file of a skill.
type File struct {
	// Path is slash-separated and relative to the skill root.
	Path string
	Size int64
	// Stamp is what stat said of the file on disk when it was found;
	// zero for a file of an archive.
	Stamp fsstamp.Stamp
}

// Input is one skill as found in the sources, not yet parsed.
type Input struct {
	// Root is the source root the skill was found in, as given, and
	// RootIndex its position among the roots: a later root wins a name.
	// RootShown is Root as paths under it are shown (Options.Display).
	Root      string
	RootShown string
	RootIndex int
	// Path locates the skill for people: the folder, the archive file, or
	// the UASP document, joined to RootShown.
	Path string
	// RepoPath is Path inside the repository the sources come from
	// (slash-separated), or "" when that is unknown (Options.RepoDir).
	RepoPath  string
	Packaging Packaging
	// DirName is the name of the folder that holds the skill, which the
	// Agent Skills spec wants equal to the skill's name: the folder's
	// base name, the archive's single root folder (or its file name without
	// the extension), or the UASP document's name without .uasp.yaml.
	DirName string
	// RelPath is the skill's location relative to its root, slash-separated
	// ("." for the root itself); stable across machines, used for ordering.
	RelPath string
	// FS holds the skill's files and nothing else.
	FS fs.FS
	// Files lists every file of the skill, sorted by path. Nested skills
	// are not part of their parent's files.
	Files []File
	// LeftOut are the paths of the folder's files that the skill leaves
	// out, with a finding: past Options.MaxFolderFiles, larger than
	// Options.MaxFileBytes, named so that no archive can hold them, or
	// symbolic links pointing out of the folder. A link to one is not a
	// link to a missing file.
	LeftOut []string
	// ArchiveDir is the folder an archive holds the skill's files in
	// ("" when they are at its top), which FS's paths leave out.
	ArchiveDir string
	// SkillFile is "SKILL.md", "skill.md", or "" when there is none.
	SkillFile string
	// UASPFile is the path in FS of the skill's NAME.uasp.yaml, or "".
	UASPFile string
	// Workspace is the SkillBag workspace the skill belongs to, or nil.
	Workspace *Workspace
	// Diagnostics are problems found while reading the sources.
	Diagnostics []diag.Diagnostic
}

// DisplayPath returns how a diagnostic names the file name of this skill.
func (in *Input) DisplayPath(name string) string {
	switch in.Packaging {
	case Archive:
		if name == "" {
			return in.Path
		}
		return in.Path + "!/" + path.Join(in.ArchiveDir, name)
	case Document:
		if name == "" || name == path.Base(in.Path) || name == in.UASPFile {
			return in.Path
		}
		return filepath.Join(filepath.Dir(in.Path), filepath.FromSlash(name))
	}
	if name == "" {
		return in.Path
	}
	return filepath.Join(in.Path, filepath.FromSlash(name))
}

// File returns how a diagnostic names the skill's SKILL.md, or its UASP
// document when it has no SKILL.md.
func (in *Input) File() string {
	if in.SkillFile != "" {
		return in.DisplayPath(in.SkillFile)
	}
	return in.DisplayPath(in.UASPFile)
}

// Workspace is a SkillBag workspace: a folder with SKILLBAG.md whose skills
// live in .skills/ and are listed in .skills/SKILLS.md.
type Workspace struct {
	// Path is the workspace folder as given on the command line.
	Path string
	// Catalog is the content of .skills/SKILLS.md, nil when missing.
	Catalog []byte
	// CatalogPath is the display path of .skills/SKILLS.md.
	CatalogPath string
	// Context is the content of CONTEXT.md, nil when missing.
	Context     []byte
	ContextPath string
	// HasAgentsMD reports whether AGENTS.md exists, which a SkillBag source
	// (a workspace others install from) needs.
	AgentsMD []byte
	// SkillDirs lists the folder names under .skills/, sorted.
	SkillDirs []string
}

// MarketplaceRoot is a folder of a source root holding the marketplace file
// of one or more agent clients (package plugin reads it).
type MarketplaceRoot struct {
	// Root, RealRoot (symbolic links resolved), RootShown and RootIndex
	// are the source root's, as for Input.
	Root, RealRoot, RootShown string
	RootIndex                 int
	// Dir is the marketplace's folder relative to the root,
	// slash-separated ("." for the root itself).
	Dir string
}

// Display returns how diagnostics name rel, a slash-separated path
// relative to the source root.
func (m MarketplaceRoot) Display(rel string) string {
	if rel == "." {
		return m.RootShown
	}
	return filepath.Join(m.RootShown, filepath.FromSlash(rel))
}

// sortMarketplaces sorts ms by root, then folder, and drops repeats (a
// folder with the marketplace files of several clients).
func sortMarketplaces(ms []MarketplaceRoot) []MarketplaceRoot {
	slices.SortFunc(ms, func(a, b MarketplaceRoot) int {
		return cmp.Or(cmp.Compare(a.RootIndex, b.RootIndex), cmp.Compare(a.Dir, b.Dir))
	})
	return slices.CompactFunc(ms, func(a, b MarketplaceRoot) bool { return a.RootIndex == b.RootIndex && a.Dir == b.Dir })
}
