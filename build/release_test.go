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
			if s.Body != nil || s.Source != nil || s.Doc != nil || s.UASPSource != nil {
				whole++
			}
		}
		switch {
		case keep && whole < len(res.Catalog.Skills)/2:
			t.Errorf("kept: only %d of %d skills have their sources", whole, len(res.Catalog.Skills))
		case !keep && whole > 0:
			t.Errorf("released: %d of %d skills still have their sources", whole, len(res.Catalog.Skills))
		}
	}
	if len(sites[true]) < 1000 {
		t.Fatalf("the site has %d files; the sources should give thousands", len(sites[true]))
	}
	diffSites(t, "releasing against keeping", sites[false], sites[true])
}
