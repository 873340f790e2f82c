package index

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/internal/parallel"
)

// Related terms are mined from the catalog's own text at build time, with
// nothing from outside: two terms are related when they occur amid the
// same words (distributional similarity), as "memory" and "ram", "bill"
// and "invoice", "password" and "credential" do in skill documents. A
// term's context is the words within relatedWindow of it in the same
// sentence, weighted by positive pointwise mutual information; two terms'
// similarity is the cosine of their contexts. Each term keeps its
// relatedPerTerm most similar terms of at least relatedMinSimilarity; a
// query word then also matches them, for a factor of model.Related ×
// similarity and for their model.RelatedHead best documents (rank.go).
// The JSON index holds them in the term's entry, the bleve index as the
// internal value relatedKey.
const (
	relatedWindow        = 4
	relatedMinDF         = 3 // documents a term must be in to relate or be related
	relatedPerTerm       = 2
	relatedMinSimilarity = 0.2
	// relatedMaxContexts bounds the terms a context word is counted for
	// when similarities are computed: a word amid thousands of terms
	// tells them apart little, and costs the square of its count.
	relatedMaxContexts = 2000
	// The text mined is a sample of the catalog: its skills, about
	// relatedSampleSkills of them (chosen by the hash of their names; see
	// newRelatedSample), each up to relatedMaxTerms terms.
	relatedSampleSkills = 1000
	relatedMaxTerms     = 2048
)

// The bleve index's internal values (bleve's Index.GetInternal) that hold
// what ranking needs besides the terms: the related terms
// (encodeRelated), the dictionary's blocks (the first key of each of the
// JSON index's term shards, each ended by a line feed), among which
// spelling neighbours are sought, and the JSON index's number of each
// document (docnum.go), uvarints in name order (bleve's own), in which
// ranking reads postings, breaks ties and takes heads as the JSON index
// does.
const (
	relatedKey = "skilldex:related"
	blocksKey  = "skilldex:blocks"
	docsKey    = "skilldex:docs"
)

// internalValues returns the bleve index's internal values.
func internalValues(related map[string][]relatedTerm, blocks []string, num docNumbers) map[string][]byte {
	var docs []byte
	for _, d := range num.of {
		docs = binary.AppendUvarint(docs, uint64(d))
	}
	return map[string][]byte{
		relatedKey: encodeRelated(related),
		blocksKey:  []byte(strings.Join(blocks, "\n") + "\n"),
		docsKey:    docs,
	}
}

// relatedTerm is a term related to another, with their similarity
// (rounded to three decimals, as the JSON index stores it).
type relatedTerm struct {
	term       string
	similarity float64
}

// relatedSample says which skills' text is mined.
type relatedSample struct {
	// keep is the share of names kept, in millionths of nameHash's range.
	keep uint64
}

// newRelatedSample returns the sample of a catalog of skills. The share
// kept is worked out from the catalog's size rounded down to two
// significant digits, so that a skill added or removed rarely changes
// which other skills are mined (and the related terms with them, which
// serve would mine again): at 10,000 skills, only when the catalog
// crosses a thousand. The sample is then up to a tenth larger than
// relatedSampleSkills.
func newRelatedSample(skills int) relatedSample {
	n := twoDigits(skills)
	if n <= relatedSampleSkills {
		return relatedSample{keep: 1e6}
	}
	return relatedSample{keep: uint64(relatedSampleSkills) * 1e6 / uint64(n)}
}

// twoDigits rounds n down to two significant digits.
func twoDigits(n int) int {
	unit := 1
	for n/unit >= 100 {
		unit *= 10
	}
	return n / unit * unit
}

// keeps reports whether the text of the skill named name is mined.
func (s relatedSample) keeps(name string) bool {
	return nameHash(name)%1e6 < s.keep
}

// seqBreak ends a sentence in a record's seq.
const seqBreak = math.MaxUint32

// sequence returns d's text as term numbers of dc, sentence after
// sentence (seqBreak after each), at most relatedMaxTerms terms: its name,
// description and body, cut into sentences at line ends and at . ! ? and ;
// (so "node.js" is two).
func sequence(d *document, dc *dict) []uint32 {
	var terms []string
	breaks := []int{}
	for _, text := range []string{d.Name, d.Description, d.Body} {
		for _, sentence := range strings.FieldsFunc(text, func(r rune) bool {
			return r == '\n' || r == '.' || r == '!' || r == '?' || r == ';'
		}) {
			if len(terms) >= relatedMaxTerms {
				break
			}
			before := len(terms)
			tokenize(sentence, func(t []byte) {
				if len(terms) < relatedMaxTerms {
					terms = append(terms, string(t))
				}
			})
			if len(terms) > before {
				breaks = append(breaks, len(terms))
			}
		}
	}
	ids := dc.intern(terms)
	out := make([]uint32, 0, len(ids)+len(breaks))
	prev := 0
	for _, b := range breaks {
		out = append(out, ids[prev:b]...)
		out = append(out, seqBreak)
		prev = b
	}
	return out
}

// relatedTerms returns the related terms of the catalog's terms, mined
// from the sample's text, or as the memo has them from a build of the same
// sample (serve's rebuilds: an edit outside the sample changes nothing).
func (b *builder) relatedTerms() map[string][]relatedTerm {
	h := sha256.New()
	cacheable := b.m != nil
	var sample []*record
	for _, r := range b.recs {
		if r != nil && r.hasSeq { // nil: spilled, not in the sample
			sample = append(sample, r)
			cacheable = cacheable && r.key != ""
			fmt.Fprintf(h, "%s\x00", r.key)
		}
	}
	key := searchFormat + ":related:" + hex.EncodeToString(h.Sum(nil))
	if cacheable {
		if rel, ok := memo.Lookup[map[string][]relatedTerm](b.m, key); ok {
			return rel
		}
	}
	rel := mineRelated(sample)
	if cacheable {
		b.m.Put(key, rel)
	}
	return rel
}

// mineRelated returns the related terms of the records' terms, from the
// text of the records that kept it: the sample. Only the sample counts,
// document frequencies included, so that the terms depend on it alone.
func mineRelated(recs []*record) map[string][]relatedTerm {
	if len(recs) == 0 {
		return nil
	}
	byID := recs[0].dict.snapshot()
	df := make([]int32, len(byID))
	for _, r := range recs {
		if !r.hasSeq {
			continue
		}
		for _, id := range r.terms {
			df[id]++
		}
	}
	// Co-occurrence counts within the window, each pair of places counted
	// once, under its terms in order (the lower id first): the counts
	// both ways are the same, and this halves the map's work.
	pairs := map[uint64]float64{}
	for _, r := range recs {
		seq := r.seq
		for start := 0; start < len(seq); {
			end := start
			for end < len(seq) && seq[end] != seqBreak {
				end++
			}
			s := seq[start:end]
			for i, a := range s {
				if df[a] < relatedMinDF {
					continue
				}
				for j := i + 1; j < min(len(s), i+relatedWindow+1); j++ {
					if b := s[j]; df[b] >= relatedMinDF {
						pairs[uint64(min(a, b))<<32|uint64(max(a, b))]++
					}
				}
			}
			start = end + 1
		}
	}
	// The terms counted, numbered densely (the dictionary holds the whole
	// catalog's terms, most of them not in the sample).
	dense := make([]int32, len(byID))
	var terms []uint32 // by dense number
	for id, n := range df {
		if n >= relatedMinDF {
			dense[id] = int32(len(terms))
			terms = append(terms, uint32(id))
		}
	}
	// Both ways again: n for (a, b) and (b, a), and twice n for a term
	// near itself, which each of its places counted. The counts are
	// whole numbers, so their sums do not depend on the order.
	counts := make([]float64, len(terms))
	total := 0.0
	for k, n := range pairs {
		a, b := uint32(k>>32), uint32(k)
		counts[dense[a]] += n
		counts[dense[b]] += n
		total += 2 * n
	}
	// Each term's context vector: PPMI, positive only, by context term.
	type weight struct {
		term uint32
		w    float64
	}
	vectors := make([][]weight, len(terms))
	addPMI := func(a, b uint32, n float64) {
		if pmi := math.Log(n * total / (counts[dense[a]] * counts[dense[b]])); pmi > 0 {
			vectors[dense[a]] = append(vectors[dense[a]], weight{b, pmi})
		}
	}
	for k, n := range pairs {
		a, b := uint32(k>>32), uint32(k)
		if a == b {
			addPMI(a, a, 2*n)
			continue
		}
		addPMI(a, b, n)
		addPMI(b, a, n)
	}
	var targets []uint32
	for d, v := range vectors {
		if len(v) > 0 {
			targets = append(targets, terms[d])
		}
	}
	slices.SortFunc(targets, func(a, b uint32) int { return strings.Compare(byID[a], byID[b]) })
	norms := make([]float64, len(targets))
	for i, a := range targets {
		v := vectors[dense[a]]
		slices.SortFunc(v, func(x, y weight) int { return cmp.Compare(x.term, y.term) })
		for _, x := range v {
			norms[i] += x.w * x.w
		}
		norms[i] = math.Sqrt(norms[i])
	}
	// The terms each context term is in the context of, by their place in
	// targets.
	type place struct {
		i int32
		w float64
	}
	contexts := make([][]place, len(terms))
	for i, a := range targets {
		for _, x := range vectors[dense[a]] {
			contexts[dense[x.term]] = append(contexts[dense[x.term]], place{int32(i), x.w})
		}
	}
	found := make([][]relatedTerm, len(targets))
	type cand struct {
		i   int32
		sim float64
	}
	// Each worker accumulates the dot products of a term with the others
	// in its own buffer; each term's result depends on the term alone.
	buffers := sync.Pool{New: func() any { return make([]float64, len(targets)) }}
	parallel.For(context.Background(), len(targets), 0, func(i int) {
		dot := buffers.Get().([]float64)
		defer buffers.Put(dot)
		var touched []int32
		for _, x := range vectors[dense[targets[i]]] {
			c := contexts[dense[x.term]]
			if len(c) > relatedMaxContexts {
				continue
			}
			for _, y := range c {
				if dot[y.i] == 0 {
					touched = append(touched, y.i)
				}
				dot[y.i] += x.w * y.w
			}
		}
		var cands []cand
		for _, j := range touched {
			if int(j) != i {
				if sim := dot[j] / (norms[i] * norms[j]); sim >= relatedMinSimilarity {
					cands = append(cands, cand{j, sim})
				}
			}
			dot[j] = 0
		}
		slices.SortFunc(cands, func(x, y cand) int {
			return cmp.Or(cmp.Compare(y.sim, x.sim), strings.Compare(byID[targets[x.i]], byID[targets[y.i]]))
		})
		for _, c := range cands[:min(len(cands), relatedPerTerm)] {
			found[i] = append(found[i], relatedTerm{byID[targets[c.i]], roundTo(c.sim, 1000)})
		}
	})
	out := map[string][]relatedTerm{}
	for i, rs := range found {
		if len(rs) > 0 {
			out[byID[targets[i]]] = rs
		}
	}
	return out
}

// encodeRelated encodes related terms as the bleve index keeps them: a
// line per term, in term order: the term, then each related term and its
// similarity, separated by tabs.
func encodeRelated(related map[string][]relatedTerm) []byte {
	var b bytes.Buffer
	for _, t := range slices.Sorted(maps.Keys(related)) {
		b.WriteString(t)
		for _, r := range related[t] {
			fmt.Fprintf(&b, "\t%s\t%s", r.term, strconv.FormatFloat(r.similarity, 'f', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// decodeRelated reads what encodeRelated wrote.
func decodeRelated(data []byte) (map[string][]relatedTerm, error) {
	out := map[string][]relatedTerm{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f)%2 != 1 {
			return nil, fmt.Errorf("related terms, line %d: %d fields, want a term and pairs of a term and a similarity", i+1, len(f))
		}
		for k := 1; k < len(f); k += 2 {
			sim, err := strconv.ParseFloat(f[k+1], 64)
			if err != nil {
				return nil, fmt.Errorf("related terms, line %d: %v", i+1, err)
			}
			out[f[0]] = append(out[f[0]], relatedTerm{f[k], sim})
		}
	}
	return out, nil
}
