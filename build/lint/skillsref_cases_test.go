package lint_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/internal/testutil"
)

type refCase struct {
	test, function, dir, expected string
}

func refCases(t *testing.T) []refCase {
	var out []refCase
	for _, rec := range readTSV(t, "conformance", "skills-ref", "CASES.tsv") {
		out = append(out, refCase{rec[0], rec[1], rec[2], rec[3]})
	}
	return out
}

var quoted = regexp.MustCompile(`'([^']*)'`)

func errorMessages(c *catalog.Catalog) []string {
	var out []string
	for _, d := range c.Diagnostics {
		if d.Severity.String() == "error" {
			out = append(out, d.Code+": "+d.Message)
		}
	}
	for _, s := range c.All {
		for _, d := range s.Diagnostics {
			if d.Severity.String() == "error" {
				out = append(out, d.Code+": "+d.Message)
			}
		}
	}
	return out
}

// TestSkillsRefCases runs the reference validator's own test cases
// (testdata/conformance/skills-ref) through skilldex in strict mode.
func TestSkillsRefCases(t *testing.T) {
	base := testutil.Testdata(t, "conformance", "skills-ref")
	cases := refCases(t)
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			dir := filepath.Join(base, filepath.FromSlash(c.test))
			switch {
			case c.function == "validate":
				checkValidate(t, dir, c)
			case strings.HasPrefix(c.function, "parse_frontmatter"):
				checkParseFrontmatter(t, dir, c)
			case strings.HasPrefix(c.function, "read_properties"):
				checkReadProperties(t, dir, c)
			case c.function == "find_skill_md":
				checkFindSkillMD(t, dir, c)
			case strings.HasPrefix(c.function, "to_prompt"):
				checkPrompt(t, dir, c)
			default:
				t.Fatalf("unknown function %q", c.function)
			}
		})
	}
}

func checkValidate(t *testing.T, dir string, c refCase) {
	name, _, _ := strings.Cut(c.dir, " ")
	target := filepath.Join(dir, name)
	cat, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{target}, Strict: true})
	exp := c.expected
	switch {
	case strings.Contains(exp, "does not exist"):
		if err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Fatalf("want a 'does not exist' failure, got %v", err)
		}
		return
	case strings.Contains(exp, "Not a directory"):
		if err == nil || !strings.Contains(err.Error(), "is not a folder") {
			t.Fatalf("want a 'not a folder' failure, got %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	errs := errorMessages(cat)
	switch {
	case exp == "errors == []":
		if len(errs) != 0 {
			t.Fatalf("want no errors, got %q", errs)
		}
	case strings.Contains(exp, "Missing required file: SKILL.md"):
		if len(errs) != 1 || !strings.HasPrefix(errs[0], "skill-md-missing:") {
			t.Fatalf("want one skill-md-missing error, got %q", errs)
		}
	case strings.HasPrefix(exp, "some error contains"):
		words := quoted.FindAllStringSubmatch(exp, -1)
		for _, e := range errs {
			all := true
			for _, w := range words {
				all = all && strings.Contains(e, w[1])
			}
			if all {
				return
			}
		}
		t.Fatalf("no error contains %q: %q", words, errs)
	default:
		t.Fatalf("unhandled expectation %q", exp)
	}
}

func checkParseFrontmatter(t *testing.T, dir string, c refCase) {
	content, err := os.ReadFile(filepath.Join(dir, "content.md"))
	if err != nil {
		t.Fatal(err)
	}
	findings := lint.SkillsRef("my-skill", content)
	doc := skill.Split(content)
	if m := quoted.FindStringSubmatch(c.expected); strings.Contains(c.expected, "ParseError") && m != nil {
		if len(findings) != 1 || !strings.Contains(findings[0].Message, m[1]) {
			t.Fatalf("want a finding matching %q, got %+v", m[1], findings)
		}
		return
	}
	// A valid frontmatter: no finding about the file as a whole, and the
	// lenient split gives the same fields and body.
	for _, f := range findings {
		if f.Field == "" && f.Code != "unknown-field" {
			t.Fatalf("unexpected finding %+v", f)
		}
	}
	if !strings.Contains(string(doc.Frontmatter), "name: my-skill") || !strings.Contains(string(doc.Body), "# My Skill") {
		t.Fatalf("split: frontmatter %q body %q", doc.Frontmatter, doc.Body)
	}
}

func loadOne(t *testing.T, dir string) *catalog.Skill {
	t.Helper()
	cat, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.All) != 1 {
		t.Fatalf("want one skill in %s, got %d (%q)", dir, len(cat.All), errorMessages(cat))
	}
	return cat.All[0]
}

func checkReadProperties(t *testing.T, dir string, c refCase) {
	if c.dir == "(tmp_path itself, empty)" {
		cat, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		if len(cat.All) != 0 || len(errorMessages(cat)) != 1 {
			t.Fatalf("want no skill and one error, got %d skills, %q", len(cat.All), errorMessages(cat))
		}
		return
	}
	s := loadOne(t, filepath.Join(dir, c.dir))
	exp := c.expected
	switch {
	case strings.Contains(exp, "Missing required field.*name"):
		if s.Status != lint.Rejected || !hasCode(s, "name-missing") {
			t.Fatalf("want name-missing, got %v", s.Diagnostics)
		}
	case strings.Contains(exp, "Missing required field.*description"):
		if s.Status != lint.Rejected || !hasCode(s, "description-missing") {
			t.Fatalf("want description-missing, got %v", s.Diagnostics)
		}
	case strings.HasPrefix(exp, "metadata =="):
		// The values as written (version is 1.0, not the number 1): the
		// syntax tree of the skill parsed again.
		fm := skill.Parse(s.Input).Frontmatter
		md := fm.Metadata
		for _, kv := range [][2]string{{"author", "Test Author"}, {"version", "1.0"}} {
			if v := fm.Value("metadata", kv[0]); v == nil || v.Value != kv[1] {
				t.Errorf("metadata.%s = %+v, want %q", kv[0], v, kv[1])
			}
		}
		if md.Len() != 2 {
			t.Errorf("metadata has %d keys", md.Len())
		}
	case strings.HasPrefix(exp, "allowed_tools=="):
		want := []string{"Bash(jq:*)", "Bash(git:*)"}
		fm := skill.Parse(s.Input).Frontmatter
		if strings.Join(fm.AllowedTools, "|") != strings.Join(want, "|") {
			t.Errorf("allowed-tools = %q, want %q", fm.AllowedTools, want)
		}
	default:
		if s.Name != "my-skill" || s.Description != "A test skill" {
			t.Errorf("name %q description %q", s.Name, s.Description)
		}
		if strings.Contains(exp, "license=MIT") && s.License != "MIT" {
			t.Errorf("license %q", s.License)
		}
	}
}

func hasCode(s *catalog.Skill, code string) bool {
	for _, d := range s.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

func checkFindSkillMD(t *testing.T, dir string, c refCase) {
	target := filepath.Join(dir, c.dir)
	cat, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{target}})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case strings.Contains(c.expected, "returns None"):
		if len(cat.All) != 0 {
			t.Fatalf("found a skill in %s", target)
		}
	case strings.Contains(c.expected, "named SKILL.md"):
		if len(cat.All) != 1 || cat.All[0].SkillFile != "SKILL.md" {
			t.Fatalf("want SKILL.md preferred, got %+v", cat.All)
		}
	default:
		if len(cat.All) != 1 || strings.ToLower(cat.All[0].SkillFile) != "skill.md" {
			t.Fatalf("want skill.md accepted, got %+v", cat.All)
		}
	}
}

func checkPrompt(t *testing.T, dir string, c refCase) {
	var skills []api.PromptSkill
	if c.dir != "-" {
		for _, name := range strings.Split(c.dir, ", ") {
			s := loadOne(t, filepath.Join(dir, name))
			skills = append(skills, api.PromptSkill{Name: s.Name, Description: s.Description, Location: s.File()})
		}
	}
	got := api.AvailableSkills(skills)
	switch c.test {
	case "prompt/test_empty_list":
		if got != "<available_skills>\n</available_skills>" {
			t.Fatalf("got %q", got)
		}
	case "prompt/test_multiple_skills":
		if strings.Count(got, "<skill>") != 2 || strings.Count(got, "</skill>") != 2 || !strings.Contains(got, "skill-a") || !strings.Contains(got, "skill-b") {
			t.Fatalf("got %q", got)
		}
	case "prompt/test_special_characters_escaped":
		for _, w := range []string{"&lt;foo&gt;", "&amp;", "&lt;bar&gt;"} {
			if !strings.Contains(got, w) {
				t.Errorf("missing %q in %q", w, got)
			}
		}
		if strings.Contains(got, "<foo>") || strings.Contains(got, "<bar>") {
			t.Errorf("unescaped markup in %q", got)
		}
	default:
		for _, w := range []string{"<available_skills>", "</available_skills>", "<name>\nmy-skill\n</name>", "<description>\nA test skill\n</description>", "<location>", "SKILL.md"} {
			if !strings.Contains(got, w) {
				t.Errorf("missing %q in %q", w, got)
			}
		}
	}
}
