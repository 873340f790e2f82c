package api

import (
	"cmp"
	"context"
	"errors"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/parallel"
)

// writeCatalog writes the files about the whole catalog. They are written
// whole every build (they change whenever any skill does); the output
// keeps those that came out the same. Digests are of the bytes the site
// serves, read back from the output, so they hold for kept files too.
func writeCatalog(out *output.Writer, c *catalog.Catalog, entries []*entry, site *siteinfo.Info, m *memo.Memo) error {
	files := []struct {
		path string
		make func() ([]byte, error)
	}{
		{IndexPath, func() ([]byte, error) { return appendJSON(sized(entries, 1024), catalogIndex(entries, site)), nil }},
		{ManifestPath, func() ([]byte, error) { return appendJSON(sized(entries, 512), sessionManifest(entries, site)), nil }},
		{PromptPath, func() ([]byte, error) { return promptBlock(entries), nil }},
		{AgentSkillsPath, func() ([]byte, error) { return agentSkillsIndex(out, entries, site) }},
		{AgentInfoPath, func() ([]byte, error) { return marshal(uskInfo(entries, site)) }},
		{AgentSearchPath, func() ([]byte, error) { return marshal(uskSearch(entries)) }},
		{AgentCapabilityPath, func() ([]byte, error) { return marshal(uskCapabilities(entries)) }},
		{LLMSPath, func() ([]byte, error) { return llmsTxt(c, entries, site), nil }},
		{SkillsCatalogPath, func() ([]byte, error) { return skillsCatalog(entries), nil }},
		{OpenAPIPath, func() ([]byte, error) { return marshal(openAPI(site, len(c.AllPlugins) > 0)) }},
	}
	if len(c.AllPlugins) > 0 {
		files = append(files, struct {
			path string
			make func() ([]byte, error)
		}{PluginsPath, func() ([]byte, error) { return pluginsJSON(c, site) }})
	}
	if site.PublishesLegacyDiscovery() {
		files = append(files, struct {
			path string
			make func() ([]byte, error)
		}{LegacySkillsPath, func() ([]byte, error) { return marshal(legacyIndex(entries, site)) }})
	}
	// Each file reads the entries only: they are made in parallel, and
	// errors are reported in the list's order.
	errs := make([]error, len(files)+1)
	parallel.For(context.Background(), len(files)+1, 0, func(i int) {
		if i == len(files) {
			if site.Parts.Markdown {
				errs[i] = writeLLMSFull(out, entries, site, m)
			}
			return
		}
		b, err := files[i].make()
		if err == nil {
			err = out.WriteRaw(files[i].path, b)
		}
		errs[i] = err
	})
	return errors.Join(errs...)
}

// sized returns an empty buffer for about perEntry bytes an entry, so
// that a catalog-wide file is not copied at every doubling as it grows.
func sized(entries []*entry, perEntry int) []byte {
	return make([]byte, 0, len(entries)*perEntry)
}

// indexEntry is one skill of api/v1/index.json.
type indexEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Type        string   `json:"type,omitempty"`
	Version     string   `json:"version,omitempty"`
	Declared    string   `json:"declared_version,omitempty"`
	Format      string   `json:"format"`
	Status      string   `json:"status"`
	Tags        []string `json:"tags"`
	Plugins     []string `json:"plugins,omitempty"`
	URLs        urls     `json:"urls"`
}

type indexFile struct {
	Title  string       `json:"title"`
	URL    string       `json:"url"`
	Count  int          `json:"count"`
	Skills []indexEntry `json:"skills"`
}

func catalogIndex(entries []*entry, site *siteinfo.Info) indexFile {
	f := indexFile{Title: site.Title, URL: site.URL(""), Count: len(entries), Skills: []indexEntry{}}
	for _, e := range entries {
		f.Skills = append(f.Skills, indexEntry{
			Name: e.name, Description: e.description, Type: e.docType, Version: e.version, Declared: e.declared,
			Format: e.format, Status: e.status, Tags: e.tags, Plugins: pluginNames(e.s), URLs: e.urls,
		})
	}
	return f
}

// manifestSkill and sessionManifestFile are uasp.md 9.5's session
// manifest, with where the static answers are.
type manifestSkill struct {
	Name          string `json:"name"`
	Version       string `json:"version"`
	Type          string `json:"type"`
	Description   string `json:"description"`
	QueryEndpoint string `json:"query_endpoint"`
}

type sessionManifestFile struct {
	LoadedSkills []manifestSkill `json:"loaded_skills"`
	QuerySyntax  string          `json:"query_syntax"`
	// StaticAnswers is the URL template of the static answer files:
	// {path} is the query path with '/', '\\', '%', '~' and control
	// characters written as %XX (see paths.json for each skill's list).
	StaticAnswers string `json:"static_answers"`
}

func sessionManifest(entries []*entry, site *siteinfo.Info) sessionManifestFile {
	m := sessionManifestFile{
		LoadedSkills:  []manifestSkill{},
		QuerySyntax:   "skill:<name>:<path>?<filters>",
		StaticAnswers: site.URL("api/v1/skills/") + "{name}/{path}.json",
	}
	for _, e := range entries {
		if !e.hasDoc {
			continue
		}
		m.LoadedSkills = append(m.LoadedSkills, manifestSkill{
			Name: e.name, Version: e.version, Type: e.docType, Description: e.description,
			QueryEndpoint: "skill:" + e.name,
		})
	}
	return m
}

// promptBlock is the <available_skills> block for a system prompt, each
// skill located by its SKILL.md URL (or its Markdown twin without one).
func promptBlock(entries []*entry) []byte {
	skills := make([]PromptSkill, 0, len(entries))
	for _, e := range entries {
		loc := cmp.Or(e.urls.SkillMD, e.urls.Markdown, e.urls.Page)
		skills = append(skills, PromptSkill{Name: e.name, Description: e.description, Location: loc})
	}
	return []byte(AvailableSkills(skills) + "\n")
}
