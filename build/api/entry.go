package api

import (
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
)

// Per-skill site paths that siteinfo does not define, because only this
// package writes and links them.
func flatArchivePath(name string) string { return ".well-known/agent-skills/" + name + ".zip" }
func legacySkillMD(name string) string   { return ".well-known/skills/" + name + "/SKILL.md" }
func agentSchemaPath(name string) string { return "v1/agent/skills/" + name + "/schema" }

// AnswerPath returns the site path of the static answer to NAME:PATH
// (DESIGN.md: api/v1/skills/<name>/<path>.json, the path escaped by
// uasp.PathFile). Not every path has one (HasAnswerFile).
func AnswerPath(name, path string) string {
	return "api/v1/skills/" + name + "/" + uasp.PathFile(path)
}

// HasAnswerFile reports whether path may have an answer file: every path
// but those whose file would be PathsFile, on a file system that ignores
// case too (a document whose top-level key is "paths" or "Paths" has that
// answer only through its document).
func HasAnswerFile(path string) bool {
	return uasp.FileKey(uasp.PathFile(path)) != uasp.FileKey(PathsFile)
}

// PathsFile is the name of the list of a skill's answer files, beside them.
const PathsFile = "paths.json"

// entry is what the api files say about one published skill, worked out
// once from its summary, without reading any file.
type entry struct {
	s           *catalog.Skill
	name        string
	description string
	format      string
	status      string
	docType     string // UASP meta.type, "" without a document
	version     string // UASP content version, "" without a document
	declared    string // the version the author declared, if any
	tags        []string
	plugins     []skillPlugin

	hasDoc     bool // the skill has a UASP document
	hasSkillMD bool // a SKILL.md is published (and so an archive)
	docArchive bool // a UASP document alone, packaged with a SKILL.md made from it
	multiFile  bool // more files than SKILL.md: discovery points to a ZIP
	usk        bool // a USK v3 skill: it gets a USK schema

	// urls holds the skill's URLs for the JSON files.
	urls urls
}

// urls are a skill's URLs, absolute when the site has a host.
type urls struct {
	Page     string `json:"page"`
	JSON     string `json:"json"`
	Markdown string `json:"markdown,omitempty"`
	SkillMD  string `json:"skill_md,omitempty"`
	Archive  string `json:"archive,omitempty"`
	Paths    string `json:"paths,omitempty"`
	Schema   string `json:"usk_schema,omitempty"`
}

// newEntry is the entry of s, a published skill whose summary is
// complete. A published skill's SKILL.md and UASP document were readable,
// or it would have been rejected.
func newEntry(s *catalog.Skill, site *siteinfo.Info) *entry {
	e := &entry{
		s:           s,
		name:        s.Name,
		description: s.Description,
		format:      string(s.Format),
		status:      string(s.Status),
		tags:        s.Tags,
		declared:    s.DeclaredVersion,
		hasSkillMD:  s.SkillFile != "",
		usk:         s.USK != nil,
	}
	if e.tags == nil {
		e.tags = []string{}
	}
	e.plugins = skillPlugins(s, site)
	if d := s.Doc; d != nil {
		e.hasDoc = true
		e.docType, e.version = d.Type, d.Version
		if e.description == "" {
			e.description = d.Description
		}
	}
	e.multiFile = e.hasSkillMD && len(s.Files) > 1
	e.docArchive = !e.hasSkillMD && e.hasDoc && s.UASPFile != ""
	e.urls = urls{
		Page: site.URL(siteinfo.SkillPage(e.name)),
		JSON: site.URL(siteinfo.APISkill(e.name)),
	}
	if site.Parts.Markdown {
		e.urls.Markdown = site.URL(siteinfo.SkillMarkdown(e.name))
	}
	if e.hasDoc && site.PublishesPaths() {
		e.urls.Paths = site.URL(siteinfo.APIPaths(e.name))
	}
	if e.hasSkillMD && site.Parts.Sources {
		e.urls.SkillMD = site.URL(siteinfo.SkillFile(e.name, "SKILL.md"))
	}
	if (e.hasSkillMD || e.docArchive) && site.Parts.Archives {
		e.urls.Archive = site.URL(siteinfo.SkillArchive(e.name))
	}
	if e.usk {
		e.urls.Schema = site.URL(agentSchemaPath(e.name))
	}
	return e
}
