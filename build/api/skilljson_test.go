package api_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/hostile"
	"github.com/skilldex/skilldex/internal/testcatalog"
	"github.com/skilldex/skilldex/internal/testutil"
)

// jsonTestCatalogs loads a generated catalog, the adversarial one and,
// but under -short, the corpus, for the tests that compare JSON written
// directly with encoding/json's.
func jsonTestCatalogs(t *testing.T) []*catalog.Catalog {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := catalogen.Generate(gen, 60, 7); err != nil {
		t.Fatal(err)
	}
	bad, err := hostile.Write(t.TempDir(), hostile.Options{Large: false})
	if err != nil {
		t.Fatal(err)
	}
	sources := [][]string{{gen}, bad.Sources}
	if !testing.Short() {
		sources = append(sources, []string{testutil.Testdata(t, "corpus")})
	}
	var catalogs []*catalog.Catalog
	for _, srcs := range sources {
		catalogs = append(catalogs, testcatalog.Load(t, build.LoadOptions{Sources: srcs}))
	}
	return catalogs
}

// firstDifference describes where got and want differ, "" when they do
// not.
func firstDifference(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	return fmt.Sprintf("differs at byte %d: %q, want %q", i, got[i:min(i+60, len(got))], want[i:min(i+60, len(want))])
}

// TestSkillJSONMatchesMarshal: NAME.json, written directly, has the bytes
// encoding/json gives, for every skill of a generated catalog, the
// adversarial one and (but under -short) the corpus.
func TestSkillJSONMatchesMarshal(t *testing.T) {
	site, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range jsonTestCatalogs(t) {
		for _, s := range c.Skills {
			if s.Doc == nil {
				continue
			}
			direct, want, err := api.SkillJSONBothWays(c, s, site)
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(direct, want); d != "" {
				t.Fatalf("%s: NAME.json %s", s.Name, d)
			}
		}
	}
}

// TestCatalogJSONMatchesMarshal: the catalog-wide JSON files written
// directly are what encoding/json writes, for every kind of skill and for
// none.
func TestCatalogJSONMatchesMarshal(t *testing.T) {
	site, err := siteinfo.New("Test \"site\" <x>", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(jsonTestCatalogs(t), &catalog.Catalog{}) {
		skills := c.Skills
		direct, want, err := api.CatalogJSONBothWays(skills, site)
		if err != nil {
			t.Fatal(err)
		}
		for f := range direct {
			if d := firstDifference(direct[f], want[f]); d != "" {
				t.Errorf("%d skills, file %d %s", len(skills), f, d)
			}
		}
	}
}
