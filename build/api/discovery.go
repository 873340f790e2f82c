package api

import (
	"encoding/hex"
	"regexp"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/yamltree"
)

// AgentSkillsSchema identifies version 0.2.0 of the Agent Skills discovery
// index (the well-known URI draft, /.well-known/agent-skills/index.json).
const AgentSkillsSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// agentSkill is one entry of the v0.2.0 index: a single artifact, the
// SKILL.md for a skill that is only that, else a ZIP of the skill folder
// with SKILL.md at its top.
type agentSkill struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Digest      string `json:"digest"`
	Version     string `json:"version,omitempty"`
}

// semver matches the versions the index may carry (semver.org 2.0.0).
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`)

// agentSkillsIndex lists the skills that have a SKILL.md (a UASP document
// alone is not an Agent Skill), with the SHA-256 of the bytes served at
// each url. The artifact is the SKILL.md of a skill that is only that (its
// published copy, else the v0.1 one), else the skill's flat ZIP; a skill
// whose artifact the site does not publish (see siteinfo.Parts) is left
// out.
func agentSkillsIndex(out *output.Writer, entries []*entry, site *siteinfo.Info) ([]byte, error) {
	idx := agentSkillsFile{Schema: AgentSkillsSchema, Skills: []agentSkill{}}
	for _, e := range entries {
		if !e.hasSkillMD || !site.ListsAgentSkill(e.multiFile) {
			continue
		}
		as := agentSkill{Name: e.name, Type: "skill-md", Description: e.description}
		var artifact string
		switch {
		case e.multiFile:
			as.Type, artifact = "archive", flatArchivePath(e.name)
		case site.Parts.Sources:
			artifact = siteinfo.SkillFile(e.name, "SKILL.md")
		default:
			artifact = legacySkillMD(e.name)
		}
		sum, err := out.Digest(artifact)
		if err != nil {
			return nil, err
		}
		as.URL, as.Digest = site.URL(artifact), "sha256:"+hex.EncodeToString(sum[:])
		if semver.MatchString(e.declared) {
			as.Version = e.declared
		}
		idx.Skills = append(idx.Skills, as)
	}
	return appendJSON(sized(entries, 512), idx), nil
}

// agentSkillsFile is the v0.2.0 index.
type agentSkillsFile struct {
	Schema string       `json:"$schema"`
	Skills []agentSkill `json:"skills"`
}

// legacySkill is an entry of the v0.1 index, whose clients fetch each of
// files from .well-known/skills/NAME/. Only SKILL.md is mirrored there;
// url points v0.1 clients that follow it (and people) to the canonical
// copy, beside the skill's other files.
type legacySkill struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Files       []string `json:"files"`
	URL         string   `json:"url"`
}

func legacyIndex(entries []*entry, site *siteinfo.Info) any {
	skills := []legacySkill{}
	for _, e := range entries {
		if e.hasSkillMD {
			skills = append(skills, legacySkill{e.name, e.description, []string{"SKILL.md"}, e.urls.SkillMD})
		}
	}
	return struct {
		Skills []legacySkill `json:"skills"`
	}{skills}
}

// USK's agent discovery API (usk.md section 7) as static files. Only USK v3
// skills take part, as section 9 says; the query parameters of
// /v1/agent/search cannot be static, so it lists every skill and the
// client filters.

type uskInfoFile struct {
	Spec           string            `json:"spec"`
	SkillMDVersion string            `json:"skill_md_version"`
	Static         bool              `json:"static"`
	Skills         int               `json:"skills"`
	Endpoints      map[string]string `json:"endpoints"`
	Note           string            `json:"note"`
}

func uskInfo(entries []*entry, site *siteinfo.Info) uskInfoFile {
	n := 0
	for _, e := range entries {
		if e.usk {
			n++
		}
	}
	return uskInfoFile{
		Spec: "usk/1.0", SkillMDVersion: "v3", Static: true, Skills: n,
		Endpoints: map[string]string{
			"info":         site.URL(AgentInfoPath),
			"search":       site.URL(AgentSearchPath),
			"capabilities": site.URL(AgentCapabilityPath),
			"schema":       site.URL("v1/agent/skills/") + "{skill_id}/schema",
			"download":     site.URL("skills/") + "{skill_id}/{skill_id}.skill",
		},
		Note: "A static mirror: search ignores its query parameters and lists every USK v3 skill; filter by capability and platform on the client.",
	}
}

type uskSearchResult struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Version      string   `json:"version,omitempty"`
	Category     string   `json:"category,omitempty"`
	Tags         []string `json:"tags"`
	Capabilities []string `json:"capabilities"`
	Platforms    []string `json:"platform_compatibility"`
	SchemaURL    string   `json:"schema_url"`
	DownloadURL  string   `json:"download_url,omitempty"`
}

func uskSearch(entries []*entry) any {
	results := []uskSearchResult{}
	for _, e := range entries {
		if !e.usk {
			continue
		}
		u := e.s.USK
		results = append(results, uskSearchResult{
			ID: e.name, Name: e.name, Description: e.description, Version: u.Version, Category: u.Category,
			Tags: nonNil(u.Tags), Capabilities: nonNil(u.Capabilities), Platforms: nonNil(u.Platforms),
			SchemaURL: e.urls.Schema, DownloadURL: e.urls.Archive,
		})
	}
	return struct {
		Count   int               `json:"count"`
		Results []uskSearchResult `json:"results"`
	}{len(results), results}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type uskCapability struct {
	Name   string   `json:"name"`
	Skills []string `json:"skills"`
}

// uskCapabilities maps each capability (as written, grouped ignoring
// case) to the skills that declare it, both sorted.
func uskCapabilities(entries []*entry) any {
	byKey := map[string]*uskCapability{}
	for _, e := range entries {
		if !e.usk {
			continue
		}
		for _, c := range e.s.USK.Capabilities {
			c = strings.TrimSpace(c)
			k := strings.ToLower(c)
			if c == "" {
				continue
			}
			if byKey[k] == nil {
				byKey[k] = &uskCapability{Name: c}
			}
			if s := byKey[k].Skills; len(s) == 0 || s[len(s)-1] != e.name {
				byKey[k].Skills = append(byKey[k].Skills, e.name)
			}
		}
	}
	caps := []uskCapability{}
	for _, c := range byKey {
		caps = append(caps, *c)
	}
	slices.SortFunc(caps, func(a, b uskCapability) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return struct {
		Capabilities []uskCapability `json:"capabilities"`
	}{caps}
}

// uskSchemaFields are the frontmatter fields of GET
// /v1/agent/skills/{id}/schema, in USK's order, copied as the author wrote
// them.
var uskSchemaFields = []string{"spec", "version", "interface", "input_schema", "output_schema", "capabilities",
	"permissions", "category", "tags", "author", "homepage", "platform_compatibility", "requirements",
	"changelog", "examples", "author_agent"}

// uskSchema is v1/agent/skills/NAME/schema.
func uskSchema(e *entry, s *catalog.Content) tree {
	m := yamltree.NewMap()
	m.Set("id", e.name)
	m.Set("name", e.name)
	m.Set("description", e.description)
	data := s.Frontmatter.Data
	for _, k := range uskSchemaFields {
		if v, ok := data.Get(k); ok {
			m.Set(k, v)
		}
	}
	m.Set("status", e.status)
	if e.urls.Archive != "" {
		m.Set("download_url", e.urls.Archive)
	}
	if e.urls.SkillMD != "" {
		m.Set("skill_md_url", e.urls.SkillMD)
	}
	m.Set("uasp_url", e.urls.JSON)
	m.Set("page_url", e.urls.Page)
	return tree{m}
}
