package uasp

import (
	"context"
	"os"
	"testing"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// benchCatalog is the generated catalog make bench builds; the benchmarks
// that read it skip when it is absent.
var benchCatalog = catalogen.BenchCatalog(1000)

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

// catalogSkills reads the generated catalog, or skips.
func catalogSkills(b *testing.B) []*skill.Skill {
	b.Helper()
	if _, err := os.Stat(benchCatalog); err != nil {
		b.Skipf("no generated catalog at %s (make bench generates it)", benchCatalog)
	}
	found, err := source.Discover(context.Background(), []string{benchCatalog}, source.DefaultOptions)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]*skill.Skill, 0, len(found.Inputs))
	for _, in := range found.Inputs {
		out = append(out, skill.Parse(in))
	}
	return derivable(out)
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
	skills := append(loadSkills(b, "skills"), loadSkills(b, "usk")...)
	benchDerive(b, derivable(skills))
}

// BenchmarkDeriveCatalog derives the documents of the generated
// 1,000-skill catalog, what a large build spends its derivation on.
func BenchmarkDeriveCatalog(b *testing.B) {
	benchDerive(b, catalogSkills(b))
}

// benchSectionsMarkdown writes the sections of every document once per
// iteration, as the skill pages do.
func benchSectionsMarkdown(b *testing.B, skills []*skill.Skill) {
	b.Helper()
	var docs []*Document
	for _, s := range skills {
		if d, _ := ForSkill(s); d != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		b.Skip("no documents")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, d := range docs {
			SectionsMarkdown(d, 1)
		}
	}
}

// BenchmarkSectionsMarkdownCorpus writes the corpus's derived documents.
func BenchmarkSectionsMarkdownCorpus(b *testing.B) {
	benchSectionsMarkdown(b, derivable(append(loadSkills(b, "skills"), loadSkills(b, "usk")...)))
}

// BenchmarkSectionsMarkdownCatalog writes the generated catalog's
// derived documents.
func BenchmarkSectionsMarkdownCatalog(b *testing.B) {
	benchSectionsMarkdown(b, catalogSkills(b))
}
