package sourcename

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

func TestRepoName(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/acme/skills":                       "acme/skills",
		"https://github.com/acme/skills.git":                   "acme/skills",
		"https://github.com/acme/skills/":                      "acme/skills",
		"https://github.com/acme/skills/tree/main/skills":      "acme/skills",
		"https://github.com/acme/skills/extra/segments":        "acme/skills",
		"https://x-access-token:SECRET@github.com/acme/skills": "acme/skills",
		// Credentials in a scp-like address, which git cannot use either:
		// what follows the first colon is no repository path.
		"user:SECRET@github.com:acme/skills":                 "",
		"oauth2:glpat-XYZ@gitlab.com:g/p.git":                "",
		"ssh://git@github.com/acme/skills.git":               "acme/skills",
		"git@github.com:acme/skills.git":                     "acme/skills",
		"github.com:acme/skills":                             "acme/skills",
		"https://gitlab.com/group/sub/project":               "group/sub/project",
		"https://gitlab.com/group/sub/project/-/tree/main/x": "group/sub/project",
		"https://gitea.example/owner/repo/src/branch/main":   "owner/repo",
		"https://git.example.com/skills":                     "skills",
		"":                                                   "",
		"https://github.com/":                                "",
		"https://github.com/.git":                            "",
		"/home/someone/repos/skills.git":                     "",
		"../skills.git":                                      "",
		"file:///home/someone/repos/skills.git":              "",
		`C:\Users\someone\skills`:                            "",
		"c:/Users/someone/skills":                            "",
		"git@github.com:/abs/path":                           "",
		"https://github.com/acme/../etc":                     "",
		"not a url":                                          "",
	} {
		if got := RepoName(in); got != want {
			t.Errorf("RepoName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOriginURL(t *testing.T) {
	for _, c := range []struct{ config, want string }{
		{"[core]\n\tbare = false\n[remote \"origin\"]\n\turl = https://github.com/acme/skills.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", "https://github.com/acme/skills.git"},
		{"[remote \"upstream\"]\n\turl = https://github.com/other/skills\n[remote \"origin\"]\n\tURL = \"git@github.com:acme/skills.git\" ; a comment\n", "git@github.com:acme/skills.git"},
		{"[Remote \"origin\"] url = https://github.com/acme/one\n\turl = https://github.com/acme/two\n", "https://github.com/acme/one"},
		{"[remote.origin]\nurl=https://github.com/acme/old\n", "https://github.com/acme/old"},
		{"[remote \"Origin\"]\n\turl = https://github.com/acme/case\n", ""},
		{"[remote \"origin\"]\n\tfetch = x\n[branch \"main\"]\n\turl = https://github.com/acme/not\n", ""},
		{"# [remote \"origin\"]\n#\turl = https://github.com/acme/commented\n", ""},
		{"[remote \"origin\"\n\turl = https://github.com/acme/broken\n", ""},
		{"", ""},
	} {
		if got := originURL(c.config); got != c.want {
			t.Errorf("originURL(%q) = %q, want %q", c.config, got, c.want)
		}
	}
}

func FuzzOriginURL(f *testing.F) {
	f.Add("[remote \"origin\"]\n\turl = https://github.com/acme/skills.git\n")
	f.Add("[remote.origin]\nurl=\"a\\\"b\" # c\n")
	f.Fuzz(func(t *testing.T, config string) {
		u := originURL(config)
		if strings.ContainsAny(u, "\n") {
			t.Fatalf("originURL(%q) = %q spans lines", config, u)
		}
		if n := RepoName(u); strings.Contains(n, "@") && !strings.Contains(u, "@") {
			t.Fatalf("RepoName(%q) = %q", u, n)
		}
	})
}

func FuzzRepoName(f *testing.F) {
	for _, s := range []string{"https://github.com/acme/skills.git", "git@host:a/b", "https://u:p@host/a/b/-/c", "/local/path"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n := RepoName(raw)
		if n == "" {
			return
		}
		if len(n) > maxName || strings.HasPrefix(n, "/") || strings.Contains(n, "//") || strings.ContainsAny(n, "\n\r\t@:") {
			t.Fatalf("RepoName(%q) = %q", raw, n)
		}
		// Credentials never reach the name.
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok && len(pw) > 3 && strings.Contains(n, pw) && !strings.Contains(u.Host+u.Path, pw) {
				t.Fatalf("RepoName(%q) = %q holds the password", raw, n)
			}
		}
	})
}

// TestRoots names roots by config, repository, git remote and folder.
func TestRoots(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- checkout/.git/config --
[remote "origin"]
	url = git@github.com:acme/from-git.git
-- local-remote/.git/config --
[remote "origin"]
	url = /home/someone/private/repo.git
-- worktree/.git --
gitdir: ../main-repo/.git/worktrees/wt
-- main-repo/.git/worktrees/wt/commondir --
../..
-- main-repo/.git/config --
[remote "origin"]
	url = https://github.com/acme/main-repo
-- plain/skills/.keep --
-- archive.skill --
zip
-- folder/SKILL.md --
x
`)
	j := func(p string) string { return filepath.Join(dir, p) }
	named := j("plain")
	got := Roots([]string{j("checkout"), j("local-remote"), j("worktree"), j("plain/skills"), j("archive.skill"), j("folder/SKILL.md"), named, j("plain") + "/"},
		Options{Names: map[string]string{named: "  Team\n skills  "}, Repository: "https://github.com/acme/ignored"})
	want := []string{"acme/from-git", "local-remote", "acme/main-repo", "skills", "archive.skill", "folder", "Team skills", "Team skills"}
	for i := range want {
		if got[i].Name != want[i] {
			t.Errorf("root %d: %q, want %q", i, got[i].Name, want[i])
		}
	}
	// A catalog of one root is its repository's.
	if got := Roots([]string{j("plain/skills")}, Options{Repository: "https://github.com/acme/catalog"}); got[0].Name != "acme/catalog" {
		t.Errorf("a single root with a repository: %q", got[0].Name)
	}
	// The working folder is named by its name, not ".".
	wd, _ := os.Getwd()
	if got := Roots([]string{"."}, Options{}); got[0].Name != filepath.Base(wd) {
		t.Errorf("root . is named %q", got[0].Name)
	}
}

func TestOfWorkspace(t *testing.T) {
	folder := Root{Name: "catalog", folder: true}
	named := Root{Name: "acme/skills"}
	for _, c := range []struct {
		r         Root
		workspace string
		want      string
	}{
		{folder, "", "catalog"},
		{folder, ".", "catalog"},
		{folder, "teams/data-bag", "data-bag"},
		{named, "teams/data-bag", "acme/skills"},
	} {
		if got := c.r.Of(c.workspace); got != c.want {
			t.Errorf("%+v.Of(%q) = %q, want %q", c.r, c.workspace, got, c.want)
		}
	}
}
