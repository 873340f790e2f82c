// Package forge links to the files of a source repository on the forge that
// hosts it: the page that shows a file and the page that edits it, in the
// URL forms of GitHub, GitLab, Gitea (Codeberg, Forgejo) and Bitbucket.
package forge

import (
	"net/url"
	"strings"

	"github.com/skilldex/skilldex/build/siteinfo"
)

// DefaultBranch is the branch links name when none is given.
const DefaultBranch = "main"

// Links are a file's pages on its forge.
type Links struct {
	// View shows the file; on a forge whose URL forms are not known, it
	// is the repository itself.
	View string
	// Edit opens the file in the forge's editor; "" on an unknown forge.
	Edit string
}

// kind is a forge's family of URL forms.
type kind int

const (
	unknown kind = iota
	github
	gitlab
	gitea
	bitbucket
)

// kindOf tells the forge by its host: the public services by name, a
// self-hosted one by the product its host name starts with
// (gitlab.example.com).
func kindOf(host string) kind {
	host = strings.ToLower(host)
	switch host {
	case "github.com":
		return github
	case "gitlab.com":
		return gitlab
	case "codeberg.org", "gitea.com":
		return gitea
	case "bitbucket.org":
		return bitbucket
	}
	first, _, _ := strings.Cut(host, ".")
	switch first {
	case "github":
		return github
	case "gitlab":
		return gitlab
	case "gitea", "forgejo", "codeberg":
		return gitea
	}
	return unknown
}

// Repository returns repo as a link to publish: an http(s) URL with a host,
// without credentials, query, fragment, trailing slash or ".git"; ok is
// false when repo is not such a URL.
func Repository(repo string) (link string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(repo))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", false
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	p := strings.TrimSuffix(strings.TrimRight(u.Path, "/"), ".git")
	u.Path, u.RawPath = p, ""
	return u.String(), true
}

// File returns the links of file (slash-separated, relative to the
// repository's root folder) on branch (DefaultBranch when "") of the
// repository at repo. ok is false when repo is not an http(s) URL.
func File(repo, branch, file string) (l Links, ok bool) {
	base, ok := Repository(repo)
	if !ok {
		return Links{}, false
	}
	if branch == "" {
		branch = DefaultBranch
	}
	u, _ := url.Parse(base)
	at := siteinfo.EscapePath(branch) + "/" + siteinfo.EscapePath(strings.TrimPrefix(file, "/"))
	switch kindOf(u.Hostname()) {
	case github:
		return Links{View: base + "/blob/" + at, Edit: base + "/edit/" + at}, true
	case gitlab:
		return Links{View: base + "/-/blob/" + at, Edit: base + "/-/edit/" + at}, true
	case gitea:
		return Links{View: base + "/src/branch/" + at, Edit: base + "/_edit/" + at}, true
	case bitbucket:
		return Links{View: base + "/src/" + at, Edit: base + "/src/" + at + "?mode=edit"}, true
	}
	return Links{View: base}, true
}
