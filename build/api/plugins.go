package api

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/plugin"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// PluginsPath is the site path of the plugins of the catalog's
// marketplaces.
var PluginsPath = siteinfo.APIPlugins()

// skillPlugin is a plugin as a skill's JSON names it.
type skillPlugin struct {
	Name        string `json:"name"`
	Category    string `json:"category,omitempty"`
	Marketplace string `json:"marketplace,omitempty"`
	URL         string `json:"url"`
}

func skillPlugins(s *catalog.Skill, site *siteinfo.Info) []skillPlugin {
	var out []skillPlugin
	for _, p := range s.Plugins {
		out = append(out, skillPlugin{Name: p.Name, Category: p.Category, Marketplace: p.Marketplace.Name, URL: site.URL(siteinfo.PluginPage(p.Slug))})
	}
	return out
}

// pluginsFile is api/v1/plugins.json.
type pluginsFile struct {
	Count        int              `json:"count"`
	Marketplaces []marketplaceDoc `json:"marketplaces"`
	Plugins      []pluginDoc      `json:"plugins"`
}

type marketplaceDoc struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name,omitempty"`
	Description string `json:"description,omitempty"`
	Owner       string `json:"owner,omitempty"`
	// Repository is OWNER/NAME on GitHub, when known.
	Repository string `json:"repository,omitempty"`
	// Names are each client's name of the marketplace.
	Names map[plugin.Client]string `json:"names"`
}

// pluginDoc is a plugin of plugins.json; its fields are spelt as the rest
// of the API spells them (snake_case), not as the manifests do.
type pluginDoc struct {
	Name        string         `json:"name"`
	DisplayName string         `json:"display_name,omitempty"`
	Description string         `json:"description,omitempty"`
	Version     string         `json:"version,omitempty"`
	Author      *plugin.Person `json:"author,omitempty"`
	License     string         `json:"license,omitempty"`
	Homepage    string         `json:"homepage,omitempty"`
	Repository  string         `json:"repository,omitempty"`
	Category    string         `json:"category,omitempty"`
	Keywords    []string       `json:"keywords,omitempty"`
	Tags        []string       `json:"tags,omitempty"`

	Marketplace string          `json:"marketplace"`
	Clients     []plugin.Client `json:"clients"`
	Source      string          `json:"source"`
	SourceURL   string          `json:"source_url,omitempty"`
	Components  map[string]int  `json:"components"`
	// Skills names the published skills it holds.
	Skills []string `json:"skills"`
	// URL is its page; "" when it holds no published skill (no page).
	URL     string       `json:"url,omitempty"`
	Install []installDoc `json:"install"`
}

type installDoc struct {
	Client   plugin.Client `json:"client"`
	Commands []string      `json:"commands"`
}

// pluginsJSON lists every plugin of the catalog's marketplaces, those
// that hold no published skill too.
func pluginsJSON(c *catalog.Catalog, site *siteinfo.Info) ([]byte, error) {
	f := pluginsFile{Count: len(c.AllPlugins), Marketplaces: []marketplaceDoc{}, Plugins: []pluginDoc{}}
	for _, m := range c.Marketplaces {
		f.Marketplaces = append(f.Marketplaces, marketplaceDoc{Name: m.Name, DisplayName: m.DisplayName, Description: m.Description,
			Owner: m.Owner, Repository: m.Repo, Names: m.Names})
	}
	for _, p := range c.AllPlugins {
		m := p.Metadata
		d := pluginDoc{Name: m.Name, DisplayName: m.DisplayName, Description: m.Description, Version: m.Version, Author: m.Author,
			License: m.License, Homepage: m.Homepage, Repository: m.Repository, Category: m.Category, Keywords: m.Keywords, Tags: m.Tags,
			Marketplace: p.Marketplace.Name, Clients: p.Clients, Source: p.Source,
			SourceURL: p.SourceURL, Components: p.Components, Skills: []string{}, Install: []installDoc{}}
		for _, s := range p.Skills {
			d.Skills = append(d.Skills, s.Name)
		}
		if len(p.Skills) > 0 {
			d.URL = site.URL(siteinfo.PluginPage(p.Slug))
		}
		for _, in := range p.Installs() {
			d.Install = append(d.Install, installDoc{in.Client, in.Commands})
		}
		f.Plugins = append(f.Plugins, d)
	}
	return marshal(f)
}

// llmsPlugins writes llms.txt's skills grouped by plugin: a section for
// each plugin with a page, then one for the skills of none.
func llmsPlugins(b *bytes.Buffer, c *catalog.Catalog, entries []*entry) {
	byName := map[string]*entry{}
	for _, e := range entries {
		byName[e.name] = e
	}
	for _, p := range c.Plugins {
		fmt.Fprintf(b, "## Plugin %s\n\n", oneLine(p.Name))
		if d := oneLine(p.Description); d != "" {
			fmt.Fprintf(b, "%s\n\n", d)
		}
		for _, s := range p.Skills {
			if e := byName[s.Name]; e != nil {
				llmsItem(b, e)
			}
		}
		b.WriteByte('\n')
	}
	var rest []*entry
	for _, e := range entries {
		if len(e.s.Plugins) == 0 {
			rest = append(rest, e)
		}
	}
	if len(rest) > 0 {
		b.WriteString("## Other skills\n\n")
		for _, e := range rest {
			llmsItem(b, e)
		}
		b.WriteByte('\n')
	}
}

// pluginNames are the names of a skill's plugins, for the index.
func pluginNames(s *catalog.Skill) []string {
	if len(s.Plugins) == 0 {
		return nil
	}
	return slices.Clip(s.PluginNames())
}
