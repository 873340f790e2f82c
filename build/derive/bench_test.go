package derive

import (
	"os"
	"testing"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testskills"
)

// derivable returns the skills ForSkill derives a document for: named
// skills without a UASP document of their own.
func derivable(skills []*skill.Skill) []*skill.Skill {
	var out []*skill.Skill
	for _, s := range skills {
		if s.Name != "" && s.UASPValue == nil {
			out = append(out, s)
		}
	}
	return out
}

// benchDerive derives the document of every skill once per iteration.
func benchDerive(b *testing.B, skills []*skill.Skill) {
	b.Helper()
	if len(skills) == 0 {
		b.Skip("no skills")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range skills {
			if d, _ := ForSkill(s); d == nil {
				b.Fatalf("%s: no document", s.Path)
			}
		}
	}
}

// BenchmarkDeriveCorpus derives the documents of the corpus's
// SKILL.md and USK skills: real-world Markdown.
func BenchmarkDeriveCorpus(b *testing.B) {
	skills := append(testskills.Corpus(b, "skills"), testskills.Corpus(b, "usk")...)
	benchDerive(b, derivable(skills))
}

// BenchmarkDeriveCatalog derives the documents of the generated
// 1,000-skill catalog, what a large build spends its derivation on.
func BenchmarkDeriveCatalog(b *testing.B) {
	dir := catalogen.BenchCatalog(1000)
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no generated catalog at %s (make bench generates it)", dir)
	}
	benchDerive(b, derivable(testskills.Dir(b, dir)))
}
