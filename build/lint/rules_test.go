package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/testutil"
)

// ruleCases trigger each rule with a small inline catalog. want lists codes
// that must appear (each with a position when the rule is about a line);
// not lists codes that must not.
var ruleCases = []struct {
	name      string
	txtar     string
	want, not []string
	status    lint.Status // of the first skill, when set
}{
	{name: "clean skill", txtar: `
-- good-skill/SKILL.md --
---
name: good-skill
description: Formats Go code and explains gofmt output. Use when Go files need formatting.
license: MIT
---
# Good skill

See [the guide](references/guide.md).
-- good-skill/references/guide.md --
guide
`, not: []string{"reference-missing", "name-dir-mismatch"}, status: lint.Approved},
	{name: "name rules", txtar: `
-- x/SKILL.md --
---
name: -Bad--Name_
description: Something long enough to be a real description here.
---
body
`, want: []string{"name-pattern", "name-dir-mismatch"}, status: lint.Caution},
	{name: "name too long", txtar: `
-- aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/SKILL.md --
---
name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
description: Something long enough to be a real description here.
---
body
`, want: []string{"name-too-long"}},
	{name: "name missing and unsafe", txtar: `
-- a/SKILL.md --
---
description: Something long enough to be a real description here.
---
body
-- b/SKILL.md --
---
name: ../etc
description: Something long enough to be a real description here.
---
body
`, want: []string{"name-missing", "name-unsafe"}, status: lint.Rejected},
	{name: "description rules", txtar: `
-- a/SKILL.md --
---
name: a
---
body
-- b/SKILL.md --
---
name: b
description: Helps.
compatibility:
  os: linux
---
body
-- c/SKILL.md --
---
name: c
description: ` + strings.Repeat("word ", 210) + `
compatibility: ` + strings.Repeat("c", 501) + `
---
body
`, want: []string{"description-missing", "description-short", "description-too-long", "compatibility-type", "compatibility-too-long"}},
	{name: "fields", txtar: `
-- f/SKILL.md --
---
name: f
description: Something long enough to be a real description here.
argument-hint: "[x]"
version: 1.0.0
metadata:
  nested:
    a: b
allowed-tools:
  - Read
  - Write
spec: usk/2.0
tags: [a, b]
---
body
`, want: []string{"unknown-field", "usk-field-without-spec", "metadata-type", "allowed-tools-list", "usk-spec-unknown", "yaml-strict"}},
	{name: "frontmatter structure", txtar: `
-- a/SKILL.md --
# no frontmatter
-- b/SKILL.md --
---
name: b
description: never closed
-- c/SKILL.md --
---
name: [c
---
-- d/SKILL.md --
---
- d
---
-- e/SKILL.md --

---
name: e
description: Blank line before the frontmatter; --- inside a value.
---
body
`, want: []string{"frontmatter-missing", "frontmatter-unclosed", "yaml-invalid", "frontmatter-not-mapping", "frontmatter-not-first", "frontmatter-dashes"}},
	{name: "body rules", txtar: `
-- a/SKILL.md --
---
name: a
description: Something long enough to be a real description here.
---
-- b/SKILL.md --
---
name: b
description: Something long enough to be a real description here.
---
[missing](scripts/missing.py) [outside](../a/SKILL.md) ` + "`[in code](nope.md)`" + `
` + strings.Repeat("line\n", 501) + `
`, want: []string{"body-empty", "reference-missing", "body-too-long"}},
	{name: "usk rules", txtar: `
-- tool/SKILL.md --
---
spec: usk/1.0
name: tool
version: "1.0"
description: A USK v3 tool with many problems in its declaration.
interface:
  type: grpc
  entry_point: ../main.py
  runtime: ruby
  call_pattern: websocket
input_schema:
  type: object
  properties:
    q: {type: strin}
output_schema:
  type: object
  properties:
    r: {type: string}
capabilities: [WebSearch]
permissions:
  network: maybe
  env_vars: [BAD-NAME]
license: Proprietary-ish
homepage: ftp://example.com
examples:
  - {input: {q: a}}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
  - {input: 1, output: 2}
author_agent: {name: "bad name!"}
---
body
-- min/SKILL.md --
---
spec: usk/1.0
name: min
description: A USK v3 skill that declares the spec and nothing else.
---
body
-- ep/SKILL.md --
---
spec: usk/1.0
name: ep
version: 1.0.0
description: A USK v3 skill whose entry point is missing from the package.
interface: {type: cli, entry_point: main.py, runtime: python3, call_pattern: stdin_stdout}
output_schema:
  type: object
  properties:
    r: {type: string}
---
body
`, want: []string{"usk-version-semver", "usk-interface-type", "usk-runtime", "usk-entry-point-unsafe", "usk-schema-invalid", "usk-schema-description",
		"usk-capability-format", "usk-env-var-name", "usk-license-spdx", "usk-homepage-url", "usk-examples-too-many", "usk-example-invalid", "usk-author-agent-invalid",
		"field-type", "usk-version-missing", "usk-interface-missing", "usk-schema-missing", "usk-capabilities-missing", "usk-permissions-missing",
		"usk-platform-compatibility-missing", "usk-entry-point-missing"}},
	{name: "usk call pattern and big examples", txtar: `
-- cp/SKILL.md --
---
spec: usk/1.0
name: cp
version: 1.0.0
description: A USK v3 skill with a call pattern that does not suit its type.
interface: {type: cli, entry_point: main.py, runtime: python3, call_pattern: http_post}
examples:
  - input: "` + strings.Repeat("x", 21000) + `"
    output: ok
---
body
-- cp/main.py --
print()
`, want: []string{"usk-call-pattern", "usk-examples-too-large"}, not: []string{"usk-entry-point-missing"}},
	{name: "usk package limits", txtar: usklimits(), want: []string{"usk-package-too-many-files", "usk-package-too-large", "usk-file-name-too-long"}},
	{name: "skillbag", txtar: `
-- ws/SKILLBAG.md --
# Workspace
-- ws/CONTEXT.md --
` + "```yaml" + `
dependencies:
  - name: skillbag-create-skill
    version: main
` + "```" + `
-- ws/.skills/SKILLS.md --
zeta: The last one, listed first.
alpha: A different description.
ghost: Not present.
this line is wrong
-- ws/.skills/alpha/SKILL.md --
---
name: alpha
description: "Alpha skill, uses #use/Beta_Skill as a companion."
---
## Parameters

` + "```yaml" + `
required:
  - name: input-path
    default: x
optional:
  - name: input-path
` + "```" + `

` + "```yaml" + `
dependencies:
  - name: zeta
  - name: Not_Canonical
  - name: missing-dep
` + "```" + `
-- ws/.skills/zeta/SKILL.md --
---
name: zeta
description: The last one.
dependencies:
  - name: alpha
---
body
-- ws/.skills/Upper/SKILL.md --
---
name: Upper
description: A skill whose name breaks the SkillBag pattern.
---
body
`, want: []string{"skillbag-catalog-syntax", "skillbag-catalog-out-of-sync", "skillbag-catalog-unsorted", "skillbag-catalog-description-mismatch",
		"skillbag-name-pattern", "skillbag-parameter-duplicate", "skillbag-required-parameter-default", "skillbag-dependency-name",
		"skillbag-dependency-unresolved", "skillbag-dependency-cycle", "skillbag-tag-use-name", "skillbag-context-dependency-incomplete",
		"skillbag-bootstrap-missing", "skillbag-agents-md"}},
	{name: "skillbag without catalog", txtar: `
-- ws/SKILLBAG.md --
# Workspace
-- ws/.skills/one/SKILL.md --
---
name: one
description: A skill in a workspace without SKILLS.md.
---
body
`, want: []string{"skillbag-catalog-missing"}},
	{name: "shadowing", txtar: `
-- a/dup/SKILL.md --
---
name: dup
description: The first skill named dup, shadowed by the second.
---
body
-- b/dup/SKILL.md --
---
name: dup
description: The second skill named dup, which wins.
---
body
`, want: []string{"name-shadowed"}},
	{name: "uasp alone", txtar: `
-- docs/lonely.uasp.yaml --
meta:
  name: lonely
  version: "00000000"
  type: knowledge
-- docs/broken.uasp.yaml --
meta: [
-- docs/list.uasp.yaml --
- a
-- docs/noname.uasp.yaml --
meta:
  type: cli
`, want: []string{"uasp-schema", "uasp-yaml-invalid", "uasp-not-mapping", "name-missing"}, not: []string{"name-dir-mismatch"}},
	{name: "uasp file named otherwise", txtar: `
-- docs/other.uasp.yaml --
meta:
  name: write-a-skill
  version: "00000000"
  type: knowledge
  description: A document whose file is not named after it.
`, want: []string{"name-dir-mismatch"}, status: lint.Caution},
	{name: "symlinks", txtar: `
-- s/SKILL.md --
---
name: s
description: A skill with links pointing outside and nowhere.
---
body
-- s/out.md --
symlink: /etc/hostname
-- s/broken.md --
symlink: does-not-exist.md
`, want: []string{"symlink-outside-skill", "symlink-broken"}},
	{name: "unstorable file names", txtar: `
-- s/SKILL.md --
---
name: s
description: A skill with a file whose name holds a backslash.
---
body
-- s/odd\name.txt --
odd
`, want: []string{"file-name-unstorable"}},
	{name: "empty source", txtar: `
-- nothing/README.md --
no skill here
`, want: []string{"skill-md-missing"}},
}

// usklimits builds a USK skill folder with too many, too large files and a
// long file name.
func usklimits() string {
	var b strings.Builder
	b.WriteString("-- big/SKILL.md --\n---\nspec: usk/1.0\nname: big\nversion: 1.0.0\ndescription: A USK skill whose package breaks the upload limits.\n---\nbody\n")
	for i := range 51 {
		b.WriteString("-- big/files/f" + strings.Repeat("0", 3-len(itoa(i))) + itoa(i) + ".txt --\nx\n")
	}
	b.WriteString("-- big/" + strings.Repeat("n", 201) + " --\nx\n")
	b.WriteString("-- big/blob.txt --\n" + strings.Repeat("0123456789abcdef", 5<<16+1) + "\n")
	return b.String()
}

func itoa(i int) string {
	return strings.TrimLeft(strings.Replace(strings.Repeat(" ", 3)+string(rune('0'+i/100))+string(rune('0'+i/10%10))+string(rune('0'+i%10)), " ", "", -1), "0")
}

func codesOf(c *catalog.Catalog) map[string][]diag.Diagnostic {
	out := map[string][]diag.Diagnostic{}
	for _, d := range c.Diagnostics {
		out[d.Code] = append(out[d.Code], d)
	}
	for _, s := range c.All {
		for _, d := range s.Diagnostics {
			out[d.Code] = append(out[d.Code], d)
		}
	}
	return out
}

// lineless are rules about a whole file or folder.
var lineless = map[string]bool{
	"skill-md-missing": true, "file-name-unstorable": true, "symlink-outside-skill": true, "symlink-broken": true, "usk-package-too-many-files": true,
	"usk-package-too-large": true, "usk-file-name-too-long": true, "skillbag-catalog-missing": true,
	"skillbag-catalog-out-of-sync": true, "skillbag-bootstrap-missing": true, "skillbag-agents-md": true,
	"archive-unsafe-path": true, "archive-invalid": true, "archive-too-many-files": true, "archive-too-large": true,
	"archive-name-too-long": true, "archive-duplicate-entry": true, "archive-case-conflict": true, "archive-no-skill-md": true,
	"encoding-invalid-utf8": true,
}

func TestRules(t *testing.T) {
	triggered := map[string]bool{}
	for _, rc := range ruleCases {
		t.Run(rc.name, func(t *testing.T) {
			dir := testutil.WriteTxtar(t, t.TempDir(), rc.txtar)
			var sources []string
			if rc.name == "shadowing" {
				sources = []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}
			} else {
				sources = []string{dir}
			}
			c, err := build.Load(context.Background(), build.LoadOptions{Sources: sources})
			if err != nil {
				t.Fatal(err)
			}
			got := codesOf(c)
			for code := range got {
				triggered[code] = true
				if _, ok := lint.Lookup(code); !ok {
					t.Errorf("unregistered code %s", code)
				}
			}
			for _, w := range rc.want {
				ds, ok := got[w]
				if !ok {
					t.Errorf("want %s; got %v", w, keysOf(got))
					continue
				}
				for _, d := range ds {
					if d.File == "" || (d.Line == 0 && !lineless[d.Code]) {
						t.Errorf("%s without a position: %+v", w, d)
					}
					if d.Message == "" {
						t.Errorf("%s without a message", w)
					}
				}
			}
			for _, n := range rc.not {
				if ds, ok := got[n]; ok {
					t.Errorf("unexpected %s: %v", n, ds)
				}
			}
			if rc.status != "" && len(c.All) > 0 {
				worst := lint.Approved
				for _, s := range c.All {
					if s.Status == lint.Rejected || (s.Status == lint.Caution && worst == lint.Approved) {
						worst = s.Status
					}
				}
				if worst != rc.status {
					t.Errorf("status %s, want %s", worst, rc.status)
				}
			}
		})
	}
	// Archive rules are triggered in build/source's tests; UASP schema,
	// version and reference rules in build/uasp's; plugin manifest rules
	// in build/plugin's (TestRulesTriggered); unreadable files need a
	// file system that fails, which root in CI cannot simulate.
	exempt := map[string]bool{"source-unreadable": true, "file-unreadable": true, "file-too-large": true, "skill-too-many-files": true,
		"encoding-invalid-utf8": true, "frontmatter-bom": true}
	for _, r := range lint.Rules {
		if strings.HasPrefix(r.Code, "archive-") || r.Spec == lint.SpecPlugin || strings.HasPrefix(r.Code, "uasp-") && r.Code != "uasp-schema" && r.Code != "uasp-yaml-invalid" && r.Code != "uasp-not-mapping" {
			continue
		}
		if !triggered[r.Code] && !exempt[r.Code] {
			t.Errorf("rule %s is triggered by no test case", r.Code)
		}
	}
}

func keysOf(m map[string][]diag.Diagnostic) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestArchiveSkill loads a real archive through the whole pipeline.
func TestArchiveSkill(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "packed.skill"), testutil.Zip(t, map[string]string{"packed/SKILL.md": "\ufeff---\r\nname: packed\r\ndescription: A skill that arrived as a .skill archive.\r\n---\r\nBody\r\n"}), 0o644)
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Skills) != 1 || c.Skills[0].Name != "packed" {
		t.Fatalf("skills: %+v", c.All)
	}
	s := c.Skills[0]
	codes := codesOf(c)
	if _, ok := codes["frontmatter-bom"]; !ok {
		t.Errorf("no frontmatter-bom: %v", keysOf(codes))
	}
	// The entry's whole path in the archive, as unzip -l lists it.
	if !strings.HasSuffix(s.File(), "packed.skill!/packed/SKILL.md") {
		t.Errorf("display path %q", s.File())
	}
	// In strict mode the BOM makes the skill invalid, as skills-ref says.
	c, _ = build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}, Strict: true})
	if c.All[0].Status != lint.Rejected {
		t.Errorf("strict: status %s", c.All[0].Status)
	}
}

// TestUSKLicenseSuggestsSPDX: a USK license written for people is
// answered with the SPDX identifier it names, when it names one.
func TestUSKLicenseSuggestsSPDX(t *testing.T) {
	for lic, want := range map[string]string{
		"MIT license": `license "MIT license" is not an SPDX identifier; write MIT`,
		"Proprietary": `license "Proprietary" is not an SPDX identifier (e.g. MIT, Apache-2.0)`,
		"Apache 2.0":  `write Apache-2.0`,
		"Apache-2.0":  "",
		"MIT OR 0BSD": "",
	} {
		dir := testutil.WriteTxtar(t, t.TempDir(), "-- s/SKILL.md --\n---\nspec: usk/1.0\nname: s\ndescription: A skill.\nlicense: "+lic+"\n---\nbody\n")
		c := load(t, false, dir)
		got := ""
		for _, d := range c.All[0].Diagnostics {
			if d.Code == "usk-license-spdx" {
				got = d.Message
			}
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("license %q: finding %q, want one with %q", lic, got, want)
		}
	}
}

// TestAgentsMDFinding: a workspace without AGENTS.md is told to add one;
// one whose AGENTS.md does not say SKILLBAG is pointed at that file.
func TestAgentsMDFinding(t *testing.T) {
	const workspace = `
-- ws/SKILLBAG.md --
# SKILLBAG
-- ws/.skills/SKILLS.md --
one: A skill.
-- ws/.skills/one/SKILL.md --
---
name: one
description: A skill.
---
body
`
	cases := []struct {
		name, agents string // agents: "" for no AGENTS.md
		file         string // where the finding is, "" for none
		line         int
		says         string
	}{
		{"missing", "", "ws", 0, "the workspace has no AGENTS.md"},
		{"silent", "# Agents\nRead the docs.\n", "ws/AGENTS.md", 1, "say in it that the repository is a SKILLBAG"},
		{"identifies", "This repository is a SkillBag source; skills live under .skills/.\n", "", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			archive := workspace
			if c.agents != "" {
				archive += "-- ws/AGENTS.md --\n" + c.agents
			}
			dir := testutil.WriteTxtar(t, t.TempDir(), archive)
			found := codesOf(load(t, false, dir))["skillbag-agents-md"]
			if c.file == "" {
				if len(found) > 0 {
					t.Errorf("a finding: %v", found)
				}
				return
			}
			if len(found) != 1 {
				t.Fatalf("findings %v, want one", found)
			}
			d := found[0]
			if d.File != filepath.Join(dir, filepath.FromSlash(c.file)) || d.Line != c.line || !strings.Contains(d.Message, c.says) {
				t.Errorf("%s:%d: %s; want it at %s:%d, saying %q", d.File, d.Line, d.Message, c.file, c.line, c.says)
			}
		})
	}
}

// TestLinkToALeftOutFile: a link to a file the folder holds but the skill
// leaves out (here, over the file size limit) says so, rather than that
// the file is missing.
func TestLinkToALeftOutFile(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- s/SKILL.md --
---
name: s
description: A skill that links a data file larger than this load's limit of 200 bytes.
---
Read [the data](data.txt) and [the notes](notes.md).
-- s/notes.md --
short
-- s/data.txt --
`+strings.Repeat("a line of data\n", 20))
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}, Source: source.Options{MaxFileBytes: 200}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range codesOf(c)["reference-missing"] {
		got = append(got, d.Message)
	}
	if len(got) != 1 || !strings.Contains(got[0], `link "data.txt" points to a file the skill leaves out`) {
		t.Errorf("reference-missing: %q, want one, for data.txt, saying it is left out", got)
	}
	if len(codesOf(c)["file-too-large"]) != 1 {
		t.Errorf("file-too-large: %v", codesOf(c)["file-too-large"])
	}

	// Past the folder's file limit (the first files in path order are
	// kept).
	dir = testutil.WriteTxtar(t, t.TempDir(), `
-- s/SKILL.md --
---
name: s
description: A skill whose folder holds more files than this load takes.
---
Read [a](a.md) and [z](z.md).
-- s/a.md --
a
-- s/z.md --
z
`)
	c, err = build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}, Source: source.Options{MaxFolderFiles: 2}})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, d := range codesOf(c)["reference-missing"] {
		got = append(got, d.Message)
	}
	if len(got) != 1 || !strings.Contains(got[0], `link "z.md" points to a file the skill leaves out`) {
		t.Errorf("past the file limit, reference-missing: %q, want one, for z.md, saying it is left out", got)
	}
}

// TestLinkColumnInCharacters: a link's column counts characters, as an
// editor shows them and the other findings count, not bytes; a code span
// with non-ASCII text before the link counts the same way, and so does
// the column of '---' inside the frontmatter.
func TestLinkColumnInCharacters(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), "-- s/SKILL.md --\n---\nname: s\ndescription: A skill whose links follow accented letters and an emoji.\n---\nCafé 🎉 [x](missing.md)\n`é` ü [y](gone.md)\n")
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range codesOf(c)["reference-missing"] {
		got = append(got, fmt.Sprintf("%d:%d", d.Line, d.Column))
	}
	if want := []string{"5:8", "6:7"}; !slices.Equal(got, want) {
		t.Errorf("reference-missing at %q, want %q", got, want)
	}

	// '---' inside the frontmatter, after accented letters.
	dir = testutil.WriteTxtar(t, t.TempDir(), "-- s/SKILL.md --\n---\nname: s\ndescription: café --- crème, a skill whose frontmatter holds dashes.\n---\nBody.\n")
	if c, err = build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}}); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, d := range codesOf(c)["frontmatter-dashes"] {
		got = append(got, fmt.Sprintf("%d:%d", d.Line, d.Column))
	}
	if want := []string{"3:19"}; !slices.Equal(got, want) {
		t.Errorf("frontmatter-dashes at %q, want %q", got, want)
	}
}
