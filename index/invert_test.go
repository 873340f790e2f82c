package index

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// termCatalog is a made-up catalog of term lists, enough terms for many
// shards and prefixes spanning several, terms in more documents than a
// head holds, and impacts from a few levels, so that heads are cut amid
// ties.
type termCatalog struct {
	byID []string
	docs [][]uint32
	qs   [][]uint8
}

func makeTermCatalog(seed uint64) termCatalog {
	r := rand.New(rand.NewPCG(seed, 1))
	var c termCatalog
	for i := range 2000 {
		c.byID = append(c.byID, fmt.Sprintf("alpha%04d", i))
	}
	for i := range 600 {
		c.byID = append(c.byID, fmt.Sprintf("b%d", i))
	}
	for i := range 2000 {
		c.byID = append(c.byID, fmt.Sprintf("über%04d", i))
	}
	c.byID = append(c.byID, "common", "rare", "ça", "été", "日本", "😀x", "unused")
	const n = 500
	levels := []uint8{1, 3, 3, 7, 200, 255}
	for range n {
		var ids []uint32
		for id := range c.byID[:len(c.byID)-1] {
			p := 3.0 / float64(id%499+3) // a few terms in most documents, most in few
			if id == len(c.byID)-7 {     // common
				p = 0.9
			}
			if r.Float64() < p {
				ids = append(ids, uint32(id))
			}
		}
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		q := make([]uint8, len(ids))
		for i := range q {
			q[i] = levels[r.IntN(len(levels))]
		}
		c.docs, c.qs = append(c.docs, ids), append(c.qs, q)
	}
	return c
}

func (c termCatalog) lists(fn func(i int, terms []uint32, q []uint8)) error {
	for i := range c.docs {
		fn(i, c.docs[i], c.qs[i])
	}
	return nil
}

// related relates terms at both ends of the order, in more documents than
// model.RelatedHead and in fewer, and one in no document.
func (c termCatalog) related() map[string][]relatedTerm {
	return map[string][]relatedTerm{
		"alpha0000": {{"😀x", 0.5}, {"common", 0.25}},
		"alpha1500": {{"alpha0001", 0.9}},
		"b599":      {{"alpha0000", 0.4}, {"unknown", 0.3}},
		"😀x":        {{"b10", 0.7}, {"über1999", 0.2}},
		"über0000":  {{"alpha0003", 0.6}},
		"common":    {{"rare", 0.3}},
	}
}

// buildTerms builds the JSON index of c inverting at most limit postings
// at a time, and returns its files in the order made and its blocks.
func buildTerms(t *testing.T, c termCatalog, limit int) ([]jsonFile, []string) {
	t.Helper()
	a := analysed{n: len(c.docs), byID: c.byID, lists: c.lists, rangePostings: limit,
		doc: func(i int) *document { return &document{Name: fmt.Sprint("skill", i)} }}
	var files []jsonFile
	blocks, err := buildJSON(a, nil, "search/", c.related(), func(f jsonFile) error {
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, blocks
}

// TestTermRanges: the JSON index inverted range by range is the index
// inverted at once, byte for byte: the ranges of one term, of a few, and
// of many, cut amid shards, prefixes and related terms.
func TestTermRanges(t *testing.T) {
	c := makeTermCatalog(1)
	want, wantBlocks := buildTerms(t, c, 1<<30)
	count := func(dir string) int {
		return len(slices.DeleteFunc(slices.Clone(want), func(f jsonFile) bool { return !strings.HasPrefix(f.path, dir) }))
	}
	// The catalog is one that ranges can get wrong.
	if count("t/") < 10 || count("x/") == 0 || count("p/") < 3 {
		t.Fatalf("the catalog has %d shards, %d tails, %d prefix files", count("t/"), count("x/"), count("p/"))
	}
	inv, _ := newInversion(c.byID, c.lists)
	limits := []int{1, 50, 1000, inv.total - 1}
	for j := 1; j < 16; j++ {
		limits = append(limits, inv.total*j/16)
	}
	for _, limit := range limits {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			if n := len(inv.cut(limit)); n < 2 {
				t.Fatalf("%d postings at most: %d range", limit, n)
			}
			got, blocks := buildTerms(t, c, limit)
			if !slices.Equal(blocks, wantBlocks) {
				t.Errorf("blocks %q, want %q", blocks, wantBlocks)
			}
			for i := range max(len(got), len(want)) {
				switch {
				case i >= len(got):
					t.Fatalf("file %d: missing, want %s", i, want[i].path)
				case i >= len(want):
					t.Fatalf("file %d: %s, want none", i, got[i].path)
				case got[i].path != want[i].path || !bytes.Equal(got[i].data, want[i].data):
					t.Fatalf("file %d: %s\n%.300s\nwant %s\n%.300s", i, got[i].path, got[i].data, want[i].path, want[i].data)
				}
			}
		})
	}
}

// TestInversionCut: ranges hold at most the limit's postings, a term in
// more documents a range by itself.
func TestInversionCut(t *testing.T) {
	for _, tc := range []struct {
		df    []int32
		limit int
		want  []int
	}{
		{nil, 10, []int{0}},
		{[]int32{3, 3, 3}, 10, []int{3}},
		{[]int32{3, 3, 3}, 6, []int{2, 3}},
		{[]int32{3, 3, 3}, 1, []int{1, 2, 3}},
		{[]int32{1, 20, 1, 1}, 5, []int{1, 2, 4}},
	} {
		inv := &inversion{df: tc.df}
		if got := inv.cut(tc.limit); !slices.Equal(got, tc.want) {
			t.Errorf("cut(%v, %d) = %v, want %v", tc.df, tc.limit, got, tc.want)
		}
	}
}

// TestHeadsMatchSplit: the postings heads collects one at a time are
// split's head of them all.
func TestHeadsMatchSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for trial := range 200 {
		n := 1 + r.IntN(40)
		var ps []Posting
		for doc := range r.IntN(120) {
			ps = append(ps, Posting{int32(doc), uint8(1 + r.IntN(1+trial%6))})
		}
		h := newHeads(3, []int{1}, n)
		for _, p := range ps {
			h.add(0, Posting{p.Doc, 255}) // not collected
			h.add(1, p)
		}
		h.finish()
		want, _ := split(ps, n)
		if got := h.head(1); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("%d best of %v:\n%v, want\n%v", n, ps, got, want)
		}
	}
}
