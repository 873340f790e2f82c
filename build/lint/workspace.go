package lint

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/spaces"
)

var (
	skillbagNameRe = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	useTagRe       = regexp.MustCompile(`#use/(\S+)`)
)

// CatalogEntry is one line of a SkillBag .skills/SKILLS.md.
type CatalogEntry struct {
	Name, Description string
	Line              int
}

// ParseSkillsCatalog reads SKILLS.md: one "<name>: <description>" line per
// skill. Blank lines, headings and HTML comments are skipped; a leading
// list marker and backquotes around the name are tolerated. Lines that are
// none of these are returned in bad.
func ParseSkillsCatalog(b []byte) (entries []CatalogEntry, bad []int) {
	text, _, _, _ := skill.Normalize(b)
	inComment := false
	for i, raw := range strings.Split(string(text), "\n") {
		line := strings.TrimSpace(raw)
		if inComment {
			inComment = !strings.Contains(line, "-->")
			continue
		}
		switch {
		case line == "", strings.HasPrefix(line, "#"), line == "---":
			continue
		case strings.HasPrefix(line, "<!--"):
			inComment = !strings.Contains(line, "-->")
			continue
		}
		line = strings.TrimPrefix(strings.TrimPrefix(line, "- "), "* ")
		name, desc, ok := strings.Cut(line, ":")
		name = strings.Trim(strings.TrimSpace(name), "`*")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			bad = append(bad, i+1)
			continue
		}
		entries = append(entries, CatalogEntry{Name: name, Description: strings.TrimSpace(desc), Line: i + 1})
	}
	return entries, bad
}

// A Member is what the SkillBag rules read of a skill of a workspace: the
// checks across its skills run on every load, from what a load keeps of
// each skill.
type Member struct {
	DirName, SkillFile string
	// File is how diagnostics name the skill's file (source.Input.File).
	File              string
	Name, Description string
	// NamePos and DescriptionPos locate the values of name and
	// description in SKILL.md.
	NamePos, DescriptionPos diag.Pos
	Parameters              *skill.Parameters
	Dependencies            []skill.Dependency
}

// MemberOf returns what the SkillBag rules read of s.
func MemberOf(s *skill.Skill) *Member {
	m := &Member{DirName: s.DirName, SkillFile: s.SkillFile, File: s.File(), Name: s.Name, Description: s.Description,
		NamePos: diag.Pos{Line: 1, Column: 1}, DescriptionPos: diag.Pos{Line: 1, Column: 1},
		Parameters: s.Parameters, Dependencies: s.Dependencies}
	if fm := s.Frontmatter; fm != nil {
		m.NamePos, m.DescriptionPos = fm.ValuePos("name"), fm.ValuePos("description")
	}
	return m
}

// CheckWorkspace applies the SkillBag rules to a workspace and its skills.
// It returns the diagnostics per skill and those about the workspace.
func CheckWorkspace(ws *source.Workspace, skills []*Member) (perSkill map[*Member][]diag.Diagnostic, global []diag.Diagnostic) {
	perSkill = map[*Member][]diag.Diagnostic{}
	add := func(s *Member, file string, pos diag.Pos, code, format string, args ...any) {
		r := byCode[code]
		d := diag.At(file, pos, r.Severity, code, format, args...)
		if s != nil {
			perSkill[s] = append(perSkill[s], d)
		} else {
			global = append(global, d)
		}
	}
	byDir := map[string]*Member{}
	for _, s := range skills {
		byDir[s.DirName] = s
	}

	// The catalog.
	if ws.Catalog == nil {
		if len(ws.SkillDirs) > 0 {
			add(nil, ws.CatalogPath, diag.Pos{}, "skillbag-catalog-missing", ".skills/ holds skills but .skills/SKILLS.md is missing; create it with one '<name>: <description>' line per skill, sorted")
		}
	} else {
		entries, bad := ParseSkillsCatalog(ws.Catalog)
		for _, l := range bad {
			add(nil, ws.CatalogPath, diag.Pos{Line: l, Column: 1}, "skillbag-catalog-syntax", "line is not '<name>: <description>'")
		}
		listed := map[string]CatalogEntry{}
		for i, e := range entries {
			pos := diag.Pos{Line: e.Line, Column: 1}
			if _, dup := listed[e.Name]; dup {
				add(nil, ws.CatalogPath, pos, "skillbag-catalog-out-of-sync", "%s is listed twice", e.Name)
			}
			listed[e.Name] = e
			if i > 0 && entries[i-1].Name > e.Name {
				add(nil, ws.CatalogPath, pos, "skillbag-catalog-unsorted", "%s comes after %s; SKILLS.md must be sorted by name, ascending", e.Name, entries[i-1].Name)
			}
			s, ok := byDir[e.Name]
			if !ok {
				add(nil, ws.CatalogPath, pos, "skillbag-catalog-out-of-sync", "%s is listed but .skills/%s/SKILL.md does not exist; remove the line or add the skill", e.Name, e.Name)
				continue
			}
			if s.Description != "" && spaces.Collapse(e.Description) != spaces.Collapse(s.Description) {
				add(s, ws.CatalogPath, pos, "skillbag-catalog-description-mismatch", "the description of %s differs from its SKILL.md; copy the SKILL.md description onto this line", e.Name)
			}
		}
		for _, s := range skills {
			if _, ok := listed[s.DirName]; !ok && s.SkillFile != "" {
				add(s, ws.CatalogPath, diag.Pos{}, "skillbag-catalog-out-of-sync", "%s is in .skills/ but not listed in SKILLS.md; add the line '%s: %s'", s.DirName, s.DirName, spaces.Collapse(s.Description))
			}
		}
	}

	// Each skill.
	local := map[string]*Member{}
	for _, s := range skills {
		if s.Name != "" {
			local[s.Name] = s
		}
	}
	for _, s := range skills {
		file := s.File
		if s.Name != "" && (!skillbagNameRe.MatchString(s.Name) || len(s.Name) > 64) {
			add(s, file, s.NamePos, "skillbag-name-pattern", "SkillBag names are lowercase ASCII letters and digits joined by single hyphens, 1-64 characters; %q is not", s.Name)
		}
		if p := s.Parameters; p != nil {
			seen := map[string]bool{}
			for _, prm := range append(append([]skill.Parameter{}, p.Required...), p.Optional...) {
				if seen[prm.Name] {
					add(s, file, prm.Pos, "skillbag-parameter-duplicate", "parameter %q is declared twice; names must be unique within the skill", prm.Name)
				}
				seen[prm.Name] = true
			}
			for _, prm := range p.Required {
				if prm.HasDefault {
					add(s, file, prm.Pos, "skillbag-required-parameter-default", "required parameter %q defines a default; move it to optional: or remove the default", prm.Name)
				}
			}
		}
		for _, d := range s.Dependencies {
			if !skillbagNameRe.MatchString(d.Name) {
				add(s, file, d.Pos, "skillbag-dependency-name", "dependency %q is not a canonical hyphenated name (e.g. %s)", d.Name, strings.ReplaceAll(strings.ToLower(d.Name), "_", "-"))
				continue
			}
			if d.Source == "" && local[d.Name] == nil && d.Required {
				add(s, file, d.Pos, "skillbag-dependency-unresolved", "dependency %q has no source and is not in .skills/; add a source: or install it", d.Name)
			}
		}
		for _, m := range useTagRe.FindAllStringSubmatch(s.Description, -1) {
			if !skillbagNameRe.MatchString(m[1]) {
				add(s, file, s.DescriptionPos, "skillbag-tag-use-name", "#use/%s must name a skill by its canonical hyphenated name", m[1])
			}
		}
	}
	for _, cycle := range dependencyCycles(skills, local) {
		s := local[cycle[0]]
		pos := diag.Pos{Line: 1, Column: 1}
		for _, d := range s.Dependencies {
			if d.Name == cycle[1%len(cycle)] {
				pos = d.Pos
			}
		}
		add(s, s.File, pos, "skillbag-dependency-cycle", "dependencies form a cycle: %s; cycles are invalid, remove one of them", strings.Join(append(cycle, cycle[0]), " → "))
	}

	// CONTEXT.md, the bootstrap skill, AGENTS.md.
	if ws.Context != nil {
		for _, d := range contextDependencies(ws.Context) {
			var missing []string
			for _, f := range []string{"name", "version", "source"} {
				if d.fields[f] == "" {
					missing = append(missing, f)
				}
			}
			if len(missing) > 0 {
				add(nil, ws.ContextPath, diag.Pos{Line: d.line, Column: 1}, "skillbag-context-dependency-incomplete", "CONTEXT.md dependency lacks %s; name, version and source are required", strings.Join(missing, ", "))
			}
		}
	}
	if len(ws.SkillDirs) > 0 && byDir["skillbag-get-skills"] == nil {
		add(nil, ws.CatalogPath, diag.Pos{}, "skillbag-bootstrap-missing", ".skills/skillbag-get-skills/SKILL.md is not materialized; agents need it to install skills")
	}
	const agentsAdvice = "that the repository is a SKILLBAG, that its skills live under .skills/, and which extra installation steps there are, if any"
	switch {
	case ws.AgentsMD == nil:
		add(nil, ws.Path, diag.Pos{}, "skillbag-agents-md", "the workspace has no AGENTS.md, so it cannot be installed from as a SkillBag source; add one that says "+agentsAdvice)
	case !bytes.Contains(bytes.ToUpper(ws.AgentsMD), []byte("SKILLBAG")):
		add(nil, filepath.Join(ws.Path, "AGENTS.md"), diag.Pos{Line: 1, Column: 1}, "skillbag-agents-md", "AGENTS.md does not identify the repository as SKILLBAG, so it cannot be installed from as a SkillBag source; say in it "+agentsAdvice)
	}
	for s := range perSkill {
		perSkill[s] = diag.Sort(perSkill[s])
	}
	return perSkill, diag.Sort(global)
}

// dependencyCycles finds the elementary cycles among local dependencies,
// each rotated to start at its smallest name, sorted, without repeats.
func dependencyCycles(skills []*Member, local map[string]*Member) [][]string {
	edges := map[string][]string{}
	var names []string
	for _, s := range skills {
		if s.Name == "" {
			continue
		}
		names = append(names, s.Name)
		for _, d := range s.Dependencies {
			if local[d.Name] != nil {
				edges[s.Name] = append(edges[s.Name], d.Name)
			}
		}
		sort.Strings(edges[s.Name])
	}
	sort.Strings(names)
	seen := map[string]bool{}
	var out [][]string
	const white, grey, black = 0, 1, 2
	color := map[string]int{}
	var stack []string
	var visit func(n string)
	visit = func(n string) {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range edges[n] {
			switch color[m] {
			case white:
				visit(m)
			case grey:
				i := len(stack) - 1
				for stack[i] != m {
					i--
				}
				cyc := append([]string{}, stack[i:]...)
				min := 0
				for j := range cyc {
					if cyc[j] < cyc[min] {
						min = j
					}
				}
				cyc = append(cyc[min:], cyc[:min]...)
				if key := strings.Join(cyc, "\x00"); !seen[key] {
					seen[key] = true
					out = append(out, cyc)
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	for _, n := range names {
		if color[n] == white {
			visit(n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i], " ") < strings.Join(out[j], " ") })
	return out
}

type contextDep struct {
	fields map[string]string
	line   int
}

// contextDependencies reads the dependencies: lists of CONTEXT.md's yaml blocks.
func contextDependencies(b []byte) []contextDep {
	text, _, _, _ := skill.Normalize(b)
	var out []contextDep
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "```yaml") && !strings.HasPrefix(t, "```yml") {
			continue
		}
		start := i + 1
		end := start
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "```") {
			end++
		}
		block := strings.Join(lines[start:end], "\n")
		i = end
		n, err := yamltree.Parse([]byte(block), yamltree.DefaultLimits)
		if err != nil || n == nil {
			continue
		}
		_, deps := yamltree.MapEntry(n, "dependencies")
		if deps == nil {
			continue
		}
		for _, item := range deps.Content {
			d := contextDep{fields: map[string]string{}, line: start + item.Line}
			for j := 0; j+1 < len(item.Content); j += 2 {
				d.fields[item.Content[j].Value] = item.Content[j+1].Value
			}
			out = append(out, d)
		}
	}
	return out
}

// String is used in test failure messages.
func (e CatalogEntry) String() string {
	return fmt.Sprintf("%s: %s (line %d)", e.Name, e.Description, e.Line)
}
