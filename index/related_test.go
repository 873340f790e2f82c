package index

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/memo"
)

// relatedCorpus is a catalog where "invoice" and "bill" occur amid the
// same words and never together, as do "ram" and "memory", and "tulip"
// amid words of its own.
func relatedCorpus() []*document {
	var docs []*document
	for i := range 12 {
		money, mem := "invoice", "ram"
		if i%2 == 1 {
			money, mem = "bill", "memory"
		}
		docs = append(docs, &document{
			Name: fmt.Sprintf("skill-%02d", i),
			Body: fmt.Sprintf("Send the customer a monthly %s for the subscription. Reduce the %s the server uses when the cache grows. Water the tulip in spring.\nCharge the card on the %s date.", money, mem, money),
		})
	}
	return docs
}

func relatedOf(t *testing.T, docs []*document) map[string][]relatedTerm {
	t.Helper()
	dc := newDict()
	var recs []*record
	for _, d := range docs {
		recs = append(recs, analyze(d, dc, true))
	}
	return mineRelated(recs)
}

// TestMineRelated: words used amid the same words are related, and the
// mining gives the same terms whatever the order of the dictionary's
// numbers.
func TestMineRelated(t *testing.T) {
	rel := relatedOf(t, relatedCorpus())
	has := func(a, b string) bool {
		return slices.ContainsFunc(rel[Stem(a)], func(r relatedTerm) bool { return r.term == Stem(b) })
	}
	for _, c := range [][2]string{{"invoice", "bill"}, {"bill", "invoice"}, {"ram", "memory"}, {"memory", "ram"}} {
		if !has(c[0], c[1]) {
			t.Errorf("%s is not related to %s: %v", c[0], c[1], rel[Stem(c[0])])
		}
	}
	if has("invoice", "tulip") || has("tulip", "memory") {
		t.Errorf("tulip is related to words it never stands amid: %v, %v", rel[Stem("invoice")], rel[Stem("tulip")])
	}
	for term, rs := range rel {
		if len(rs) > relatedPerTerm {
			t.Errorf("%s has %d related terms", term, len(rs))
		}
		for i, r := range rs {
			if r.similarity < relatedMinSimilarity || r.similarity > 1.0001 || r.term == term || (i > 0 && r.similarity > rs[i-1].similarity) {
				t.Errorf("%s: related terms %v", term, rs)
			}
		}
	}
	// The same catalog analysed in another order numbers its terms
	// otherwise.
	docs := relatedCorpus()
	slices.Reverse(docs)
	if again := relatedOf(t, docs); !reflect.DeepEqual(again, rel) {
		t.Errorf("mined in another order:\n%v\nwant\n%v", again, rel)
	}
}

func TestEncodeRelated(t *testing.T) {
	rel := map[string][]relatedTerm{"bill": {{"invoic", 0.734}, {"charg", 0.2}}, "ram": {{"memori", 1}}}
	data := encodeRelated(rel)
	if want := "bill\tinvoic\t0.734\tcharg\t0.2\nram\tmemori\t1\n"; string(data) != want {
		t.Errorf("encoded %q, want %q", data, want)
	}
	back, err := decodeRelated(data)
	if err != nil || !maps.EqualFunc(back, rel, slices.Equal) {
		t.Errorf("decoded %v, %v", back, err)
	}
	for _, bad := range []string{"bill\tinvoic\n", "bill\tinvoic\tx\n"} {
		if _, err := decodeRelated([]byte(bad)); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

func FuzzDecodeRelated(f *testing.F) {
	for _, s := range []string{"bill\tinvoic\t0.734\n", "", "\n\n", "a\tb\t1\tc\t2", "a\t\t", "a\tb\tNaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rel, err := decodeRelated([]byte(s))
		if err != nil {
			return
		}
		// What decodes encodes to text that decodes alike.
		again, err := decodeRelated(encodeRelated(rel))
		if err != nil {
			t.Fatalf("%q: re-encoded: %v", s, err)
		}
		if len(again) != len(rel) {
			t.Fatalf("%q: %d terms, again %d", s, len(rel), len(again))
		}
	})
}

// TestRelatedSample keeps every skill of a small catalog and about
// relatedSampleSkills of a large one.
func TestRelatedSample(t *testing.T) {
	small := newRelatedSample(relatedSampleSkills)
	large := newRelatedSample(20 * relatedSampleSkills)
	kept := 0
	for i := range 20 * relatedSampleSkills {
		name := fmt.Sprintf("skill-%d", i)
		if !small.keeps(name) {
			t.Fatalf("a catalog of %d skills leaves %s out", relatedSampleSkills, name)
		}
		if large.keeps(name) {
			kept++
		}
	}
	if kept < relatedSampleSkills*8/10 || kept > relatedSampleSkills*12/10 {
		t.Errorf("a catalog of %d skills keeps %d, want about %d", 20*relatedSampleSkills, kept, relatedSampleSkills)
	}
	// A skill more or less keeps the same sample, but when the catalog
	// crosses a round number (two significant digits).
	for _, c := range []struct {
		a, b int
		same bool
	}{
		{10000, 10001, true}, {10000, 10999, true}, {9999, 10000, false}, {10999, 11000, false},
		{1000, 1099, true}, {1099, 1100, false}, {999, 1000, true}, {1, 999, true},
		{123456, 129999, true}, {129999, 130000, false},
	} {
		if same := newRelatedSample(c.a) == newRelatedSample(c.b); same != c.same {
			t.Errorf("samples of %d and %d skills: same %v, want %v", c.a, c.b, same, c.same)
		}
	}
	// Never much more than relatedSampleSkills: at most a tenth more,
	// just below a round number.
	for _, n := range []int{1099, 1999, 10999, 19999, 99999, 109999} {
		want := uint64(relatedSampleSkills*11) * 1e6 / 10 / uint64(n)
		if got := newRelatedSample(n).keep; got > want+1 {
			t.Errorf("a catalog of %d skills keeps %d millionths, more than %d", n, got, want)
		}
	}
}

// TestSequence cuts a document into sentences of terms.
func TestSequence(t *testing.T) {
	dc := newDict()
	seq := sequence(&document{Name: "pdf-tools", Description: "Fill PDF forms. Merge files!", Body: "Use node.js; read the tables\nthe"}, dc)
	byID := dc.snapshot()
	var parts []string
	for _, id := range seq {
		if id == seqBreak {
			parts = append(parts, "|")
		} else {
			parts = append(parts, byID[id])
		}
	}
	if got, want := strings.Join(parts, " "), "pdf tool | fill pdf form | merg file | us node | js | read tabl |"; got != want {
		t.Errorf("sequence %q, want %q", got, want)
	}
}

// TestRelatedTermsFromTheMemo: serve's rebuild takes the related terms
// from the memo while the sample's skills are unchanged, and mines them
// again when one changed.
func TestRelatedTermsFromTheMemo(t *testing.T) {
	m := memo.New()
	dc := newDict()
	var recs []*record
	for i, d := range relatedCorpus() {
		r := analyze(d, dc, true)
		r.key = fmt.Sprintf("key-%d", i)
		recs = append(recs, r)
	}
	b := &builder{m: m, recs: recs}
	first := b.relatedTerms()
	if len(first) == 0 {
		t.Fatal("no related terms")
	}
	first["sentinel"] = nil // what the memo holds, seen if it is reused
	if again := b.relatedTerms(); !slices.Contains(slices.Collect(maps.Keys(again)), "sentinel") {
		t.Error("the related terms of an unchanged sample were mined again")
	}
	recs[3].key = "changed"
	if again := b.relatedTerms(); slices.Contains(slices.Collect(maps.Keys(again)), "sentinel") {
		t.Error("the related terms of a changed sample came from the memo")
	}
}
