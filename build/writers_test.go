package build

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/index"
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
	site := info.ForCatalog(sizeOf(c))
	pages := 0
	for _, w := range writers {
		out, err := output.Open(filepath.Join(t.TempDir(), "site"), output.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := write(context.Background(), []Writer{w}, c, out, site, nil, nil); err != nil {
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
	return append([]string{gen, testutil.Testdata(t, "corpus", "uasp"), testutil.Testdata(t, "corpus", "zips")}, bad.Sources...)
}

// failingWriter fails on the skills in fail, and counts its catalog-wide
// runs.
type failingWriter struct {
	fail     map[int]bool
	catalogs *int
}

func (failingWriter) Name() string { return "failing" }

func (w failingWriter) Begin(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) (pass.Work, error) {
	return pass.Work{
		Skill: func(i int, _ *pass.Skill) error {
			if w.fail[i] {
				if i == 5 {
					// Skill 30 fails first, while this one takes its time.
					time.Sleep(200 * time.Millisecond)
				}
				return fmt.Errorf("cannot write skill %d", i)
			}
			return nil
		},
		Catalog: func() error { *w.catalogs++; return nil },
	}, nil
}

// TestPassReportsFirstFailingSkill: when the work for several skills
// fails, the build reports the first of them in catalog order, whichever
// goroutine failed first, and writes no catalog-wide file.
func TestPassReportsFirstFailingSkill(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := catalogen.Generate(gen, 40, 3); err != nil {
		t.Fatal(err)
	}
	c, err := Load(context.Background(), LoadOptions{Sources: []string{gen}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := siteinfo.New("Test", "")
	if err != nil {
		t.Fatal(err)
	}
	catalogs := 0
	w := failingWriter{fail: map[int]bool{5: true, 30: true, 31: true}, catalogs: &catalogs}
	out, err := output.Open(filepath.Join(t.TempDir(), "site"), output.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = write(context.Background(), []Writer{w, index.Writer{}}, c, out, info.ForCatalog(sizeOf(c)), nil, nil)
	out.Abort()
	want := fmt.Sprintf("writing failing: skill %s: cannot write skill 5", c.Skills[5].Name)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if catalogs != 0 {
		t.Error("the catalog-wide files were written after a failed pass")
	}
}
