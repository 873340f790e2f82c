package index

import (
	"context"
	"math"
	"slices"

	"github.com/skilldex/skilldex/internal/parallel"
)

// BM25 saturation; length normalisation is per field (field.b).
const k1 = 1.2

// termStats are one document's terms: tf[f] is the count in field f.
type termStats struct {
	terms []string // sorted, unique
	tf    [][len(fields)]uint16
	lens  [len(fields)]int
}

func analyzeDoc(d *document) *termStats {
	counts := map[string]*[len(fields)]uint16{}
	st := &termStats{}
	for f, text := range d.texts() {
		toks := Tokens(text)
		st.lens[f] = len(toks)
		for _, t := range toks {
			c := counts[t]
			if c == nil {
				c = new([len(fields)]uint16)
				counts[t] = c
			}
			if c[f] < math.MaxUint16 {
				c[f]++
			}
		}
	}
	st.terms = make([]string, 0, len(counts))
	for t := range counts {
		st.terms = append(st.terms, t)
	}
	slices.SortFunc(st.terms, compareUTF16)
	st.tf = make([][len(fields)]uint16, len(st.terms))
	for i, t := range st.terms {
		st.tf[i] = *counts[t]
	}
	return st
}

// scorer turns field term frequencies into a term's weight in a document:
// the sum over fields of weight × BM25 saturation with the field's length
// normalisation (the per-field BM25 that bleve computes for each field of
// the query, summed with the same boosts).
type scorer struct {
	avg [len(fields)]float64
}

func newScorer(stats []*termStats) *scorer {
	s := &scorer{}
	for _, st := range stats {
		for f, n := range st.lens {
			s.avg[f] += float64(n)
		}
	}
	for f := range s.avg {
		s.avg[f] = max(s.avg[f]/float64(max(len(stats), 1)), 1)
	}
	return s
}

func (s *scorer) weight(tf *[len(fields)]uint16, lens *[len(fields)]int) float64 {
	w := 0.0
	for f, n := range tf {
		if n == 0 {
			continue
		}
		x := float64(n)
		b := fields[f].b
		w += fields[f].weight * x * (k1 + 1) / (x + k1*(1-b+b*float64(lens[f])/s.avg[f]))
	}
	return w
}

// maxWeight is the largest weight a term can have in a document.
func maxWeight() float64 {
	w := 0.0
	for _, f := range fields {
		w += f.weight * (k1 + 1)
	}
	return w
}

// Impacts are stored in 8 bits on a log scale: q = round(255 ×
// log1p(w)/log1p(maxWeight)), about 1.7% apart, which keeps the ranking of
// real scores and costs one to three characters per posting.
const quantLevels = 255

func quantize(w float64) uint8 {
	q := math.Round(quantLevels * math.Log1p(w) / math.Log1p(maxWeight()))
	return uint8(min(max(q, 1), quantLevels))
}

// dequantize is what the client computes from q.
func dequantize(q uint8) float64 {
	return math.Expm1(float64(q) / quantLevels * math.Log1p(maxWeight()))
}

// idf is BM25's inverse document frequency.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// posting is one document of a term's list.
type posting struct {
	doc int32
	q   uint8
}

// invert analyses every document (in parallel; the result does not depend
// on the parallelism) and returns the sorted terms and their postings,
// each list in document order.
func invert(docs []*document) (terms []string, postings [][]posting) {
	stats := make([]*termStats, len(docs))
	parallel.For(context.Background(), len(docs), 0, func(i int) { stats[i] = analyzeDoc(docs[i]) })
	sc := newScorer(stats)
	qs := make([][]uint8, len(docs))
	parallel.For(context.Background(), len(docs), 0, func(i int) {
		st := stats[i]
		q := make([]uint8, len(st.terms))
		for j := range st.terms {
			q[j] = quantize(sc.weight(&st.tf[j], &st.lens))
		}
		qs[i] = q
		st.tf = nil
	})
	ids := map[string]int{}
	for i, st := range stats {
		for j, t := range st.terms {
			id, ok := ids[t]
			if !ok {
				id = len(terms)
				ids[t] = id
				terms = append(terms, t)
				postings = append(postings, nil)
			}
			postings[id] = append(postings[id], posting{int32(i), qs[i][j]})
		}
		stats[i], qs[i] = nil, nil
	}
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareUTF16(terms[a], terms[b]) })
	sortedTerms := make([]string, len(terms))
	sortedPostings := make([][]posting, len(terms))
	for i, id := range order {
		sortedTerms[i], sortedPostings[i] = terms[id], postings[id]
	}
	return sortedTerms, sortedPostings
}

// compareUTF16 orders strings as JavaScript compares them (by UTF-16 code
// units), so that the client's binary searches agree with the build's.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := decodeRune(a)
		rb, nb := decodeRune(b)
		if ra != rb {
			ka, kb := utf16Key(ra), utf16Key(rb)
			if ka < kb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

func utf16Key(r rune) rune {
	switch {
	case r < 0xD800:
		return r
	case r >= 0x10000:
		return 0xD800 + (r - 0x10000)
	}
	return r + 0x100000
}
