package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/plugin"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/fsstamp"
)

// Options configure discovery.
type Options struct {
	Archive ArchiveLimits
	// MaxFolderFiles bounds the files taken from one skill folder; the rest
	// are left out with a warning.
	MaxFolderFiles int
	// MaxFileBytes is the largest file of a skill folder that is published.
	MaxFileBytes int64
	// Display maps a root, as given, to how paths under it are shown in
	// diagnostics and Input.Path: the embedded demo catalog is unpacked to
	// a temporary folder but reported as "content/...", and a build shows
	// each root relative to its catalog root (see RelativeDisplay), so
	// that no path of the build machine is published.
	Display map[string]string
	// RepoDir maps a root, as given, to its path inside the repository
	// the sources come from (slash-separated, "." for the repository's
	// root folder), for Input.RepoPath; a root not in it has none.
	RepoDir map[string]string
	// Exclude lists folders that are never searched, such as the build's
	// output folder; they are compared with the folders walked by real
	// path, and need not exist.
	Exclude []string
}

// DefaultOptions are the limits skilldex uses unless told otherwise.
var DefaultOptions = Options{Archive: DefaultArchiveLimits, MaxFolderFiles: 2000, MaxFileBytes: 20 << 20}

// UASPSuffix ends the name of a UASP document.
const UASPSuffix = ".uasp.yaml"

// skipDirs are the folders never searched, by name, and why: version
// control data and installed dependencies hold copies of skills (an old
// revision, a package's own SKILL.md), not the catalog's.
var skipDirs = map[string]string{
	".git": "version control data", ".hg": "version control data", ".svn": "version control data",
	".bzr": "version control data", "_darcs": "version control data", ".jj": "version control data",
	"CVS":          "version control data",
	"node_modules": "installed packages", "bower_components": "installed packages",
	"__pycache__": "Python bytecode",
}

// skipMarkers are the files that make the folder holding them one that is
// never searched, and why.
var skipMarkers = []struct{ file, why string }{
	{siteinfo.Marker, "a site skilldex built (" + siteinfo.Marker + ")"},
	{"pyvenv.cfg", "a Python virtualenv (pyvenv.cfg)"},
}

// Skip is a folder discovery did not search.
type Skip struct {
	// Path is the folder, shown as Input.Path is.
	Path string
	// Reason says why, for people: "a site skilldex built (.skilldex-site)".
	Reason string
}

// Result is what Discover found.
type Result struct {
	// Inputs are sorted by root, then by path inside the root.
	Inputs []*Input
	// Workspaces are the SkillBag workspaces found, sorted by path.
	Workspaces []*Workspace
	// Marketplaces are the plugin marketplace roots found (folders holding
	// a client's marketplace file, see plugin.MarketplaceDir), sorted by
	// root, then folder; one per folder whatever the clients.
	Marketplaces []MarketplaceRoot
	// Diagnostics concern the sources rather than one skill.
	Diagnostics []diag.Diagnostic
	// Skipped lists the folders not searched, in the order of the walk:
	// what --verbose tells, not a finding about the sources.
	Skipped []Skip
}

// Discover finds every skill under roots. A root that cannot be read at all
// is an error; problems inside a root become diagnostics.
func Discover(ctx context.Context, roots []string, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	res := &Result{}
	skipper := NewSkipper(opt)
	for i, root := range roots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w := newWalker(opt, res, root, i, skipper)
		before, skippedBefore := len(res.Inputs), len(res.Skipped)
		if err := w.walkRoot(); err != nil {
			return nil, err
		}
		if len(res.Inputs) == before {
			w.noSkill(res.Skipped[skippedBefore:])
		}
	}
	res.sort()
	return res, nil
}

// sort puts what was found in the order Result promises.
func (res *Result) sort() {
	sort.SliceStable(res.Inputs, func(i, j int) bool {
		a, b := res.Inputs[i], res.Inputs[j]
		if a.RootIndex != b.RootIndex {
			return a.RootIndex < b.RootIndex
		}
		return a.RelPath < b.RelPath
	})
	sort.Slice(res.Workspaces, func(i, j int) bool { return res.Workspaces[i].Path < res.Workspaces[j].Path })
	res.Marketplaces = sortMarketplaces(res.Marketplaces)
	res.Diagnostics = diag.Sort(res.Diagnostics)
}

// withDefaults is opt with the default limits where it sets none.
func (opt Options) withDefaults() Options {
	if opt.Archive == (ArchiveLimits{}) {
		opt.Archive = DefaultArchiveLimits
	}
	if opt.MaxFolderFiles == 0 {
		opt.MaxFolderFiles = DefaultOptions.MaxFolderFiles
	}
	if opt.MaxFileBytes == 0 {
		opt.MaxFileBytes = DefaultOptions.MaxFileBytes
	}
	return opt
}

// noSkillCode is the finding of a root without a skill.
const noSkillCode = "skill-md-missing"

// newWalker returns the walker of the root of index i.
func newWalker(opt Options, res *Result, root string, i int, skipper Skipper) *walker {
	w := &walker{opt: opt, res: res, root: root, shown: root, rootIndex: i, skipper: skipper, busy: make(chan struct{}, walkWorkers)}
	if d, ok := opt.Display[root]; ok {
		w.shown = d
	}
	if d, ok := opt.RepoDir[root]; ok {
		w.repo = d
	}
	return w
}

// noSkill reports that the walker's root holds no skill, and which of
// its folders were not searched: a skill may be in one (the build's own
// output folder, say, when skilldex.yaml names the sources' folder).
func (w *walker) noSkill(skipped []Skip) {
	notSearched := ""
	for i, sk := range skipped {
		if i == 3 {
			notSearched += fmt.Sprintf(" and %d more (--verbose lists them)", len(skipped)-i)
			break
		}
		if i > 0 {
			notSearched += ", "
		}
		notSearched += sk.Path + " (" + sk.Reason + ")"
	}
	if notSearched != "" {
		notSearched = "; not searched: " + notSearched
	}
	w.diag(w.shown, diag.Error, noSkillCode, "no skill found in %s: add a SKILL.md (with name and description) to a folder, or a .skill archive or NAME%s document%s", w.shown, UASPSuffix, notSearched)
}

type walker struct {
	opt       Options
	res       *Result
	root      string // as given
	shown     string // how paths under root are shown (Options.Display)
	repo      string // root's path in the repository (Options.RepoDir), or ""
	realRoot  string // symlinks resolved
	rootIndex int
	skipper   Skipper
	// busy holds a token for each folder being walked on a goroutine of
	// its own (see walkChildren).
	busy chan struct{}
}

// walkWorkers bounds the folders walked at once. Listing a folder waits on
// the file system as much as on the CPU, so more than the cores.
var walkWorkers = 8 // a variable for TestParallelWalkMatchesSerial

// folderSkill collects a skill folder's files during the walk.
type folderSkill struct {
	in   *Input
	rel  string // relative to root, slash-separated
	real string // real path of the folder
	// files are the skill's files, in the order found; links are those
	// whose real path is not real joined with their path.
	files    []File
	links    map[string]string
	uasp     []string // .uasp.yaml files directly in the folder
	dropped  []string // files past Options.MaxFolderFiles
	oversize []File   // files over Options.MaxFileBytes
	// outside are the links that point out of the folder, never followed;
	// broken those that point nowhere, with why.
	outside []string
	broken  [][2]string
	// unstorable are the paths no archive or site can hold, with why.
	unstorable [][2]string
}

// pathOf returns the path in the skill of rel, a path under the root.
func (s *folderSkill) pathOf(rel string) string {
	if s.rel == "." {
		return rel
	}
	return strings.TrimPrefix(strings.TrimPrefix(rel, s.rel), "/")
}

// leftOut reports whether the file inSkill is no part of the skill: an
// operating system's or editor's file (IsJunk), left out silently, or a
// path no archive or site can hold, whose reason it records: such a file
// is left out with a warning rather than failing the build when the skill
// is packed.
func (s *folderSkill) leftOut(inSkill string) bool {
	if IsJunk(inSkill) {
		return true
	}
	why := siteinfo.PathProblem(inSkill)
	if why == "" {
		return false
	}
	s.unstorable = append(s.unstorable, [2]string{inSkill, why})
	return true
}

func (w *walker) diag(file string, sev diag.Severity, code, format string, args ...any) {
	w.res.Diagnostics = append(w.res.Diagnostics, diag.At(file, diag.Pos{}, sev, code, format, args...))
}

func (w *walker) walkRoot() error {
	st, err := os.Stat(w.root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("source %s does not exist", w.root)
		}
		return fmt.Errorf("source %s: %w", w.root, err)
	}
	if err := w.resolveRoot(); err != nil {
		return fmt.Errorf("source %s: %w", w.root, err)
	}
	real := w.realRoot
	if !st.IsDir() {
		return w.rootFile(st)
	}
	if _, err := os.Lstat(filepath.Join(real, siteinfo.Marker)); err == nil {
		return fmt.Errorf("source %s is a site skilldex built (it holds %s), not a catalog: give the folder of the skills it was built from, or read the site with skilldex query --site %[1]s", w.root, siteinfo.Marker)
	}
	return w.walkDir(".", nil, nil)
}

// resolveRoot sets the real path of the root: absolute, as
// Options.Exclude is compared.
func (w *walker) resolveRoot() error {
	real, err := filepath.EvalSymlinks(w.root)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	w.realRoot = real
	return err
}

// realPaths resolves the folders in dirs to real paths, as the walk sees
// them; a folder that does not exist yet is resolved as far as it exists.
func realPaths(dirs []string) map[string]bool {
	out := map[string]bool{}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		out[abs] = true
		rest := ""
		for p := abs; ; p = filepath.Dir(p) {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				out[filepath.Join(real, rest)] = true
				break
			}
			if filepath.Dir(p) == p {
				break
			}
			rest = filepath.Join(filepath.Base(p), rest)
		}
	}
	return out
}

// A Skipper says which folders discovery never searches: by name (.git,
// node_modules, ...), by a file they hold (a site skilldex built, a Python
// virtualenv), and the folders Options.Exclude names. Discovery and the
// watcher of `skilldex serve` share it, so that what one leaves out the
// other does too.
type Skipper struct {
	exclude map[string]bool // real paths
}

// NewSkipper returns the Skipper of a discovery with opt.
func NewSkipper(opt Options) Skipper { return Skipper{exclude: realPaths(opt.Exclude)} }

// Folder reports why the folder at the real path dir is not searched, or
// "" when it is.
func (s Skipper) Folder(dir string) string {
	if why := s.Path(dir); why != "" {
		return why
	}
	return markerIn(func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	})
}

// Path reports why nothing at the real path p is searched when it is a
// folder, judged by its name and place alone, or "": a watcher drops
// every event of such a path, a folder's removal included.
func (s Skipper) Path(p string) string {
	if why := skipDirs[filepath.Base(p)]; why != "" {
		return why
	}
	for e := range s.exclude {
		if p == e {
			return "the output folder of the build"
		}
		if filepath.Dir(p) == filepath.Dir(e) && strings.HasPrefix(filepath.Base(p), siteinfo.BuildFolderPrefix(e)) {
			return "a build folder of the output folder"
		}
	}
	return ""
}

// markerIn is why a folder holding the files has tells is not searched,
// or "".
func markerIn(has func(name string) bool) string {
	for _, m := range skipMarkers {
		if has(m.file) {
			return m.why
		}
	}
	return ""
}

// SkipFolder reports why discovery never searches the folder dir, or ""
// when it does. (The output folder, which Options.Exclude names, is not
// known here: see Skipper.)
func SkipFolder(dir string) string { return Skipper{}.Folder(dir) }

// skip reports why the folder rel is not searched, or "". Folders that
// are skipped for what they hold are found by walkDir.
func (w *walker) skip(rel string) string {
	return w.skipper.Path(w.realPath(rel))
}

// skipped records that the folder rel was not searched.
func (w *walker) skipped(rel, why string) {
	w.res.Skipped = append(w.res.Skipped, Skip{Path: w.display(rel), Reason: why})
}

// rootFile handles a source that is a single file.
func (w *walker) rootFile(st fs.FileInfo) error {
	base := filepath.Base(w.root)
	switch {
	case isArchiveName(base):
		w.addArchive(w.shown, base, ".")
		return nil
	case strings.HasSuffix(base, UASPSuffix):
		w.addDocument(w.shown, base, ".", w.realRoot, fsstamp.Of(st))
		return nil
	case strings.EqualFold(base, "SKILL.md"):
		// A path to SKILL.md means its folder, as skills-ref reads it.
		w.root = filepath.Dir(w.root)
		w.shown = filepath.Dir(w.shown)
		w.realRoot = filepath.Dir(w.realRoot)
		if w.repo != "" {
			w.repo = path.Dir(w.repo)
		}
		return w.walkDir(".", nil, nil)
	}
	return fmt.Errorf("source %s is not a folder, a .skill or .zip archive, a SKILL.md or a %s document", w.root, UASPSuffix)
}

func isArchiveName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".skill" || ext == ".zip"
}

// display joins rel to the root as the user gave it.
func (w *walker) display(rel string) string {
	if rel == "." {
		return w.shown
	}
	return filepath.Join(w.shown, filepath.FromSlash(rel))
}

// repoPath is rel's path in the repository, or "" when unknown.
func (w *walker) repoPath(rel string) string {
	if w.repo == "" {
		return ""
	}
	return path.Join(w.repo, rel)
}

func (w *walker) realPath(rel string) string {
	if rel == "." {
		return w.realRoot
	}
	return filepath.Join(w.realRoot, filepath.FromSlash(rel))
}

// walkDir visits the folder rel. skill is the innermost skill folder that
// contains it; ws the SkillBag workspace.
func (w *walker) walkDir(rel string, skill *folderSkill, ws *Workspace) error {
	dirPath := w.realPath(rel)
	entries, err := os.ReadDir(dirPath)
	if err != nil {
		if rel == "." {
			return fmt.Errorf("source %s: %w", w.root, err)
		}
		w.diag(w.display(rel), diag.Warning, "source-unreadable", "folder cannot be read and was skipped: %v", pathless(err))
		return nil
	}
	names := map[string]fs.DirEntry{}
	for _, e := range entries {
		names[e.Name()] = e
	}
	if rel != "." {
		if why := markerIn(func(name string) bool { _, ok := names[name]; return ok }); why != "" {
			w.skipped(rel, why)
			return nil
		}
	}
	isRegular := func(name string) bool {
		e, ok := names[name]
		if !ok {
			return false
		}
		if e.Type().IsRegular() {
			return true
		}
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(filepath.Join(dirPath, name))
			return err == nil && st.Mode().IsRegular()
		}
		return false
	}

	if isRegular("SKILLBAG.md") {
		ws = w.workspace(rel, dirPath)
	}

	// A folder is a skill when it holds SKILL.md (or skill.md), or when it
	// holds a UASP document named after it.
	skillFile := ""
	switch {
	case isRegular("SKILL.md"):
		skillFile = "SKILL.md"
	case isRegular("skill.md"):
		skillFile = "skill.md"
	}
	base := path.Base(rel)
	if rel == "." {
		base = filepath.Base(w.realRoot)
	}
	if skillFile != "" || isRegular(base+UASPSuffix) {
		// The walk never follows a linked folder, so the real path of
		// every folder it visits is the real root joined with rel.
		fsk := &folderSkill{
			rel:  rel,
			real: dirPath,
			in: &Input{
				Root: w.root, RootShown: w.shown, RootIndex: w.rootIndex, Path: w.display(rel), RepoPath: w.repoPath(rel),
				Packaging: Folder, DirName: base, RelPath: rel, SkillFile: skillFile,
			},
		}
		if ws != nil && path.Dir(rel) == path.Join(w.relOf(ws), ".skills") {
			fsk.in.Workspace = ws
		}
		defer w.finishFolder(fsk)
		skill = fsk
	}

	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	if skill == nil {
		return w.walkChildren(rel, entries, ws)
	}
	for _, e := range entries {
		if err := w.entry(rel, e, skill, ws); err != nil {
			return err
		}
	}
	return nil
}

// entry handles the entry e of the folder rel.
func (w *walker) entry(rel string, e fs.DirEntry, skill *folderSkill, ws *Workspace) error {
	name := e.Name()
	childRel := path.Join(rel, name)
	mode := e.Type()
	if mode&fs.ModeSymlink != 0 {
		w.symlink(childRel, skill)
		return nil
	}
	if e.IsDir() {
		if why := w.skip(childRel); why != "" {
			w.skipped(childRel, why)
			return nil
		}
		return w.walkDir(childRel, skill, ws)
	}
	if !mode.IsRegular() {
		return nil // devices, sockets, pipes: never opened
	}
	info, err := e.Info()
	if err != nil {
		return nil
	}
	w.file(childRel, fsstamp.Of(info), skill)
	return nil
}

// walkChildren handles the entries of rel, a folder outside any skill,
// walking its subfolders at once when workers are free. Each entry's
// findings are added in entry order, as a walk of one folder at a time
// would add them. Inside a skill folder the walk adds to the skill's file
// list, and stays on one goroutine.
func (w *walker) walkChildren(rel string, entries []fs.DirEntry, ws *Workspace) error {
	found := make([]Result, len(entries))
	errs := make([]error, len(entries))
	var wg sync.WaitGroup
	for i, e := range entries {
		child := *w
		child.res = &found[i]
		if e.IsDir() && e.Type()&fs.ModeSymlink == 0 && skipDirs[e.Name()] == "" {
			select {
			case w.busy <- struct{}{}:
				wg.Add(1)
				go func() {
					defer func() { <-w.busy; wg.Done() }()
					errs[i] = child.entry(rel, e, nil, ws)
				}()
				continue
			default:
			}
		}
		errs[i] = child.entry(rel, e, nil, ws)
	}
	wg.Wait()
	for i := range found {
		if errs[i] != nil {
			return errs[i]
		}
		w.res.Inputs = append(w.res.Inputs, found[i].Inputs...)
		w.res.Workspaces = append(w.res.Workspaces, found[i].Workspaces...)
		w.res.Marketplaces = append(w.res.Marketplaces, found[i].Marketplaces...)
		w.res.Diagnostics = append(w.res.Diagnostics, found[i].Diagnostics...)
		w.res.Skipped = append(w.res.Skipped, found[i].Skipped...)
	}
	return nil
}

// relOf returns a workspace's folder relative to the root.
func (w *walker) relOf(ws *Workspace) string {
	if ws.Path == w.shown {
		return "."
	}
	r, err := filepath.Rel(w.shown, ws.Path)
	if err != nil {
		return ws.Path
	}
	return filepath.ToSlash(r)
}

// file handles one regular file found at rel.
func (w *walker) file(rel string, stamp fsstamp.Stamp, skill *folderSkill) {
	name := path.Base(rel)
	if dir, _, ok := plugin.MarketplaceDir(rel); ok {
		w.res.Marketplaces = append(w.res.Marketplaces, MarketplaceRoot{Root: w.root, RealRoot: w.realRoot, RootShown: w.shown, RootIndex: w.rootIndex, Dir: dir})
	}
	switch {
	case strings.EqualFold(path.Ext(name), ".skill"), skill == nil && isArchiveName(name):
		w.addArchive(w.display(rel), name, rel)
		if skill == nil {
			return
		}
	case skill == nil && strings.HasSuffix(name, UASPSuffix):
		w.addDocument(w.display(rel), name, rel, w.realPath(rel), stamp)
		return
	}
	if skill == nil {
		return
	}
	inSkill := skill.pathOf(rel)
	if skill.leftOut(inSkill) {
		return
	}
	if path.Dir(inSkill) == "." && strings.HasSuffix(name, UASPSuffix) {
		skill.uasp = append(skill.uasp, inSkill)
	}
	skill.add(inSkill, w.realPath(rel), stamp, w.opt)
}

func (s *folderSkill) add(inSkill, real string, stamp fsstamp.Stamp, opt Options) {
	size := stamp.Size
	if len(s.files) >= opt.MaxFolderFiles {
		s.dropped = append(s.dropped, inSkill)
		return
	}
	if size > opt.MaxFileBytes {
		s.oversize = append(s.oversize, File{Path: inSkill, Size: size})
		return
	}
	if real != filepath.Join(s.real, filepath.FromSlash(inSkill)) {
		if s.links == nil {
			s.links = map[string]string{}
		}
		s.links[inSkill] = real
	}
	s.files = append(s.files, File{Path: inSkill, Size: size, Stamp: stamp})
}

// realPath is the real path of the skill's file inSkill.
func (s *folderSkill) realPath(inSkill string) string {
	if real, ok := s.links[inSkill]; ok {
		return real
	}
	return filepath.Join(s.real, filepath.FromSlash(inSkill))
}

// symlink handles a symbolic link: a file link whose target stays inside
// the skill is a file of the skill; anything else is never followed.
func (w *walker) symlink(rel string, skill *folderSkill) {
	if skill == nil {
		return
	}
	link := w.realPath(rel)
	inSkill := skill.pathOf(rel)
	if skill.leftOut(inSkill) {
		return // Emacs' lock file, a link to nowhere, draws no finding
	}
	target, err := filepath.EvalSymlinks(link)
	if err != nil {
		// The skill's finding, so that pack --strict sees it.
		skill.broken = append(skill.broken, [2]string{inSkill, pathless(err).Error()})
		return
	}
	inside := target == skill.real || strings.HasPrefix(target, skill.real+string(filepath.Separator))
	st, err := os.Stat(target)
	if err != nil {
		return
	}
	if !inside {
		// The skill's finding, not the walk's: the folder holds a file
		// the skill leaves out, which pack must not drop unsaid.
		skill.outside = append(skill.outside, inSkill)
		return
	}
	if st.IsDir() {
		return // the folder it points to is inside the skill and walked already
	}
	if !st.Mode().IsRegular() {
		return
	}
	if path.Dir(inSkill) == "." && strings.HasSuffix(inSkill, UASPSuffix) {
		skill.uasp = append(skill.uasp, inSkill)
	}
	skill.add(inSkill, target, fsstamp.Of(st), w.opt)
}

// finishFolder turns a walked skill folder into an Input.
func (w *walker) finishFolder(s *folderSkill) {
	in := s.in
	in.Files = slices.Clip(s.files)
	sort.Slice(in.Files, func(i, j int) bool { return in.Files[i].Path < in.Files[j].Path })
	in.FS = &listFS{files: in.Files, dir: s.real, links: s.links}
	if len(s.dropped) > 0 {
		in.LeftOut = append(in.LeftOut, s.dropped...)
		in.Diagnostics = append(in.Diagnostics, diag.At(in.Path, diag.Pos{}, diag.Warning, "skill-too-many-files",
			"the skill folder has more than %d files; %d were left out (the first %d in path order are kept)", w.opt.MaxFolderFiles, len(s.dropped), w.opt.MaxFolderFiles))
	}
	for _, u := range s.unstorable {
		in.LeftOut = append(in.LeftOut, u[0])
		in.Diagnostics = append(in.Diagnostics, diag.At(in.Path, diag.Pos{}, diag.Warning, "file-name-unstorable",
			"file name %q %s; no archive or site can hold it, so it is left out: rename it", u[0], u[1]))
	}
	for _, f := range s.oversize {
		in.LeftOut = append(in.LeftOut, f.Path)
		in.Diagnostics = append(in.Diagnostics, diag.At(in.DisplayPath(f.Path), diag.Pos{}, diag.Warning, "file-too-large",
			"file is %s, more than the %s a skill's file may be, and is left out of the skill; keep large data outside the skill and say in SKILL.md where to get it",
			byteCount(f.Size), byteCount(w.opt.MaxFileBytes)))
	}
	for _, p := range s.outside {
		in.LeftOut = append(in.LeftOut, p)
		in.Diagnostics = append(in.Diagnostics, diag.At(in.DisplayPath(p), diag.Pos{}, diag.Warning, "symlink-outside-skill",
			"symbolic link points outside the skill folder and was not followed; nothing it points to is published (copy the file into the skill instead)"))
	}
	for _, b := range s.broken {
		in.Diagnostics = append(in.Diagnostics, diag.At(in.DisplayPath(b[0]), diag.Pos{}, diag.Warning, "symlink-broken",
			"symbolic link cannot be resolved and was left out: %s; fix or remove the link", b[1]))
	}
	// The UASP document named after the folder belongs to the skill; with a
	// SKILL.md, a single document of any name does too. Others stand alone.
	sort.Strings(s.uasp)
	own := ""
	for _, u := range s.uasp {
		if u == in.DirName+UASPSuffix {
			own = u
		}
	}
	if own == "" && in.SkillFile != "" && len(s.uasp) == 1 {
		own = s.uasp[0]
	}
	in.UASPFile = own
	for _, u := range s.uasp {
		if u != own {
			rel := path.Join(s.rel, u)
			i := slices.IndexFunc(s.files, func(f File) bool { return f.Path == u })
			w.addDocument(w.display(rel), u, rel, s.realPath(u), s.files[i].Stamp)
		}
	}
	w.res.Inputs = append(w.res.Inputs, in)
}

// addDocument adds a UASP document that stands alone.
func (w *walker) addDocument(disp, name, rel, real string, stamp fsstamp.Stamp) {
	size := stamp.Size
	base := path.Base(name)
	in := &Input{
		Root: w.root, RootShown: w.shown, RootIndex: w.rootIndex, Path: disp, RepoPath: w.repoPath(rel), Packaging: Document,
		DirName: strings.TrimSuffix(base, UASPSuffix), RelPath: rel, UASPFile: base,
		Files: []File{{Path: base, Size: size, Stamp: stamp}},
	}
	in.FS = &listFS{files: in.Files, links: map[string]string{base: real}}
	w.res.Inputs = append(w.res.Inputs, in)
}

// addArchive reads an archive into an Input; an unreadable archive still
// becomes an Input, carrying the error, so that it is reported per skill.
func (w *walker) addArchive(disp, name, rel string) {
	real := w.realPath(rel)
	if rel == "." {
		real = w.realRoot
	}
	in := &Input{
		Root: w.root, RootShown: w.shown, RootIndex: w.rootIndex, Path: disp, RepoPath: w.repoPath(rel), Packaging: Archive,
		DirName: strings.TrimSuffix(name, path.Ext(name)), RelPath: rel,
	}
	files, rootDir, diags := readArchive(real, disp, w.opt.Archive)
	in.Diagnostics = diags
	if rootDir != "" {
		in.DirName, in.ArchiveDir = rootDir, rootDir
	}
	if files == nil {
		in.FS = &listFS{mem: map[string][]byte{}}
		w.res.Inputs = append(w.res.Inputs, in)
		return
	}
	for p, b := range files {
		in.Files = append(in.Files, File{Path: p, Size: int64(len(b))})
	}
	sort.Slice(in.Files, func(i, j int) bool { return in.Files[i].Path < in.Files[j].Path })
	in.FS = &listFS{mem: files, files: in.Files}
	switch {
	case files["SKILL.md"] != nil:
		in.SkillFile = "SKILL.md"
	case files["skill.md"] != nil:
		in.SkillFile = "skill.md"
	}
	if files[in.DirName+UASPSuffix] != nil {
		in.UASPFile = in.DirName + UASPSuffix
	}
	if in.SkillFile == "" && in.UASPFile == "" {
		if strings.EqualFold(path.Ext(name), ".zip") {
			return // a .zip without a skill is some other archive
		}
		in.Diagnostics = append(in.Diagnostics, diag.At(disp, diag.Pos{}, diag.Error, "archive-no-skill-md", "%s", noSkillMD(in.Files)))
	}
	w.res.Inputs = append(w.res.Inputs, in)
}

// noSkillMD says what an archive without a SKILL.md where one is read
// has instead: SKILL.md files deeper in, or in several root folders (a
// .skill archive holds one skill), or none at all.
func noSkillMD(files []File) string {
	var found []string
	for _, f := range files {
		if strings.EqualFold(path.Base(f.Path), "SKILL.md") {
			found = append(found, f.Path)
		}
	}
	const want = "the archive has no SKILL.md at its root or under a single root folder"
	switch len(found) {
	case 0:
		return want + "; add one"
	case 1:
		return fmt.Sprintf("%s, but has %s; put that skill's folder at the archive's root, alone", want, found[0])
	}
	shown := found[:min(len(found), 3)]
	more := ""
	if len(found) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(found)-len(shown))
	}
	return fmt.Sprintf("%s, but has %d: %s%s; an archive holds one skill, so pack each skill folder on its own (skilldex pack DIR)", want, len(found), strings.Join(shown, ", "), more)
}

// maxWorkspaceFile bounds what is read of SKILLS.md, CONTEXT.md and AGENTS.md.
const maxWorkspaceFile = 1 << 20

// workspace reads the SkillBag files of the workspace at rel.
func (w *walker) workspace(rel, dirPath string) *Workspace {
	ws := &Workspace{Path: w.display(rel)}
	// inside resolves the workspace file name and reports whether it stays
	// in the workspace folder: a symbolic link that points out of it (at a
	// secret, say) is never read, since what is read here is quoted in
	// diagnostics and published in the report.
	inside := func(name string) (string, bool) {
		p := filepath.Join(dirPath, filepath.FromSlash(name))
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", false
		}
		if real != dirPath && !strings.HasPrefix(real, dirPath+string(filepath.Separator)) {
			w.diag(w.display(path.Join(rel, name)), diag.Warning, "symlink-outside-skill",
				"symbolic link points outside the workspace folder and was not followed; nothing it points to is read (copy the file into the workspace instead)")
			return "", false
		}
		return real, true
	}
	read := func(name string) []byte {
		p, ok := inside(name)
		if !ok {
			return nil
		}
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		b, _ := io.ReadAll(io.LimitReader(f, maxWorkspaceFile))
		if b == nil {
			b = []byte{}
		}
		return b
	}
	ws.Catalog = read(".skills/SKILLS.md")
	ws.CatalogPath = filepath.Join(ws.Path, ".skills", "SKILLS.md")
	ws.Context = read("CONTEXT.md")
	ws.ContextPath = filepath.Join(ws.Path, "CONTEXT.md")
	ws.AgentsMD = read("AGENTS.md")
	// .skills is listed only when it is there and stays in the workspace.
	dir, ok := inside(".skills")
	if entries, err := os.ReadDir(dir); ok && err == nil {
		for _, e := range entries {
			if e.IsDir() {
				ws.SkillDirs = append(ws.SkillDirs, e.Name())
			}
		}
		sort.Strings(ws.SkillDirs)
	}
	w.res.Workspaces = append(w.res.Workspaces, ws)
	return ws
}

// byteCount says n bytes for a message: exact, with its size in MB when
// that is at least one.
func byteCount(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d bytes (%.1f MB)", n, float64(n)/(1<<20))
}
