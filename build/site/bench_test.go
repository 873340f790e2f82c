package site_test

import (
	"bytes"
	"testing"

	"github.com/skilldex/skilldex/build/site"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/testcatalog"
)

// BenchmarkSkillPages renders the skill pages of a generated catalog of
// 500 skills, without writing them: the view (Markdown included) and the
// templates, which are most of a large build's page work.
func BenchmarkSkillPages(b *testing.B) {
	c := testcatalog.Generated(b, 500, 7)
	info, err := siteinfo.New("Bench", "https://example.org/x/")
	if err != nil {
		b.Fatal(err)
	}
	render, err := site.SkillPageRenderer(c, info)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		for i := range c.Skills {
			if err := render(i, &buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(c.Skills)), "µs/page")
}
