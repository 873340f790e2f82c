// Package api writes the files agents read from a skilldex site: the static
// UASP query API (api/v1), the discovery indexes (Agent Skills v0.2.0 and
// v0.1 under .well-known, the USK mirror under v1/agent), llms.txt and
// llms-full.txt, the SkillBag SKILLS.md of the whole catalog, the
// <available_skills> prompt block, and for each skill its Markdown twin,
// its files (active documents only as text, see siteinfo.PublishedFile)
// and its .skill archive. It also reads a skill's document back from its
// api/v1/skills/NAME.json (LoadDocument), for package siteread, which
// answers queries from a built site.
package api

import (
	"strings"
)

// PromptSkill is what the <available_skills> block says about a skill.
type PromptSkill struct {
	Name, Description string
	// Location is where an agent reads the full SKILL.md: a path or a URL.
	Location string
}

// htmlEscape escapes as Python's html.escape(s, quote=True) does, which is
// what the Agent Skills reference library uses for this block.
var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// AvailableSkills renders the <available_skills> XML block that agents
// paste into their system prompt, line for line as skills-ref's to_prompt
// writes it.
func AvailableSkills(skills []PromptSkill) string {
	if len(skills) == 0 {
		return "<available_skills>\n</available_skills>"
	}
	lines := []string{"<available_skills>"}
	for _, s := range skills {
		lines = append(lines,
			"<skill>",
			"<name>", htmlEscape.Replace(s.Name), "</name>",
			"<description>", htmlEscape.Replace(s.Description), "</description>",
			"<location>", htmlEscape.Replace(s.Location), "</location>",
			"</skill>")
	}
	lines = append(lines, "</available_skills>")
	return strings.Join(lines, "\n")
}
