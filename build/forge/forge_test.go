package forge

import (
	"net/url"
	"strings"
	"testing"
)

func TestFile(t *testing.T) {
	const file = "skills/brain storming/SKILL.md"
	cases := []struct {
		repo, branch string
		view, edit   string
	}{
		{"https://github.com/acme/skills", "", "https://github.com/acme/skills/blob/main/skills/brain%20storming/SKILL.md", "https://github.com/acme/skills/edit/main/skills/brain%20storming/SKILL.md"},
		{"https://github.com/acme/skills.git/", "release/2.x", "https://github.com/acme/skills/blob/release/2.x/skills/brain%20storming/SKILL.md", "https://github.com/acme/skills/edit/release/2.x/skills/brain%20storming/SKILL.md"},
		{"https://github.acme.corp/team/skills", "trunk", "https://github.acme.corp/team/skills/blob/trunk/skills/brain%20storming/SKILL.md", "https://github.acme.corp/team/skills/edit/trunk/skills/brain%20storming/SKILL.md"},
		{"https://gitlab.com/group/sub/skills", "", "https://gitlab.com/group/sub/skills/-/blob/main/skills/brain%20storming/SKILL.md", "https://gitlab.com/group/sub/skills/-/edit/main/skills/brain%20storming/SKILL.md"},
		{"https://gitlab.example.org/skills", "dev", "https://gitlab.example.org/skills/-/blob/dev/skills/brain%20storming/SKILL.md", "https://gitlab.example.org/skills/-/edit/dev/skills/brain%20storming/SKILL.md"},
		{"https://codeberg.org/acme/skills", "", "https://codeberg.org/acme/skills/src/branch/main/skills/brain%20storming/SKILL.md", "https://codeberg.org/acme/skills/_edit/main/skills/brain%20storming/SKILL.md"},
		{"https://gitea.com/acme/skills", "", "https://gitea.com/acme/skills/src/branch/main/skills/brain%20storming/SKILL.md", "https://gitea.com/acme/skills/_edit/main/skills/brain%20storming/SKILL.md"},
		{"https://bitbucket.org/acme/skills", "", "https://bitbucket.org/acme/skills/src/main/skills/brain%20storming/SKILL.md", "https://bitbucket.org/acme/skills/src/main/skills/brain%20storming/SKILL.md?mode=edit"},
		// An unknown forge: the repository alone.
		{"https://git.example.com/acme/skills?x=1#y", "", "https://git.example.com/acme/skills", ""},
		// A branch or file name with characters that end a URL's path.
		{"https://github.com/a/b", "fix?#1", "https://github.com/a/b/blob/fix%3F%231/skills/brain%20storming/SKILL.md", "https://github.com/a/b/edit/fix%3F%231/skills/brain%20storming/SKILL.md"},
	}
	for _, c := range cases {
		l, ok := File(c.repo, c.branch, file)
		if !ok || l.View != c.view || l.Edit != c.edit {
			t.Errorf("File(%q, %q):\n got %v %+v\nwant %q %q", c.repo, c.branch, ok, l, c.view, c.edit)
		}
	}
}

func TestRepositoryRejects(t *testing.T) {
	for _, repo := range []string{"", "javascript:alert(1)", "git@github.com:acme/skills.git", "ssh://github.com/acme/skills", "https://", "//github.com/acme/skills", "https://user:token@github.com/acme/skills", "file:///home/me/skills"} {
		if l, ok := File(repo, "", "SKILL.md"); ok {
			t.Errorf("File(%q) = %+v, want no links", repo, l)
		}
	}
}

// FuzzFile: whatever the config says, a link is an http(s) URL of the
// repository's host, without credentials, with nothing a page's attribute
// or a reader's eye would take for its end.
func FuzzFile(f *testing.F) {
	f.Add("https://github.com/acme/skills", "main", "skills/a/SKILL.md")
	f.Add("https://gitlab.example.org/a/b.git/", "release/1.x", "x y/ü.md")
	f.Add("https://u:p@bitbucket.org/a/b?q#f", "../..", "/../../etc/passwd")
	f.Add("javascript:alert(1)//github.com", "\"><script>", "\x00\n")
	f.Fuzz(func(t *testing.T, repo, branch, file string) {
		l, ok := File(repo, branch, file)
		if !ok {
			if l != (Links{}) {
				t.Fatalf("links without a repository: %+v", l)
			}
			return
		}
		base, _ := Repository(repo)
		host, _ := url.Parse(base)
		for _, link := range []string{l.View, l.Edit} {
			if link == "" {
				continue
			}
			u, err := url.Parse(link)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host != host.Host || u.User != nil {
				t.Fatalf("%q: not an http(s) link to %s: %v", link, host.Host, err)
			}
			if !strings.HasPrefix(link, base) || strings.ContainsAny(link, " \t\r\n\"'<>`\x00") {
				t.Fatalf("%q: leaves the repository %s or holds a character to escape", link, base)
			}
		}
	})
}
