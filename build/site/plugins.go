package site

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/plugin"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// pluginView is what plugin.html shows of one plugin.
type pluginView struct {
	Name, DisplayName, Description string
	Version, Author, License       string
	Category                       termLink
	Keywords                       []termLink
	Homepage, Repository           string // links, when http(s)
	Source, SourceURL              string
	Marketplace                    string
	// Components are the counts of its components other than skills.
	Components []fact
	Installs   []installSteps
	Cards      []*card
}

// installSteps is one client's commands, each with its copy button.
type installSteps struct {
	Label    string
	Commands []commandLine
	// Marketplace, when set, is the marketplace the commands need added
	// first, which they do not add themselves.
	Marketplace string
}

type commandLine struct{ ID, Text string }

// componentLabels name the kinds of components for people.
var componentLabels = map[string]string{
	"commands": "commands", "agents": "agents", "hooks": "hooks", "mcpServers": "MCP servers",
	"outputStyles": "output styles", "lspServers": "LSP servers", "monitors": "monitors", "apps": "apps",
}

// pluginLink is the link of a plugin's page.
func (r *renderer) pluginLink(p *catalog.Plugin) string {
	return r.site.Link(siteinfo.PluginPage(p.Slug))
}

func (r *renderer) pluginView(p *catalog.Plugin) *pluginView {
	v := &pluginView{
		Name: p.Name, Description: p.Description, Version: p.Version, License: p.License,
		Homepage: safeHTTPURL(p.Homepage), Repository: safeHTTPURL(p.Repository),
		Source: p.Source, SourceURL: safeHTTPURL(p.SourceURL), Marketplace: p.Marketplace.Name,
	}
	if p.DisplayName != p.Name {
		v.DisplayName = p.DisplayName
	}
	if p.Author != nil {
		v.Author = p.Author.Name
	}
	if c := strings.TrimSpace(p.Category); c != "" {
		v.Category = termLink{c, r.termLink(catalog.Categories, c)}
	}
	for _, k := range p.Keywords() {
		v.Keywords = append(v.Keywords, termLink{k, r.termLink(catalog.Tags, k)})
	}
	for _, kind := range plugin.ComponentKinds {
		if n := p.Components[kind]; n > 0 {
			v.Components = append(v.Components, fact{Key: componentLabels[kind], Value: fmt.Sprint(n)})
		}
	}
	for _, in := range p.Installs() {
		steps := installSteps{Label: in.Label}
		if !in.AddsMarketplace {
			steps.Marketplace = in.Marketplace
		}
		for i, c := range in.Commands {
			steps.Commands = append(steps.Commands, commandLine{ID: fmt.Sprintf("sd-install-%s-%d", in.Client, i), Text: c})
		}
		v.Installs = append(v.Installs, steps)
	}
	for _, s := range p.Skills {
		v.Cards = append(v.Cards, r.cardOf(s))
	}
	return v
}

// writePlugins writes the page of every plugin that holds a published
// skill, and the page that lists them; nothing when there are none.
func (r *renderer) writePlugins(c *catalog.Catalog, out *output.Writer) error {
	if len(c.Plugins) == 0 {
		return nil
	}
	type listed struct {
		Name, Link, Description, Marketplace, Category string
		Skills                                         int
	}
	// The plugins by marketplace, each marketplace a section the home
	// page links to (marketplaceID).
	type market struct {
		Name, Description, ID string
		Plugins               []listed
	}
	var markets []*market
	ids := marketplaceIDs(c)
	for _, m := range c.Marketplaces {
		mv := &market{Name: m.Name, Description: m.Description, ID: ids[m]}
		for _, p := range publishedPlugins(m) {
			mv.Plugins = append(mv.Plugins, listed{p.Name, r.pluginLink(p), firstLine(p.Description, 220), p.Marketplace.Name, p.Category, len(p.Skills)})
		}
		if len(mv.Plugins) > 0 {
			markets = append(markets, mv)
		}
	}
	key := r.newListKey("plugins.html")
	for _, m := range markets {
		key.str(fmt.Sprintf("%#v", *m))
	}
	err := r.writeListing(out, siteinfo.PluginsIndex, "plugins.html", &page{
		Title:       "Plugins",
		Description: fmt.Sprintf("%d agent plugins and their skills.", len(c.Plugins)),
		Section:     "plugins",
		Data:        map[string]any{"Count": len(c.Plugins), "Marketplaces": markets},
	}, key)
	if err != nil {
		return err
	}
	return forEach(r.ctx, len(c.Plugins), func(i int) error {
		p := c.Plugins[i]
		v := r.pluginView(p)
		key := r.newListKey("plugin.html")
		cards := v.Cards
		v.Cards = nil
		key.str(fmt.Sprintf("%#v", *v))
		key.cards(cards)
		v.Cards = cards
		desc := p.Description
		if desc == "" {
			desc = fmt.Sprintf("The %s plugin: %d skills.", p.Name, len(p.Skills))
		}
		return r.writeListing(out, siteinfo.PluginPage(p.Slug), "plugin.html", &page{
			Title:       p.Name + " · Plugins",
			Description: firstLine(desc, 300),
			Section:     "plugins",
			Data:        v,
		}, key)
	})
}

// pluginBadges are the links to the pages of s's plugins.
func (r *renderer) pluginBadges(s *catalog.Skill) []termLink {
	var out []termLink
	for _, p := range s.Plugins {
		if len(p.Skills) > 0 {
			out = append(out, termLink{p.Name, r.pluginLink(p)})
		}
	}
	return out
}

// mentions maps each PLUGIN:SKILL of the catalog, a plugin and a published
// skill it holds, to the skill's page: what mentions in bodies link to.
func mentions(c *catalog.Catalog, site *siteinfo.Info) map[string]string {
	out := map[string]string{}
	for _, p := range c.Plugins {
		for _, s := range p.Skills {
			out[p.Name+":"+s.Name] = site.Link(siteinfo.SkillPage(s.Name))
		}
	}
	return out
}

// mentionsWorld digests mentions, for the keys of skill pages: a page
// whose body names a plugin's skill changes when that skill comes or goes.
func mentionsWorld(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, "\x00")
}

// marketplaceIDs are the ids of the marketplaces' sections on the plugins
// page, which the home page links to: marketplaceID, numbered from the
// second marketplace of the same id on.
func marketplaceIDs(c *catalog.Catalog) map[*catalog.Marketplace]string {
	ids := map[*catalog.Marketplace]string{}
	used := map[string]bool{}
	for _, m := range c.Marketplaces {
		id := marketplaceID(m.Name)
		for i := 2; used[id]; i++ {
			id = fmt.Sprintf("%s-%d", marketplaceID(m.Name), i)
		}
		used[id] = true
		ids[m] = id
	}
	return ids
}

// marketplaceID is a marketplace's name's letters and digits, lowercase,
// other runs a hyphen, after "marketplace".
func marketplaceID(name string) string {
	var b strings.Builder
	b.WriteString("marketplace")
	dash := true
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// publishedPlugins are the plugins of m that hold a published skill: those
// with a page, which the plugins page lists under m.
func publishedPlugins(m *catalog.Marketplace) []*catalog.Plugin {
	var out []*catalog.Plugin
	for _, p := range m.Plugins {
		if len(p.Skills) > 0 {
			out = append(out, p)
		}
	}
	return out
}
