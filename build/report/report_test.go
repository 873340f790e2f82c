package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/internal/testutil"
)

const catalogTxtar = `
-- good/SKILL.md --
---
name: good
description: A skill with nothing wrong, for the report tests.
---
Body.
-- bad/SKILL.md --
---
name: Bad
description: A skill whose name breaks the pattern, with 100% "quotes", commas.
---
Body.
-- worse/SKILL.md --
no frontmatter
`

func loadCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	dir := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestJSONShape(t *testing.T) {
	c := loadCatalog(t)
	var buf bytes.Buffer
	if err := JSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	// The shape of DESIGN.md's CLI contract, read back generically.
	var r struct {
		Skills []struct {
			Name, Path, Format, Status string
			Diagnostics                []map[string]any
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Skills) != 3 || r.Summary["skills"] != 3 || r.Summary["rejected"] != 1 {
		t.Fatalf("report: %s", buf.String())
	}
	statuses := map[string]string{}
	for _, s := range r.Skills {
		statuses[s.Path[strings.LastIndex(s.Path, "/")+1:]] = s.Status
		for _, d := range s.Diagnostics {
			for _, k := range []string{"code", "severity", "message", "file", "line", "column"} {
				if _, ok := d[k]; !ok {
					t.Errorf("diagnostic without %q: %v", k, d)
				}
			}
		}
	}
	if statuses["good"] != "approved" || statuses["bad"] != "caution" || statuses["worse"] != "rejected" {
		t.Errorf("statuses %v", statuses)
	}
}

func TestGitHubAnnotations(t *testing.T) {
	c := loadCatalog(t)
	var buf bytes.Buffer
	if err := GitHub(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"::error file=", "::warning file=", ",line=", ",col=", "title=skilldex frontmatter-missing::"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "::") && strings.Count(line, "::") != 2 {
			t.Errorf("unescaped '::' in %q", line)
		}
	}
	if got := ghData("50% done\nnext"); got != "50%25 done%0Anext" {
		t.Errorf("ghData = %q", got)
	}
	if got := ghProperty("a:b,c"); got != "a%3Ab%2Cc" {
		t.Errorf("ghProperty = %q", got)
	}
}

// TestSARIFValid validates the SARIF output against the official SARIF
// 2.1.0 schema (testdata/sarif-schema-2.1.0.json).
func TestSARIFValid(t *testing.T) {
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	comp.AssertFormat()
	if err := comp.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	// This copy keeps the rules of the log object in definitions/Root.
	sch, err := comp.Compile("sarif.json#/definitions/Root")
	if err != nil {
		t.Fatal(err)
	}
	// The schema must be able to fail: a log without runs is invalid.
	if broken, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runz":[]}`)); sch.Validate(broken) == nil {
		t.Fatal("the schema accepts a broken log; it checks nothing")
	}
	c := loadCatalog(t)
	var buf bytes.Buffer
	if err := SARIF(&buf, c, "test"); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF output is not valid SARIF 2.1.0: %v", err)
	}
	var log struct {
		Runs []struct {
			ColumnKind string
			Results    []struct {
				RuleID    string
				RuleIndex int
				Level     string
			}
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
		}
	}
	var again bytes.Buffer
	SARIF(&again, c, "test")
	json.Unmarshal(again.Bytes(), &log)
	run := log.Runs[0]
	if len(run.Results) == 0 {
		t.Fatal("no results")
	}
	// Columns count characters (as every finding's does), not SARIF's
	// default UTF-16 code units.
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}
	for _, r := range run.Results {
		if r.RuleIndex < 0 || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d", r.RuleID, r.RuleIndex)
		}
	}
}

func TestTextSummary(t *testing.T) {
	c := loadCatalog(t)
	var buf bytes.Buffer
	Text(&buf, c, false)
	out := buf.String()
	if !strings.Contains(out, "3 skills: 1 approved, 1 caution, 1 rejected") {
		t.Errorf("summary missing in\n%s", out)
	}
	if strings.Contains(out, ": info: ") {
		t.Error("info printed without verbose")
	}
}

// TestTextColor: with Color, every severity is coloured and the text read
// without the escapes is the plain line; without, no escape is written.
func TestTextColor(t *testing.T) {
	c := loadCatalog(t)
	for _, color := range []bool{false, true} {
		var buf bytes.Buffer
		if err := Write(&buf, "text", c, Options{Verbose: true, Color: color}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if got := strings.Contains(out, "\x1b["); got != color {
			t.Errorf("color %v: escapes written: %v\n%s", color, got, out)
		}
		var plain bytes.Buffer
		Text(&plain, c, true)
		if stripped := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out, ""); stripped != plain.String() {
			t.Errorf("color %v: without its escapes the report is\n%s\nwant\n%s", color, stripped, plain.String())
		}
	}
	for sev, want := range map[diag.Severity]string{diag.Error: "\x1b[1;31merror", diag.Warning: "\x1b[1;33mwarning", diag.Info: "\x1b[1;36minfo"} {
		if line := Line(diag.Diagnostic{File: "a/SKILL.md", Line: 2, Severity: sev, Code: "x", Message: "m"}, true); !strings.Contains(line, want) {
			t.Errorf("%s: %q lacks %q", sev, line, want)
		}
	}
}

// TestSummaryLineCounts: counts read as people write them, with their
// noun in the right number.
func TestSummaryLineCounts(t *testing.T) {
	got := SummaryLine(catalog.Summary{Skills: 10000, Approved: 9000, Caution: 1000, Shadowed: 1200, Warnings: 28050, Infos: 1})
	want := "10,000 skills: 9,000 approved, 1,000 caution, 0 rejected, 1,200 shadowed; 0 errors, 28,050 warnings, 1 info"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestArchiveFindingsHaveNoLineOnTheArchive: a finding on a file inside
// an archive is annotated on the archive without a line (the archive's
// lines are not the entry's), and its message keeps the entry's path and
// position, in the GitHub commands and in SARIF alike.
func TestArchiveFindingsHaveNoLineOnTheArchive(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.skill"), testutil.Zip(t, map[string]string{"bad/SKILL.md": "---\nname: bad\ndescription: \"unclosed\n---\nbody\n"}), 0o644)
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	var gh, sarif bytes.Buffer
	if err := GitHub(&gh, c); err != nil {
		t.Fatal(err)
	}
	if err := SARIF(&sarif, c, "test"); err != nil {
		t.Fatal(err)
	}
	annotated := 0
	for _, line := range strings.Split(gh.String(), "\n") {
		if !strings.Contains(line, "file="+ghProperty(filepath.Join(dir, "bad.skill"))) {
			continue
		}
		annotated++
		if strings.Contains(line, ",line=") || !strings.Contains(line, "::bad/SKILL.md:3:") {
			t.Errorf("an archive's finding: %s", line)
		}
	}
	if annotated == 0 {
		t.Errorf("no annotation on bad.skill in\n%s", gh.String())
	}
	if strings.Contains(sarif.String(), `"region"`) || !strings.Contains(sarif.String(), `"text": "bad/SKILL.md:3:`) {
		t.Errorf("SARIF of an archive's finding:\n%s", sarif.String())
	}
}

// TestTextSaysInfosAreHidden: the text report leaves infos out unless
// verbose, and its summary, which counts them, then says how to see them.
func TestTextSaysInfosAreHidden(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), "-- terse/SKILL.md --\n---\nname: terse\ndescription: Terse.\n---\nBody.\n")
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Summarize().Infos == 0 {
		t.Fatal("the test catalog has no info finding: the case tests nothing")
	}
	for _, verbose := range []bool{false, true} {
		var buf bytes.Buffer
		if err := Text(&buf, c, verbose); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		last := lines[len(lines)-1]
		if hint := strings.HasSuffix(last, " infos (-v shows the infos)") || strings.HasSuffix(last, " info (-v shows the infos)"); hint == verbose {
			t.Errorf("verbose %v: summary %q", verbose, last)
		}
		if shown := strings.Contains(buf.String(), ": info: "); shown != verbose {
			t.Errorf("verbose %v: infos shown %v", verbose, shown)
		}
	}
}
