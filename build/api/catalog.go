package api

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/parallel"
)

// writeCatalog writes the files about the whole catalog. In serve's
// builds each is an output group keyed by what it reads of the entries
// (see catalogFileKey): a rebuild keeps those that read nothing an edit
// changed (SKILLS.md and llms.txt when only a body changed) without making
// them again. The discovery index, which digests the skills' files, and
// the plugins' file are made whole every build; the output keeps them if
// they came out the same. Digests are of the bytes the site serves, read
// back from the output, so they hold for kept files too.
func writeCatalog(out *output.Writer, c *catalog.Catalog, entries []*entry, site *siteinfo.Info, m *memo.Memo) error {
	type file struct {
		path string
		make func() ([]byte, error)
		// reads is what the file reads of the entries, for its key; nil
		// for a file that reads more than the entries and the site.
		reads *entriesDigest
	}
	// Several files read the same of each entry: each digest is worked
	// out once, by the first of them.
	all, listing, usk := newEntriesDigest(readsAll), newEntriesDigest(readsListing), newEntriesDigest(readsUSK)
	plugins := len(c.AllPlugins) > 0
	files := []file{
		{IndexPath, func() ([]byte, error) { return appendJSON(sized(entries, 1024), catalogIndex(entries, site)), nil }, all},
		{ManifestPath, func() ([]byte, error) { return appendJSON(sized(entries, 512), sessionManifest(entries, site)), nil }, all},
		{PromptPath, func() ([]byte, error) { return promptBlock(entries), nil }, listing},
		{AgentSkillsPath, func() ([]byte, error) { return agentSkillsIndex(out, entries, site) }, nil},
		{AgentInfoPath, func() ([]byte, error) { return marshal(uskInfo(entries, site)) }, usk},
		{AgentSearchPath, func() ([]byte, error) { return marshal(uskSearch(entries)) }, usk},
		{AgentCapabilityPath, func() ([]byte, error) { return marshal(uskCapabilities(entries)) }, usk},
		{SkillsCatalogPath, func() ([]byte, error) { return skillsCatalog(entries), nil }, listing},
		{OpenAPIPath, func() ([]byte, error) { return marshal(openAPI(site)) }, newEntriesDigest(func(*keyBuf, *entry) {})},
	}
	// With plugins, llms.txt lists the skills by plugin, from the
	// catalog's plugins.
	llms := file{LLMSPath, func() ([]byte, error) { return llmsTxt(c, entries, site), nil }, listing}
	if plugins {
		llms.reads = nil
	}
	// plugins.json is written with no plugin too: DESIGN.md's layout
	// lists it for every site, and a client reads an empty list rather
	// than a 404 it must tell from an error.
	files = append(files, file{PluginsPath, func() ([]byte, error) { return pluginsJSON(c, site) }, nil})
	files = append(files, llms)
	if site.PublishesLegacyDiscovery() {
		files = append(files, file{LegacySkillsPath, func() ([]byte, error) { return marshal(legacyIndex(entries, site)) }, listing})
	}
	sk := siteKey(site)
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
		if f.reads == nil {
			b, err := f.make()
			if err == nil {
				err = out.WriteRaw(f.path, b)
			}
			errs[i] = err
			return
		}
		key := ""
		if m != nil {
			// Only serve's builds, which keep the output of the last
			// one, may reuse a file: a one-off build spares the digest.
			key = catalogFileKey(f.path, entries, sk, plugins, f.reads)
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

// keyBuf collects the parts of a key, each written with its length, so
// that no two different lists of parts give one key.
type keyBuf struct{ b []byte }

func (k *keyBuf) str(parts ...string) {
	for _, p := range parts {
		k.b = strconv.AppendInt(k.b, int64(len(p)), 10)
		k.b = append(k.b, ':')
		k.b = append(k.b, p...)
	}
}

func (k *keyBuf) list(l []string) {
	k.b = strconv.AppendInt(k.b, int64(len(l)), 10)
	k.b = append(k.b, '[')
	k.str(l...)
}

func (k *keyBuf) bools(bs ...bool) {
	for _, b := range bs {
		k.b = strconv.AppendBool(k.b, b)
	}
}

// catalogFileKey is the output group key of the catalog-wide file at
// path, which reads of each entry what reads digests, and else only the
// site (siteKey), whether the catalog has plugins, and how many entries
// there are. "" (never reused) for an empty catalog, which a first build
// may well have.
func catalogFileKey(path string, entries []*entry, siteKey string, plugins bool, reads *entriesDigest) string {
	if len(entries) == 0 {
		return ""
	}
	var k keyBuf
	k.str("api-catalog-2", path, siteKey, strconv.FormatBool(plugins), strconv.Itoa(len(entries)))
	sum := reads.of(entries)
	k.b = append(k.b, sum[:]...)
	key := sha256.Sum256(k.b)
	return hex.EncodeToString(key[:])
}

// An entriesDigest hashes what a catalog-wide file reads of every entry
// (reads writes it to a keyBuf), once for all the files that read the
// same.
type entriesDigest struct {
	reads func(k *keyBuf, e *entry)
	once  sync.Once
	sum   [sha256.Size]byte
}

func newEntriesDigest(reads func(k *keyBuf, e *entry)) *entriesDigest {
	return &entriesDigest{reads: reads}
}

// of returns the digest of entries: those of the first call.
func (d *entriesDigest) of(entries []*entry) [sha256.Size]byte {
	d.once.Do(func() {
		h := sha256.New()
		var k keyBuf
		for _, e := range entries {
			k.b = k.b[:0]
			d.reads(&k, e)
			h.Write(k.b)
		}
		h.Sum(d.sum[:0])
	})
	return d.sum
}

// readsListing is what the files that list each skill with a link read:
// the available skills block, SKILLS.md, llms.txt, the legacy index.
func readsListing(k *keyBuf, e *entry) {
	k.str(e.name, e.description, e.urls.Page, e.urls.Markdown, e.urls.SkillMD)
	k.bools(e.hasSkillMD)
}

// readsUSK is what the USK discovery files read: the USK skills' fields.
func readsUSK(k *keyBuf, e *entry) {
	k.bools(e.usk)
	if !e.usk {
		return
	}
	u := e.s.USK
	k.str(e.name, e.description, e.urls.Schema, e.urls.Archive, u.Version, u.Category)
	k.list(u.Tags)
	k.list(u.Capabilities)
	k.list(u.Platforms)
}

// readsAll is every field of an entry (TestReadsAllCoversEveryEntryField
// fails on a field it misses), for the files that show most of them:
// index.json and the session manifest, which change with any skill's
// version.
func readsAll(k *keyBuf, e *entry) {
	k.str(e.name, e.description, e.format, e.status, e.docType, e.version, e.declared)
	k.list(e.tags)
	k.b = strconv.AppendInt(k.b, int64(len(e.plugins)), 10)
	for _, p := range e.plugins {
		k.str(p.Name, p.Category, p.Marketplace, p.URL)
	}
	k.bools(e.hasDoc, e.hasSkillMD, e.docArchive, e.multiFile, e.usk)
	u := e.urls
	k.str(u.Page, u.JSON, u.Markdown, u.SkillMD, u.Archive, u.Paths, u.Schema)
	readsUSK(k, e)
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
