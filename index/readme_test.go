package index_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/searcheval"
	"github.com/skilldex/skilldex/internal/testutil"
)

// readmeExampleMarker precedes the README's Go program that searches the
// bleve index with bleve alone.
const readmeExampleMarker = "<!-- index/readme_test.go builds and runs this program on the corpus' index -->"

// readmeExample returns the Go program of the README that follows the
// marker.
func readmeExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.ProjectRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), readmeExampleMarker+"\n```go\n")
	if !ok {
		t.Fatalf("README.md has no Go block after %q", readmeExampleMarker)
	}
	code, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("README.md: the Go block after the marker does not end")
	}
	return code + "\n"
}

// buildREADMEExample builds the README's program, as a package of this
// module that exists only in an overlay (nothing is written into the
// module), and returns the binary.
func buildREADMEExample(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not installed: the README's example cannot be built")
	}
	root := testutil.ProjectRoot(t)
	tmp := t.TempDir()
	src := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(src, []byte(readmeExample(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(root, "internal", "readmeexample", "main.go"): src}})
	if err := os.WriteFile(filepath.Join(tmp, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "skillsearch")
	cmd := exec.Command(goTool, "build", "-overlay", filepath.Join(tmp, "overlay.json"), "-o", bin, "./internal/readmeexample")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's example does not build: %v\n%s", err, out)
	}
	return bin
}

// TestREADMEBleveExample builds the README's Go program, which imports
// bleve and nothing else, runs it on the corpus' bleve index for every
// judged keyword query, and compares its first three skills with
// skilldex search's. Where skilldex search answers a one-word query with
// the word's own term (no completion, spelling neighbour or related term
// among its first three), the program's query-string search on the
// default field must give the same three in the same order, but for
// skills of equal score, which skilldex orders by their numbers in the
// JSON index and bleve by name: the default field holds the model's
// weights. Over all the keyword queries, they must put the same skill
// first on nine in ten; the figures are logged.
func TestREADMEBleveExample(t *testing.T) {
	bin := buildREADMEExample(t)
	site := corpusSite(t)
	ix, err := index.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	all, err := searcheval.ReadDir(filepath.Join("testdata", "judged"))
	if err != nil {
		t.Fatal(err)
	}
	var queries, exact, sameFirst, sameThree, exactSame int
	for _, q := range all {
		if q.Set != searcheval.Keyword {
			continue
		}
		queries++
		res, err := ix.SearchWith(q.Text, index.SearchOptions{Limit: 10, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		var ours []string
		score := map[string]float64{}
		ownTerms := true
		for i, h := range res.Hits {
			score[h.Name] = h.Score
			if i >= 3 {
				continue
			}
			ours = append(ours, h.Name)
			for _, w := range h.Explanation.Words {
				if w.Term != "" && w.Match != "term" {
					ownTerms = false
				}
			}
		}
		cmd := exec.Command(bin, append([]string{filepath.Join(site, "search", "bleve")}, strings.Fields(q.Text)...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: the README's example failed: %v\n%s", q.Text, err, stderr.Bytes())
			continue
		}
		var theirs []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n")[:min(3, strings.Count(string(out), "\n"))] {
			id, _, _ := strings.Cut(line, "\t")
			theirs = append(theirs, id)
		}
		if len(ours) > 0 && len(theirs) > 0 && ours[0] == theirs[0] {
			sameFirst++
		}
		if slices.Equal(ours, theirs) {
			sameThree++
		}
		// The same three, but for the order of equal scores: each of
		// theirs scored as ours at its place.
		sameButTies := len(ours) == len(theirs)
		for i := range theirs {
			if s, ok := score[theirs[i]]; !ok || i >= len(ours) || s != score[ours[i]] {
				sameButTies = false
			}
		}
		if len(index.Words(index.Fold(q.Text))) == 1 && ownTerms && len(ours) > 0 {
			exact++
			if sameButTies {
				exactSame++
			} else {
				t.Errorf("%q: skilldex search %v, bleve's query-string search on the default field %v", q.Text, ours, theirs)
			}
		}
	}
	t.Logf("%d keyword queries: the same first skill on %d, the same three in order on %d; one-word queries answered by their own term: %d, the same three (ties in any order) on %d",
		queries, sameFirst, sameThree, exact, exactSame)
	if exact < 40 {
		t.Errorf("only %d one-word keyword queries compared exactly", exact)
	}
	if sameFirst*10 < queries*9 {
		t.Errorf("the same first skill on %d of %d keyword queries, want nine in ten", sameFirst, queries)
	}
}
