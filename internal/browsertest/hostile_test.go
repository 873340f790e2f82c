package browsertest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/browsertest"
	"github.com/skilldex/skilldex/internal/hostile"
)

// TestHostileSitePages builds the adversarial catalog (internal/hostile,
// without its multi-megabyte inputs) and loads every HTML page of the
// site in Chromium: markup, script and URLs planted in every field must
// not open a dialog, throw, log an error (a CSP violation included) or
// reach another origin on any page.
func TestHostileSitePages(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the adversarial catalog")
	}
	_, b := demo(t) // the shared browser; skips without Chromium
	dir := t.TempDir()
	cat, err := hostile.Write(filepath.Join(dir, "src"), hostile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := browsertest.NewServer(t, filepath.Join(dir, "site"), base)
	site, err := siteinfo.New("Hostile skills", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := build.Build(context.Background(), build.Options{
		LoadOptions: build.LoadOptions{Sources: cat.Sources},
		Output:      srv.Dir,
		Site:        site,
	}); err != nil {
		t.Fatal(err)
	}
	pages, err := browsertest.Pages(srv.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, good := range cat.Good {
		if !contains(pages, siteinfo.SkillPage(good)) {
			t.Errorf("the good skill %s has no page", good)
		}
	}
	tab := browsertest.NewTab(t, b, srv.Origin)
	for _, p := range pages {
		err := tab.Visit(srv.Page(siteinfo.EscapePath(p)))
		if err == nil && p == "search/" {
			err = tab.Wait(`document.getElementById('search-status').textContent !== ''`)
		}
		for _, problem := range tab.Problems() {
			t.Errorf("%s", problem)
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	t.Logf("%d pages of the adversarial site loaded", len(pages))
}
