package skillscli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/site"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/browsertest"
	"github.com/skilldex/skilldex/internal/skillscli"
	"github.com/skilldex/skilldex/internal/testutil"
)

// catalogTxtar holds a skill that is one SKILL.md, which the discovery
// index points to as is, and one with scripts and references, which it
// points to as a ZIP (testSite adds a binary asset to it).
const catalogTxtar = `
-- skills/tidy-notes/SKILL.md --
---
name: tidy-notes
description: Tidy meeting notes into decisions and action items. Use when the user pastes raw notes.
---
# Tidy notes

List the decisions first, then each action item with its owner.
-- skills/release-kit/SKILL.md --
---
name: release-kit
description: Draft release notes from the commits since the last tag. Use when the user asks for a changelog.
license: MIT
---
# Release kit

Run [the script](scripts/changes.sh), then follow [the style guide](references/style.md).
-- skills/release-kit/scripts/changes.sh --
#!/bin/sh
git log --oneline "$(git describe --tags --abbrev=0)"..HEAD
-- skills/release-kit/references/style.md --
# Style

Say what changed for the user, in the past tense.
`

// testSite builds the catalog and serves it under /catalog/, as a GitHub
// project site is, with its address as the base URL. It returns the
// server, the site folder and the catalog's skills folder.
func testSite(t *testing.T) (*browsertest.Server, string, string) {
	t.Helper()
	src := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	// Bytes that no text decoding keeps as they are.
	asset := make([]byte, 256)
	for i := range asset {
		asset[i] = byte(255 - i)
	}
	if err := os.MkdirAll(filepath.Join(src, "skills", "release-kit", "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "skills", "release-kit", "assets", "mark.bin"), asset, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	srv := browsertest.NewServer(t, dir, "/catalog/")
	info, err := siteinfo.New("Test catalog", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	opt := build.Options{Output: dir, Site: info}
	opt.Sources = []string{src}
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	return srv, dir, filepath.Join(src, "skills")
}

// pageCommand returns the command of the <pre> with id on a page of the
// site, as a person copies it.
func pageCommand(t *testing.T, dir, page, id string) string {
	t.Helper()
	pre := testutil.ElementByID(testutil.ReadHTML(t, filepath.Join(dir, filepath.FromSlash(siteinfo.FileOf(page)))), id)
	if pre == nil {
		t.Fatalf("%s has no element #%s", page, id)
	}
	return testutil.Text(pre)
}

// npxArgs returns the arguments a command line gives npx skills.
func npxArgs(t *testing.T, command string) []string {
	t.Helper()
	if strings.ContainsAny(command, `'"\$`) {
		t.Fatalf("the command %q quotes: this test splits it at spaces", command)
	}
	f := strings.Fields(command)
	if len(f) < 3 || f[0] != "npx" || f[1] != "skills" {
		t.Fatalf("the command %q does not start with npx skills", command)
	}
	return f[2:]
}

// installed returns the files of the folder at p (through a symbolic
// link), by slash-separated path.
func installed(t *testing.T, p string) map[string][]byte {
	t.Helper()
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatalf("not installed: %v", err)
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(real, func(f string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(real, f)
		data, err := os.ReadFile(f)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameFiles fails t unless the folder at got holds the files of want, byte
// for byte, and no others.
func sameFiles(t *testing.T, got, want string) {
	t.Helper()
	g, w := installed(t, got), installed(t, want)
	for name, data := range w {
		if gd, ok := g[name]; !ok {
			t.Errorf("%s: %s is missing", got, name)
		} else if !bytes.Equal(gd, data) {
			t.Errorf("%s: %s differs from the source (%d bytes, want %d)", got, name, len(gd), len(data))
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: %s is not a file of the skill", got, name)
		}
	}
}

// TestPageCommandInstalls runs each skill page's npx skills add command, as
// the page shows it, with -y for no questions, in an empty project: the
// CLI finds the site's discovery index under its sub-path and installs
// the skill's files byte for byte, in the project's universal folder and,
// linked, in Claude Code's.
func TestPageCommandInstalls(t *testing.T) {
	cli := skillscli.Require(t)
	_, dir, src := testSite(t)
	for _, name := range []string{"tidy-notes", "release-kit"} {
		t.Run(name, func(t *testing.T) {
			command := pageCommand(t, dir, siteinfo.SkillPage(name), "sd-install-cli")
			home, project := t.TempDir(), t.TempDir()
			if _, err := cli.Run(t.Context(), project, home, append(npxArgs(t, command), "-y")...); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, filepath.Join(project, ".agents", "skills", name), filepath.Join(src, name))
			sameFiles(t, filepath.Join(project, ".claude", "skills", name), filepath.Join(src, name))
			others, err := os.ReadDir(filepath.Join(project, ".agents", "skills"))
			if err != nil || len(others) != 1 {
				t.Errorf("the project's .agents/skills holds %v (%v), want %s alone", others, err, name)
			}
		})
	}
}

// TestAgentFolders checks the folders the install box names for each
// agent against the CLI's own table: a skill unpacked into an agent's
// folder for the user, or into its folder in a project, is one that
// skills list (-g) says the agent has.
func TestAgentFolders(t *testing.T) {
	cli := skillscli.Require(t)
	skill := []byte("---\nname: tidy-notes\ndescription: Tidy meeting notes.\n---\nBody.\n")
	for _, a := range site.Agents {
		t.Run(a.ID, func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			for _, dir := range []string{filepath.Join(home, strings.TrimPrefix(a.User, "~/")), filepath.Join(project, a.Project)} {
				if !strings.HasPrefix(a.User, "~/") || filepath.IsAbs(a.Project) {
					t.Fatalf("%+v: want a user folder under ~/ and a project folder relative to the project", a)
				}
				if err := os.MkdirAll(filepath.Join(dir, "tidy-notes"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "tidy-notes", "SKILL.md"), skill, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, scope := range [][]string{{"ls", "-g", "--json"}, {"ls", "--json"}} {
				out, err := cli.Run(t.Context(), project, home, scope...)
				if err != nil {
					t.Fatal(err)
				}
				var listed []struct {
					Name   string   `json:"name"`
					Agents []string `json:"agents"`
				}
				if err := json.Unmarshal([]byte(out), &listed); err != nil {
					t.Fatalf("skills %s: %v\n%s", strings.Join(scope, " "), err, out)
				}
				if len(listed) != 1 || !slices.Contains(listed[0].Agents, a.Name) {
					t.Errorf("skills %s lists %+v: the folders %s and %s are not %s's", strings.Join(scope, " "), listed, a.User, a.Project, a.Name)
				}
			}
		})
	}
}

// TestHomeCommandLists runs the home page's command with --list, as the
// page suggests: the CLI lists every skill of the catalog.
func TestHomeCommandLists(t *testing.T) {
	cli := skillscli.Require(t)
	_, dir, _ := testSite(t)
	command := pageCommand(t, dir, "", "sd-addall")
	out, err := cli.Run(t.Context(), t.TempDir(), t.TempDir(), append(npxArgs(t, command), "--list")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tidy-notes", "release-kit"} {
		if !strings.Contains(out, name) {
			t.Errorf("skills add --list does not list %s:\n%s", name, out)
		}
	}
}

// TestManualCommand runs the page's command for installing by hand, which
// downloads the .skill archive and unpacks it into Claude Code's folder,
// in a shell with curl and unzip.
func TestManualCommand(t *testing.T) {
	for _, tool := range []string{"sh", "curl", "unzip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s to run the command with", tool)
		}
	}
	_, dir, src := testSite(t)
	command := pageCommand(t, dir, siteinfo.SkillPage("release-kit"), "sd-install-zip")
	home := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "sh", "-e", "-c", command)
	cmd.Dir, cmd.Env = home, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", command, err, out)
	}
	sameFiles(t, filepath.Join(home, ".claude", "skills", "release-kit"), filepath.Join(src, "release-kit"))
}
