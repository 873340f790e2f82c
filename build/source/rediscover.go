package source

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skilldex/skilldex/build/plugin"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// Rediscover returns what Discover(ctx, roots, opt) returns, given prev,
// what Discover (or Rediscover) returned for the same roots and options,
// and changed: the real paths of every file and folder created, written,
// removed or renamed since (a folder stands for everything under it), as
// a watcher of the sources reports them. It walks again only the parts of
// the sources the changes can alter — the innermost skill folder holding
// a change, the SkillBag workspace holding it, or the changed entry
// itself — and takes the rest from prev, so that an edit to one skill of
// ten thousand does not list ten thousand folders.
//
// A change Rediscover cannot place, or one to a root itself, makes it walk
// that root whole.
func Rediscover(ctx context.Context, prev *Result, roots []string, opt Options, changed []string) (*Result, error) {
	if prev == nil || overlapping(roots) {
		return Discover(ctx, roots, opt)
	}
	opt = opt.withDefaults()
	res := &Result{}
	for i, root := range roots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fresh, err := rediscoverRoot(prev, i, root, opt, changed)
		if err != nil {
			return nil, err
		}
		res.Inputs = append(res.Inputs, fresh.Inputs...)
		res.Workspaces = append(res.Workspaces, fresh.Workspaces...)
		res.Diagnostics = append(res.Diagnostics, fresh.Diagnostics...)
		res.Skipped = append(res.Skipped, fresh.Skipped...)
		res.Marketplaces = append(res.Marketplaces, fresh.Marketplaces...)
	}
	res.sort()
	return res, nil
}

// overlapping reports whether one root is inside another, or given twice:
// then what prev found cannot be told apart by root.
func overlapping(roots []string) bool {
	abs := make([]string, len(roots))
	for i, r := range roots {
		a, err := filepath.Abs(r)
		if err != nil {
			return true
		}
		abs[i] = a
	}
	for i := range abs {
		for j := range abs {
			if i != j && within(abs[i], abs[j]) {
				return true
			}
		}
	}
	return false
}

// within reports whether p is dir or inside it (real or display paths,
// separated by the platform's separator).
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// shownUnder reports whether the display path p is under the root shown
// as shown, which may be ".".
func shownUnder(p, shown string) bool {
	if shown == "." {
		return !filepath.IsAbs(p) && p != ".." && !strings.HasPrefix(p, ".."+string(filepath.Separator))
	}
	return within(p, shown)
}

// withinRel is within for slash-separated paths relative to a root.
func withinRel(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// rediscoverRoot is Rediscover for the root of index i.
func rediscoverRoot(prev *Result, i int, root string, opt Options, changed []string) (*Result, error) {
	w := newWalker(opt, &Result{}, root, i, NewSkipper(opt))
	whole := func() (*Result, error) {
		if err := w.walkRoot(); err != nil {
			return nil, err
		}
		if len(w.res.Inputs) == 0 {
			w.noSkill(w.res.Skipped)
		}
		return w.res, nil
	}
	st, err := os.Stat(root)
	if err != nil || !st.IsDir() {
		return whole() // a file is read whole anyway; a missing root fails as Discover fails
	}
	if err := w.resolveRoot(); err != nil {
		return whole()
	}
	real := w.realRoot
	old := partOf(prev, i, w.shown)
	var rels []string
	for _, c := range changed {
		if c == real {
			return whole()
		}
		if within(c, real) {
			rels = append(rels, filepath.ToSlash(c[len(real)+1:]))
		}
	}
	units := unitsOf(old, w, rels)
	if slices.Contains(units, ".") {
		return whole()
	}
	// What prev found in a unit goes; a walk of the unit finds it again.
	in := func(display string) bool {
		for _, u := range units {
			if within(display, w.display(u)) {
				return true
			}
		}
		return false
	}
	res := w.res
	for _, s := range old.Inputs {
		if !slices.ContainsFunc(units, func(u string) bool { return withinRel(s.RelPath, u) }) {
			res.Inputs = append(res.Inputs, s)
		}
	}
	for _, ws := range old.Workspaces {
		if !in(ws.Path) {
			res.Workspaces = append(res.Workspaces, ws)
		}
	}
	for _, d := range old.Diagnostics {
		if !in(d.File) && !(d.Code == noSkillCode && d.File == w.shown) {
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	for _, s := range old.Skipped {
		if !in(s.Path) {
			res.Skipped = append(res.Skipped, s)
		}
	}
	// A marketplace a change may have touched stays if one of its files is
	// still there; the walk of a unit finds the new ones (and the kept
	// again: sort drops repeats).
	for _, m := range old.Marketplaces {
		if !marketplaceTouched(m, units) || hasMarketplaceFile(w, m.Dir) {
			res.Marketplaces = append(res.Marketplaces, m)
		}
	}
	for _, u := range units {
		if err := w.walkUnit(u); err != nil {
			return nil, err
		}
	}
	// Skipped is in the order of the walk: folder by folder, each folder's
	// entries by name, which is the order of the paths' segments.
	sort.SliceStable(res.Skipped, func(a, b int) bool {
		return slices.Compare(segments(res.Skipped[a].Path), segments(res.Skipped[b].Path)) < 0
	})
	if len(res.Inputs) == 0 {
		w.noSkill(res.Skipped)
	}
	return res, nil
}

func segments(p string) []string { return strings.Split(p, string(filepath.Separator)) }

// partOf is what prev found in the root of index i, shown as shown.
func partOf(prev *Result, i int, shown string) *Result {
	part := &Result{}
	for _, in := range prev.Inputs {
		if in.RootIndex == i {
			part.Inputs = append(part.Inputs, in)
		}
	}
	for _, ws := range prev.Workspaces {
		if shownUnder(ws.Path, shown) {
			part.Workspaces = append(part.Workspaces, ws)
		}
	}
	for _, d := range prev.Diagnostics {
		if shownUnder(d.File, shown) {
			part.Diagnostics = append(part.Diagnostics, d)
		}
	}
	for _, s := range prev.Skipped {
		if shownUnder(s.Path, shown) {
			part.Skipped = append(part.Skipped, s)
		}
	}
	for _, m := range prev.Marketplaces {
		if m.RootIndex == i {
			part.Marketplaces = append(part.Marketplaces, m)
		}
	}
	return part
}

// marketplaceTouched reports whether walking units again may find m
// changed: a unit holds its folder, or one of its clients' marketplace
// files.
func marketplaceTouched(m MarketplaceRoot, units []string) bool {
	for _, u := range units {
		if withinRel(m.Dir, u) {
			return true
		}
		for _, c := range plugin.Clients {
			if withinRel(path.Join(m.Dir, c.MarketplaceFile()), u) {
				return true
			}
		}
	}
	return false
}

// hasMarketplaceFile reports whether the folder dir of the root holds a
// client's marketplace file.
func hasMarketplaceFile(w *walker, dir string) bool {
	for _, c := range plugin.Clients {
		if st, err := os.Stat(w.realPath(path.Join(dir, c.MarketplaceFile()))); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// unitsOf returns the folders and files of the root to walk again for the
// changed entries rels (slash-separated, relative to the root), outermost
// only: "." for the whole root.
//
// A change to an entry of folder D alters the entry itself, or, when the
// entry is one that makes D what it is (its SKILL.md, its SKILLBAG.md, a
// marker that makes discovery skip it), D and everything under it. Either
// way the innermost skill folder above it loses or gains files, and a
// workspace around it its members: those are walked whole.
func unitsOf(old *Result, w *walker, rels []string) []string {
	skills := map[string]bool{}
	for _, in := range old.Inputs {
		if in.Packaging == Folder {
			skills[in.RelPath] = true
		}
	}
	var workspaces []string
	for _, ws := range old.Workspaces {
		workspaces = append(workspaces, w.relOf(ws))
	}
	var units []string
	for _, rel := range rels {
		u := rel
		if shapesFolder(path.Base(rel), path.Base(path.Dir(rel))) {
			u = path.Dir(rel)
		}
		for d := u; d != "."; {
			d = path.Dir(d)
			if skills[d] {
				u = d
				break
			}
		}
		for _, ws := range workspaces {
			if withinRel(u, ws) && !withinRel(ws, u) {
				u = ws // the outermost wins: it is compared with every one
			}
		}
		units = append(units, u)
	}
	sort.Strings(units)
	var outer []string
	for _, u := range units {
		if len(outer) == 0 || !withinRel(u, outer[len(outer)-1]) {
			outer = append(outer, u)
		}
	}
	return outer
}

// shapesFolder reports whether the entry name of the folder named dir
// decides what discovery makes of the folder.
func shapesFolder(name, dir string) bool {
	switch name {
	case "SKILL.md", "skill.md", "SKILLBAG.md", dir + UASPSuffix, siteinfo.Marker:
		return true
	}
	return slices.ContainsFunc(skipMarkers, func(m struct{ file, why string }) bool { return m.file == name })
}

// walkUnit walks the entry rel of the root again, as the walk of its
// folder would, unless a folder above it is one discovery skips.
func (w *walker) walkUnit(rel string) error {
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		if w.skipper.Folder(w.realPath(d)) != "" {
			return nil
		}
	}
	info, err := os.Lstat(w.realPath(rel))
	if err != nil {
		return nil // removed: what prev found there is gone
	}
	return w.entry(path.Dir(rel), fs.FileInfoToDirEntry(info), nil, nil)
}
