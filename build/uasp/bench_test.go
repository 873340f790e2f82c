package uasp_test

import (
	"os"
	"testing"

	"github.com/skilldex/skilldex/build/derive"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testskills"
)

// benchSectionsMarkdown writes the sections of every derived document
// once per iteration, as the skill pages do.
func benchSectionsMarkdown(b *testing.B, skills []*skill.Skill) {
	b.Helper()
	var docs []*uasp.Document
	for _, s := range skills {
		if d, _ := derive.ForSkill(s); d != nil && d.Derived {
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
			uasp.SectionsMarkdown(d, 1)
		}
	}
}

// BenchmarkSectionsMarkdownCorpus writes the corpus's derived documents.
func BenchmarkSectionsMarkdownCorpus(b *testing.B) {
	benchSectionsMarkdown(b, append(testskills.Corpus(b, "skills"), testskills.Corpus(b, "usk")...))
}

// BenchmarkSectionsMarkdownCatalog writes the generated catalog's
// derived documents.
func BenchmarkSectionsMarkdownCatalog(b *testing.B) {
	dir := catalogen.BenchCatalog(1000)
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no generated catalog at %s (make bench generates it)", dir)
	}
	benchSectionsMarkdown(b, testskills.Dir(b, dir))
}
