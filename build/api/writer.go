package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// Site paths of the catalog-wide files this package writes (DESIGN.md,
// output contract). Per-skill paths come from siteinfo and the helpers of
// entry.go.
const (
	IndexPath           = "api/v1/index.json"
	ManifestPath        = "api/v1/manifest.json"
	OpenAPIPath         = "api/v1/openapi.json"
	PromptPath          = "api/v1/available_skills.txt"
	AgentSkillsPath     = ".well-known/agent-skills/index.json"
	LegacySkillsPath    = ".well-known/skills/index.json"
	LLMSPath            = "llms.txt"
	LLMSFullPath        = "llms-full.txt"
	SkillsCatalogPath   = "SKILLS.md"
	AgentInfoPath       = "v1/agent/info"
	AgentSearchPath     = "v1/agent/search"
	AgentCapabilityPath = "v1/agent/capabilities"
)

// formatVersion changes whenever what this package writes for one skill
// changes, so that incremental builds do not keep files an older skilldex
// wrote.
const formatVersion = "api-2"

// Writer writes the files agents read: the static UASP query API, the
// discovery indexes (Agent Skills, USK), llms.txt, SKILLS.md, and each
// skill's Markdown twin, source files and archive. It is a build.Writer.
type Writer struct{}

// Name is the build stage name.
func (Writer) Name() string { return "api" }

// Begin returns the api writer's share of a build. The pass writes each
// skill's files (an output group keyed by its content); then come the
// catalog-wide files, made from the skills' summaries, which digest what
// the groups wrote.
func (Writer) Begin(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) (pass.Work, error) {
	sk := siteKey(site)
	return pass.Work{
		Skill: func(i int, s *pass.Skill) error {
			e := newEntry(s.Skill, site)
			return writeSkill(out, e, s, site, groupKey(e, sk))
		},
		Catalog: func() error {
			entries := make([]*entry, len(c.Skills))
			for i, s := range c.Skills {
				entries[i] = newEntry(s, site)
			}
			return writeCatalog(out, c, entries, site, m)
		},
	}, nil
}

// siteKey digests what every skill's files depend on besides the skill:
// the site's URL and settings and this package's format.
func siteKey(site *siteinfo.Info) string {
	h := sha256.New()
	for _, part := range []string{formatVersion, site.Base.String(), site.Title, site.QueryPaths, site.LegacyDiscovery, fmt.Sprint(site.Parts)} {
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// groupKey is what a skill's files depend on: the site (siteKey), the
// skill's own inputs (its catalog key) and its status. "" (never reused)
// when the catalog has no key for the skill. The parts are joined, not
// hashed: a rebuild makes one for every skill.
func groupKey(e *entry, siteKey string) string {
	if e.s.Key == "" {
		return ""
	}
	var b strings.Builder
	for _, part := range []string{siteKey, e.s.Key, e.name, string(e.s.Status), e.s.PluginsKey()} {
		b.WriteString(strconv.Itoa(len(part)))
		b.WriteByte(':')
		b.WriteString(part)
	}
	return b.String()
}
