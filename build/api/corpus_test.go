package api_test

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
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
// served, and that no skill file is served as an active document. The
// corpus's UASP documents (testdata/corpus/uasp) are built with it.
func TestCorpusAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole corpus")
	}
	corpus := testutil.Testdata(t, "corpus", "skills")
	start := time.Now()
	site, res := buildSite(t, filepath.Join(t.TempDir(), "public"), corpus, testutil.Testdata(t, "corpus", "uasp"))
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
	heldOut := checkHeldOutPaths(t, site, res.Catalog)
	t.Logf("%d static answers, %d held-out deep paths and %d digests checked", answers, heldOut, digests)
	if answers < 10000 || digests < 300 || heldOut < 1000 {
		t.Errorf("only %d answers, %d held-out paths and %d digests: the corpus should give thousands", answers, heldOut, digests)
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

// checkHeldOutPaths checks deep paths chosen apart from Document.Paths:
// for each document, walks from its root down to a leaf, taking at each
// mapping a key at random (seeded, so that a failure repeats) and, in the
// lists of named entries, an entry by its name or id. Every such path the
// query engine finds (a key holding a dot may shadow the walk's own
// path: the engine's answer is what counts) must have its file, holding
// that answer, unless the walk took a key that differs from another only
// in case, which would share its file on macOS and Windows.
func checkHeldOutPaths(t *testing.T, site string, c *catalog.Catalog) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(18, 2026))
	named := map[string]bool{"global_flags": true, "environment": true, "sources": true, "state.entities": true}
	n := 0
	for _, s := range c.Skills {
		k, err := c.Content(s)
		if err != nil {
			t.Fatal(err)
		}
		if k.Doc == nil {
			continue
		}
		for range 4 {
			var segs []string
			var v any = k.Doc.Root
			folded := false // a key taken has a sibling of the same FileKey
			take := func(siblings []string, key string) {
				for _, o := range siblings {
					folded = folded || o != key && uasp.FileKey(o) == uasp.FileKey(key)
				}
				segs = append(segs, key)
			}
		walk:
			for {
				switch x := v.(type) {
				case *yamltree.Map:
					keys := x.Keys()
					if len(keys) == 0 {
						break walk
					}
					key := keys[rng.IntN(len(keys))]
					take(keys, key)
					v, _ = x.Get(key)
				case []any:
					var names []string
					for _, item := range x {
						if m, ok := item.(*yamltree.Map); ok {
							for _, f := range []string{"name", "id"} {
								if id, ok := yamltree.GetAs[string](m, f); ok {
									names = append(names, id)
								}
							}
						}
					}
					if !named[strings.Join(segs, ".")] || len(names) == 0 {
						break walk
					}
					name := names[rng.IntN(len(names))]
					take(names, name)
					v = k.Doc.Query(strings.Join(segs, "."), nil).Value
				default:
					break walk
				}
			}
			p := strings.Join(segs, ".")
			if q, err := uasp.ParseQuery(s.Name + ":" + p); err != nil || q.Path != p || len(q.Filters) > 0 {
				continue // not a path an agent can write
			}
			a := k.Doc.Query(p, nil)
			if !a.Found {
				continue
			}
			if _, isList := a.Value.([]any); isList && named[p] {
				continue // reached a list of named entries with no entry
			}
			file := api.AnswerPath(s.Name, p)
			if folded && !exists(site, file) {
				continue
			}
			if !exists(site, file) {
				t.Errorf("%s:%s has no file %s", s.Name, p, file)
				continue
			}
			if got, want := read(t, site, file), uasp.MarshalAnswer(a); !bytes.Equal(got, want) {
				t.Errorf("%s:%s: the file differs from the engine's answer", s.Name, p)
			}
			n++
		}
	}
	return n
}
