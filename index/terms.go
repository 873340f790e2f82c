package index

import (
	"math"
	"sort"
	"sync"
)

// termWeight is a term's weight in a document: the model's sum over
// fields (see fields) for the term's counts tf in fields of lengths lens.
func termWeight(tf *[len(fields)]uint16, lens *[len(fields)]int32) float64 {
	w := 0.0
	for f, n := range tf {
		if n != 0 {
			w += fieldWeight(f, float64(n), float64(lens[f]))
		}
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

var logMaxWeight = math.Log1p(maxWeight())

// quantize is quantizeExact, found among precomputed bounds instead of by
// a logarithm per posting (a large part of a rebuild's search index
// time), but for weights next to a bound, which the formula decides.
func quantize(w float64) uint8 {
	b := quantBounds()
	k := sort.SearchFloat64s(b[:], w) // the bounds below w
	const near = 1e-9
	if (k < len(b) && b[k]-w <= near*b[k]) || (k > 0 && w-b[k-1] <= near*b[k-1]) {
		return quantizeExact(w)
	}
	return uint8(max(k, 1))
}

// quantizeExact is the impact of weight w.
func quantizeExact(w float64) uint8 {
	q := math.Round(quantLevels * math.Log1p(w) / logMaxWeight)
	return uint8(min(max(q, 1), quantLevels))
}

// quantBounds[k] is the weight where quantizeExact's q goes from k to
// k+1: log1p(w) = (k+0.5)/255 × log1p(maxWeight).
var quantBounds = sync.OnceValue(func() *[quantLevels]float64 {
	var b [quantLevels]float64
	for k := range b {
		b[k] = math.Expm1((float64(k) + 0.5) / quantLevels * logMaxWeight)
	}
	return &b
})

// qmax is logMaxWeight as the JSON index's manifest gives it, rounded.
var qmax = round6(logMaxWeight)

// dequantize is the weight of level q, as every reader of the indexes
// computes it: expm1(q/255 × qmax).
func dequantize(q uint8) float64 {
	return math.Expm1(float64(q) / quantLevels * qmax)
}

// idf is BM25's inverse document frequency.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// termLists calls fn with each document's number, its terms (numbers in
// the dict) and their impacts, in the order of the documents' numbers;
// the slices are valid only during the call.
type termLists func(fn func(d int, terms []uint32, q []uint8)) error

// recordTerms are the term lists of records in memory, of the documents
// numbered num.
func recordTerms(recs []*record, num docNumbers) termLists {
	return func(fn func(d int, terms []uint32, q []uint8)) error {
		for d, i := range num.at {
			if i >= 0 {
				r := recs[i]
				fn(d, r.terms, r.impacts)
			}
		}
		return nil
	}
}

// CompareUTF16 orders strings as JavaScript compares them (by UTF-16 code
// units), as the index's files are sorted: a reader of the JSON index
// searches them with it.
func CompareUTF16(a, b string) int { return compareUTF16(a, b) }

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
