package plugin

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

var kebabRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// isKebab reports whether s is kebab-case: lowercase letters and digits in
// words joined by single hyphens.
func isKebab(s string) bool { return kebabRE.MatchString(s) }

func isSpace(r rune) bool { return unicode.IsSpace(r) }

var commandWordRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// IsCommandWord reports whether a plugin's or a marketplace's name may be
// written into an install command that people paste into a shell or into
// Claude Code: ASCII letters, digits, '.', '_' and '-', not first. Others
// (';', '$(...)', backticks, quotes, a leading '-', characters that look
// alike or hide) could run another command or an option instead.
func IsCommandWord(s string) bool { return commandWordRE.MatchString(s) }

// kebab suggests a kebab-case spelling of s.
func kebab(s string) string {
	var b strings.Builder
	hyphen := false
	var prev rune
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
		case r >= 'A' && r <= 'Z':
			if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' {
				hyphen = true
			}
		default:
			hyphen = true
			prev = r
			continue
		}
		if hyphen && b.Len() > 0 {
			b.WriteByte('-')
		}
		hyphen = false
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	if b.Len() == 0 {
		return "my-plugin"
	}
	return b.String()
}

// semverRE is the grammar of semver.org 2.0.0.
var semverRE = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?` +
	`(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$`)

func isSemver(s string) bool { return semverRE.MatchString(s) }

var leadingNumbers = regexp.MustCompile(`^[vV]?(\d+)(?:\.(\d+))?(?:\.(\d+))?`)

// semverHint suggests a semantic version close to s: "v1.2" gives "1.2.0".
func semverHint(s string) string {
	m := leadingNumbers.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "1.0.0"
	}
	parts := m[1:]
	for i, p := range parts {
		p = strings.TrimLeft(p, "0")
		if p == "" {
			p = "0"
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

// credentialsRE matches the user name and password in a URL
// (https://user:token@host, also as path.Clean leaves it, https:/user@host)
// or a scp-like address (user:token@host:path), which findings must not
// quote: the report that lists them is public.
var credentialsRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*:/{0,2})[^\s"/@]+@`)

// message formats a finding's message without the credentials the values
// it quotes may hold.
func message(format string, args ...any) string {
	return credentialsRE.ReplaceAllString(fmt.Sprintf(format, args...), "$1")
}

var ownerRepoRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// isOwnerRepo reports whether s names a GitHub repository as OWNER/REPO.
func isOwnerRepo(s string) bool {
	return ownerRepoRE.MatchString(s) && !strings.Contains(s, "..")
}
