package build

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build/siteinfo"
)

// TestReleasingBuildMatchesKeeping builds the same sources twice, once
// letting each skill go after the pass (the default of a one-off build)
// and once keeping every skill whole: the sites must be the same file
// for file, and the first build must really have let go.
func TestReleasingBuildMatchesKeeping(t *testing.T) {
	sources := mixedSources(t, 120)
	info, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	sites := map[bool]map[string]string{}
	for _, keep := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "site")
		res, err := Build(context.Background(), Options{LoadOptions: LoadOptions{Sources: sources}, Output: out, Site: info, KeepSkills: keep})
		if err != nil {
			t.Fatal(err)
		}
		sites[keep] = siteDigest(t, out)
		whole := 0
		for _, s := range res.Catalog.Skills {
			holds := s.Body != nil || s.Source != nil || s.Doc != nil || s.Skill.Doc != nil ||
				s.UASPSource != nil || s.UASPNode != nil || s.UASPValue != nil
			if holds {
				whole++
			}
			if !keep && (holds || !s.Released()) {
				t.Errorf("released build: %s still holds its sources (released: %v)", s.Name, s.Released())
			}
			if keep && s.Released() {
				t.Errorf("kept build: %s was released", s.Name)
			}
		}
		if keep && whole < len(res.Catalog.Skills)/2 {
			t.Errorf("kept build: only %d of %d skills have their sources", whole, len(res.Catalog.Skills))
		}
	}
	if len(sites[true]) < 1000 {
		t.Fatalf("the site has %d files; the sources should give thousands", len(sites[true]))
	}
	diffSites(t, "releasing against keeping", sites[false], sites[true])
}
