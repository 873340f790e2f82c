package forge

import "testing"

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
