package browsertest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/browsertest"
	"github.com/skilldex/skilldex/internal/testutil"
)

// corpusSite is the site of the real-world corpus (testdata/corpus), built
// once by the first test that needs it: its pages hold what real skills
// hold (long bodies, tables, code, many facets), which the demo does not.
var corpusSite struct {
	once sync.Once
	dir  string // removed by TestMain
	srv  *browsertest.Server
	err  error
}

func corpus(t *testing.T) *browsertest.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds the whole corpus")
	}
	browsertest.Require(t)
	root := testutil.Testdata(t, "corpus")
	corpusSite.once.Do(func() {
		dir, err := os.MkdirTemp("", "skilldex-corpus-site-")
		if err != nil {
			corpusSite.err = err
			return
		}
		corpusSite.dir = dir
		corpusSite.srv, corpusSite.err = browsertest.Serve(filepath.Join(dir, "site"), base)
		if corpusSite.err != nil {
			return
		}
		site, err := siteinfo.New("Corpus skills", corpusSite.srv.URL)
		if err != nil {
			corpusSite.err = err
			return
		}
		_, corpusSite.err = build.Build(context.Background(), build.Options{
			LoadOptions: build.LoadOptions{Sources: []string{root}},
			Output:      corpusSite.srv.Dir,
			Site:        site,
		})
	})
	if corpusSite.err != nil {
		t.Fatal(corpusSite.err)
	}
	return corpusSite.srv
}

// pageTypes are one page of each kind the corpus site has, with what to
// wait for before the page is complete.
var pageTypes = []struct{ name, path, ready string }{
	{"home", "", ""},
	{"skill", "skills/brainstorming/", ""},
	{"skill-long", "skills/mcp-builder/", ""},
	{"tags", "tags/", ""},
	{"types", "types/", ""},
	{"type", "types/knowledge/", ""},
	{"licenses", "licenses/", ""},
	{"license", "licenses/mit/", ""},
	{"sources", "sources/", ""},
	{"plugins", "plugins/", ""},
	{"plugin", "plugins/kubernetes-operations/", ""},
	{"search-plugin", "search/?q=kubernetes&plugin=kubernetes-operations", waitResults},
	{"report", "report/", ""},
	{"search", "search/?q=pdf", waitResults},
	{"not-found", "404.html", ""},
}

// TestAccessibility loads one page of every kind of the corpus site,
// light and dark, on a desktop and on a phone: axe-core, which checks
// every page a test tab loads (see browsertest.NewTab), may find no
// WCAG 2.2 A or AA rule broken.
func TestAccessibility(t *testing.T) {
	srv := corpus(t)
	_, b := demo(t)
	browsertest.RequireAxe(t)
	for _, scheme := range []string{"light", "dark"} {
		for _, width := range []int64{1280, 390} {
			t.Run(fmt.Sprintf("%s-%d", scheme, width), func(t *testing.T) {
				tab := browsertest.NewTab(t, b, srv.Origin)
				check(t, tab, tab.EmulateColorScheme(scheme))
				check(t, tab, tab.Do(chromedp.EmulateViewport(width, 900)))
				for _, p := range pageTypes {
					t.Run(p.name, func(t *testing.T) {
						err := tab.Visit(srv.Page(p.path))
						if err == nil && p.ready != "" {
							err = tab.Wait(p.ready)
						}
						check(t, tab, err)
					})
				}
			})
		}
	}
}
