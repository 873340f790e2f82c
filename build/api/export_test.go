package api

import (
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// SkillJSONBothWays returns a skill's NAME.json as written and as
// encoding/json gives it, which must be the same bytes.
func SkillJSONBothWays(s *catalog.Skill, site *siteinfo.Info) (direct, viaMarshal []byte, err error) {
	e := newEntry(s, site)
	sd := skillJSON(e)
	viaMarshal, err = marshal(sd)
	return appendSkillJSON(nil, &sd), viaMarshal, err
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
	for _, f := range []interface{ appendJSON([]byte) []byte }{
		catalogIndex(entries, site), sessionManifest(entries, site), discovery,
	} {
		m, err := marshal(f)
		if err != nil {
			return nil, nil, err
		}
		direct, viaMarshal = append(direct, f.appendJSON(nil)), append(viaMarshal, m)
	}
	return direct, viaMarshal, nil
}
