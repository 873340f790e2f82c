package sourcename

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RepoName returns the owner/name of a repository from its URL, as a
// forge or git writes it: https://github.com/acme/skills(.git), a page
// under it (.../tree/main/skills, GitLab's .../-/tree/...),
// ssh://git@host/acme/skills.git or git@host:acme/skills.git. It is ""
// for a URL that names no repository on a host: a local path or a file:
// URL, whose folders are the build machine's and must not be published.
// Credentials in the URL are never part of the name.
func RepoName(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" || odd(raw) {
		return ""
	}
	var host, p string
	if i := strings.Index(raw, "://"); i >= 0 {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "file" || u.Host == "" {
			return ""
		}
		host, p = u.Hostname(), u.Path
	} else {
		// scp-like: [user@]host:path, where the host is not a drive
		// letter and the path does not start with a slash.
		i := strings.Index(raw, ":")
		if i <= 1 || strings.Contains(raw[:i], "/") {
			return ""
		}
		host, p = raw[:i], raw[i+1:]
		if at := strings.LastIndex(host, "@"); at >= 0 {
			host = host[at+1:]
		}
		if host == "" || strings.HasPrefix(p, "/") {
			return ""
		}
	}
	if odd(p) {
		return "" // %09 and the like, decoded
	}
	if i := strings.Index(p, "/-/"); i >= 0 {
		p = p[:i] // GitLab: what follows is a page of the project
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		if s == "" {
			continue
		}
		// No forge's owner or repository name holds "@" or ":": a
		// segment with one is the rest of a user name, password or
		// host that the address was not parsed as (user:token@host:x).
		if s == "." || s == ".." || strings.ContainsAny(s, "@:") {
			return ""
		}
		// GitHub, Gitea and Bitbucket pages of a file or folder.
		if len(segs) >= 2 && (s == "tree" || s == "blob" || s == "src") {
			break
		}
		segs = append(segs, s)
	}
	if len(segs) == 0 {
		return ""
	}
	switch strings.ToLower(host) {
	case "github.com", "www.github.com", "bitbucket.org", "codeberg.org":
		// owner/name, and nothing else, on forges without groups.
		if len(segs) > 2 {
			segs = segs[:2]
		}
	}
	segs[len(segs)-1] = strings.TrimSuffix(segs[len(segs)-1], ".git")
	if segs[len(segs)-1] == "" {
		return ""
	}
	return clean(strings.Join(segs, "/"))
}

// odd reports whether s has a character no repository URL has: a space,
// a control character, a backslash (a Windows path), or bytes that are
// not UTF-8.
func odd(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0
}
