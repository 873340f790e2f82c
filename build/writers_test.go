package build

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/hostile"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestOnlyPagesWriteHTMLPages: the pages writer's sitemap lists the HTML
// pages it finds in the output, which a rebuild fills from every writer
// at once; it is the same whatever the others have written so far only
// if no other writer makes a page. The adversarial catalog has skill
// files named index.html and the like.
func TestOnlyPagesWriteHTMLPages(t *testing.T) {
	c, err := Load(context.Background(), LoadOptions{Sources: mixedSources(t, 20)})
	if err != nil {
		t.Fatal(err)
	}
	info, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	site := info.ForCatalog(len(c.Skills))
	pages := 0
	for _, w := range writers {
		out, err := output.Open(filepath.Join(t.TempDir(), "site"), output.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Without release: the next writer reads the same catalog.
		if err := write(context.Background(), []Writer{w}, c, out, site, nil, writeOptions{}); err != nil {
			t.Fatalf("%s: %v", w.Name(), err)
		}
		for _, f := range out.Files() {
			if !strings.HasSuffix(f, ".html") {
				continue
			}
			if w.Name() == "pages" {
				pages++
			} else {
				t.Errorf("the %s writer wrote %s", w.Name(), f)
			}
		}
		out.Abort()
	}
	if pages < len(c.Skills) {
		t.Errorf("the pages writer wrote %d HTML files for %d skills", pages, len(c.Skills))
	}
}

// mixedSources are n generated skills, the corpus's UASP documents and
// zipped skills, and the adversarial catalog's sources.
func mixedSources(t *testing.T, n int) []string {
	t.Helper()
	gen := filepath.Join(t.TempDir(), "gen")
	if err := catalogen.Generate(gen, n, 3); err != nil {
		t.Fatal(err)
	}
	bad, err := hostile.Write(t.TempDir(), hostile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{gen, testutil.Shared(t, "corpus", "uasp"), testutil.Shared(t, "corpus", "zips")}, bad.Sources...)
}
