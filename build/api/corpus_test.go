package api_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/sitecheck"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestCorpusAPI is the acceptance test of the site on real input: it
// builds the corpus (412 real skills) once. The pages must have no
// broken internal link, no invalid HTML and no page missing from the
// sitemap (internal/sitecheck), and every skill that is not rejected is
// published with its page. For the agent API, it checks that every path each
// paths.json lists has its file, that each file is what the query engine
// answers (what `skilldex query` prints), that documents read back from
// the site answer the same, that the Agent Skills digests match the bytes
// served, and that no skill file is served as an active document.
func TestCorpusAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole corpus")
	}
	corpus := testutil.Testdata(t, "corpus", "skills")
	start := time.Now()
	site, res := buildSite(t, filepath.Join(t.TempDir(), "public"), corpus)
	t.Logf("built %d skills into %d files in %v", len(res.Catalog.Skills), res.Files, time.Since(start).Round(time.Millisecond))

	problems, err := sitecheck.Check(site, sitecheck.Options{BasePath: "/skills/", Origin: "https://example.org"})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range problems {
		if i == 50 {
			t.Errorf("... and %d more problems", len(problems)-i)
			break
		}
		t.Error(p)
	}
	for _, s := range res.Catalog.All {
		if s.Status != lint.Rejected && s.ShadowedBy == nil && !exists(site, siteinfo.FileOf(siteinfo.SkillPage(s.Name))) {
			t.Errorf("%s (%s) is not rejected but has no page", s.Name, s.Path)
		}
	}

	answers := checkAnswers(t, site, res.Catalog)
	digests := checkDigests(t, site)
	t.Logf("%d static answers and %d digests checked", answers, digests)
	if answers < 1000 || digests < 300 {
		t.Errorf("only %d answers and %d digests: the corpus should give thousands", answers, digests)
	}

	for _, s := range res.Catalog.Skills {
		for _, f := range s.Files {
			p := siteinfo.PublishedFile(s.Name, f.Path)
			if p == "" {
				continue
			}
			if !exists(site, p) {
				t.Errorf("%s: %s is not published at %s", s.Name, f.Path, p)
			}
			if lower := strings.ToLower(p); strings.HasSuffix(lower, ".html") || strings.HasSuffix(lower, ".svg") || strings.HasSuffix(lower, ".xml") {
				t.Errorf("%s: %s is served as an active document at %s", s.Name, f.Path, p)
			}
		}
		if s.SkillFile != "" && !exists(site, siteinfo.SkillArchive(s.Name)) {
			t.Errorf("%s has no archive", s.Name)
		}
	}
}
