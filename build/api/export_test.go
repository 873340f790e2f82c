package api

import (
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// SkillJSONBothWays returns the NAME.json of c's skill s as written and as
// encoding/json gives it, which must be the same bytes.
func SkillJSONBothWays(c *catalog.Catalog, s *catalog.Skill, site *siteinfo.Info) (direct, viaMarshal []byte, err error) {
	k, err := c.Content(s)
	if err != nil {
		return nil, nil, err
	}
	e := newEntry(s, site)
	sd := skillJSON(e, k, site)
	viaMarshal, err = marshal(sd)
	return appendJSON(nil, &sd), viaMarshal, err
}

// CatalogJSONBothWays returns index.json, manifest.json and the v0.2.0
// discovery index of skills as written and as encoding/json gives them,
// which must be the same bytes.
func CatalogJSONBothWays(skills []*catalog.Skill, site *siteinfo.Info) (direct, viaMarshal [][]byte, err error) {
	entries := make([]*entry, len(skills))
	for i, s := range skills {
		entries[i] = newEntry(s, site)
	}
	discovery := agentSkillsFile{Schema: AgentSkillsSchema, Skills: []agentSkill{}}
	for _, e := range entries {
		discovery.Skills = append(discovery.Skills, agentSkill{
			Name: e.name, Type: "skill-md", Description: e.description, URL: e.urls.Page,
			Digest: "sha256:" + e.name, Version: e.declared,
		})
	}
	for _, f := range []any{catalogIndex(entries, site), sessionManifest(entries, site), discovery} {
		m, err := marshal(f)
		if err != nil {
			return nil, nil, err
		}
		direct, viaMarshal = append(direct, appendJSON(nil, f)), append(viaMarshal, m)
	}
	return direct, viaMarshal, nil
}

// TwinYAMLBothWays returns a Markdown twin's YAML header as written and as
// yaml.v3 gives it, which must be the same bytes, and whether it was
// written directly. fields fill name, description, format, status, type,
// version, declared_version, page, source, archive, api and paths in that
// order; missing ones are empty.
func TwinYAMLBothWays(fields []string, tags []string) (direct, viaYAML []byte, fast bool) {
	var v [12]string
	copy(v[:], fields)
	fm := twinFrontmatter{Name: v[0], Description: v[1], Format: v[2], Status: v[3], Type: v[4],
		Version: v[5], Declared: v[6], Page: v[7], Source: v[8], Archive: v[9], API: v[10], Paths: v[11], Tags: tags}
	direct, viaYAML = fm.appendYAML(nil), fm.appendYAMLSlow(nil)
	return direct, viaYAML, fm.fast()
}

// TwinYAMLOf returns the YAML header of s's Markdown twin both ways, as
// TwinYAMLBothWays does.
func TwinYAMLOf(s *catalog.Skill, site *siteinfo.Info) (direct, viaYAML []byte, fast bool) {
	e := newEntry(s, site)
	fm := e.twinFrontmatter()
	return fm.appendYAML(nil), fm.appendYAMLSlow(nil), fm.fast()
}

// TwinHeader is a Markdown twin's header, for benchmarks.
type TwinHeader = twinFrontmatter

// TwinHeaderOf returns s's twin header.
func TwinHeaderOf(s *catalog.Skill, site *siteinfo.Info) *TwinHeader {
	return newEntry(s, site).twinFrontmatter()
}

func (fm *TwinHeader) AppendYAML(b []byte) []byte     { return fm.appendYAML(b) }
func (fm *TwinHeader) AppendYAMLSlow(b []byte) []byte { return fm.appendYAMLSlow(b) }

// TwinsFromFiles counts the twins llms-full.txt copied from their own
// files rather than from the previous llms-full.txt.
var TwinsFromFiles = &twinsFromFiles
