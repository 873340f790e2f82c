package jsonsearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/searcheval"
	"github.com/skilldex/skilldex/internal/testutil"
)

// dirLoader reads the index of a site folder.
func dirLoader(site string) Loader {
	return func(_ context.Context, path, _ string) ([]byte, error) {
		return os.ReadFile(filepath.Join(site, "search", filepath.FromSlash(path)))
	}
}

// coreNames ranks queries with node static/search-core.js SITE - LIMIT,
// each from a cold index, and returns the names of the first results.
func coreNames(t *testing.T, site string, queries []string, limit int) [][]string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed (CI is set, so the comparison must run)")
		}
		t.Skip("node is not installed: the Go reader is compared with static/search-core.js under Node")
	}
	script := filepath.Join(testutil.ProjectRoot(t), "static", "search-core.js")
	cmd := exec.Command(node, script, site, "-", strconv.Itoa(limit))
	cmd.Stdin = strings.NewReader(strings.Join(queries, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node search-core.js: %v\n%s", err, stderr.String())
	}
	var res [][]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r struct {
			Names []string `json:"names"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("node search-core.js printed %q: %v", sc.Text(), err)
		}
		res = append(res, r.Names)
	}
	if len(res) != len(queries) {
		t.Fatalf("node answered %d of %d queries", len(res), len(queries))
	}
	return res
}

// goNames ranks q with this package, as the command line of
// search-core.js does: a cold index, the cards of the first limit hits.
func goNames(t *testing.T, site, q string, limit int) []string {
	t.Helper()
	ctx := context.Background()
	ix := New(dirLoader(site))
	res, err := ix.Search(ctx, q, Options{})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	var docs []int
	for _, h := range res.Hits[:min(limit, len(res.Hits))] {
		docs = append(docs, h.Doc)
	}
	cards, err := ix.Cards(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, c := range cards {
		if c == nil {
			t.Fatalf("%q: no card", q)
		}
		names = append(names, c.Name)
	}
	return names
}

// TestRankingMatchesCore: on every judged query (index/testdata/judged)
// and on queries that exercise each branch of the model (prefixes, stop
// words, typos, completions files, accents, long words), over the corpus
// site, this package ranks the first ten skills exactly as
// static/search-core.js does.
func TestRankingMatchesCore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the corpus site")
	}
	judged, err := searcheval.ReadDir(filepath.Join(testutil.ProjectRoot(t), "index", "testdata", "judged"))
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for _, q := range judged {
		queries = append(queries, q.Text)
	}
	queries = append(queries,
		"k", "re", "reviewi", "pdf ", "the", "the ", "how to", "kubernetes deploy", "kubernets", "postgres",
		"Café résumé", "git-commit", "TESTING", "a b c", "!!!", "docker compose up -d", "mermaid diagrams flowchart",
		"x"+strings.Repeat("y", 40), "reviewing pull requests", "spreadsheet excel", "écrire", "日本語", "emoji 🎉 party")
	site := filepath.Join(t.TempDir(), "site")
	src := testutil.Testdata(t, "corpus", "skills")
	if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: site}); err != nil {
		t.Fatal(err)
	}
	const limit = 10
	want := coreNames(t, site, queries, limit)
	differ := 0
	for i, q := range queries {
		got := goNames(t, site, q, limit)
		if !slices.Equal(got, want[i]) {
			differ++
			t.Errorf("%q:\n go  %v\n js  %v", q, got, want[i])
		}
	}
	t.Logf("%d queries compared, %d differ", len(queries), differ)
}

// FuzzIndex feeds arbitrary bytes as the index's files: the reader gives
// errors or results, never a panic.
func FuzzIndex(f *testing.F) {
	f.Add([]byte(`{"version":3,"id":"x","count":2,"docs":2,"qmax":4.2,"head":128,"span":2,"cards":4,"page":"skills/{name}/","shards":[""],"facets":[{"id":"type","label":"Type","values":[["cli",1,0]]}]}`),
		[]byte(`[["review",2,0.5,[0,200,1,12]],["revise",1,0.9,[1,30]]]`), []byte(`[["a","d","skill-md","approved","cli",["t"]],null,["b"]]`), "revi")
	f.Add([]byte(`{"version":3,"docs":9,"cards":1,"shards":["","m"],"span":0}`), []byte(`[["x",-5,1e308,[-3,999,2]]]`), []byte(`[[1,2,3]]`), "x y the")
	f.Add([]byte(`{"version":3,"id":"y","count":3,"docs":5,"qmax":3.3,"head":128,"span":2,"cards":4,"page":"skills/{name}/","shards":[""],"facets":[],"model":{"completion":[0.5,0.45],"completionOfTerm":0.5,"fuzzy":[0.6,0.4],"related":0.5,"conversational":0.1,"conversationalWords":["want"],"head":128,"completionHead":48,"relatedHead":32,"completions":24,"neighbours":3,"completeFrom":3,"typedPast":3,"typedTerm":4,"fuzzyFrom":[4,8],"fuzzyRare":2,"fuzzyCommoner":4}}`),
		[]byte(`[["bill",2,0.8,[0,90,2,40],[["invoic",0.7,1.1,[1,120]]]],["invoic",1,1.1,[1,120]]]`), []byte(`[["a"],["b"],["c"]]`), `want bill -invoic "bill" type:cli`)
	f.Fuzz(func(t *testing.T, manifest, shard, cards []byte, q string) {
		files := map[string][]byte{"manifest.json": manifest, "t/0.json": shard, "t/1.json": shard, "c/0.json": cards, "f/type/0.json": shard, "order.json": shard}
		ix := New(func(_ context.Context, path, _ string) ([]byte, error) {
			if b, ok := files[path]; ok {
				return b, nil
			}
			return nil, os.ErrNotExist
		})
		ctx := context.Background()
		for _, opt := range []Options{{}, {Filters: []Filter{{ID: "type", Values: []int{0}}}, ByName: true}} {
			res, err := ix.Search(ctx, q, opt)
			if err != nil {
				return
			}
			var docs []int
			for _, h := range res.Hits {
				docs = append(docs, h.Doc)
			}
			ix.Cards(ctx, docs)
		}
		ix.FacetValues(ctx, "type")
	})
}

// TestFiltersAloneByName: a query of filters alone lists skills by name
// in both readers (order.json); without order.json, in document order,
// still alike, and not an error.
func TestFiltersAloneByName(t *testing.T) {
	src := filepath.Join(t.TempDir(), "catalog")
	if err := catalogen.Generate(src, 40, 2); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(t.TempDir(), "site")
	if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: site}); err != nil {
		t.Fatal(err)
	}
	queries := []string{"format:skill-md", "-format:uasp format:skill-md", "-format:uasp"}
	const limit = 40
	for _, missing := range []bool{false, true} {
		if missing {
			if err := os.Remove(filepath.Join(site, "search", "order.json")); err != nil {
				t.Fatal(err)
			}
		}
		js := coreNames(t, site, queries, limit)
		for i, q := range queries {
			got := goNames(t, site, q, limit)
			if len(got) < 10 {
				t.Fatalf("%q: %d skills, want most of the 40", q, len(got))
			}
			if !slices.Equal(got, js[i]) {
				t.Errorf("order.json missing %v, %q:\n go  %v\n js  %v", missing, q, got, js[i])
			}
			if sorted := slices.IsSorted(got); sorted == missing {
				t.Errorf("order.json missing %v, %q: sorted by name %v: %v", missing, q, sorted, got)
			}
		}
	}
}
