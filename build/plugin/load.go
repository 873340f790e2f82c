package plugin

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/skilldex/skilldex/build/diag"
)

// Options configure Load.
type Options struct {
	// Display maps a slash-separated path relative to the root of the file
	// system to how diagnostics name it; nil leaves it as is.
	Display func(rel string) string
}

// Set is the plugins of one marketplace root, as the marketplace files of
// all its clients describe them together.
type Set struct {
	// Dir is the marketplace root, relative to the root of the file system.
	Dir string
	// Marketplaces are the marketplace files found, in the order of Clients.
	Marketplaces []*Marketplace
	// Manifests are the plugin manifests read: those of the clients whose
	// marketplace lists the plugin, in the plugin's folder.
	Manifests []*Manifest
	// Plugins are sorted by name.
	Plugins []*Plugin
	// Diagnostics are every finding about the files read, sorted.
	Diagnostics []diag.Diagnostic
}

// Plugin is one plugin of a marketplace: what every client's marketplace
// that lists it under its name, and its manifests, say of it.
type Plugin struct {
	// Metadata merges the descriptions: for each listing in the order of
	// Clients, the marketplace entry's fields, then the manifest's. The
	// version is the exception: a manifest's comes first, as Claude Code
	// installs the version plugin.json declares.
	Metadata
	// Listings say how each client installs the plugin; there is one for
	// every client whose marketplace lists it without an error.
	Listings []*Listing
	// Skills are the catalog's skills the plugin holds, sorted by name and
	// folder; Assign sets them.
	Skills []SkillRef
}

// Listing is one client's way to a plugin.
type Listing struct {
	Client      Client
	Marketplace *Marketplace
	Entry       *Entry
	// Manifest is the client's plugin.json in the plugin's folder, or nil;
	// nil too for a Claude Code entry with strict: false, which alone
	// defines its plugin.
	Manifest *Manifest
	// Dir is the plugin's folder, relative to the root of the file system,
	// or "" when the source is remote (kept as data, never fetched).
	Dir string
	// SkillDirs are the folders whose skills the plugin holds: the skills
	// paths the entry and the manifest declare, or Dir/skills when they
	// declare none, relative to the root of the file system.
	SkillDirs []string
}

// Plugin returns the plugin named name, or nil.
func (s *Set) Plugin(name string) *Plugin {
	i, ok := slices.BinarySearchFunc(s.Plugins, name, func(p *Plugin, name string) int { return strings.Compare(p.Name, name) })
	if !ok {
		return nil
	}
	return s.Plugins[i]
}

// Load reads the marketplace whose root is dir (slash-separated, relative
// to the root of fsys): the marketplace file of every client found there,
// and the manifests of the plugins they list in folders of fsys. It
// returns nil when dir holds no marketplace file. Remote sources are never
// fetched. Files in fsys that cannot be read become diagnostics.
func Load(fsys fs.FS, dir string, opt Options) *Set {
	l := &loader{fsys: fsys, display: opt.Display, set: &Set{Dir: path.Clean(dir)}, manifests: map[string]*Manifest{}}
	if l.display == nil {
		l.display = func(rel string) string { return rel }
	}
	for _, c := range Clients {
		rel := path.Join(l.set.Dir, c.MarketplaceFile())
		data, ok := l.read(rel)
		if !ok {
			continue
		}
		m, ds := ParseMarketplace(c, l.display(rel), data)
		l.set.Diagnostics = append(l.set.Diagnostics, ds...)
		l.set.Marketplaces = append(l.set.Marketplaces, m)
	}
	if len(l.set.Marketplaces) == 0 && len(l.set.Diagnostics) == 0 {
		return nil
	}
	byName := map[string]*Plugin{}
	for _, m := range l.set.Marketplaces {
		if m.Invalid {
			continue
		}
		for _, e := range m.Entries {
			if e.Invalid {
				continue
			}
			li := l.listing(m, e)
			if li == nil {
				continue
			}
			p := byName[e.Name]
			if p == nil {
				p = &Plugin{}
				byName[e.Name] = p
				l.set.Plugins = append(l.set.Plugins, p)
			}
			p.Listings = append(p.Listings, li)
		}
	}
	for _, p := range l.set.Plugins {
		p.Metadata = merge(p.Listings)
	}
	sort.Slice(l.set.Plugins, func(i, j int) bool { return l.set.Plugins[i].Name < l.set.Plugins[j].Name })
	l.set.Diagnostics = diag.Sort(l.set.Diagnostics)
	return l.set
}

type loader struct {
	fsys      fs.FS
	display   func(string) string
	set       *Set
	manifests map[string]*Manifest // by path
}

// read returns the file rel, or false when there is none. A file that
// exists but cannot be read is reported.
func (l *loader) read(rel string) ([]byte, bool) {
	f, err := l.fsys.Open(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	fail := func(format string, args ...any) ([]byte, bool) {
		l.set.Diagnostics = append(l.set.Diagnostics, diag.At(l.display(rel), diag.Pos{}, diag.Error, "plugin-file-unreadable", "%s", message(format, args...)))
		return nil, false
	}
	if err != nil {
		return fail("cannot read the file: %v", pathless(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return fail("this is a folder; the manifest must be a file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxManifestBytes+1))
	if err != nil {
		return fail("cannot read the file: %v", pathless(err))
	}
	if len(data) > maxManifestBytes {
		return fail("the file is larger than %d MiB, the limit for a manifest: it is not read", maxManifestBytes>>20)
	}
	return data, true
}

// pathless drops the path from err: diagnostics name the file already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (l *loader) report(doc *document, n *node, sev diag.Severity, code, format string, args ...any) {
	l.set.Diagnostics = append(l.set.Diagnostics, diag.At(doc.file, doc.pos(n.start), sev, code, "%s", message(format, args...)))
}

// listing resolves one valid entry of a marketplace: its folder, its
// manifest and its skill folders. It returns nil when the client cannot
// install the plugin (the reason is reported).
func (l *loader) listing(m *Marketplace, e *Entry) *Listing {
	li := &Listing{Client: m.Client, Marketplace: m, Entry: e}
	rel, ok := e.Source.Relative()
	if !ok {
		return li
	}
	if e.Source.Kind == SourcePath && !strings.HasPrefix(rel, "./") && m.PluginRoot != "" {
		rel = path.Join(m.PluginRoot, rel)
	}
	clean, ok := cleanRelative(rel)
	if !ok { // reported when the marketplace was read
		return nil
	}
	li.Dir = path.Join(l.set.Dir, clean)
	if st, err := fs.Stat(l.fsys, li.Dir); err != nil || !st.IsDir() {
		src := e.obj.get("source")
		if src.kind == '{' {
			src = cmpNode(src.get("path"), src.get("url"), src)
		}
		l.report(m.doc, src, diag.Error, "plugin-source-missing",
			"plugin %q comes from %s, which is not a folder of the marketplace: fix the path, or add the plugin's folder", e.Name, li.Dir)
		return nil
	}
	mf := l.manifest(m.Client, li.Dir)
	switch {
	case mf == nil:
	case mf.Invalid:
		return nil // the client does not load the plugin; the manifest says why
	case m.Client == Claude && !e.Strict:
		// The entry alone defines the plugin; a plugin.json in its folder
		// may describe another plugin of the same folder, unless it
		// declares components, which Claude Code refuses.
		if len(mf.Components) > 0 {
			l.report(m.doc, e.obj.get("strict"), diag.Error, "plugin-strict-conflict",
				"plugin %q has strict: false, so this entry defines its components, but %s declares %s too, and Claude Code does not load the plugin: declare them in one place",
				e.Name, mf.File, strings.Join(sortedKeys(mf.Components), ", "))
			return nil
		}
	default:
		li.Manifest = mf
		l.mismatch(m, e, mf)
	}
	li.SkillDirs = l.skillDirs(li)
	return li
}

// manifest reads the client's plugin.json in dir once, or returns nil.
func (l *loader) manifest(c Client, dir string) *Manifest {
	rel := path.Join(dir, c.ManifestFile())
	if mf, ok := l.manifests[rel]; ok {
		return mf
	}
	var mf *Manifest
	if data, ok := l.read(rel); ok {
		var ds []diag.Diagnostic
		mf, ds = ParseManifest(c, l.display(rel), data)
		l.set.Diagnostics = append(l.set.Diagnostics, ds...)
		l.set.Manifests = append(l.set.Manifests, mf)
	}
	l.manifests[rel] = mf
	return mf
}

// mismatch reports a manifest that disagrees with its marketplace entry.
func (l *loader) mismatch(m *Marketplace, e *Entry, mf *Manifest) {
	where := func(field string) string {
		return fmt.Sprintf("%s (line %d)", m.Client.MarketplaceFile(), m.doc.pos(e.obj.get(field).start).Line)
	}
	if mf.Name != "" && mf.Name != e.Name {
		l.report(mf.doc, mf.doc.root.get("name"), diag.Warning, "plugin-manifest-mismatch",
			"plugin.json names the plugin %q, but %s lists it as %q: make the names the same", mf.Name, where("name"), e.Name)
	}
	if mf.Version != "" && e.Version != "" && mf.Version != e.Version {
		who := "clients do not agree on which to use"
		if m.Client == Claude {
			who = "Claude Code installs plugin.json's"
		}
		l.report(mf.doc, mf.doc.root.get("version"), diag.Warning, "plugin-manifest-mismatch",
			"plugin.json says version %q, but %s says %q, and %s: set the version in one place, or make them agree", mf.Version, where("version"), e.Version, who)
	}
}

// declaredPath is one skills path and where it is written.
type declaredPath struct {
	doc *document
	n   *node
}

// skillDirs returns the folders whose skills a listed plugin holds.
func (l *loader) skillDirs(li *Listing) []string {
	var declared []declaredPath
	add := func(doc *document, obj *node) {
		v := obj.get("skills")
		if v == nil {
			return
		}
		for _, n := range append([]*node{v}, v.items...) {
			if n.kind == '"' {
				declared = append(declared, declaredPath{doc, n})
			}
		}
	}
	add(li.Marketplace.doc, li.Entry.obj)
	if mf := li.Manifest; mf != nil {
		add(mf.doc, mf.doc.root)
	}
	var dirs []string
	valid := 0
	for _, d := range declared {
		clean, ok := cleanRelative(d.n.str)
		if !ok || !strings.HasPrefix(d.n.str, "./") {
			continue // reported when the file was read
		}
		valid++
		dir := path.Join(li.Dir, clean)
		switch st, err := fs.Stat(l.fsys, dir); {
		case err != nil || !st.IsDir():
			l.report(d.doc, d.n, diag.Warning, "plugin-skill-missing",
				"skills path %q names %s, which is not a folder: fix the path, or remove it", d.n.str, dir)
			continue
		case !holdsSkills(l.fsys, dir):
			l.report(d.doc, d.n, diag.Warning, "plugin-skill-missing",
				"skills path %q names %s, which holds no SKILL.md, neither itself nor in its sub-folders: fix the path, or remove it", d.n.str, dir)
		}
		dirs = append(dirs, dir)
	}
	// Clients drop the paths they cannot use; with none left, they look in
	// the default folder.
	if valid == 0 {
		dirs = append(dirs, path.Join(li.Dir, "skills"))
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// holdsSkills reports whether dir is a skill folder, or holds one directly.
func holdsSkills(fsys fs.FS, dir string) bool {
	if isSkillDir(fsys, dir) {
		return true
	}
	entries, _ := fs.ReadDir(fsys, dir)
	for _, e := range entries {
		if e.IsDir() && isSkillDir(fsys, path.Join(dir, e.Name())) {
			return true
		}
	}
	return false
}

func isSkillDir(fsys fs.FS, dir string) bool {
	for _, name := range []string{"SKILL.md", "skill.md"} {
		if st, err := fs.Stat(fsys, path.Join(dir, name)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// merge describes a plugin from its listings, in the order of Clients.
func merge(listings []*Listing) Metadata {
	var ms, versions []Metadata
	for _, li := range listings {
		ms = append(ms, li.Entry.Metadata)
		if li.Manifest != nil {
			ms = append(ms, li.Manifest.Metadata)
			versions = append(versions, li.Manifest.Metadata)
		}
	}
	for _, li := range listings {
		versions = append(versions, li.Entry.Metadata)
	}
	out := Metadata{Name: listings[0].Entry.Name}
	for _, m := range ms {
		out.DisplayName = cmpOr(out.DisplayName, m.DisplayName)
		out.Description = cmpOr(out.Description, m.Description)
		out.License = cmpOr(out.License, m.License)
		out.Homepage = cmpOr(out.Homepage, m.Homepage)
		out.Repository = cmpOr(out.Repository, m.Repository)
		out.Category = cmpOr(out.Category, m.Category)
		if out.Author == nil {
			out.Author = m.Author
		}
		if out.Keywords == nil {
			out.Keywords = m.Keywords
		}
		if out.Tags == nil {
			out.Tags = m.Tags
		}
	}
	for _, m := range versions {
		out.Version = cmpOr(out.Version, m.Version)
	}
	return out
}

func cmpNode(ns ...*node) *node {
	for _, n := range ns {
		if n != nil {
			return n
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
