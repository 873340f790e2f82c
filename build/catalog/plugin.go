package catalog

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/plugin"
)

// Marketplace is an agent plugin marketplace found in the sources: the
// marketplace files of one folder, for one or more clients.
type Marketplace struct {
	// Name is the name clients install its plugins by (NAME@MARKETPLACE):
	// Claude Code's marketplace's, else the first client's.
	Name string
	// Names are each client's marketplace name, by client: Codex's
	// marketplace may be named unlike Claude Code's.
	Names map[plugin.Client]string
	// DisplayName and Description describe it for people.
	DisplayName, Description string
	// Owner is who maintains it ("" when unknown).
	Owner string
	// Path is the marketplace's folder as diagnostics show it.
	Path string
	// Repo is the GitHub repository, OWNER/NAME, clients add the
	// marketplace from, when known: the name of its source when that is a
	// repository and the marketplace is at its root.
	Repo string
	// Plugins are its plugins, sorted by name.
	Plugins []*Plugin
}

// Plugin is one plugin of a marketplace and the published skills it holds.
type Plugin struct {
	// Metadata describes it, as its marketplace entries and manifests
	// together do (plugin.Plugin.Metadata).
	plugin.Metadata
	// Slug names its page, plugins/<slug>/: its name, made unique among
	// the catalog's plugins.
	Slug        string
	Marketplace *Marketplace
	// Clients are the clients whose marketplace lists it, in the order of
	// plugin.Clients.
	Clients []plugin.Client
	// Source says where clients get it, for people: the folder inside the
	// marketplace ("./plugins/x"), or the remote repository or package;
	// SourceURL links to a remote source ("" for a folder).
	Source, SourceURL string
	// Components counts its components other than skills by kind
	// (plugin.ComponentKinds: "agents", "commands", ...).
	Components map[string]int
	// Skills are the published skills it holds, sorted by name.
	Skills []*Skill
}

// HasClient reports whether the client's marketplace lists p.
func (p *Plugin) HasClient(c plugin.Client) bool { return slices.Contains(p.Clients, c) }

// Categories are p's category as a list of terms (none when it has none).
func (p *Plugin) Categories() []string { return one(strings.TrimSpace(p.Category)) }

// Keywords are p's keywords and tags, without repeats.
func (p *Plugin) Keywords() []string {
	return dedupe(append(slices.Clip(p.Metadata.Keywords), p.Tags...))
}

// Inherited says which of a skill's terms it has from its plugins rather
// than from its own frontmatter.
type Inherited struct {
	Categories, Tags bool
}

// SetPlugins records that s belongs to plugins (sorted by name), and
// gives s the plugins' categories and keywords (as tags) when it declares
// none of its own.
func (s *Skill) SetPlugins(plugins []*Plugin) {
	s.Plugins = plugins
	inherit(&s.Categories, &s.Inherited.Categories, plugins, (*Plugin).Categories)
	inherit(&s.Tags, &s.Inherited.Tags, plugins, (*Plugin).Keywords)
}

// inherit gives terms, when empty, the terms of plugins, and says so in
// inherited.
func inherit(terms *[]string, inherited *bool, plugins []*Plugin, of func(*Plugin) []string) {
	if len(*terms) > 0 {
		return
	}
	var all []string
	for _, p := range plugins {
		all = append(all, of(p)...)
	}
	if all = dedupe(all); len(all) > 0 {
		*terms, *inherited = slices.Clip(all), true
	}
}

// PluginNames returns the names of s's plugins, in order.
func (s *Skill) PluginNames() []string {
	names := make([]string, len(s.Plugins))
	for i, p := range s.Plugins {
		names[i] = p.Name
	}
	return names
}

// PluginsKey describes what s shows of its plugins, for the writers'
// keys of what they make of s: a skill whose plugins change is made again.
func (s *Skill) PluginsKey() string {
	if len(s.Plugins) == 0 {
		return ""
	}
	var b strings.Builder
	for _, p := range s.Plugins {
		fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%s\x00%s\x00", p.Name, p.Slug, p.Description, p.Category, p.Marketplace.Name)
	}
	fmt.Fprintf(&b, "%q\x00%q\x00%v", s.Categories, s.Tags, s.Inherited)
	return b.String()
}

// setPlugins gives the catalog its marketplaces' plugins, each with its
// published skills, slugs unique among them.
func (c *Catalog) setPlugins(ms []*Marketplace) {
	c.Marketplaces = ms
	held := map[*Plugin][]*Skill{}
	for _, s := range c.Skills {
		for _, p := range s.Plugins {
			held[p] = append(held[p], s)
		}
	}
	for _, m := range ms {
		c.AllPlugins = append(c.AllPlugins, m.Plugins...)
	}
	slices.SortStableFunc(c.AllPlugins, func(a, b *Plugin) int { return cmp.Compare(a.Name, b.Name) })
	used := map[string]bool{}
	for _, p := range c.AllPlugins {
		p.Slug = uniqueSlug(used, p.Name)
		p.Skills = held[p] // c.Skills is sorted by name
		if len(p.Skills) > 0 {
			c.Plugins = append(c.Plugins, p)
		}
	}
}

// Plugin returns the plugin with a page whose slug is slug, or nil.
func (c *Catalog) Plugin(slug string) *Plugin {
	for _, p := range c.Plugins {
		if p.Slug == slug {
			return p
		}
	}
	return nil
}

// Install is how one client installs a plugin: commands typed in order.
type Install struct {
	Client plugin.Client
	// Label names the client for people ("Claude Code").
	Label    string
	Commands []string
	// Marketplace is the client's name of the marketplace the plugin is
	// installed from, and AddsMarketplace whether the first command adds
	// it (its repository is known).
	Marketplace     string
	AddsMarketplace bool
}

// Installs returns how each client whose marketplace lists p installs it
// (Claude Code, then Codex): the marketplace added from its repository
// when that is known, then the plugin installed. Without the repository
// the commands only install from a marketplace already added: the site
// is no place to add it from, as it publishes no marketplace file. A
// client whose names for p and its marketplace are not safe to paste
// (plugin.IsCommandWord) gets no commands.
func (p *Plugin) Installs() []Install {
	from := p.Marketplace.Repo
	var out []Install
	add := func(c plugin.Client, label, addCmd, installCmd string) {
		name := p.Marketplace.Names[c]
		if !p.HasClient(c) || !plugin.IsCommandWord(name) || !plugin.IsCommandWord(p.Name) {
			return
		}
		in := Install{Client: c, Label: label, Marketplace: name, AddsMarketplace: from != ""}
		if from != "" {
			in.Commands = append(in.Commands, addCmd+" "+from)
		}
		in.Commands = append(in.Commands, installCmd+" "+p.Name+"@"+name)
		out = append(out, in)
	}
	add(plugin.Claude, "Claude Code", "/plugin marketplace add", "/plugin install")
	add(plugin.Codex, "Codex", "codex plugin marketplace add", "codex plugin add")
	return out
}
