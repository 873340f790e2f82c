package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const cliCatalog = `
-- ok/SKILL.md --
---
name: ok
description: A valid skill that the CLI tests validate without complaint.
---
Body.
-- warn/SKILL.md --
---
name: warn
description: A skill with an unknown field, which is only a warning.
argument-hint: "[x]"
---
Body.
-- broken/SKILL.md --
no frontmatter at all
`

func TestValidateExitCodes(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	ok, warn, broken := filepath.Join(dir, "ok"), filepath.Join(dir, "warn"), filepath.Join(dir, "broken")
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"validate", ok}, 0, "1 skill: 1 approved"},
		{[]string{"validate", warn}, 0, "warning: argument-hint is not a field"},
		{[]string{"validate", "--strict", warn}, 1, "Unexpected fields in frontmatter: argument-hint"},
		{[]string{"validate", broken}, 1, "error: SKILL.md must start with YAML frontmatter"},
		{[]string{"validate", dir}, 1, "3 skills: 1 approved, 1 caution, 1 rejected"},
		{[]string{"validate", filepath.Join(dir, "missing")}, 2, ""},
		{[]string{"validate", "--format", "yaml", ok}, 2, ""},
		{[]string{"validate", "--no-such-flag"}, 2, ""},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", c.args, code, c.code, out, errOut)
		}
		if c.out != "" && !strings.Contains(out, c.out) {
			t.Errorf("%v: stdout lacks %q:\n%s", c.args, c.out, out)
		}
		if c.code == 2 && !strings.HasPrefix(errOut, "skilldex: ") {
			t.Errorf("%v: failure without a message: %q", c.args, errOut)
		}
	}
}

func TestValidateFormats(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	_, out, _ := runCLI(t, "validate", "--format", "json", dir)
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if _, ok := r["skills"]; !ok {
		t.Error("json: no skills")
	}
	_, out, _ = runCLI(t, "validate", "--format", "github", dir)
	if !strings.Contains(out, "::error file=") {
		t.Errorf("github:\n%s", out)
	}
	_, out, _ = runCLI(t, "validate", "--format", "sarif", dir)
	if !strings.Contains(out, `"version": "2.1.0"`) {
		t.Errorf("sarif:\n%s", out)
	}
}

// TestValidateFormatsPluginFindings: a broken marketplace's findings, at
// their line and column, are in every format of validate and in the
// build's report page, and its skill is published all the same.
func TestValidateFormatsPluginFindings(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `-- .claude-plugin/marketplace.json --
{"name": "m", "owner": {"name": "o"},
 "plugins": [{"name": "tools", "source": "./tool"}]}
-- skills/deployer/SKILL.md --
---
name: deployer
description: Deploys things. Use when deploying.
---
Body.
`)
	file := filepath.Join(dir, ".claude-plugin", "marketplace.json")
	cases := []struct{ format, want string }{
		{"text", file + ":2:42: error: "},
		{"json", `"code": "plugin-source-missing"`},
		{"github", "/.claude-plugin/marketplace.json,line=2,col=42,"},
		{"sarif", `"ruleId": "plugin-source-missing"`},
	}
	for _, c := range cases {
		code, out, _ := runCLI(t, "validate", "--format", c.format, dir)
		if code != exitFindings || !strings.Contains(out, c.want) || !strings.Contains(out, "plugin-source-missing") {
			t.Errorf("validate --format %s: exit %d, want %q in\n%s", c.format, code, c.want, out)
		}
	}
	_, out, _ := runCLI(t, "validate", "--format", "sarif", dir)
	if !strings.Contains(out, `"id": "plugin-source-missing"`) {
		t.Error("sarif: the plugin rules are not among the tool's rules")
	}
	site := filepath.Join(t.TempDir(), "public")
	// The inputs have an error: the build says so, and writes the site.
	if code, _, stderr := runCLI(t, "build", dir, "-o", site); code != exitFindings {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	report, err := os.ReadFile(filepath.Join(site, "report", "index.html"))
	if err != nil || !strings.Contains(string(report), "plugin-source-missing") || !strings.Contains(string(report), "marketplace.json:2:42") {
		t.Errorf("the report page lacks the finding (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(site, "skills", "deployer", "index.html")); err != nil {
		t.Error("the skill of the broken marketplace is not published")
	}
}
