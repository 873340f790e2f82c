package siteread

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/testutil"
)

// buildSite builds sources into a new folder with the given api.paths
// setting and returns the folder and the catalog, documents kept.
func buildSite(t *testing.T, paths string, sources ...string) (string, *catalog.Catalog) {
	t.Helper()
	return buildSiteIn(t, filepath.Join(t.TempDir(), "site"), paths, sources...)
}

// buildSiteIn is buildSite into out.
func buildSiteIn(t *testing.T, out, paths string, sources ...string) (string, *catalog.Catalog) {
	t.Helper()
	info, err := siteinfo.New("Test", "https://example.org/skills/")
	if err != nil {
		t.Fatal(err)
	}
	info.QueryPaths = paths
	res, err := build.Build(context.Background(), build.Options{
		LoadOptions: build.LoadOptions{Sources: sources}, Output: out, Site: info})
	if err != nil {
		t.Fatal(err)
	}
	return out, res.Catalog
}

// deepPaths returns the query paths of a document down to its leaves:
// every key of every mapping, every list entry by index and by name or
// id, and a filtered query of every list, at most limit of them.
func deepPaths(root *yamltree.Map, limit int) []uasp.Query {
	var out []uasp.Query
	var walk func(prefix string, v any)
	add := func(p string, filters ...uasp.Filter) {
		if len(out) < limit && !strings.Contains(p, "?") {
			out = append(out, uasp.Query{Path: p, Filters: filters})
		}
	}
	walk = func(prefix string, v any) {
		join := func(seg string) string {
			if prefix == "" {
				return seg
			}
			return prefix + "." + seg
		}
		switch x := v.(type) {
		case *yamltree.Map:
			for k, c := range x.All() {
				if k == "" || strings.Contains(k, "..") || strings.HasPrefix(k, ".") || strings.HasSuffix(k, ".") {
					continue
				}
				add(join(k))
				walk(join(k), c)
			}
		case []any:
			if prefix != "" {
				add(prefix, uasp.Filter{Key: "name", Pattern: "*e*"})
			}
			for i, c := range x {
				add(join(strconv.Itoa(i)))
				if m, ok := c.(*yamltree.Map); ok {
					for _, f := range []string{"name", "id"} {
						if s, ok := m.Get(f); ok {
							if s, ok := s.(string); ok && s != "" && !strings.Contains(s, "..") {
								add(join(s))
							}
						}
					}
				}
				walk(join(strconv.Itoa(i)), c)
			}
		}
	}
	walk("", root)
	return out
}

// TestFallbackMatchesEngine: on the corpus, the UASP examples and the USK
// skills, built with per-path files for sections only, every path down to
// the leaves (and a filtered query of every list) is answered from the
// site exactly as the query engine answers it from the sources, and a path
// found below a section is answered from the section's file, never from
// the whole document. With no per-path file at all, the whole document
// answers the same.
func TestFallbackMatchesEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the corpus")
	}
	corpus := []string{
		testutil.Testdata(t, "corpus", "skills"),
		testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "examples"),
		testutil.Testdata(t, "corpus", "usk"),
	}
	for _, mode := range []struct {
		paths   string
		sources []string
		limit   int
	}{
		{siteinfo.QueryPathsSections, corpus, 300},
		{siteinfo.QueryPathsAll, corpus[1:], 1000},
		{siteinfo.QueryPathsNone, corpus[1:], 100},
	} {
		t.Run(mode.paths, func(t *testing.T) {
			dir, c := buildSite(t, mode.paths, mode.sources...)
			s, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			read := s.fetch
			var whole int
			var fetched []string
			s.fetch = func(ctx context.Context, p string) ([]byte, error) {
				if strings.HasSuffix(p, ".json") && strings.Count(p, "/") == 3 {
					whole++ // api/v1/skills/NAME.json
				}
				fetched = append(fetched, p)
				return read(ctx, p)
			}
			n, fromFiles := 0, 0
			for _, sk := range c.Skills {
				k, err := c.Content(sk)
				if err != nil {
					t.Fatal(err)
				}
				if k.Doc == nil {
					continue
				}
				qs := deepPaths(k.Doc.Root, mode.limit)
				for _, q := range qs[:min(len(qs), 8)] {
					// Paths not in the document: the same not-found answer,
					// saying where they stopped.
					qs = append(qs, uasp.Query{Path: q.Path + ".no-such-key"})
				}
				listed := k.Doc.Paths()
				for _, q := range qs {
					q.Skill = sk.Name
					want := uasp.MarshalAnswer(k.Doc.Query(q.Path, q.Filters))
					whole, fetched = 0, fetched[:0]
					got, found, err := s.Query(context.Background(), q)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s: the site answers\n%s\nthe engine\n%s", q, got, want)
						continue
					}
					n++
					if found && whole == 0 {
						fromFiles++
					}
					if found && whole > 0 && mode.paths != siteinfo.QueryPathsNone {
						t.Errorf("%s: answered from the whole document", q)
					}
					// With every path published, a listed path is its own
					// file, fetched alone.
					own := api.AnswerPath(q.Skill, q.Path)
					if mode.paths == siteinfo.QueryPathsAll && len(q.Filters) == 0 && slices.Contains(listed, q.Path) &&
						(len(fetched) != 1 || fetched[0] != own) {
						t.Errorf("%s: answered from %q, not from %s alone", q, fetched, own)
					}
				}
			}
			if n < 100 {
				t.Fatalf("only %d paths compared", n)
			}
			t.Logf("api.paths %s: %d queries answered as the engine does, %d from per-path files", mode.paths, n, fromFiles)
		})
	}
}

// TestOpenErrors: a folder that is no site, a missing folder and an
// address without a site each give one error that says what to give.
func TestOpenErrors(t *testing.T) {
	notSite := t.TempDir()
	for _, c := range []struct{ location, want string }{
		{notSite, "holds no .skilldex-site"},
		{filepath.Join(notSite, "missing"), "is not a folder"},
		{"http://127.0.0.1:1/skills/", "cannot read the site at http://127.0.0.1:1/skills/"},
		{"https://", "is not the URL of a site"},
	} {
		_, err := Open(context.Background(), c.location)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%q): %v, want %q", c.location, err, c.want)
		}
	}
}
