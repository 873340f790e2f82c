package plugin

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/diag"
)

// parseCase is a hand-broken manifest and every finding it must give, as
// "code line:column".
type parseCase struct {
	name     string
	client   Client
	manifest bool // plugin.json rather than marketplace.json
	text     string
	want     []string
}

// market wraps plugin entries in a valid Claude marketplace: the entries
// start on line 4, indented by 4 spaces.
func market(entries string) string {
	return "{\n  \"name\": \"m\",\n  \"owner\": {\"name\": \"o\"},\n  \"plugins\": [\n" + entries + "\n  ]\n}\n"
}

var parseCases = []parseCase{
	// Syntax: the position is the first character that cannot be JSON.
	{name: "missing comma", text: "{\n  \"name\": \"m\",\n  \"owner\": {\"name\": \"o\"}\n  \"plugins\": []\n}",
		want: []string{"plugin-json-syntax 4:3"}},
	{name: "trailing comma in array", text: "{\n  \"name\": \"m\", \"owner\": {\"name\": \"o\"},\n  \"plugins\": [{\"name\": \"a\", \"source\": \"./\"},]\n}",
		want: []string{"plugin-json-syntax 3:44"}},
	{name: "single quotes", text: "{'name': 'm'}", want: []string{"plugin-json-syntax 1:2"}},
	{name: "truncated", text: "{\n  \"name\": \"m\",\n", want: []string{"plugin-json-syntax 3:1"}},
	{name: "empty", text: "  \n", want: []string{"plugin-json-syntax 2:1"}},
	{name: "array at the top", text: "\n [ ]", want: []string{"plugin-json-syntax 2:2"}},
	{name: "two values", text: "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": []}\n{}", want: []string{"plugin-json-syntax 2:1"}},
	{name: "control character in a string", text: "{\"name\": \"a\tb\"}", want: []string{"plugin-json-syntax 1:12"}},
	{name: "too deep", text: strings.Repeat("[", maxDepth+5), want: []string{"plugin-json-syntax 1:66"}},
	// Columns count characters, as an editor shows them, and a CRLF ends
	// one line.
	{name: "columns in characters", text: "{\r\n  \"name\": \"m\", \"description\": \"crème brûlée\", \"version\": \"1.0\",\r\n  \"owner\": {\"name\": \"o\"}, \"plugins\": []\r\n}",
		want: []string{"plugin-version-not-semver 2:58"}},
	{name: "byte order mark", text: "\ufeff{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [], \"version\": \"x\"}",
		want: []string{"plugin-json-bom 1:1", "plugin-version-not-semver 1:65"}},

	// Required fields: the position is the object that lacks one.
	{name: "empty object", text: "{}", want: []string{"plugin-field-missing 1:1", "plugin-field-missing 1:1", "plugin-field-missing 1:1"}},
	{name: "owner without a name", text: "{\"name\": \"m\", \"owner\": {\"email\": \"e\"}, \"plugins\": []}", want: []string{"plugin-field-missing 1:24"}},
	{name: "entry without source", text: market("    {\"name\": \"a\"}"), want: []string{"plugin-field-missing 5:5"}},
	{name: "entry without name", text: market("    {\"source\": \"./\"}"), want: []string{"plugin-field-missing 5:5"}},
	{name: "source object without kind", text: market("    {\"name\": \"a\", \"source\": {\"repo\": \"o/r\"}}"), want: []string{"plugin-field-missing 5:29"}},
	{name: "github source without repo", text: market("    {\"name\": \"a\", \"source\": {\"source\": \"github\"}}"), want: []string{"plugin-field-missing 5:29"}},
	{name: "git-subdir without path", text: market("    {\"name\": \"a\", \"source\": {\"source\": \"git-subdir\", \"url\": \"https://h/r.git\"}}"), want: []string{"plugin-field-missing 5:29"}},
	{name: "codex marketplace needs no owner", client: Codex, text: "{\"name\": \"m\", \"plugins\": [{\"name\": \"a\", \"source\": {\"source\": \"local\", \"path\": \"./plugins/a\"}}]}"},

	// Names.
	{name: "duplicate plugin names", text: market("    {\"name\": \"a\", \"source\": \"./a\"},\n    {\"name\": \"b\", \"source\": \"./b\"},\n    {\"name\": \"a\", \"source\": \"./c\"}"),
		want: []string{"plugin-name-duplicate 7:14"}},
	{name: "name with spaces", text: market("    {\"name\": \"My Plugin\", \"source\": \"./a\"}"), want: []string{"plugin-name-not-kebab 5:14"}},
	{name: "camelCase name", text: market("    {\"name\": \"myPlugin\", \"source\": \"./a\"}"), want: []string{"plugin-name-not-kebab 5:14"}},
	{name: "marketplace name", text: "{\"name\": \"My_Market\", \"owner\": {\"name\": \"o\"}, \"plugins\": []}", want: []string{"plugin-name-not-kebab 1:10"}},
	{name: "empty name", text: market("    {\"name\": \" \", \"source\": \"./a\"}"), want: []string{"plugin-field-missing 5:14"}},

	// Versions.
	{name: "version with a v", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"version\": \"v1.2\"}"), want: []string{"plugin-version-not-semver 5:47"}},
	{name: "metadata version", text: "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"metadata\": {\"version\": \"1.0.0.0\"}, \"plugins\": []}", want: []string{"plugin-version-not-semver 1:63"}},
	{name: "prerelease and build are semver", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"version\": \"1.0.0-rc.1+build.5\"}")},

	// Types: the position is the value.
	{name: "keywords as a string", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"keywords\": \"x, y\"}"), want: []string{"plugin-field-type 5:48"}},
	{name: "keyword not a string", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"keywords\": [\"x\", 2]}"), want: []string{"plugin-field-type 5:54"}},
	{name: "strict as a string", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"strict\": \"false\"}"), want: []string{"plugin-field-type 5:46"}},
	{name: "version as a number", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"version\": 1.2}"), want: []string{"plugin-field-type 5:47"}},
	{name: "author as a number", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"author\": 7}"), want: []string{"plugin-field-type 5:46"}},
	{name: "author as a string is its name", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"author\": \"Ann\"}")},
	{name: "null is ignored with a warning", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"homepage\": null}"), want: []string{"plugin-field-type 5:48"}},
	{name: "source as a number", text: market("    {\"name\": \"a\", \"source\": 1}"), want: []string{"plugin-field-type 5:29"}},
	{name: "plugins as an object", text: "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": {}}", want: []string{"plugin-field-type 1:50"}},
	{name: "entry as a string", text: market("    \"a\""), want: []string{"plugin-field-type 5:5"}},
	{name: "skills as a number", text: market("    {\"name\": \"a\", \"source\": \"./a\", \"skills\": 3}"), want: []string{"plugin-field-type 5:46"}},

	// Sources.
	{name: "source leaves the marketplace", text: market("    {\"name\": \"a\", \"source\": \"../other/a\"}"), want: []string{"plugin-source-invalid 5:29"}},
	{name: "absolute source", text: market("    {\"name\": \"a\", \"source\": \"/srv/a\"}"), want: []string{"plugin-source-invalid 5:29"}},
	{name: "bare source", text: market("    {\"name\": \"a\", \"source\": \"plugins/a\"}"), want: []string{"plugin-source-invalid 5:29"}},
	{name: "bare source under pluginRoot", text: "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"metadata\": {\"pluginRoot\": \"./plugins\"},\n \"plugins\": [{\"name\": \"a\", \"source\": \"a\"}]}"},
	{name: "pluginRoot outside", text: "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"metadata\": {\"pluginRoot\": \"../x\"}, \"plugins\": []}", want: []string{"plugin-source-invalid 1:66"}},
	{name: "github repo not OWNER/REPO", text: market("    {\"name\": \"a\", \"source\": {\"source\": \"github\", \"repo\": \"https://github.com/o/r\"}}"), want: []string{"plugin-source-invalid 5:58"}},
	{name: "unknown source kind", text: market("    {\"name\": \"a\", \"source\": {\"source\": \"svn\", \"url\": \"svn://h/r\"}}"), want: []string{"plugin-source-invalid 5:40"}},
	{name: "remote sources are data", text: market(`    {"name": "a", "source": {"source": "github", "repo": "o/r", "ref": "v1", "sha": "0123"}},
    {"name": "b", "source": {"source": "url", "url": "https://gitlab.com/o/r.git"}},
    {"name": "c", "source": {"source": "git-subdir", "url": "https://github.com/o/r.git", "path": "p/c", "ref": "main"}},
    {"name": "d", "source": {"source": "npm", "package": "@o/d", "version": "^2.0.0", "registry": "https://npm.example"}}`)},
	{name: "codex local root", client: Codex, text: "{\"name\": \"m\", \"plugins\": [{\"name\": \"a\", \"source\": {\"source\": \"local\", \"path\": \"./\"}}]}", want: []string{"plugin-source-invalid 1:79"}},
	{name: "codex url to its own repository", client: Codex, text: "{\"name\": \"m\", \"plugins\": [{\"name\": \"a\", \"source\": {\"source\": \"url\", \"url\": \"./\"}}]}"},
	{name: "github is not a codex source", client: Codex, text: "{\"name\": \"m\", \"plugins\": [{\"name\": \"a\", \"source\": {\"source\": \"github\", \"repo\": \"o/r\"}}]}", want: []string{"plugin-source-invalid 1:62"}},

	// Duplicate keys: JSON.parse keeps the last.
	{name: "duplicate key", text: "{\"name\": \"m\", \"owner\": {\"name\": \"o\"},\n \"plugins\": [],\n \"name\": \"n\"}", want: []string{"plugin-json-duplicate-key 3:2"}},

	// Plugin manifests.
	{name: "manifest without a name", manifest: true, text: "{\n  \"version\": \"1.0.0\"\n}", want: []string{"plugin-field-missing 1:1"}},
	{name: "codex manifest takes its folder's name", manifest: true, client: Codex, text: "{\"version\": \"1.0.0\", \"skills\": \"./skills/\"}"},
	{name: "manifest version", manifest: true, text: "{\"name\": \"p\",\n \"version\": \"1\"}", want: []string{"plugin-version-not-semver 2:13"}},
	{name: "component path without ./", manifest: true, text: "{\"name\": \"p\", \"skills\": \"skills/\"}", want: []string{"plugin-path-invalid 1:25"}},
	{name: "component path outside", manifest: true, text: "{\"name\": \"p\", \"agents\": [\"./agents\", \"../elsewhere\"]}", want: []string{"plugin-path-invalid 1:38"}},
	{name: "inline components", manifest: true, text: "{\"name\": \"p\", \"hooks\": {\"PostToolUse\": []}, \"mcpServers\": [\"./.mcp.json\", {\"x\": {}}]}"},
	{name: "component of a wrong type", manifest: true, text: "{\"name\": \"p\", \"mcpServers\": true}", want: []string{"plugin-field-type 1:29"}},
	{name: "manifest syntax", manifest: true, text: "{\"name\": \"p\",}", want: []string{"plugin-json-syntax 1:13"}},
}

func findingsOf(ds []diag.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %d:%d", d.Code, d.Line, d.Column))
	}
	slices.Sort(out)
	return out
}

func parseCaseFindings(c parseCase) (ds []diag.Diagnostic, invalid bool) {
	client := cmp.Or(c.client, Claude)
	if c.manifest {
		mf, ds := ParseManifest(client, "plugin.json", []byte(c.text))
		return ds, mf.Invalid
	}
	m, ds := ParseMarketplace(client, "marketplace.json", []byte(c.text))
	invalid = m.Invalid
	for _, e := range m.Entries {
		invalid = invalid || e.Invalid
	}
	return ds, invalid
}

func TestParseFindings(t *testing.T) {
	for _, c := range parseCases {
		t.Run(c.name, func(t *testing.T) {
			ds, invalid := parseCaseFindings(c)
			want := slices.Sorted(slices.Values(append([]string{}, c.want...)))
			if got := findingsOf(ds); !slices.Equal(got, want) {
				t.Errorf("findings %v, want %v\n%s", got, want, diagText(ds))
			}
			errs, _, _ := diag.Count(ds)
			if invalid != (errs > 0) {
				t.Errorf("invalid = %v with %d errors: an error must make the file or entry invalid, and only an error", invalid, errs)
			}
			for _, d := range ds {
				if d.Message == "" || d.File == "" {
					t.Errorf("finding without a message or file: %+v", d)
				}
				if r, ok := Lookup(d.Code); !ok {
					t.Errorf("unregistered code %s", d.Code)
				} else if d.Severity > r.Severity && d.Code != "plugin-name-not-kebab" {
					t.Errorf("%s is an %s, but its rule says %s", d.Code, d.Severity, r.Severity)
				}
			}
		})
	}
}

func diagText(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\t" + d.String() + "\n")
	}
	return b.String()
}

// TestParseModel checks what a valid marketplace and manifest read as,
// including the fields kept as written.
func TestParseModel(t *testing.T) {
	m, ds := ParseMarketplace(Claude, "m.json", []byte(`{
  "$schema": "https://example.com/schema.json",
  "name": "tools",
  "owner": {"name": "Ann", "email": "ann@example.com"},
  "metadata": {"description": "Team tools", "version": "2.0.0", "pluginRoot": "./plugins"},
  "forceRemoveDeletedPlugins": true,
  "plugins": [
    {"name": "fmt", "source": "fmt", "description": "Formats", "version": "1.0.0",
     "author": {"name": "Bo", "url": "https://bo.example"}, "license": "MIT",
     "homepage": "https://h.example", "repository": "https://github.com/o/fmt",
     "category": "productivity", "keywords": ["format"], "tags": ["go"],
     "strict": false, "skills": ["./skills/a", "./skills/b"], "commands": "./cmd/",
     "hooks": {"PostToolUse": []}, "x-internal": {"team": 4}},
    {"name": "remote", "source": {"source": "git-subdir", "url": "https://github.com/o/r.git", "path": "tools/remote", "ref": "main", "sha": "abc"}}
  ]
}`))
	if len(ds) > 0 {
		t.Fatalf("findings on a valid marketplace:\n%s", diagText(ds))
	}
	if m.Name != "tools" || m.Owner.Email != "ann@example.com" || m.Description != "Team tools" || m.Version != "2.0.0" || m.PluginRoot != "./plugins" {
		t.Errorf("marketplace fields: %+v", m)
	}
	if string(m.Extra["forceRemoveDeletedPlugins"]) != "true" || len(m.Extra) != 1 {
		t.Errorf("marketplace Extra %v, want only forceRemoveDeletedPlugins", m.Extra)
	}
	e := m.Entries[0]
	if e.Strict || e.Source != (Source{Kind: SourcePath, Path: "fmt"}) || e.Author.URL != "https://bo.example" || e.Tags[0] != "go" {
		t.Errorf("entry: %+v", e)
	}
	if c := e.Components["skills"]; !slices.Equal(c.Paths, []string{"./skills/a", "./skills/b"}) {
		t.Errorf("skills component %+v", c)
	}
	if e.Components["hooks"].Inline != 1 || e.Components["commands"].Paths[0] != "./cmd/" {
		t.Errorf("components %+v", e.Components)
	}
	if string(e.Extra["x-internal"]) != `{"team": 4}` {
		t.Errorf("entry Extra %q, want the unknown field as written", e.Extra)
	}
	want := Source{Kind: SourceGitSubdir, URL: "https://github.com/o/r.git", Path: "tools/remote", Ref: "main", SHA: "abc"}
	if r := m.Entries[1]; r.Source != want || !r.Strict {
		t.Errorf("remote entry %+v, want source %+v and strict by default", r, want)
	}
	if _, ok := m.Entries[1].Source.Relative(); ok {
		t.Errorf("a git-subdir source is not a folder of the marketplace")
	}

	mf, ds := ParseManifest(Codex, "p.json", []byte(`{"name": "p", "version": "1.0.0", "skills": "./skills/",
  "interface": {"displayName": "P", "category": "Coding", "shortDescription": "Does p"}}`))
	if len(ds) > 0 {
		t.Fatalf("findings on a valid manifest:\n%s", diagText(ds))
	}
	if mf.DisplayName != "P" || mf.Category != "Coding" || mf.Description != "Does p" || mf.Extra["interface"] == nil {
		t.Errorf("Codex interface read as %+v, extra %v", mf.Metadata, mf.Extra)
	}
}

func TestMarketplaceDir(t *testing.T) {
	for _, c := range []struct {
		file, dir string
		client    Client
		ok        bool
	}{
		{".claude-plugin/marketplace.json", ".", Claude, true},
		{"repo/.agents/plugins/marketplace.json", "repo", Codex, true},
		{"a/b/.cursor-plugin/marketplace.json", "a/b", Cursor, true},
		{"a/.claude-plugin/plugin.json", "", "", false},
		{"a/x.claude-plugin/marketplace.json", "", "", false},
	} {
		dir, client, ok := MarketplaceDir(c.file)
		if dir != c.dir || client != c.client || ok != c.ok {
			t.Errorf("MarketplaceDir(%q) = %q, %q, %v; want %q, %q, %v", c.file, dir, client, ok, c.dir, c.client, c.ok)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"My Plugin": "my-plugin", "myPlugin": "my-plugin", "my_plugin.v2": "my-plugin-v2", "--": "my-plugin", "HTTPServer": "httpserver", "k8s Tools": "k8s-tools"} {
		if got := kebab(in); got != want || !isKebab(got) {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"v1.2": "1.2.0", "1": "1.0.0", "01.02.3": "1.2.3", "latest": "1.0.0", "1.2.3.4": "1.2.3"} {
		if got := semverHint(in); got != want || !isSemver(got) {
			t.Errorf("semverHint(%q) = %q, want %q", in, got, want)
		}
	}
	for _, v := range []string{"0.0.0", "1.2.3-alpha.1", "1.2.3+sha.5", "10.20.30-rc.1+b"} {
		if !isSemver(v) {
			t.Errorf("%q is semver", v)
		}
	}
	for _, v := range []string{"v1.2.3", "1.2", "01.2.3", "1.2.3-01", "1.2.3-", ""} {
		if isSemver(v) {
			t.Errorf("%q is not semver", v)
		}
	}
}

// TestPosInAnyOrder asks for the positions of every offset of a text with
// long lines, CRLF and multi-byte characters, forwards, backwards and
// alternating between two places of a line, as findings do (a duplicate
// name's message names the first one's line): pos counts on from the last
// position it counted, and must give what counting from the line's start
// gives.
func TestPosInAnyOrder(t *testing.T) {
	text := []byte("{\"a\": \"crème\", \"b\": [1, 2, \"brûlée\"],\r\n \"c\": \"日本語\", \"d\": {}}\r\n\n" + strings.Repeat("é x ", 50))
	want := func(offset int) diag.Pos {
		line, start := 1, 0
		for i := 0; i < offset; i++ {
			if text[i] == '\n' || text[i] == '\r' && (i+1 >= len(text) || text[i+1] != '\n') {
				line, start = line+1, i+1
			}
		}
		return diag.Pos{Line: line, Column: utf8.RuneCount(text[start:offset]) + 1}
	}
	var offsets []int
	for i := 0; i <= len(text); i++ {
		if i == len(text) || utf8.RuneStart(text[i]) {
			offsets = append(offsets, i)
		}
	}
	backwards := slices.Clone(offsets)
	slices.Reverse(backwards)
	orders := map[string][]int{"forwards": offsets, "backwards": backwards}
	var alternating []int
	for i := range offsets {
		alternating = append(alternating, offsets[i], offsets[i/3])
	}
	orders["alternating"] = alternating
	for name, order := range orders {
		doc, _ := parseDocument("f.json", text) // not JSON after the object; positions do not care
		for _, off := range order {
			if got, w := doc.pos(off), want(off); got != w {
				t.Errorf("%s: pos(%d) = %d:%d, want %d:%d", name, off, got.Line, got.Column, w.Line, w.Column)
			}
		}
	}
}

// TestCommaHints: a comma that starts no value is explained, at the comma:
// one after the last member or item, one with nothing before it, or a
// second one in a row. Other
// syntax errors keep the decoder's words.
func TestCommaHints(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"name": "m",}`, "a comma before }: JSON allows none after the last member or item; remove it"},
		{"[ {\"a\": 1},\r\n ]", "a comma before ]: JSON allows none after the last member or item; remove it"},
		{`{"a": [1, 2, ], "b": 1}`, "a comma before ]: JSON allows none after the last member or item; remove it"},
		{`{"a": 1, , "b": 2}`, "a second comma in a row: remove one"},
		{`{,}`, "a comma right after {, with nothing before it: remove it"},
		{`{"a": [ , 1]}`, "a comma right after [, with nothing before it: remove it"},
		{`{"a": 1 "b": 2}`, `invalid character '"' after object value (expecting ',' or '}')`},
	} {
		_, err := parseDocument("f.json", []byte(c.text))
		if err == nil {
			t.Errorf("%q parsed", c.text)
			continue
		}
		if err.msg != c.want {
			t.Errorf("%q: %q, want %q", c.text, err.msg, c.want)
		}
		if strings.HasPrefix(c.want, "a ") && c.text[err.offset] != ',' {
			t.Errorf("%q: at %q, want the comma", c.text, c.text[err.offset:])
		}
	}
}
