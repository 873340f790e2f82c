package lint_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/internal/testutil"
)

func load(t *testing.T, strict bool, sources ...string) *catalog.Catalog {
	t.Helper()
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: sources, Strict: strict})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// refVerdicts reads what skills-ref said about every corpus skill.
func refVerdicts(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for _, rec := range readTSV(t, "conformance", "reference-validator-on-corpus.tsv") {
		n, _ := strconv.Atoi(rec[1])
		var msgs []string
		if n > 0 {
			msgs = strings.Split(rec[2], " | ")
		}
		out[rec[0]] = msgs
	}
	return out
}

// TestStrictAgreesWithReference checks the contract: with --strict a
// corpus skill is invalid exactly when skills-ref says so, with its messages.
func TestStrictAgreesWithReference(t *testing.T) {
	corpus := testutil.Testdata(t, "corpus", "skills")
	ref := refVerdicts(t)
	if len(ref) != 412 {
		t.Fatalf("reference verdicts: %d, want 412", len(ref))
	}
	c := load(t, true, corpus)
	seen := 0
	for _, s := range c.All {
		rel, err := filepath.Rel(corpus, s.Path)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		want, ok := ref[rel]
		if !ok {
			t.Errorf("%s: not in the reference verdicts", rel)
			continue
		}
		seen++
		var errs []string
		for _, d := range s.Diagnostics {
			if d.Severity.String() == "error" {
				errs = append(errs, d.Message)
			}
		}
		if rejected := s.Status == lint.Rejected; rejected != (len(want) > 0) {
			t.Errorf("%s: status %s, reference errors %q", rel, s.Status, want)
			continue
		}
		for _, w := range want {
			found := false
			for _, e := range errs {
				if e == w || (strings.HasPrefix(w, "Invalid YAML in frontmatter:") && strings.HasPrefix(e, "Invalid YAML in frontmatter:")) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: reference says %q; skilldex says %q", rel, w, errs)
			}
		}
		if len(errs) != len(want) {
			t.Errorf("%s: %d errors, reference has %d: %q vs %q", rel, len(errs), len(want), errs, want)
		}
	}
	if seen != 412 {
		t.Errorf("compared %d skills, want 412", seen)
	}
}

// TestLenientAcceptsWhatReferenceAccepts: lenient mode rejects no skill the
// reference accepts (it rejects none of the corpus at all).
func TestLenientAcceptsWhatReferenceAccepts(t *testing.T) {
	corpus := testutil.Testdata(t, "corpus", "skills")
	c := load(t, false, corpus)
	for _, s := range c.All {
		if s.Status == lint.Rejected {
			t.Errorf("%s rejected in lenient mode: %v", s.Path, s.Diagnostics)
		}
	}
}

// TestWholeCorpusLoads reads every input of the corpus (skills, USK,
// UASP, zips) and checks that each skill got a name or an error saying why.
func TestWholeCorpusLoads(t *testing.T) {
	root := testutil.Testdata(t, "corpus")
	for _, sub := range []string{"skills", "usk", "uasp", "zips"} {
		c := load(t, false, filepath.Join(root, sub))
		if len(c.All) == 0 {
			t.Errorf("%s: no skills", sub)
		}
		for _, s := range c.All {
			if s.Name == "" && s.Status != lint.Rejected {
				t.Errorf("%s: no name but not rejected", s.Path)
			}
			if s.Status == lint.Rejected && len(s.Diagnostics) == 0 {
				t.Errorf("%s: rejected without a diagnostic", s.Path)
			}
		}
	}
}

// readTSV reads a tab-separated file of testdata/, without its
// header line.
func readTSV(t *testing.T, elem ...string) [][]string {
	t.Helper()
	f, err := os.Open(testutil.Testdata(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[1:]
}
