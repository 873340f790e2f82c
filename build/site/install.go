package site

import (
	"html/template"
	"strings"
	"unicode/utf16"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// An Agent is an agent that reads skills from folders, with the folders
// the skills CLI (the npm package skills, version 1.6.0: its agent table)
// installs into for it.
type Agent struct {
	// ID is the agent's name for the CLI's --agent option.
	ID string
	// Name is how people call it.
	Name string
	// User is the folder of the user's skills, "~" the home folder.
	User string
	// Project is the folder of a project's skills, in the project's root.
	Project string
}

// Agents are the agents a skill page names in its install box, for people
// who install by hand: the most used ones. Most read a project's skills
// from .agents/skills, which the CLI calls the universal folder.
var Agents = []Agent{
	{"claude-code", "Claude Code", "~/.claude/skills", ".claude/skills"},
	{"codex", "Codex", "~/.codex/skills", ".agents/skills"},
	{"github-copilot", "GitHub Copilot", "~/.copilot/skills", ".agents/skills"},
	{"cursor", "Cursor", "~/.cursor/skills", ".agents/skills"},
	{"gemini-cli", "Gemini CLI", "~/.gemini/skills", ".agents/skills"},
	{"opencode", "OpenCode", "~/.config/opencode/skills", ".agents/skills"},
}

// installView is a skill page's install box: the skills CLI's command
// when the CLI can install the skill, then the archive, the command that
// unpacks it into an agent's folder and the folders agents read.
type installView struct {
	Name string
	// CLI is npx skills add, when the CLI can install the skill (see
	// skillsCLIInstalls); nil otherwise.
	CLI *commandView
	// Manual downloads and unpacks the archive, Archive its link, when the
	// site publishes it; nil otherwise.
	Manual  *commandView
	Archive string
	Agents  []Agent
}

// commandView is a shell command a page shows, with a button that copies
// it: Before, then URL, then After.
type commandView struct {
	ID     string // of its <pre>, for the copy button
	Before string
	URL    *shellURL
	After  string
	// Prose says what to run when the URL is not known (see shellURL) and
	// the page has no JavaScript.
	Prose template.HTML
}

// shellURL is a URL in a shell command. Word is the URL as one shell word
// when the site has an absolute base URL. Without one, the build cannot
// know the address the site is read at: Word is "", and the page's script
// (static/theme.js) makes the word from Link, the root-relative link, and
// the page's own address; without JavaScript the page says in words what
// to type instead.
type shellURL struct{ Word, Link string }

func (r *renderer) shellURL(sitePath string) *shellURL {
	u := &shellURL{Link: r.site.Link(sitePath)}
	if r.site.Absolute() {
		u.Word = siteinfo.ShellWord(r.site.URL(sitePath))
	}
	return u
}

// installOf returns the install box of s, or nil when the site offers no
// way to install it.
func (r *renderer) installOf(s *catalog.Skill) *installView {
	v := &installView{Name: s.Name, Agents: Agents}
	name := template.HTMLEscapeString(s.Name)
	if skillsCLIInstalls(s, r.site) {
		v.CLI = &commandView{
			ID: "sd-install-cli", Before: "npx skills add ", URL: r.shellURL(""), After: " --skill " + s.Name,
			Prose: template.HTML("Run <code>npx skills add</code> with this site's address and <code>--skill " + name + "</code>."),
		}
	}
	if r.site.Parts.Archives {
		file := shellSafe(s.Name) + ".skill"
		v.Archive = r.site.Link(siteinfo.SkillArchive(s.Name))
		v.Manual = &commandView{
			ID:     "sd-install-zip",
			Before: "dir=" + Agents[0].User + "\ncurl -fsSLo /tmp/" + file + " ",
			URL:    r.shellURL(siteinfo.SkillArchive(s.Name)),
			After:  ` && mkdir -p "$dir" && unzip -o /tmp/` + file + ` -d "$dir"`,
			Prose:  template.HTML("Download the archive below and unzip it into your agent's folder: <code>unzip " + name + ".skill -d " + Agents[0].User + "</code>."),
		}
	}
	if v.CLI == nil && v.Manual == nil {
		return nil
	}
	return v
}

// addAllOf returns the home page's npx skills add command, or nil when the
// CLI can install none of c's skills.
func (r *renderer) addAllOf(c *catalog.Catalog) *commandView {
	for _, s := range c.Skills {
		if skillsCLIInstalls(s, r.site) {
			return &commandView{ID: "sd-addall", Before: "npx skills add ", URL: r.shellURL(""),
				Prose: "Run <code>npx skills add</code> with this site's address."}
		}
	}
	return nil
}

// skillsCLIInstalls reports whether npx skills add SITE --skill NAME
// installs s: the Agent Skills discovery index lists it (a skill with a
// SKILL.md whose artifact the site publishes), and the CLI (version 1.6.0)
// keeps its entry, which it does for a name of 1 to 64 lowercase letters,
// digits and single inner hyphens, and a description of 1 to 1,024 UTF-16
// code units. It reads only what a released skill keeps.
func skillsCLIInstalls(s *catalog.Skill, site *siteinfo.Info) bool {
	if s.SkillFile == "" || !site.ListsAgentSkill(len(s.Files) > 1) {
		return false
	}
	desc := strings.TrimSpace(s.Description)
	n := len(utf16.Encode([]rune(desc)))
	return siteinfo.SkillsCLIName(s.Name) && n >= 1 && n <= 1024
}

// shellSafe keeps the characters a skill name may hold in a shell word.
func shellSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}
