package build

import (
	"cmp"
	"io/fs"
	"net/url"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/forge"
	"github.com/skilldex/skilldex/build/plugin"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/sourcename"
)

// loadPlugins reads the marketplaces discovery found, gives each skill the
// plugins that hold it (catalog.Skill.SetPlugins) and returns the
// marketplaces with their findings. A marketplace file, entry or manifest
// with an error contributes no plugin: the skills it would have held are
// published as plain skills, and its findings say why. names are the
// source roots' names (the Source facet's), which name a marketplace's
// repository.
func loadPlugins(found []source.MarketplaceRoot, skills []*catalog.Skill, names []sourcename.Root) ([]*catalog.Marketplace, []diag.Diagnostic) {
	var out []*catalog.Marketplace
	var ds []diag.Diagnostic
	byRoot := map[int][]*catalog.Skill{}
	for _, s := range skills {
		if s.Packaging == source.Folder {
			byRoot[s.RootIndex] = append(byRoot[s.RootIndex], s)
		}
	}
	member := map[*catalog.Skill][]*catalog.Plugin{}
	for _, mr := range found {
		// Through a Root, no symbolic link leads out of the source: a
		// plugin.json or a plugin folder that links to a file elsewhere on
		// the machine is unreadable, and its content is never published.
		root, err := os.OpenRoot(mr.RealRoot)
		if err != nil {
			ds = append(ds, diag.At(mr.RootShown, diag.Pos{}, diag.Error, "plugin-file-unreadable", "cannot read the source's marketplace: %v", err))
			continue
		}
		fsys := root.FS()
		set := plugin.Load(fsys, mr.Dir, plugin.Options{Display: mr.Display})
		if set == nil {
			root.Close()
			continue
		}
		for _, d := range set.Diagnostics {
			// An error makes clients skip the file or the entry: it
			// gives no plugin here either.
			if d.Severity == diag.Error {
				d.Message += "; the skills it would hold are published as plain skills"
			}
			ds = append(ds, d)
		}
		m := newMarketplace(set, mr)
		if mr.Dir == "." && mr.RootIndex < len(names) {
			if n := names[mr.RootIndex].Name; isRepo(n) {
				m.Repo = n
			}
		}
		var refs []plugin.SkillRef
		byDir := map[string]*catalog.Skill{}
		for _, s := range byRoot[mr.RootIndex] {
			refs = append(refs, plugin.SkillRef{Dir: s.RelPath, Name: s.Name})
			byDir[s.RelPath] = s
		}
		set.Assign(refs)
		for _, p := range set.Plugins {
			cp := newPlugin(fsys, m, p)
			m.Plugins = append(m.Plugins, cp)
			for _, ref := range p.Skills {
				s := byDir[ref.Dir]
				member[s] = append(member[s], cp)
			}
		}
		root.Close()
		out = append(out, m)
	}
	for s, ps := range member {
		slices.SortFunc(ps, func(a, b *catalog.Plugin) int {
			return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Marketplace.Path, b.Marketplace.Path))
		})
		s.SetPlugins(slices.CompactFunc(ps, func(a, b *catalog.Plugin) bool { return a == b }))
	}
	return out, ds
}

// repoName matches an OWNER/NAME a source's name may be.
var repoName = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

func isRepo(s string) bool { return repoName.MatchString(s) && !strings.Contains(s, "..") }

func newMarketplace(set *plugin.Set, mr source.MarketplaceRoot) *catalog.Marketplace {
	m := &catalog.Marketplace{Path: mr.Display(set.Dir), Names: map[plugin.Client]string{}}
	for _, f := range set.Marketplaces {
		if f.Invalid || f.Name == "" {
			continue
		}
		m.Names[f.Client] = f.Name
		m.Name = cmp.Or(m.Name, f.Name)
		m.DisplayName = cmp.Or(m.DisplayName, f.DisplayName)
		m.Description = cmp.Or(m.Description, f.Description)
		if m.Owner == "" && f.Owner != nil {
			m.Owner = f.Owner.Name
		}
	}
	return m
}

// newPlugin is what the catalog keeps of p, a plugin of m read from fsys.
func newPlugin(fsys fs.FS, m *catalog.Marketplace, p *plugin.Plugin) *catalog.Plugin {
	cp := &catalog.Plugin{Metadata: p.Metadata, Marketplace: m, Components: map[string]int{}}
	// The site publishes these: never a script URL, nor a token.
	cp.Homepage, cp.Repository = publicURL(p.Homepage), publicURL(p.Repository)
	if a := p.Author; a != nil {
		cp.Author = &plugin.Person{Name: a.Name, Email: a.Email, URL: publicURL(a.URL)}
	}
	for _, li := range p.Listings {
		if !slices.Contains(cp.Clients, li.Client) {
			cp.Clients = append(cp.Clients, li.Client)
		}
	}
	li := p.Listings[0]
	cp.Source, cp.SourceURL = describeSource(li.Entry.Source)
	for kind, n := range countComponents(fsys, p) {
		cp.Components[kind] = n
	}
	return cp
}

// describeSource says where a plugin comes from for people, and links to a
// remote source.
func describeSource(s plugin.Source) (text, url string) {
	if rel, ok := s.Relative(); ok {
		return rel, ""
	}
	switch s.Kind {
	case plugin.SourceGitHub:
		return "github.com/" + s.Repo, "https://github.com/" + s.Repo
	case plugin.SourceURL:
		u := publicGitURL(s.URL)
		return cmp.Or(u, s.Kind), webURL(u)
	case plugin.SourceGitSubdir:
		u := publicGitURL(s.URL)
		return cmp.Or(u, s.Kind) + " (" + s.Path + ")", webURL(u)
	case plugin.SourceNPM:
		return "npm " + s.Package, "https://www.npmjs.com/package/" + s.Package
	case plugin.SourcePip:
		return "pip " + s.Package, "https://pypi.org/project/" + s.Package + "/"
	}
	return s.Kind, ""
}

// webURL is a git URL as a link, when it is an https one.
func webURL(u string) string {
	if strings.HasPrefix(u, "https://") {
		link, _ := forge.Repository(u)
		return link
	}
	if n := sourcename.RepoName(u); n != "" && strings.Contains(u, "github.com") {
		return "https://github.com/" + n
	}
	return ""
}

// publicURL is u as the site may publish it: an http(s) URL without the
// user name and password it may carry (a token), or "" when u is not one.
func publicURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	p.User = nil
	return p.String()
}

// publicGitURL is a git URL as the site may publish it: without the user
// name and password, query and fragment a URL may carry (tokens), nor the
// user and password of a scp-like address (user:token@host:path); "" when
// u cannot be read as either.
func publicGitURL(u string) string {
	u = strings.TrimSpace(u)
	if strings.Contains(u, "://") {
		p, err := url.Parse(u)
		if err != nil || p.Host == "" {
			return ""
		}
		p.User, p.RawQuery, p.ForceQuery, p.Fragment, p.RawFragment = nil, "", false, "", ""
		return p.String()
	}
	// scp-like: what comes before the first "@" is the user (and maybe a
	// password), unless it holds a "/" and the "@" is in the path.
	if user, rest, ok := strings.Cut(u, "@"); ok && !strings.Contains(user, "/") {
		if strings.Contains(user, ":") {
			return rest
		}
	}
	return u
}

// defaultComponents are where clients look for the components a plugin
// declares no paths for, relative to its folder.
var defaultComponents = map[string]string{"commands": "commands", "agents": "agents", "hooks": "hooks/hooks.json", "mcpServers": ".mcp.json", "outputStyles": "output-styles"}

// countComponents counts p's components other than skills by kind: the
// files of the paths its manifests and entries declare (a folder counts
// its files), the definitions written inline, or the files of the
// default folders when a kind is declared nowhere.
func countComponents(fsys fs.FS, p *plugin.Plugin) map[string]int {
	out := map[string]int{}
	for _, li := range p.Listings {
		declared := map[string]plugin.Component{}
		for kind, c := range li.Entry.Components {
			declared[kind] = c
		}
		if li.Manifest != nil {
			for kind, c := range li.Manifest.Components {
				d := declared[kind]
				d.Paths = append(slices.Clip(d.Paths), c.Paths...)
				d.Inline += c.Inline
				declared[kind] = d
			}
		}
		for _, kind := range plugin.ComponentKinds {
			if kind == "skills" {
				continue
			}
			n := 0
			if c, ok := declared[kind]; ok {
				n = c.Inline
				if li.Dir != "" {
					for _, p := range c.Paths {
						n += countFiles(fsys, path.Join(li.Dir, p))
					}
				}
			} else if def, ok := defaultComponents[kind]; ok && li.Dir != "" {
				n = countFiles(fsys, path.Join(li.Dir, def))
			}
			// Clients see the same plugin; the listing that says the most
			// counts.
			if n > out[kind] {
				out[kind] = n
			}
		}
	}
	for k, n := range out {
		if n == 0 {
			delete(out, k)
		}
	}
	return out
}

// countFiles counts p when it is a file, the files directly in it (not
// hidden) when it is a folder, and nothing when it does not exist.
func countFiles(fsys fs.FS, p string) int {
	if !fs.ValidPath(p) {
		return 0
	}
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return 0
	}
	if !st.IsDir() {
		return 1
	}
	entries, _ := fs.ReadDir(fsys, p)
	n := 0
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}
