package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/testutil"
)

func examples(t *testing.T) string {
	return testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "agent-skills")
}

func TestQueryCommand(t *testing.T) {
	dir := examples(t)
	cases := []struct {
		query string
		code  int
		want  string // a part of stdout
	}{
		{"agent-browser:commands.click", 0, `"syntax": "agent-browser click <ref>"`},
		{"stripe-best-practices:decisions?when=*Charges*", 0, `"ref": "stripe:migration/charges"`},
		{"mermaid-diagrams:reference.sequence.parallel", 0, `"syntax": "par label1\n  A->>B: action1\nand label2\n  A->>C: action2\nend\n"`},
		{"skill:agent-browser:state.entities.refs.created_by", 0, `"snapshot"`},
		{"agent-browser:commands.nope", 1, `"code": "PATH_NOT_FOUND"`},
		{"nobody:commands", 1, `"code": "SKILL_NOT_FOUND"`},
		{"agent-browsr:commands", 1, `is not loaded; did you mean 'agent-browser'?`},
		{"agent-browser:commands?syntax=*", 2, `"code": "INVALID_QUERY"`},
		// A malformed query or glob is answered too, as an invalid query.
		{"no-colon", 2, "\"skill\": \"no-colon\",\n  \"path\": \"\",\n  \"found\": false,\n  \"error\": {\n    \"code\": \"INVALID_QUERY\",\n    \"message\": \"\\\"no-colon\\\" has no ':'"},
		{"agent-browser:commands..click", 2, `"path": "commands..click",`},
		{"agent-browser:commands?cmd=[abc", 2, `"message": "filter cmd=[abc: the '[' at character 1 is never closed; close the class ([abc] matches a, b or c) or write [[] to match a '['"`},
	}
	for _, c := range cases {
		code, out, errs := runCLI(t, "query", dir, c.query)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("query %s: exit %d (want %d)\nstdout %s\nstderr %s", c.query, code, c.code, out, errs)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil || !strings.HasSuffix(out, "}\n") {
			t.Errorf("query %s: output is not one JSON object: %v", c.query, err)
		}
		if c.code == exitFailure && (m["error"].(map[string]any)["code"] != uasp.ErrInvalidQuery || errs != "") {
			t.Errorf("query %s: exit 2 but the answer is not INVALID_QUERY, or stderr has %q", c.query, errs)
		}
	}
	for _, bad := range [][]string{{"query"}, {"query", "/nonexistent/dir", "a:b"}} {
		if code, _, errs := runCLI(t, bad...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", bad, code, errs)
		}
	}
}

// TestQueryMatchesMarshalAnswer: the CLI prints exactly MarshalAnswer, the
// bytes the static API files will hold.
func TestQueryMatchesMarshalAnswer(t *testing.T) {
	dir := examples(t)
	_, out, _ := runCLI(t, "query", dir, "agent-browser:workflows.authenticated_session")
	src := filepath.Join(dir, "agent-browser", "agent-browser.uasp.yaml")
	_, yml, _ := runCLI(t, "convert", "--to", "uasp", src)
	v, _, err := yamltree.Decode([]byte(yml), yamltree.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	d := uasp.NewDocument("agent-browser", v.(*yamltree.Map))
	if want := string(uasp.MarshalAnswer(d.Query("workflows.authenticated_session", nil))); out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestConvertCommand(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `-- tool/SKILL.md --
---
name: tool
description: Build things. Use when building.
---
# Tool

Never build on Fridays.

`+"```bash\nmake build\n```\n")
	code, out, errs := runCLI(t, "convert", "--to", "uasp", filepath.Join(dir, "tool", "SKILL.md"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	v, _, err := yamltree.Decode([]byte(out), yamltree.DefaultLimits)
	if err != nil {
		t.Fatalf("output is not YAML: %v\n%s", err, out)
	}
	root := v.(*yamltree.Map)
	if keys := root.Keys(); keys[0] != "meta" {
		t.Errorf("keys %v", keys)
	}
	d := uasp.NewDocument("tool", root)
	if !d.Valid() || d.Version != d.DeclaredVersion {
		t.Errorf("converted document: valid %v, version %s declared %s", d.Valid(), d.Version, d.DeclaredVersion)
	}
	if !strings.HasPrefix(out, "# Derived from ") || !strings.Contains(out, "\nmeta:\n  name: tool\n  version: ") || !strings.Contains(out, "  never:\n    - Build on Fridays\n") || !strings.Contains(out, "  make.build:\n") {
		t.Errorf("output:\n%s", out)
	}
	// The folder works as well as the file, and the output is stable.
	if _, again, _ := runCLI(t, "convert", "--to", "uasp", filepath.Join(dir, "tool")); again != out {
		t.Error("converting the folder gives another document")
	}

	code, md, _ := runCLI(t, "convert", "--to", "markdown", filepath.Join(examples(t), "mermaid-diagrams", "mermaid-diagrams.uasp.yaml"))
	if code != 0 || !strings.HasPrefix(md, "# mermaid-diagrams\n") || !strings.Contains(md, "### `sequence.parallel`") {
		t.Errorf("markdown: exit %d\n%s", code, md)
	}

	fixture := testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "tests", "fixtures", "minimal.uasp.yaml")
	if code, _, errs := runCLI(t, "convert", "--to", "markdown", filepath.Join(filepath.Dir(fixture), "..", "..", "packages", "skills-cli", "tests", "fixtures", "minimal.uasp.yaml")); code != 0 || !strings.Contains(errs, "uasp-version-mismatch") {
		t.Errorf("findings go to stderr: exit %d, stderr %q", code, errs)
	}
	for _, bad := range [][]string{
		{"convert", "--to", "pdf", dir},
		{"convert", dir},
		{"convert", "--to", "uasp", "/nonexistent"},
		{"convert", "--to", "uasp", examples(t)}, // several skills
	} {
		if code, _, errs := runCLI(t, bad...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", bad, code, errs)
		}
	}
}

// TestQuerySite: query --site answers from a built site exactly as query
// answers from the sources, with and without filters.
func TestQuerySite(t *testing.T) {
	dir := examples(t)
	site := filepath.Join(t.TempDir(), "public")
	if code, _, errs := runCLI(t, "build", dir, "-o", site); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, errs)
	}
	for _, q := range []string{
		"agent-browser:commands.click",
		"agent-browser:state.entities.refs.created_by",
		"stripe-best-practices:decisions?when=*Charges*",
		"mermaid-diagrams:reference.sequence.parallel",
		"stripe-best-practices:sources.stripe:migration/charges",
		"agent-browser:commands.nope",
		"agent-browser:commands?syntax=*",
		"agent-browser:commands?cmd=[abc",
		"no-colon",
	} {
		wantCode, want, _ := runCLI(t, "query", dir, q)
		code, got, errs := runCLI(t, "query", "--site", site, q)
		if code != wantCode || got != want {
			t.Errorf("query --site %s: exit %d (want %d), stderr %s\ngot\n%s\nwant\n%s", q, code, wantCode, errs, got, want)
		}
	}
	// The message says where to look on a site; the answer is the same.
	if code, got, _ := runCLI(t, "query", "--site", site, "nobody:commands"); code != 1 || !strings.Contains(got, `"code": "SKILL_NOT_FOUND"`) {
		t.Errorf("query --site for a missing skill: exit %d\n%s", code, got)
	}
	// Over HTTP, under a sub-path, the answers are the same.
	srv := httptest.NewServer(http.StripPrefix("/catalog", http.FileServer(http.Dir(site))))
	defer srv.Close()
	for _, q := range []string{"agent-browser:commands.click.args", "stripe-best-practices:decisions?when=*Charges*"} {
		_, want, _ := runCLI(t, "query", dir, q)
		if code, got, errs := runCLI(t, "query", "--site", srv.URL+"/catalog/", q); code != 0 || got != want {
			t.Errorf("query --site URL %s: exit %d, stderr %s\ngot\n%s\nwant\n%s", q, code, errs, got, want)
		}
	}
	for _, bad := range [][]string{
		{"query", "--site", srv.URL + "/elsewhere/", "a:b"},
		{"query", "--site", filepath.Join(site, "missing"), "a:b"},
		{"query", "--site", dir, "a:b"}, // not a site
		{"query", "--site", site, dir, "a:b"},
	} {
		if code, _, errs := runCLI(t, bad...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", bad, code, errs)
		}
	}
}

// TestQueryWarningsAndErrors: a skill with warnings only is answered; one
// whose errors keep it from being published answers VALIDATION_FAILED
// with its errors, found by its folder's name when its own cannot be
// read.
func TestQueryWarningsAndErrors(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- warned/warned.uasp.yaml --
meta:
  name: warned
  type: cli
  description: No version, and a default that is not text.
environment:
  - {name: WARNED_HOME, purpose: where it keeps its state, default: 7}
-- broken/SKILL.md --
---
name: broken
---
No description, which is an error.
-- unreadable/SKILL.md --
---
name: unreadable
description: "an unclosed quote
---
Its frontmatter cannot be read, so it goes by its folder's name.
`)
	if code, out, errs := runCLI(t, "query", dir, "warned:environment.WARNED_HOME.default"); code != 0 || !strings.Contains(out, `"value": 7`) {
		t.Errorf("a skill with warnings: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "query", dir, "broken:meta")
	if code != 1 || !strings.Contains(out, `"code": "VALIDATION_FAILED"`) || !strings.Contains(out, "[description-missing]") {
		t.Errorf("a skill with errors: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "query", dir, "unreadable:meta")
	if code != 1 || !strings.Contains(out, `"code": "VALIDATION_FAILED"`) || !strings.Contains(out, "[yaml-invalid]") {
		t.Errorf("a skill whose frontmatter cannot be read: exit %d\n%s%s", code, out, errs)
	}
}

// TestConvertUnreadableSkill: convert of an archive that cannot be read
// as a skill prints why and says that this is what keeps it from having
// a UASP document, not that its name is unusable.
func TestConvertUnreadableSkill(t *testing.T) {
	archive := filepath.Join(t.TempDir(), "traversal.skill")
	os.WriteFile(archive, testutil.Zip(t, map[string]string{"SKILL.md": "---\nname: traversal\ndescription: Tries to write outside.\n---\n", "../evil.txt": "x"}), 0o644)
	code, out, errs := runCLI(t, "convert", "--to", "uasp", archive)
	if code != exitFindings || out != "" {
		t.Errorf("exit %d, output %q", code, out)
	}
	for _, want := range []string{"[archive-unsafe-path]", "has no UASP document: the errors above keep it from being read as a skill; fix them"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}
