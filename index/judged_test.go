package index_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/searcheval"
)

// readJudged reads the judged keyword and typo queries
// (testdata/judged/keyword.tsv and typo.tsv). The task queries are
// measured by make eval-search rather than held to a floor here: a test
// that failed on the held-out split would make whoever tunes read it.
func readJudged(t *testing.T) []searcheval.Query {
	t.Helper()
	all, err := searcheval.ReadDir(filepath.Join("testdata", "judged"))
	if err != nil {
		t.Fatal(err)
	}
	var out []searcheval.Query
	for _, q := range all {
		if q.Set == searcheval.Keyword || q.Set == searcheval.Typo {
			out = append(out, q)
		}
	}
	return out
}

// successFloor is the least success@3 either index may have on the judged
// set. The set was written from what the corpus says, before the ranking
// was tuned; both indexes answer about 0.99 of it (see the figures this
// test logs). 0.90 leaves room for a deliberate trade-off that costs a
// query or two and fails a change that loses a dozen, which people would
// notice.
const successFloor = 0.90

func hit(top []string, expected []string) bool {
	for _, n := range top[:min(3, len(top))] {
		if slices.Contains(expected, n) {
			return true
		}
	}
	return false
}

// TestJudgedQueries measures success@3 (an expected skill among the first
// three results) of the JSON index (through the browser's ranking core)
// and of bleve, on the judged queries over the corpus.
func TestJudgedQueries(t *testing.T) {
	set := readJudged(t)
	if len(set) < 60 {
		t.Fatalf("only %d judged queries", len(set))
	}
	site, ix := openCorpus(t)
	queries := make([]string, len(set))
	for i, j := range set {
		queries[i] = j.Text
	}
	core := runCore(t, site, queries, 3)

	var okJSON, okBleve, disagree int
	for i, j := range set {
		res, err := ix.Search(j.Text, 3)
		if err != nil {
			t.Fatal(err)
		}
		var bleveTop []string
		for _, h := range res.Hits {
			bleveTop = append(bleveTop, h.Name)
		}
		jsonTop := core[i].Names
		hj, hb := hit(jsonTop, j.Right), hit(bleveTop, j.Right)
		if hj {
			okJSON++
		}
		if hb {
			okBleve++
		}
		if !hj || !hb {
			t.Logf("%-32q want %v\n\tjson  %v\n\tbleve %v", j.Text, j.Right, jsonTop, bleveTop)
		}
		if len(jsonTop) > 0 && len(bleveTop) > 0 && jsonTop[0] != bleveTop[0] {
			disagree++
		}
	}
	n := float64(len(set))
	sj, sb := float64(okJSON)/n, float64(okBleve)/n
	t.Logf("success@3 over %d judged queries: JSON index %.3f (%d), bleve %.3f (%d); top hits differ on %d", len(set), sj, okJSON, sb, okBleve, disagree)
	if sj < successFloor || sb < successFloor {
		t.Errorf("success@3 below %.2f: JSON %.3f, bleve %.3f", successFloor, sj, sb)
	}
}

// TestEnginesAgree ranks the judged queries of every set but the held-out
// tasks, and the queries of testdata/queries.json, with both engines:
// bleve as skilldex search does it and the JSON index as the browser
// does (static/search-core.js under Node). They rank with the same model
// from the same weights, so their first three must be the same skills on
// at least 95% of the queries (the bar); the first ten in order
// are logged.
func TestEnginesAgree(t *testing.T) {
	all, err := searcheval.ReadDir(filepath.Join("testdata", "judged"))
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for _, q := range all {
		if q.Set != searcheval.TaskHeldOut {
			queries = append(queries, q.Text)
		}
	}
	for _, c := range readQueryCasesExternal(t) {
		if strings.TrimSpace(c) != "" && !strings.ContainsAny(c, "\r\n") {
			queries = append(queries, c)
		}
	}
	site, ix := openCorpus(t)
	core := runCore(t, site, queries, searcheval.Depth)
	same3, same10 := 0, 0
	for i, q := range queries {
		res, err := ix.SearchWith(q, index.SearchOptions{Limit: searcheval.Depth})
		if err != nil {
			t.Fatal(err)
		}
		var ours []string
		for _, h := range res.Hits {
			ours = append(ours, h.Name)
		}
		if searcheval.SameTop(ours, core[i].Names, 3) {
			same3++
		} else {
			t.Logf("%q: bleve %v, JSON index %v", q, ours[:min(3, len(ours))], core[i].Names[:min(3, len(core[i].Names))])
		}
		if slices.Equal(ours, core[i].Names) {
			same10++
		}
	}
	t.Logf("%d queries: the same first three on %d, the same first ten in order on %d", len(queries), same3, same10)
	if same3*100 < len(queries)*95 {
		t.Errorf("the engines' first three agree on %d of %d queries, want 95%%", same3, len(queries))
	}
}

// readQueryCasesExternal reads the queries of testdata/queries.json.
func readQueryCasesExternal(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cases {
		out = append(out, c.Query)
	}
	return out
}

// TestWordAsWrittenIsAForm: the stemmer gives "deploy" the stem deploi
// and "deployment" deploy; a word that is not the query's last (which
// completes anyway) matches the term it is as written too, in both
// engines, so that "deploy to kubernetes" finds the skill that writes
// "Deployments".
func TestWordAsWrittenIsAForm(t *testing.T) {
	if index.Stem("deploy") == "deploy" || index.Stem("deployments") != "deploy" {
		t.Fatalf("the stems of deploy and deployments are %q and %q: the case no longer tests anything", index.Stem("deploy"), index.Stem("deployments"))
	}
	const query, want = "deploy to kubernetes", "k8s-manifest-generator"
	site, ix := openCorpus(t)
	res, err := ix.Search(query, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Name != want {
		t.Errorf("bleve: %q first: %+v, want %s", query, res.Hits, want)
	}
	if top := runCore(t, site, []string{query}, 1)[0].Names; len(top) == 0 || top[0] != want {
		t.Errorf("JSON index: %q first: %v, want %s", query, top, want)
	}
}

// TestEnginesNoteAlike: skilldex search (bleve) and the browser's core
// note the same things, word for word: a word written as a filter of no
// filter's name, and a filter whose value no skill has, in the query's
// order; an exclusion of such a value is no mistake.
func TestEnginesNoteAlike(t *testing.T) {
	site, ix := openCorpus(t)
	queries := []string{
		"review tag:nosuchtag",
		`pdf source:"no such source" tpye:cli`,
		"kubernetes -tag:nosuchtag",
		"helm type:cli",
		"charts plugin:nope category:nope capability:nope license:nope status:nope format:nope",
	}
	core := runCore(t, site, queries, 3)
	for i, q := range queries {
		res, err := ix.Search(q, 3)
		if err != nil {
			t.Fatal(err)
		}
		notes := index.Notes(res.Mistyped, res.EmptyFilters)
		if !slices.Equal(notes, core[i].Notes) {
			t.Errorf("%q: bleve notes %q\nJSON index notes %q", q, notes, core[i].Notes)
		}
		if i == 0 && len(notes) != 1 {
			t.Errorf("%q: notes %q, want one", q, notes)
		}
		if i == 2 && len(notes) != 0 {
			t.Errorf("%q: notes %q, want none", q, notes)
		}
		if i == 4 && len(notes) != 6 {
			t.Errorf("%q: notes %q, want one per filter", q, notes)
		}
	}
}

// TestHitsMarkWhatTheyCounted: each hit's terms are those its score
// counted, word by word (as --explain shows them), the same in both
// engines, and its highlights mark those terms alone. A related term that
// counted for one hit ("bash" for "shell") is no match in another.
func TestHitsMarkWhatTheyCounted(t *testing.T) {
	site, ix := openCorpus(t)
	queries := []string{
		"my shell script keeps going after a command fails",
		"send 10 percent of requests to the new version first",
		"kubernetes manifests",
		"convert a word document to markdown",
		`"code review" -python`,
		"pdf type:cli",
		"pdf mark", // the last word is being typed: it completes
	}
	const limit = 5
	core := runCore(t, site, queries, limit)
	marks := coreMarks(t, site, queries, limit)
	marked := regexp.MustCompile(`<mark>([^<]*)</mark>`)
	for i, q := range queries {
		res, err := ix.SearchWith(q, index.SearchOptions{Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Fatalf("%q: no hit", q)
		}
		for j, h := range res.Hits {
			if len(h.Terms) == 0 {
				t.Errorf("%q, %s: no term counted", q, h.Name)
			}
			if j < len(core[i].Terms) && !slices.Equal(h.Terms, core[i].Terms[j]) {
				t.Errorf("%q, %s: bleve's terms %q, JSON index's %q", q, h.Name, h.Terms, core[i].Terms[j])
			}
			if j < len(marks[i]) {
				for _, m := range marks[i][j] {
					word := index.Fold(m)
					if !slices.Contains(h.Terms, index.Stem(word)) && !slices.Contains(h.Terms, word) {
						t.Errorf("%q, %s: the search page marks %q, which it did not count (counted %q)", q, h.Name, m, h.Terms)
					}
				}
			}
			for f, frags := range h.Highlights {
				for _, fr := range frags {
					for _, m := range marked.FindAllStringSubmatch(fr, -1) {
						word := index.Fold(m[1])
						if !slices.Contains(h.Terms, index.Stem(word)) && !slices.Contains(h.Terms, word) {
							t.Errorf("%q, %s: %s marks %q, which it did not count (counted %q)", q, h.Name, f, m[1], h.Terms)
						}
					}
				}
			}
		}
	}
}
