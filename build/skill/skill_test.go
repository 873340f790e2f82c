package skill

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/testutil"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name, src              string
		opened, closed         bool
		fm, body               string
		fmLine, bodyLine, lead int
	}{
		{"plain", "---\nname: a\n---\n# Body\n", true, true, "name: a\n", "# Body\n", 2, 4, 0},
		{"crlf", "---\r\nname: a\r\n---\r\nbody\r\n", true, true, "name: a\n", "body\n", 2, 4, 0},
		{"bom", "\ufeff---\nname: a\n---\nb", true, true, "name: a\n", "b", 2, 4, 0},
		{"dashes in value", "---\ndescription: a --- b\nx: ---c\n---\nbody", true, true, "description: a --- b\nx: ---c\n", "body", 2, 5, 0},
		{"trailing spaces on delimiters", "---  \nname: a\n--- \t\nbody", true, true, "name: a\n", "body", 2, 4, 0},
		{"document end", "---\nname: a\n...\nbody", true, true, "name: a\n", "body", 2, 4, 0},
		{"leading blank lines", "\n\n---\nname: a\n---\n", true, true, "name: a\n", "", 4, 6, 2},
		{"unclosed", "---\nname: a\n", true, false, "name: a\n", "", 2, 0, 0},
		{"missing", "# Title\n---\n", false, false, "", "# Title\n---\n", 0, 1, 0},
		{"four dashes", "----\nname: a\n---\n", false, false, "", "----\nname: a\n---\n", 0, 1, 0},
		{"empty", "", false, false, "", "", 0, 1, 0},
		{"lone cr", "---\rname: a\r---\rbody", true, true, "name: a\n", "body", 2, 4, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Split([]byte(c.src))
			if d.Opened != c.opened || d.Closed != c.closed {
				t.Fatalf("opened %v closed %v", d.Opened, d.Closed)
			}
			if string(d.Frontmatter) != c.fm {
				t.Errorf("frontmatter %q, want %q", d.Frontmatter, c.fm)
			}
			if string(d.Body) != c.body {
				t.Errorf("body %q, want %q", d.Body, c.body)
			}
			if c.opened && d.FrontmatterLine != c.fmLine {
				t.Errorf("frontmatter line %d, want %d", d.FrontmatterLine, c.fmLine)
			}
			if c.closed && d.BodyLine != c.bodyLine {
				t.Errorf("body line %d, want %d", d.BodyLine, c.bodyLine)
			}
			if d.LeadingBlankLines != c.lead {
				t.Errorf("leading blank lines %d", d.LeadingBlankLines)
			}
		})
	}
}

func parseSource(t testing.TB, src string) *Skill {
	fsys := fstest.MapFS{"SKILL.md": {Data: []byte(src)}}
	in := &source.Input{Path: "x", DirName: "x", Packaging: source.Folder, FS: fsys, SkillFile: "SKILL.md", Files: []source.File{{Path: "SKILL.md", Size: int64(len(src))}}}
	return Parse(in)
}

func TestParseFields(t *testing.T) {
	s := parseSource(t, `---
spec: usk/1.0
name: tavily-web-search
version: 1.0
description: >
  Real-time web search
  powered by Tavily.
interface: {type: cli, entry_point: main.py, runtime: python3, call_pattern: stdin_stdout}
input_schema:
  type: object
  properties:
    query: {type: string, description: The query}
capabilities: [web_search, information_retrieval]
permissions:
  network: yes
  env_vars: [TAVILY_API_KEY]
tags: search, real-time
allowed-tools: Bash(git log:*) Read
metadata:
  author: someone
argument-hint: "[query]"
examples:
  - name: basic
    input: {query: hi}
    output: {result: ok}
author_agent: {name: claude, provider: anthropic}
---
Body line one.
`)
	fm := s.Frontmatter
	if fm == nil {
		t.Fatalf("no frontmatter: %v", s.Diagnostics)
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	check("format", string(s.Format), "usk")
	check("name", s.Name, "tavily-web-search")
	check("version as written", fm.Version, "1.0")
	check("description", s.Description, "Real-time web search powered by Tavily.")
	check("interface", fm.Interface.EntryPoint+" "+fm.Interface.Runtime, "main.py python3")
	check("capabilities", strings.Join(fm.Capabilities, ","), "web_search,information_retrieval")
	check("tags split on commas", strings.Join(fm.Tags, "|"), "search|real-time")
	check("allowed tools", strings.Join(fm.AllowedTools, "|"), "Bash(git log:*)|Read")
	check("unknown kept", strings.Join(fm.Unknown, ","), "argument-hint")
	check("env vars", strings.Join(fm.Permissions.EnvVars, ","), "TAVILY_API_KEY")
	if !fm.Permissions.Network {
		t.Error("permissions.network: yes not read as true")
	}
	if v, ok := fm.Data.Get("argument-hint"); !ok || v != "[query]" {
		t.Errorf("unknown field value lost: %v", v)
	}
	if len(fm.Examples) != 1 || !fm.Examples[0].HasInput || !fm.Examples[0].HasOutput {
		t.Errorf("examples: %+v", fm.Examples)
	}
	if fm.AuthorAgent == nil || fm.AuthorAgent.Provider != "anthropic" {
		t.Errorf("author_agent: %+v", fm.AuthorAgent)
	}
	if fm.InputSchema == nil {
		t.Error("input_schema lost")
	}
	if s.BodyLine != 28 || string(s.Body) != "Body line one.\n" {
		t.Errorf("body at line %d: %q", s.BodyLine, s.Body)
	}
	if p := fm.ValuePos("interface", "runtime"); p.Line != 8 {
		t.Errorf("position of interface.runtime: %+v", p)
	}
}

func TestParseProblems(t *testing.T) {
	cases := []struct{ name, src, code string }{
		{"no frontmatter", "# Just markdown\n", "frontmatter-missing"},
		{"unclosed", "---\nname: a\ndescription: b\n", "frontmatter-unclosed"},
		{"bad yaml", "---\nname: a\n  description: b: c\n---\n", "yaml-invalid"},
		{"list", "---\n- a\n- b\n---\n", "frontmatter-not-mapping"},
		{"alias bomb", "---\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nname: x\n---\n", "yaml-invalid"},
		{"wrong type", "---\nname: a\ndescription: b\ntags: {a: b}\n---\n", "field-type"},
		{"invalid utf8", "---\nname: a\ndescription: b\xff\n---\n", "encoding-invalid-utf8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := parseSource(t, c.src)
			for _, d := range s.Diagnostics {
				if d.Code == c.code {
					if d.Line == 0 && c.code != "encoding-invalid-utf8" {
						t.Errorf("%s without a line", c.code)
					}
					return
				}
			}
			t.Errorf("want %s, got %v", c.code, s.Diagnostics)
		})
	}
}

// FuzzParse runs the SKILL.md parser over arbitrary input: it must never
// panic and must report any skill it cannot name.
func FuzzParse(f *testing.F) {
	f.Add("---\nname: a\ndescription: b\n---\nbody")
	f.Add("\ufeff---\r\nname: a\r\n---\r\n")
	f.Add("---\nname: [a\n---\n")
	corpus := testutil.Testdata(f, "corpus", "skills")
	n := 0
	filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "SKILL.md" && n < 80 {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
				n++
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, src string) {
		s := parseSource(t, src)
		if s.Name == "" {
			for _, d := range s.Diagnostics {
				if d.Severity.String() == "error" {
					return
				}
			}
			if s.Frontmatter != nil {
				return // lint reports the missing name
			}
			t.Fatalf("no name and no error for %q", src)
		}
	})
}
