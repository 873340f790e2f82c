package index_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/index"
)

// judged is one line of testdata/judged.tsv.
type judged struct {
	query    string
	expected []string
}

func readJudged(t *testing.T) []judged {
	t.Helper()
	f, err := os.Open("testdata/judged.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []judged
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		q, exp, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("judged.tsv: %q has no tab", line)
		}
		out = append(out, judged{q, strings.Split(exp, ",")})
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
	site := corpusSite(t)
	queries := make([]string, len(set))
	for i, j := range set {
		queries[i] = j.query
	}
	known := map[string]bool{}
	cards, _ := filepath.Glob(filepath.Join(site, "search", "c", "*.json"))
	for _, p := range cards {
		var list [][]any
		data, _ := os.ReadFile(p)
		if err := json.Unmarshal(data, &list); err != nil {
			t.Fatal(err)
		}
		for _, c := range list {
			known[c[0].(string)] = true
		}
	}
	for _, j := range set {
		for _, e := range j.expected {
			if !known[e] {
				t.Errorf("judged.tsv: %q expects %q, which is no skill of the corpus", j.query, e)
			}
		}
	}
	core := runCore(t, site, queries, 3)
	ix, err := index.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()

	var okJSON, okBleve, disagree int
	for i, j := range set {
		res, err := ix.Search(j.query, 3)
		if err != nil {
			t.Fatal(err)
		}
		var bleveTop []string
		for _, h := range res.Hits {
			bleveTop = append(bleveTop, h.Name)
		}
		jsonTop := core[i].Names
		hj, hb := hit(jsonTop, j.expected), hit(bleveTop, j.expected)
		if hj {
			okJSON++
		}
		if hb {
			okBleve++
		}
		if !hj || !hb {
			t.Logf("%-32q want %v\n\tjson  %v\n\tbleve %v", j.query, j.expected, jsonTop, bleveTop)
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
