package api_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
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

// jsonTestCatalogs returns a generated catalog, the adversarial one and,
// but under -short, the corpus, for the tests that compare JSON written
// directly with encoding/json's. They are loaded once for all of them
// (loading the adversarial catalog took most of their time under the
// race detector), and only read.
func jsonTestCatalogs(t *testing.T) []*catalog.Catalog {
	t.Helper()
	jsonCatalogs.once.Do(func() {
		loaded := false
		defer func() { jsonCatalogs.failed = !loaded }()
		dir, err := os.MkdirTemp("", "skilldex-api-test-")
		if err != nil {
			t.Fatal(err)
		}
		jsonCatalogs.dir = dir
		gen := filepath.Join(dir, "gen")
		if err := catalogen.Generate(gen, 60, 7); err != nil {
			t.Fatal(err)
		}
		bad, err := hostile.Write(filepath.Join(dir, "hostile"), hostile.Options{Large: false})
		if err != nil {
			t.Fatal(err)
		}
		sources := [][]string{{gen}, bad.Sources}
		if !testing.Short() {
			sources = append(sources, []string{testutil.Testdata(t, "corpus")})
		}
		for _, srcs := range sources {
			jsonCatalogs.catalogs = append(jsonCatalogs.catalogs, testcatalog.Load(t, build.LoadOptions{Sources: srcs}))
		}
		loaded = true
	})
	if jsonCatalogs.failed {
		t.Fatal("the test catalogs did not load (see the first test that asked for them)")
	}
	return jsonCatalogs.catalogs
}

// jsonCatalogs holds what jsonTestCatalogs loaded; TestMain removes dir.
var jsonCatalogs struct {
	once     sync.Once
	dir      string
	catalogs []*catalog.Catalog
	failed   bool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if jsonCatalogs.dir != "" {
		os.RemoveAll(jsonCatalogs.dir)
	}
	os.Exit(code)
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
