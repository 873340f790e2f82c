package siteinfo

import "strings"

// What the pages and the MCP server tell people to run to install a skill
// with the skills CLI: npx skills add SITE --skill NAME.

// InstallCommand is the skills CLI's command that installs skill name
// from the site published at siteURL.
func InstallCommand(siteURL, name string) string {
	return "npx skills add " + ShellWord(siteURL) + " --skill " + name
}

// SkillsCLIName reports whether the skills CLI (the npm package skills,
// version 1.6.0) accepts name from a discovery index: 1 to 64 lowercase
// letters, digits and single inner hyphens.
func SkillsCLIName(name string) bool {
	if len(name) < 1 || len(name) > 64 || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// ShellWord quotes s for a POSIX shell when it holds a character the shell
// would read as more than a letter of a word. static/theme.js quotes the
// URLs it makes the same way.
func ShellWord(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_.~:/%@+=,-", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
