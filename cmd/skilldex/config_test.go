package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigRepository(t *testing.T) {
	cases := []struct {
		yaml string
		want repoSpec
		err  string
	}{
		{"title: x\n", repoSpec{}, ""},
		{"repository: https://github.com/acme/skills\n", repoSpec{URL: "https://github.com/acme/skills"}, ""},
		{"repository:\n  url: https://gitlab.com/acme/skills\n  branch: dev\n  path: /docs/skills/\n", repoSpec{URL: "https://gitlab.com/acme/skills", Branch: "dev", Path: "docs/skills"}, ""},
		{"repository:\n  url: https://github.com/acme/skills\n  path: .\n", repoSpec{URL: "https://github.com/acme/skills", Path: "."}, ""},
		{"repository:\n  url: https://github.com/acme/skills\n  edit_uri: x\n", repoSpec{}, "skilldex.yaml:3:3: key repository.edit_uri is not a known key"},
		{"repository:\n  branch: dev\n", repoSpec{}, "no url"},
		{"repository: git@github.com:acme/skills.git\n", repoSpec{}, "give the http(s) URL"},
		{"repository: https://me:token@github.com/acme/skills\n", repoSpec{}, "without a user name or password"},
		{"repository:\n  url: https://github.com/acme/skills\n  path: ../up\n", repoSpec{}, "repository.path is"},
		{"repository: [a, b]\n", repoSpec{}, "repository is a URL, or a mapping"},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), ConfigFile)
		if err := os.WriteFile(p, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := loadConfig(p)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.yaml, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.yaml, err)
			continue
		}
		if cfg.Repository != c.want {
			t.Errorf("%q: %+v, want %+v", c.yaml, cfg.Repository, c.want)
		}
	}
}

// TestCatalogRootDisplay: a source is shown relative to the catalog root,
// or from its own folder when it is outside; it has a place in the
// repository when it is inside the repository that repository.path says
// holds the config's folder.
func TestCatalogRootDisplay(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo", "site")
	cs := &catalogSources{cfg: &config{Repository: repoSpec{URL: "https://github.com/a/b", Path: "site"}}, root: root}
	cases := []struct {
		src, shown, repo string
	}{
		{root, ".", "site"},
		{filepath.Join(root, "skills"), "skills", "site/skills"},
		{filepath.Join(root, "skills", "x", "SKILL.md"), filepath.Join("skills", "x", "SKILL.md"), "site/skills/x/SKILL.md"},
		{filepath.Join(root, "..", "shared"), "shared", "shared"},
		{filepath.Join(root, "..", "..", "elsewhere", "skills"), "skills", ""},
		{filepath.Join(root, "..", "..", "elsewhere", "x", "SKILL.md"), filepath.Join("x", "SKILL.md"), ""},
	}
	var srcs []string
	for _, c := range cases {
		srcs = append(srcs, c.src)
	}
	shown, repo := cs.display(srcs), cs.repoDirs(srcs)
	for _, c := range cases {
		if shown[c.src] != c.shown || repo[c.src] != c.repo {
			t.Errorf("%s: shown %q, in the repository %q; want %q, %q", c.src, shown[c.src], repo[c.src], c.shown, c.repo)
		}
	}
}

// TestConfigErrors: a mistake in the config file is named where it is,
// and only an unknown key of the file's top level is answered with the
// list of those keys; a source without a path is one, however written.
func TestConfigErrors(t *testing.T) {
	const topKeys = "(the keys are title,"
	for _, c := range []struct {
		yaml, want string
		list       bool // the message lists the top-level keys
	}{
		{"sourcs: [skills]\n", "skilldex.yaml:1:1: key sourcs is not a known key", true},
		{"sources:\n  - path: skills\n    label: x\n", "skilldex.yaml:3:5: key label is not a key of a source", false},
		{"sources:\n  - path: [skills]\n", "skilldex.yaml:2:3: the path of a source is text", false},
		{"repository:\n  url: https://github.com/acme/skills\n  edit_uri: x\n", "skilldex.yaml:3:3: key repository.edit_uri is not a known key (the keys are url, branch and path)", false},
		{"sources:\n  - ~\n", "skilldex.yaml:2:3: a source needs a path", false},
		{"sources:\n  - skills\n  - \" \"\n", "skilldex.yaml:3:3: a source needs a path", false},
		{"sources:\n  - path: \"\"\n", "skilldex.yaml:2:3: a source needs a path", false},
		{"sources: skills\n", "skilldex.yaml:1:1: sources is a list", false},
		{"strict: maybe\n", "skilldex.yaml:1:1: strict: want true or false here, not \"maybe\"", false},
		{"title:\n  a: 1\n", "skilldex.yaml:2:3: title: want text here, not a mapping", false},
		{"api: {paths: [x]}\n", "skilldex.yaml:1:1: api.paths: want text here, not a list", false},
		{"a: 1\nstrict: maybe\n", "skilldex.yaml:1:1: key a is not a known key (the keys are title,", true},
		{"a: 1\nstrict: maybe\n", "skilldex.yaml:2:1: strict: want true or false here", true},
		{"title: x\nsources: [skills\n", "skilldex.yaml:2:10: invalid YAML: did not find expected ',' or ']'", false},
		{"base_url: acme.github.io/skills\n", "base_url: base URL \"acme.github.io/skills\" starts with a host but no https://", false},
	} {
		p := filepath.Join(t.TempDir(), ConfigFile)
		if err := os.WriteFile(p, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := loadConfig(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), topKeys) != c.list {
			t.Errorf("%q: error %v, want %q (listing the top-level keys: %v)", c.yaml, err, c.want, c.list)
		}
	}
}

// TestConfigStrayDocumentEnd: a config file ending in a stray --- loads, as
// it did before its syntax was checked with yamltree.
func TestConfigStrayDocumentEnd(t *testing.T) {
	p := filepath.Join(t.TempDir(), ConfigFile)
	if err := os.WriteFile(p, []byte("title: Mine\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := loadConfig(p); err != nil || c.Title != "Mine" {
		t.Errorf("loadConfig: %+v, %v", c, err)
	}
}
