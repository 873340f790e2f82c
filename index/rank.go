package index

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// rank.go ranks the documents of an index for a parsed query with the
// model (model.go). It is the Go twin of static/search-core.js's
// Index.search, step for step, so that `skilldex search` and the browser
// put the same skills first: same terms matched, same factors, same
// postings counted, same sums in the same order. It reads an index
// through a termSource; the bleve index is one (bleveSource).

// termSource is what ranking reads of an index. Documents are numbered in
// name order from 0.
type termSource interface {
	// docCount is the number of documents.
	docCount() int
	// lookup returns term's entry, nil when no document has the term.
	lookup(term string) (*termEntry, error)
	// completions returns the entries of the n terms starting with p in
	// the most documents (ties: in term order), most first.
	completions(p string, n int) ([]*termEntry, error)
	// neighbours returns the entries of the n terms other than term at
	// most max edits from it (optimal string alignment distance), nearest
	// first, then in the most documents.
	neighbours(term string, max, n int) ([]neighbour, error)
	// facetDocs returns the documents having the facet value (compared
	// case-insensitively), in order.
	facetDocs(facet, value string) ([]int32, error)
}

// termEntry is a term of an index.
type termEntry struct {
	term string
	df   int
	// idf is BM25's, rounded to three decimals as the JSON index stores
	// it (entryIDF).
	idf float64
	// postings returns the term's n highest-weighted documents (ties:
	// first in document order), in document order; all when n is 0.
	postings func(n int) ([]posting, error)
	// related are the related terms, most similar first.
	related []relatedTerm
}

type neighbour struct {
	*termEntry
	distance int
}

// entryIDF is a term's idf as the JSON index stores it and every reader
// uses it.
func entryIDF(n, df int) float64 {
	return roundTo(idf(n, df), 1000)
}

func roundTo(x, scale float64) float64 { return math.Round(x*scale) / scale }

// How a key was matched: which postings of its term count.
type keyKind uint8

const (
	keyExact      keyKind = iota // the word's term, or its stem with an ending being typed
	keyCompletion                // a term the word begins, or the word being typed goes past
	keyNeighbour                 // a spelling neighbour
	keyRelated                   // a related term
)

func (k keyKind) String() string {
	return [...]string{"term", "completion", "neighbour", "related"}[k]
}

// key is a term a query word matches, with its factor.
type key struct {
	entry  *termEntry
	factor float64
	kind   keyKind
}

// ranking is the answer to a query.
type ranking struct {
	hits []scoredDoc
	// words are the query's scoring words, keys what each matched (for
	// highlights and explanations).
	words []Word
	keys  [][]key
	// full is set when every document of a term counted.
	full bool
}

type scoredDoc struct {
	doc   int32
	score float64
}

// rankOptions tune a ranking: full counts every document of a term
// (sorting by name needs it); explain keeps what each word matched.
type rankOptions struct {
	full bool
}

// matcher finds the keys of query words in a source.
type matcher struct {
	src termSource
}

// suffixes are word endings whose partial typing should still find the
// stem: while "reviewi" is typed, "reviewing" is meant.
var suffixes = []string{"s", "es", "ed", "ing"}

// completionFactor is the factor of a term of which typed letters of
// termLen were typed.
func completionFactor(typed, termLen int) float64 {
	return model.Completion[0] + model.Completion[1]*min(float64(typed)/float64(termLen), 1)
}

// matches returns the keys of a word: its term; for the word being typed,
// the stems of its endings, the terms it goes past and its completions;
// the completions of a word that is no term; spelling neighbours of a
// word that matches nothing (or only a rare term); and the related terms
// of its term. A phrase's word (exact) matches its term alone.
func (m *matcher) matches(w Word, exact bool) ([]key, error) {
	var keys []key
	add := func(e *termEntry, factor float64, kind keyKind) {
		if e == nil {
			return
		}
		for i := range keys {
			if keys[i].entry.term == e.term {
				if keys[i].factor < factor {
					keys[i] = key{e, factor, kind}
				}
				return
			}
		}
		keys = append(keys, key{e, factor, kind})
	}
	if !w.Stop {
		e, err := m.src.lookup(w.Term)
		if err != nil {
			return nil, err
		}
		add(e, 1, keyExact)
	}
	if exact {
		return keys, nil
	}
	hasExact := len(keys) > 0
	completing := w.Prefix || !hasExact
	ofTerm := 1.0
	if hasExact {
		ofTerm = model.CompletionOfTerm
	}
	raw := []rune(w.Raw)
	if w.Prefix {
		var stems []string
		for _, sfx := range suffixes {
			for k := 1; k < len(sfx); k++ {
				if strings.HasSuffix(w.Raw, sfx[:k]) {
					if s := Stem(w.Raw + sfx[k:]); s != w.Term && !slices.Contains(stems, s) {
						stems = append(stems, s)
					}
				}
			}
		}
		for _, s := range stems {
			e, err := m.src.lookup(s)
			if err != nil {
				return nil, err
			}
			add(e, 1, keyExact)
		}
		for l := len(raw) - 1; l >= max(model.TypedTerm, len(raw)-model.TypedPast); l-- {
			e, err := m.src.lookup(string(raw[:l]))
			if err != nil {
				return nil, err
			}
			add(e, completionFactor(l, len(raw))*ofTerm, keyCompletion)
		}
	}
	minLen := model.CompleteFrom
	if w.Prefix {
		minLen = 1
	}
	if completing && len(raw) >= minLen {
		prefixes := []string{w.Raw}
		if w.Term != w.Raw {
			prefixes = append(prefixes, w.Term)
		}
		for _, p := range prefixes {
			es, err := m.src.completions(p, model.Completions)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				if e.term == w.Term {
					add(e, 1, keyExact)
					continue
				}
				add(e, completionFactor(utf8.RuneCountInString(p), utf8.RuneCountInString(e.term))*ofTerm, keyCompletion)
			}
		}
	}
	if w.Stop && len(keys) == 0 {
		return keys, nil
	}
	var exactEntry *termEntry
	for _, k := range keys {
		if k.entry.term == w.Term {
			exactEntry = k.entry
		}
	}
	if len(keys) == 0 || (exactEntry != nil && exactEntry.df <= model.FuzzyRare && len(keys) == 1) {
		if n := utf8.RuneCountInString(w.Term); n >= model.FuzzyFrom[0] {
			dist := 1
			if n >= model.FuzzyFrom[1] {
				dist = 2
			}
			ns, err := m.src.neighbours(w.Term, dist, model.Neighbours)
			if err != nil {
				return nil, err
			}
			for _, e := range ns {
				if exactEntry == nil || e.df > model.FuzzyCommoner*exactEntry.df {
					add(e.termEntry, model.Fuzzy[e.distance-1], keyNeighbour)
				}
			}
		}
	}
	if exactEntry != nil {
		for _, r := range exactEntry.related {
			e, err := m.src.lookup(r.term)
			if err != nil {
				return nil, err
			}
			add(e, model.Related*r.similarity, keyRelated)
		}
	}
	return keys, nil
}

// headOf is how many postings of a key count.
func headOf(k keyKind, full bool) int {
	switch k {
	case keyCompletion, keyNeighbour:
		return model.CompletionHead
	case keyRelated:
		return model.RelatedHead
	}
	if full {
		return 0
	}
	return model.Head
}

// docSet is a set of document numbers.
type docSet map[int32]bool

// docsOf returns the documents of keys, as they count for k's kind. Only
// the keys of kinds accepted count.
func docsOf(keys []key, full bool, accept func(keyKind) bool) (docSet, error) {
	out := docSet{}
	for _, k := range keys {
		if !accept(k.kind) {
			continue
		}
		ps, err := k.entry.postings(headOf(k.kind, full))
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			out[p.doc] = true
		}
	}
	return out, nil
}

// rank ranks the documents of src for q.
func rank(src termSource, q Query, opt rankOptions) (*ranking, error) {
	m := &matcher{src: src}
	full := opt.full
	for _, c := range q.Clauses {
		if c.Facet != "" || c.Required || c.Excluded || c.Phrase {
			full = true
		}
	}
	// allowed: the documents the filters, requirements and exclusions
	// leave (nil: all).
	var allowed docSet
	restrict := func(s docSet) {
		if allowed == nil {
			allowed = s
			return
		}
		for d := range allowed {
			if !s[d] {
				delete(allowed, d)
			}
		}
	}
	excluded := docSet{}
	for _, c := range q.Clauses {
		if c.Facet == "" {
			continue
		}
		docs, err := src.facetDocs(c.Facet, c.Value)
		if err != nil {
			return nil, err
		}
		s := docSet{}
		for _, d := range docs {
			s[d] = true
		}
		if c.Excluded {
			for d := range s {
				excluded[d] = true
			}
		} else {
			restrict(s)
		}
	}
	r := &ranking{full: full}
	for _, c := range q.Clauses {
		if c.Facet != "" {
			continue
		}
		if c.Excluded {
			// Every word of the clause present: excluded.
			var all docSet
			for _, w := range c.Words {
				keys, err := m.matches(w, true)
				if err != nil {
					return nil, err
				}
				s, err := docsOf(keys, true, func(keyKind) bool { return true })
				if err != nil {
					return nil, err
				}
				if all == nil {
					all = s
				} else {
					for d := range all {
						if !s[d] {
							delete(all, d)
						}
					}
				}
			}
			for d := range all {
				excluded[d] = true
			}
			continue
		}
		for _, w := range c.Words {
			keys, err := m.matches(w, c.Phrase)
			if err != nil {
				return nil, err
			}
			if c.Required || c.Phrase {
				s, err := docsOf(keys, full, func(k keyKind) bool { return k != keyRelated })
				if err != nil {
					return nil, err
				}
				restrict(s)
			}
			r.words = append(r.words, w)
			r.keys = append(r.keys, keys)
		}
	}
	ok := func(d int32) bool { return !excluded[d] && (allowed == nil || allowed[d]) }

	type acc struct {
		sum   float64
		words int
	}
	scores := map[int32]*acc{}
	counted := 0
	for i, w := range r.words {
		keys := r.keys[i]
		if w.Stop && len(keys) == 0 {
			continue
		}
		conv := 1.0
		if w.Conversational {
			conv = model.Conversational
		} else {
			counted++
		}
		best := map[int32]float64{}
		own := map[int32]bool{} // matched by a key other than a related term
		var order []int32       // best's documents, as first met
		for _, k := range keys {
			ps, err := k.entry.postings(headOf(k.kind, full))
			if err != nil {
				return nil, err
			}
			wt := k.entry.idf * (k.factor * conv)
			for _, p := range ps {
				if !ok(p.doc) {
					continue
				}
				s := wt * dequantize(p.q)
				had, seen := best[p.doc]
				if !seen {
					order = append(order, p.doc)
				}
				if !seen || had < s {
					best[p.doc] = s
				}
				if k.kind != keyRelated {
					own[p.doc] = true
				}
			}
		}
		for _, d := range order {
			a := scores[d]
			if a == nil {
				a = &acc{}
				scores[d] = a
			}
			a.sum += best[d]
			if !w.Conversational && own[d] {
				a.words++
			}
		}
	}
	if len(r.words) == 0 {
		if allowed != nil {
			for d := range allowed {
				if ok(d) {
					r.hits = append(r.hits, scoredDoc{doc: d})
				}
			}
		}
	} else {
		n := float64(max(counted, 1))
		for d, a := range scores {
			r.hits = append(r.hits, scoredDoc{d, a.sum * float64(a.words) / n})
		}
	}
	slices.SortFunc(r.hits, func(a, b scoredDoc) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc))
	})
	return r, nil
}
