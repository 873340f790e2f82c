package build_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/testutil"
)

// marketplaceTxtar is a marketplace for Claude Code and Codex: tools (its
// own folder, a category, keywords and a Codex manifest), docs (strict:
// false, listing writer), and a plain skill of neither. Names and
// descriptions carry markup that must come out escaped; writer's body
// mentions tools:deployer.
const marketplaceTxtar = `
-- .claude-plugin/marketplace.json --
{
  "name": "acme-market",
  "owner": {"name": "Acme"},
  "metadata": {"description": "Acme's <b>tools</b> for agents"},
  "plugins": [
    {"name": "tools", "source": "./plugins/tools", "description": "Tools <script>alert(1)</script>", "category": "infrastructure", "keywords": ["ops"], "homepage": "https://example.com/tools"},
    {"name": "docs", "source": "./", "strict": false, "skills": ["./plugins/tools/skills/writer"], "description": "Writing"}
  ]
}
-- .agents/plugins/marketplace.json --
{
  "name": "acme-codex",
  "plugins": [{"name": "tools", "source": {"source": "local", "path": "./plugins/tools"}}]
}
-- plugins/tools/.claude-plugin/plugin.json --
{"name": "tools", "version": "1.2.0", "author": {"name": "Ann <ann@example.com>"}, "license": "MIT"}
-- plugins/tools/.codex-plugin/plugin.json --
{"name": "tools", "version": "1.2.0", "skills": "./skills/"}
-- plugins/tools/agents/a.md --
agent
-- plugins/tools/commands/c.md --
command
-- plugins/tools/skills/deployer/SKILL.md --
---
name: deployer
description: Deploys services to the cluster. Use when deploying.
---
Body.
-- plugins/tools/skills/writer/SKILL.md --
---
name: writer
description: Writes release documents. Use when writing.
metadata:
  category: writing
---
Deploy first with tools:deployer, or ` + "`tools:deployer`" + `; tools:unknown stays text.
-- plain/SKILL.md --
---
name: plain
description: A skill of no plugin. Use when testing.
---
Body.
`

func buildMarketplace(t *testing.T) string {
	t.Helper()
	return buildMarketplaceFrom(t, testutil.WriteTxtar(t, t.TempDir(), marketplaceTxtar))
}

func buildMarketplaceFrom(t *testing.T, src string) string {
	t.Helper()
	return buildMarketplaceNamed(t, src, "acme/market")
}

// buildMarketplaceNamed builds the site of src, whose source is named
// name (a repository, OWNER/NAME, or not).
func buildMarketplaceNamed(t *testing.T, src, name string) string {
	t.Helper()
	info, err := siteinfo.New("Acme", "https://acme.example/skills/")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	opt := build.Options{Output: out, Site: info, NoMinify: true}
	opt.Sources = []string{src}
	opt.SourceNames = map[string]string{src: name}
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	return out
}

func readSite(t *testing.T, site, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPluginInstallsWithoutRepository: when the marketplace's repository
// is not known, the install commands do not add it from the site, which
// publishes no marketplace file (they said /plugin marketplace add
// https://acme.example/skills/, which fails); they install from a
// marketplace already added.
func TestPluginInstallsWithoutRepository(t *testing.T) {
	site := buildMarketplaceNamed(t, testutil.WriteTxtar(t, t.TempDir(), marketplaceTxtar), "market")
	page := readSite(t, site, "plugins/tools/index.html")
	api := readSite(t, site, "api/v1/plugins.json")
	for name, text := range map[string]string{"plugins/tools/": page, "api/v1/plugins.json": api} {
		if strings.Contains(text, "marketplace add") {
			t.Errorf("%s adds the marketplace from somewhere", name)
		}
		if !strings.Contains(text, "/plugin install tools@acme-market") {
			t.Errorf("%s lacks the install command", name)
		}
	}
	if !strings.Contains(page, "With the marketplace <code>acme-market</code> added, from the repository that publishes it") {
		t.Error("plugins/tools/ does not say which marketplace to add first")
	}
	if strings.Contains(readSite(t, buildMarketplace(t), "plugins/tools/index.html"), "With the marketplace") {
		t.Error("plugins/tools/ says to add the marketplace its commands add")
	}
}

func TestPluginPages(t *testing.T) {
	site := buildMarketplace(t)
	tools := readSite(t, site, "plugins/tools/index.html")
	for _, want := range []string{
		"<h1>tools</h1>",
		"Tools &lt;script&gt;alert(1)&lt;/script&gt;",
		"version 1.2.0", "license: MIT", "Ann &lt;ann@example.com&gt;",
		`href="/skills/categories/infrastructure/">category: infrastructure<`,
		`<a href="https://example.com/tools" rel="nofollow noopener noreferrer">`,
		"<code>./plugins/tools</code>",
		`<th scope="row">agents</th><td>1</td>`, `<th scope="row">commands</th><td>1</td>`,
		"<code>/plugin marketplace add acme/market</code>", "<code>/plugin install tools@acme-market</code>",
		"<code>codex plugin marketplace add acme/market</code>", "<code>codex plugin add tools@acme-codex</code>",
		`href="/skills/skills/deployer/"`, `href="/skills/skills/writer/"`,
	} {
		if !strings.Contains(tools, want) {
			t.Errorf("plugins/tools/ lacks %s", want)
		}
	}
	if strings.Contains(tools, "<script>alert") {
		t.Error("plugins/tools/ holds the description's markup unescaped")
	}
	// docs is Claude Code's only: no Codex command.
	if docs := readSite(t, site, "plugins/docs/index.html"); strings.Contains(docs, "codex plugin") || !strings.Contains(docs, "/plugin install docs@acme-market") {
		t.Error("plugins/docs/ has the wrong install commands")
	}
	index := readSite(t, site, "plugins/index.html")
	for _, want := range []string{`href="/skills/plugins/tools/"`, `href="/skills/plugins/docs/"`, "Acme&#39;s &lt;b&gt;tools&lt;/b&gt; for agents"} {
		if !strings.Contains(index, want) {
			t.Errorf("plugins/ lacks %s", want)
		}
	}
	home := readSite(t, site, "index.html")
	for _, want := range []string{`<a href="/skills/plugins/">Plugins</a>`, "<strong>acme-market</strong>", "<h2>Plugins</h2>", `plugin: tools</a>`} {
		if !strings.Contains(home, want) {
			t.Errorf("the home page lacks %s", want)
		}
	}
	deployer := readSite(t, site, "skills/deployer/index.html")
	for _, want := range []string{`href="/skills/plugins/tools/">plugin: tools</a>`, "category: infrastructure (from its plugin)", "#ops (from its plugin)"} {
		if !strings.Contains(deployer, want) {
			t.Errorf("skills/deployer/ lacks %s", want)
		}
	}
	writer := readSite(t, site, "skills/writer/index.html")
	for _, want := range []string{
		"category: writing<", // its own, not inherited
		`<a href="/skills/skills/deployer/">tools:deployer</a>`,
		`<a href="/skills/skills/deployer/"><code>tools:deployer</code></a>`,
		"tools:unknown stays text",
	} {
		if !strings.Contains(writer, want) {
			t.Errorf("skills/writer/ lacks %s", want)
		}
	}
	if strings.Contains(readSite(t, site, "skills/plain/index.html"), "plugin:") {
		t.Error("skills/plain/ has a plugin badge")
	}
}

func TestPluginsAPI(t *testing.T) {
	site := buildMarketplace(t)
	var pf struct {
		Count        int
		Marketplaces []struct{ Name, Description, Repository string }
		Plugins      []struct {
			Name, Description, Version, Category, Marketplace, Source, URL string
			Clients                                                        []string
			Components                                                     map[string]int
			Skills                                                         []string
			Install                                                        []struct {
				Client   string
				Commands []string
			}
		}
	}
	if err := json.Unmarshal([]byte(readSite(t, site, "api/v1/plugins.json")), &pf); err != nil {
		t.Fatal(err)
	}
	if pf.Count != 2 || len(pf.Plugins) != 2 || pf.Marketplaces[0].Repository != "acme/market" {
		t.Fatalf("plugins.json: %+v", pf)
	}
	tools := pf.Plugins[1]
	if tools.Name != "tools" || tools.Version != "1.2.0" || tools.Category != "infrastructure" || tools.URL != "https://acme.example/skills/plugins/tools/" ||
		!slices.Equal(tools.Skills, []string{"deployer", "writer"}) || !slices.Equal(tools.Clients, []string{"claude-code", "codex"}) ||
		tools.Components["agents"] != 1 || len(tools.Install) != 2 || tools.Install[1].Commands[1] != "codex plugin add tools@acme-codex" {
		t.Errorf("tools: %+v", tools)
	}
	var sk struct {
		Plugins []struct{ Name, Category, Marketplace, URL string }
	}
	if err := json.Unmarshal([]byte(readSite(t, site, "api/v1/skills/writer.json")), &sk); err != nil {
		t.Fatal(err)
	}
	if len(sk.Plugins) != 2 || sk.Plugins[0].Name != "docs" || sk.Plugins[1].Name != "tools" || sk.Plugins[1].Category != "infrastructure" {
		t.Errorf("writer.json plugins: %+v", sk.Plugins)
	}
	if !strings.Contains(readSite(t, site, "api/v1/openapi.json"), `"/api/v1/plugins.json"`) {
		t.Error("openapi.json does not describe plugins.json")
	}
	if strings.Contains(readSite(t, site, "api/v1/skills/plain.json"), `"plugins"`) {
		t.Error("plain.json names plugins")
	}
	llms := readSite(t, site, "llms.txt")
	for _, want := range []string{
		"## Plugin docs\n\nWriting\n\n- [writer](",
		"## Plugin tools\n\nTools <script>alert(1)</script>\n\n- [deployer](https://acme.example/skills/skills/deployer/index.html.md)",
		"## Other skills\n\n- [plain](",
		"- [Plugins](https://acme.example/skills/api/v1/plugins.json)",
	} {
		if !strings.Contains(llms, want) {
			t.Errorf("llms.txt lacks %q:\n%s", want, llms)
		}
	}
}

// TestPluginSiteDeterministic builds the marketplace twice: the same bytes.
func TestPluginSiteDeterministic(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), marketplaceTxtar)
	a, b := buildMarketplaceFrom(t, src), buildMarketplaceFrom(t, src)
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPluginsAPIWithoutPlugins: a catalog without marketplaces still has
// api/v1/plugins.json, empty, as DESIGN.md's layout lists it for every
// site, and openapi.json describes it; no plugin page is made.
func TestPluginsAPIWithoutPlugins(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), "-- plain/SKILL.md --\n---\nname: plain\ndescription: A skill of a catalog without marketplaces.\n---\nBody.\n")
	site := buildMarketplaceNamed(t, src, "")
	var pf map[string]any
	if err := json.Unmarshal([]byte(readSite(t, site, "api/v1/plugins.json")), &pf); err != nil || fmt.Sprint(pf) != "map[count:0 marketplaces:[] plugins:[]]" {
		t.Errorf("plugins.json: %v (%v)", pf, err)
	}
	if !strings.Contains(readSite(t, site, "api/v1/openapi.json"), `"/api/v1/plugins.json"`) {
		t.Error("openapi.json does not describe plugins.json")
	}
	if _, err := os.Stat(filepath.Join(site, "plugins", "index.html")); err == nil {
		t.Error("a catalog without plugins has a plugins page")
	}
}

// TestPluginsByMarketplace: the plugins page lists each marketplace's
// plugins in a section of its own, and the home page's "its plugins"
// links to that section.
func TestPluginsByMarketplace(t *testing.T) {
	site := buildMarketplace(t)
	plugins := readSite(t, site, "plugins/index.html")
	start := strings.Index(plugins, `<section aria-labelledby="marketplace-acme-market">`)
	if start < 0 {
		t.Fatalf("the plugins page has no section of acme-market:\n%s", plugins)
	}
	section, _, _ := strings.Cut(plugins[start:], "</section>")
	for _, want := range []string{`<h2 id="marketplace-acme-market">acme-market</h2>`, `/plugins/tools/"`, `/plugins/docs/"`} {
		if !strings.Contains(section, want) {
			t.Errorf("the acme-market section lacks %s:\n%s", want, section)
		}
	}
	if home := readSite(t, site, "index.html"); !strings.Contains(home, `/plugins/#marketplace-acme-market">its plugins</a>`) {
		t.Error("the home page's \"its plugins\" does not link to the marketplace's section")
	}
}
