package derive

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testskills"

	"github.com/skilldex/skilldex/build/skill"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestCorpusDerivation derives the document of every skill of the corpus
// (412 SKILL.md skills and the USK skills): each must validate against the
// schema, come with no finding, be the same when derived again, and read
// back from its YAML with the same version. It also measures how many got
// at least one of constraints, decisions, commands, workflows or sources.
func TestCorpusDerivation(t *testing.T) {
	skills := testskills.Corpus(t, "skills")
	if len(skills) != 412 {
		t.Fatalf("%d corpus skills, want 412", len(skills))
	}
	inSkills := len(skills)
	skills = append(skills, testskills.Corpus(t, "usk")...)
	covered, total := 0, 0
	sections := map[string]int{}
	for i, s := range skills {
		if s.Name == "" {
			continue // the corpus's broken skills, which lint rejects
		}
		if i < inSkills {
			total++
		}
		d, ds := ForSkill(s)
		if d == nil || !d.Derived {
			t.Errorf("%s: no derived document", s.Path)
			continue
		}
		if !d.Valid() {
			t.Errorf("%s: derived document breaks the schema: %v", s.Path, d.Problems())
		}
		if len(ds) != 0 {
			t.Errorf("%s: %v", s.Path, ds)
		}
		any := false
		for _, sec := range []string{"constraints", "decisions", "commands", "workflows", "sources"} {
			if d.Root.Has(sec) && i < inSkills {
				sections[sec]++
				any = true
			}
		}
		if any && i < inSkills {
			covered++
		}
		y1, err := uasp.MarshalYAML(d)
		if err != nil {
			t.Fatalf("%s: %v", s.Path, err)
		}
		d2, _ := ForSkill(s)
		if y2, _ := uasp.MarshalYAML(d2); !bytes.Equal(y1, y2) {
			t.Errorf("%s: derivation is not deterministic", s.Path)
		}
		if !bytes.Contains(uasp.ToMarkdown(d), []byte("# "+metaName(s.Name)+"\n")) {
			t.Errorf("%s: Markdown has no title", s.Path)
		}
		back := decodeMap(t, y1)
		if v := uasp.ContentVersion(back); v != d.Version {
			t.Errorf("%s: YAML reads back with version %s, want %s", s.Path, v, d.Version)
		}
		for path, line := range d.Origins {
			if line < 1 || (s.Doc != nil && line > bytes.Count(s.Doc.Text, []byte("\n"))+1) {
				t.Errorf("%s: origin of %s is line %d", s.Path, path, line)
			}
			if a := d.Query(path, nil); !a.Found {
				t.Errorf("%s: origin key %s is not a query path that resolves", s.Path, path)
			}
		}
	}
	share := float64(covered) / float64(total)
	t.Logf("corpus/skills: %d of %d skills (%.1f%%) got constraints, decisions, commands, workflows or sources; by section: %v", covered, total, 100*share, sections)
	// A floor, so that a regression of the rules shows.
	if share < 0.9 {
		t.Errorf("only %.1f%% of the corpus got a derived section", 100*share)
	}
}

// goldenSkills are pinned: their derived documents are in testdata.
var goldenSkills = []string{
	"obra__superpowers/skills/finishing-a-development-branch",
	"openai__skills/skills/.system/skill-installer",
	"anthropics__skills/skills/webapp-testing",
}

// TestGolden compares the derived documents of a few corpus skills with
// testdata/*.golden (regenerate with go test -run TestGolden -update).
func TestGolden(t *testing.T) {
	byPath := map[string]*skill.Skill{}
	for _, s := range testskills.Corpus(t, "skills") {
		byPath[filepath.ToSlash(s.Path)] = s
	}
	for _, rel := range goldenSkills {
		var s *skill.Skill
		for p, sk := range byPath {
			if strings.HasSuffix(p, "/"+rel) {
				s = sk
			}
		}
		if s == nil {
			t.Fatalf("%s not in the corpus", rel)
		}
		d, _ := ForSkill(s)
		got, err := uasp.MarshalYAML(d)
		if err != nil {
			t.Fatal(err)
		}
		// Origins are part of what is pinned: each derived item's line.
		got = append(got, []byte("# origins (query path: SKILL.md line)\n")...)
		for _, p := range sortedKeys(d.Origins) {
			got = append(got, []byte("# "+p+": "+itoa(d.Origins[p])+"\n")...)
		}
		file := filepath.Join("testdata", s.Name+".golden")
		if *update {
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test -run TestGolden -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: derived document differs from %s (run go test -run TestGolden -update and review the diff)\n%s", rel, file, got)
		}
	}
}

// FuzzDerive checks that no SKILL.md body makes the derivation panic, and
// that what it derives always validates and encodes.
func FuzzDerive(f *testing.F) {
	for i, s := range testskills.Corpus(f, "skills") {
		if i%8 == 0 && s.Body != nil { // a sample keeps the seed run short
			f.Add(string(s.Body))
		}
	}
	f.Add("1. a\n2. b\n\n```bash\nx=$(\n```\n[a](<>)\n")
	f.Fuzz(func(t *testing.T, body string) {
		s := &skill.Skill{Name: "fuzz", Description: "Fuzzed.", Body: []byte(body), BodyLine: 5}
		root, origins, err := Deterministic{}.Convert(s)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := uasp.Derived(s.Name, "SKILL.md", root, origins)
		if ps := uasp.Validate(d.Root); len(ps) != 0 {
			t.Fatalf("derived document breaks the schema: %v", ps)
		}
		if _, err := uasp.MarshalYAML(d); err != nil {
			t.Fatal(err)
		}
		if md := uasp.ToMarkdown(d); len(md) == 0 {
			t.Fatal("no Markdown")
		}
		for _, p := range d.Paths() {
			if a := d.Query(p, nil); !a.Found {
				t.Fatalf("listed path %s not found", p)
			}
		}
	})
}
