package siteinfo

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// activeExtensions are the file types a browser renders as a document that
// can run script or pull in other resources on our origin (HTML, SVG, XML
// with stylesheets, MHTML). A skill is untrusted input, so its files of
// these types are never served under their own name.
var activeExtensions = map[string]bool{
	".html": true, ".htm": true, ".xhtml": true, ".xht": true, ".shtml": true,
	".svg": true, ".svgz": true, ".xml": true, ".xsl": true, ".xslt": true,
	".mht": true, ".mhtml": true,
}

// textSuffix is what PublishedFile appends to a name that must not be
// served as is: hosts serve .txt as text/plain, which browsers never render.
const textSuffix = ".txt"

// PublishedFile returns the site path at which file rel of skill skillName
// is published (rel is slash-separated, relative to the skill folder), or
// "" when rel cannot be a site path at all (a backslash, "..", an empty
// segment): such a file is not published.
//
// Most files keep their path: skills/NAME/scripts/run.py. A path segment
// gets ".txt" appended when, after removing any ".txt" it already ends
// with (ignoring case):
//
//   - its extension is one a browser renders as an active document: .html
//     .htm .xhtml .xht .shtml .svg .svgz .xml .xsl .xslt .mht .mhtml, in any
//     case (evil.html -> evil.html.txt, a folder x.svg/ -> x.svg.txt/);
//   - it is the first segment and its name, ignoring case, is one of the
//     page's own files: index.html, index.html.md, NAME.skill, or a spelling
//     of SKILL.md other than "SKILL.md" itself (skill.md -> skill.md.txt,
//     as SKILL.md is where the skill's source is published).
//
// Stripping ".txt" before the test keeps the rule one-to-one: evil.html and
// evil.html.txt become evil.html.txt and evil.html.txt.txt, and since the
// rule depends only on each segment and its position, a file never lands
// where another file or folder of the skill is published.
func PublishedFile(skillName, rel string) string {
	if PathProblem(rel) != "" {
		return ""
	}
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		base := stripText(s)
		if activeExtensions[strings.ToLower(path.Ext(base))] || (i == 0 && reservedName(skillName, base)) {
			segs[i] = s + textSuffix
		}
	}
	return SkillFile(skillName, strings.Join(segs, "/"))
}

// stripText removes every trailing ".txt", ignoring case.
func stripText(s string) string {
	for len(s) > len(textSuffix) && strings.EqualFold(s[len(s)-len(textSuffix):], textSuffix) {
		s = s[:len(s)-len(textSuffix)]
	}
	return s
}

// reservedName reports whether a file at the top of the skill's folder
// would take the place of one of the files the site writes there.
func reservedName(skillName, name string) bool {
	for _, r := range []string{"index.html", "index.html.md", skillName + ".skill"} {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return strings.EqualFold(name, "SKILL.md") && name != "SKILL.md"
}

// PathProblem says why rel, the path of a file in its skill, can be
// neither an archive's entry nor a file of a site, or "". The walker
// leaves such a file out of its skill, and readers of a site drop such a
// path.
func PathProblem(rel string) string {
	switch {
	case rel == "" || rel == ".":
		return "is empty"
	case !utf8.ValidString(rel):
		return "is not valid UTF-8"
	case strings.Contains(rel, `\`):
		return "holds a backslash, which ZIP archives and Windows read as a folder separator"
	case !fs.ValidPath(rel):
		return "is not a relative slash-separated path"
	}
	return ""
}

// NameProblem says why name cannot be a skill's name on a site (its
// folder under skills/, and what readers of the site take), or "": a
// name that only breaks the spec's pattern ("My Skill", "C# tools") is
// published, with a warning, and read back as it is.
func NameProblem(name string) string {
	switch {
	case name == "." || name == "..":
		return "it is a relative folder name"
	case strings.HasPrefix(name, "."):
		return "it starts with a dot, and hosts hide such folders"
	case strings.ContainsAny(name, "/\\"):
		return "it contains a slash"
	case len(name) > 200:
		return "it is longer than 200 bytes"
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || unicode.Is(unicode.Cf, r) {
			return fmt.Sprintf("it contains the control or format character %U", r)
		}
	}
	return ""
}
