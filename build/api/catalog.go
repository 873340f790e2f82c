package api

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/parallel"
)

// writeCatalog writes the files about the whole catalog. Each is an
// output group keyed by what it reads (catalogFileKey): a rebuild after an
// edit that changed no skill's entry (a body edited) keeps them without
// making them again. The discovery index, which digests the skills'
// files, is made whole every build; the output keeps it if it came out
// the same. Digests are of the bytes the site serves, read back from the
// output, so they hold for kept files too.
func writeCatalog(out *output.Writer, c *catalog.Catalog, entries []*entry, site *siteinfo.Info, m *memo.Memo) error {
	type file struct {
		path string
		make func() ([]byte, error)
		// entriesOnly says that the file depends on the entries and the
		// site alone: it is kept while they are the same.
		entriesOnly bool
	}
	plugins := len(c.AllPlugins) > 0
	files := []file{
		{IndexPath, func() ([]byte, error) { return appendJSON(sized(entries, 1024), catalogIndex(entries, site)), nil }, true},
		{ManifestPath, func() ([]byte, error) { return appendJSON(sized(entries, 512), sessionManifest(entries, site)), nil }, true},
		{PromptPath, func() ([]byte, error) { return promptBlock(entries), nil }, true},
		{AgentSkillsPath, func() ([]byte, error) { return agentSkillsIndex(out, entries, site) }, false},
		{AgentInfoPath, func() ([]byte, error) { return marshal(uskInfo(entries, site)) }, true},
		{AgentSearchPath, func() ([]byte, error) { return marshal(uskSearch(entries)) }, true},
		{AgentCapabilityPath, func() ([]byte, error) { return marshal(uskCapabilities(entries)) }, true},
		// With plugins, llms.txt lists the skills by plugin, from the
		// catalog's plugins.
		{LLMSPath, func() ([]byte, error) { return llmsTxt(c, entries, site), nil }, !plugins},
		{SkillsCatalogPath, func() ([]byte, error) { return skillsCatalog(entries), nil }, true},
		{OpenAPIPath, func() ([]byte, error) { return marshal(openAPI(site, plugins)) }, true},
	}
	if plugins {
		files = append(files, file{PluginsPath, func() ([]byte, error) { return pluginsJSON(c, site) }, false})
	}
	if site.PublishesLegacyDiscovery() {
		files = append(files, file{LegacySkillsPath, func() ([]byte, error) { return marshal(legacyIndex(entries, site)) }, true})
	}
	key := ""
	if m != nil {
		// Only serve's builds, which keep the output of the last one,
		// may reuse a file; a one-off build spares the digest.
		key = entriesKey(entries, siteKey(site), plugins)
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
		f := files[i]
		if !f.entriesOnly {
			b, err := f.make()
			if err == nil {
				err = out.WriteRaw(f.path, b)
			}
			errs[i] = err
			return
		}
		g, reused, err := out.Group("catalog:"+f.path, key)
		if err != nil || reused {
			errs[i] = err
			return
		}
		b, err := f.make()
		if err == nil {
			err = g.WriteRaw(f.path, b)
		}
		errs[i] = err
	})
	return errors.Join(errs...)
}

// entriesKey digests everything the catalog-wide files read of the
// entries, for the keys of those that read nothing else (their site
// settings in siteKey, plugins saying whether the catalog has plugins):
// every field of every entry, and the USK fields the USK files list. A
// field added to entry must be added here. "" (never reused) for an
// empty catalog, which a first build may well have.
func entriesKey(entries []*entry, siteKey string, plugins bool) string {
	if len(entries) == 0 {
		return ""
	}
	h := sha256.New()
	var buf []byte
	str := func(parts ...string) {
		for _, p := range parts {
			buf = strconv.AppendInt(buf, int64(len(p)), 10)
			buf = append(buf, ':')
			buf = append(buf, p...)
		}
	}
	list := func(l []string) {
		buf = strconv.AppendInt(buf, int64(len(l)), 10)
		buf = append(buf, '[')
		str(l...)
	}
	str("api-catalog-1", siteKey, strconv.FormatBool(plugins))
	for _, e := range entries {
		buf = buf[:0]
		str(e.name, e.description, e.format, e.status, e.docType, e.version, e.declared)
		list(e.tags)
		buf = strconv.AppendInt(buf, int64(len(e.plugins)), 10)
		for _, p := range e.plugins {
			str(p.Name, p.Category, p.Marketplace, p.URL)
		}
		for _, b := range []bool{e.hasDoc, e.hasSkillMD, e.docArchive, e.multiFile, e.usk} {
			buf = strconv.AppendBool(buf, b)
		}
		u := e.urls
		str(u.Page, u.JSON, u.Markdown, u.SkillMD, u.Archive, u.Paths, u.Schema)
		if e.usk {
			k := e.s.USK
			str(k.Version, k.Category)
			list(k.Tags)
			list(k.Capabilities)
			list(k.Platforms)
		}
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
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
