package index

import (
	"cmp"
	"context"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// rank.go ranks the documents of an index for a parsed query with the
// model (model.go). It is the Go twin of static/search-core.js's
// Index.search, step for step, so that every engine puts the same skills
// first: same terms matched, same factors, same postings counted, same
// sums in the same order. It reads an index through a TermSource: the
// bleve index is one (bleveSource, for skilldex search), the JSON index
// read by Go another (package jsonsearch, for skilldex mcp).

// A TermSource is an index as ranking reads it. Documents are numbered
// as the JSON index numbers them (docnum.go).
type TermSource interface {
	// Model is the model the index was built for; Weight the weight of
	// a level (Posting.Level), expm1(level/255 × qmax).
	Model() *Model
	Weight(level uint8) float64
	// Lookup returns term's entry, nil when no document has the term.
	Lookup(ctx context.Context, term string) (*TermEntry, error)
	// Completions returns the entries of the n terms starting with p in
	// the most documents (ties: in UTF-16 order), most first.
	Completions(ctx context.Context, p string, n int) ([]*TermEntry, error)
	// Neighbours returns the entries of the n terms of term's block of the
	// dictionary (the JSON index's term shard) other than term at most max
	// edits from it (optimal string alignment distance), nearest first,
	// then in the most documents.
	Neighbours(ctx context.Context, term string, max, n int) ([]Neighbour, error)
	// Related returns the related terms of e, most similar first.
	Related(ctx context.Context, e *TermEntry) ([]RelatedEntry, error)
	// FacetDocs returns the documents having the facet value (compared
	// case-insensitively), in order.
	FacetDocs(ctx context.Context, facet, value string) ([]int32, error)
	// ByName returns a comparison of documents by name (see
	// NameOrder), worked out once for the source.
	ByName(ctx context.Context) (func(a, b int32) int, error)
	// Docs returns every document, in name order: what a query of
	// exclusions alone leaves them out of.
	Docs(ctx context.Context) ([]int32, error)
}

// TermEntry is a term of an index.
type TermEntry struct {
	Term string
	DF   int
	// IDF is BM25's, rounded to three decimals as the JSON index stores
	// it (EntryIDF).
	IDF float64
	// Postings returns the term's n highest-weighted documents (ties:
	// first in document order), in document order; all when n is 0.
	Postings func(ctx context.Context, n int) ([]Posting, error)
}

// Posting is a document of a term, with the term's weight in it as a
// level of 1 to 255 (see quantize).
type Posting struct {
	Doc   int32
	Level uint8
}

// Neighbour is a spelling neighbour of a word.
type Neighbour struct {
	*TermEntry
	Distance int
}

// RelatedEntry is a related term of a term.
type RelatedEntry struct {
	*TermEntry
	Similarity float64
}

// EntryIDF is a term's idf as the JSON index stores it and every reader
// uses it.
func EntryIDF(n, df int) float64 {
	return roundTo(idf(n, df), 1000)
}

func roundTo(x, scale float64) float64 { return math.Round(x*scale) / scale }

// KeyKind says how a key was matched, which decides which documents of
// its term count.
type KeyKind uint8

const (
	KeyTerm       KeyKind = iota // the word's term, or its stem with an ending being typed
	KeyCompletion                // a term the word begins, or the word being typed goes past
	KeyNeighbour                 // a spelling neighbour
	KeyRelated                   // a related term
)

func (k KeyKind) String() string {
	return [...]string{"term", "completion", "neighbour", "related"}[k]
}

// NameOrder returns a comparison of documents by name, given every
// document in name order: by their places in it, documents it does not
// list (a damaged index) last, then by number.
func NameOrder(byName []int32) func(a, b int32) int {
	rank := make(map[int32]int, len(byName))
	for i, d := range byName {
		if _, seen := rank[d]; !seen {
			rank[d] = i
		}
	}
	at := func(d int32) int {
		if i, ok := rank[d]; ok {
			return i
		}
		return math.MaxInt
	}
	return func(a, b int32) int { return cmp.Or(cmp.Compare(at(a), at(b)), cmp.Compare(a, b)) }
}

// Key is a term a query word matches, with its factor.
type Key struct {
	Entry  *TermEntry
	Factor float64
	Kind   KeyKind
}

// Ranking is the answer to a query.
type Ranking struct {
	// Hits are the matching documents, best first (ties: in document
	// order); with no scoring word, the filters' documents in name order.
	Hits []ScoredDoc
	// Words are the query's scoring words, Keys what each matched (for
	// highlights and explanations).
	Words []Word
	Keys  [][]Key
	// Full is set when every document of a term counted (the query
	// requires, excludes or filters, or RankOptions.Full); Approximate
	// when a term's head stood for more documents.
	Full, Approximate bool
	// EmptyFilters are the query's filters (not exclusions) whose value
	// no document has, so that nothing matches (EmptyFilterNote).
	EmptyFilters []Clause
}

// ScoredDoc is a document and its score.
type ScoredDoc struct {
	Doc   int32
	Score float64
}

// RankOptions tune a ranking. Full counts every document of a term
// (sorting by name needs it); Allowed, when not nil, keeps only the
// documents it holds (the browser's facet checkboxes), and implies Full.
type RankOptions struct {
	Full    bool
	Allowed map[int32]bool
}

// matcher finds the keys of query words in a source.
type matcher struct {
	ctx context.Context
	src TermSource
	m   *Model
}

// suffixes are word endings whose partial typing should still find the
// stem: while "reviewi" is typed, "reviewing" is meant.
var suffixes = []string{"s", "es", "ed", "ing"}

// completionFactor is the factor of a term of which typed letters of
// termLen were typed.
func (m *Model) completionFactor(typed, termLen int) float64 {
	return m.Completion[0] + m.Completion[1]*min(float64(typed)/float64(termLen), 1)
}

// matches returns the keys of a word: its term; for the word being typed,
// the stems of its endings, the terms it goes past and its completions;
// the completions of a word that is no term; spelling neighbours of a
// word that matches nothing (or only a rare term); and the related terms
// of its term. A phrase's word (exact) matches its term alone.
func (mt *matcher) matches(w Word, exact bool) ([]Key, error) {
	m, ctx := mt.m, mt.ctx
	var keys []Key
	add := func(e *TermEntry, factor float64, kind KeyKind) {
		if e == nil {
			return
		}
		for i := range keys {
			if keys[i].Entry.Term == e.Term {
				if keys[i].Factor < factor {
					keys[i] = Key{e, factor, kind}
				}
				return
			}
		}
		keys = append(keys, Key{e, factor, kind})
	}
	if !w.Stop {
		e, err := mt.src.Lookup(ctx, w.Term)
		if err != nil {
			return nil, err
		}
		add(e, 1, KeyTerm)
	}
	if exact {
		return keys, nil
	}
	if !w.Stop && w.Raw != w.Term {
		// The stemmer does not always give a word the stem its longer
		// forms have: "deploy" stems to deploi, "deployment" to deploy.
		// The word as written, when it is a term, is one of its forms.
		e, err := mt.src.Lookup(ctx, w.Raw)
		if err != nil {
			return nil, err
		}
		add(e, 1, KeyTerm)
	}
	hasExact := len(keys) > 0
	completing := w.Prefix || !hasExact
	ofTerm := 1.0
	if hasExact {
		ofTerm = m.CompletionOfTerm
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
			e, err := mt.src.Lookup(ctx, s)
			if err != nil {
				return nil, err
			}
			add(e, 1, KeyTerm)
		}
		for l := len(raw) - 1; l >= max(m.TypedTerm, len(raw)-m.TypedPast); l-- {
			e, err := mt.src.Lookup(ctx, string(raw[:l]))
			if err != nil {
				return nil, err
			}
			add(e, m.completionFactor(l, len(raw))*ofTerm, KeyCompletion)
		}
	}
	minLen := m.CompleteFrom
	if w.Prefix {
		minLen = 1
	}
	if completing && len(raw) >= minLen {
		prefixes := []string{w.Raw}
		if w.Term != w.Raw {
			prefixes = append(prefixes, w.Term)
		}
		for _, p := range prefixes {
			es, err := mt.src.Completions(ctx, p, m.Completions)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				if e.Term == w.Term {
					add(e, 1, KeyTerm)
					continue
				}
				add(e, m.completionFactor(utf8.RuneCountInString(p), utf8.RuneCountInString(e.Term))*ofTerm, KeyCompletion)
			}
		}
	}
	if w.Stop && len(keys) == 0 {
		return keys, nil
	}
	var exactEntry *TermEntry
	for _, k := range keys {
		if k.Entry.Term == w.Term {
			exactEntry = k.Entry
		}
	}
	if len(keys) == 0 || (exactEntry != nil && exactEntry.DF <= m.FuzzyRare && len(keys) == 1) {
		if n := utf8.RuneCountInString(w.Term); n >= m.FuzzyFrom[0] {
			dist := 1
			if n >= m.FuzzyFrom[1] {
				dist = 2
			}
			ns, err := mt.src.Neighbours(ctx, w.Term, dist, m.Neighbours)
			if err != nil {
				return nil, err
			}
			for _, e := range ns {
				if exactEntry == nil || e.DF > m.FuzzyCommoner*exactEntry.DF {
					add(e.TermEntry, m.Fuzzy[e.Distance-1], KeyNeighbour)
				}
			}
		}
	}
	if exactEntry != nil {
		rs, err := mt.src.Related(ctx, exactEntry)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			add(r.TermEntry, m.Related*r.Similarity, KeyRelated)
		}
	}
	return keys, nil
}

// WordMatch is how a document matched one of a ranking's words: the key
// that gave it its best score for the word (Rank's choice: the first of
// the highest), that key's weight level in it, and whether a key other
// than a related term matched it (which counts the word as matched).
type WordMatch struct {
	Key   Key
	Level uint8
	Found bool
	Own   bool
}

// Matches returns how document d matched each of r.Words, as Rank
// scored it: what --explain shows and a hit's highlights mark.
func (r *Ranking) Matches(ctx context.Context, src TermSource, d int32) ([]WordMatch, error) {
	m := src.Model()
	out := make([]WordMatch, len(r.Words))
	for i := range r.Words {
		best := 0.0
		for _, k := range r.Keys[i] {
			ps, err := k.Entry.Postings(ctx, m.HeadOf(k.Kind, r.Full))
			if err != nil {
				return nil, err
			}
			j, found := slices.BinarySearchFunc(ps, d, func(p Posting, d int32) int { return cmp.Compare(p.Doc, d) })
			if !found {
				continue
			}
			out[i].Own = out[i].Own || k.Kind != KeyRelated
			if s := k.Entry.IDF * k.Factor * src.Weight(ps[j].Level); !out[i].Found || s > best {
				out[i].Key, out[i].Level, out[i].Found, best = k, ps[j].Level, true, s
			}
		}
	}
	return out, nil
}

// CountedTerms returns the terms document d counted for the query's
// content words (Matches), without repeats. A hit's highlights mark
// these, not every term the query matched somewhere: a related term that
// counted for one hit is no match in another. Conversational words are
// left out; they count too little to be worth marking.
func (r *Ranking) CountedTerms(ctx context.Context, src TermSource, d int32) ([]string, error) {
	ms, err := r.Matches(ctx, src, d)
	if err != nil {
		return nil, err
	}
	var terms []string
	for i, w := range r.Words {
		if t := ms[i].Key.Entry; !w.Conversational && ms[i].Found && !slices.Contains(terms, t.Term) {
			terms = append(terms, t.Term)
		}
	}
	return terms, nil
}

// HeadOf is how many postings of a key of kind k count (0: all).
func (m *Model) HeadOf(k KeyKind, full bool) int {
	switch k {
	case KeyCompletion, KeyNeighbour:
		return m.CompletionHead
	case KeyRelated:
		return m.RelatedHead
	}
	if full {
		return 0
	}
	return m.Head
}

// docSet is a set of document numbers.
type docSet map[int32]bool

// docsOf returns the documents of keys, as they count for their kind.
// Only the keys of kinds accepted count.
func (mt *matcher) docsOf(keys []Key, full bool, accept func(KeyKind) bool) (docSet, error) {
	out := docSet{}
	for _, k := range keys {
		if !accept(k.Kind) {
			continue
		}
		ps, err := k.Entry.Postings(mt.ctx, mt.m.HeadOf(k.Kind, full))
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			out[p.Doc] = true
		}
	}
	return out, nil
}

// Rank ranks the documents of src for q.
func Rank(ctx context.Context, src TermSource, q Query, opt RankOptions) (*Ranking, error) {
	m := src.Model()
	mt := &matcher{ctx: ctx, src: src, m: m}
	full := opt.Full || opt.Allowed != nil
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
	if opt.Allowed != nil {
		restrict(maps.Clone(opt.Allowed))
	}
	excluded := docSet{}
	var emptyFilters []Clause
	for _, c := range q.Clauses {
		if c.Facet == "" {
			continue
		}
		docs, err := src.FacetDocs(ctx, c.Facet, c.Value)
		if err != nil {
			return nil, err
		}
		if len(docs) == 0 && !c.Excluded {
			emptyFilters = append(emptyFilters, c)
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
	r := &Ranking{Full: full, EmptyFilters: emptyFilters}
	for _, c := range q.Clauses {
		if c.Facet != "" {
			continue
		}
		if c.Excluded {
			// Every word of the clause present: excluded.
			var all docSet
			for _, w := range c.Words {
				keys, err := mt.matches(w, true)
				if err != nil {
					return nil, err
				}
				s, err := mt.docsOf(keys, true, func(KeyKind) bool { return true })
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
			keys, err := mt.matches(w, c.Phrase)
			if err != nil {
				return nil, err
			}
			if c.Required || c.Phrase {
				s, err := mt.docsOf(keys, full, func(k KeyKind) bool { return k != KeyRelated })
				if err != nil {
					return nil, err
				}
				restrict(s)
			}
			r.Words = append(r.Words, w)
			r.Keys = append(r.Keys, keys)
		}
	}
	ok := func(d int32) bool { return !excluded[d] && (allowed == nil || allowed[d]) }

	type acc struct {
		sum   float64
		words int
	}
	scores := map[int32]*acc{}
	counted := 0
	for i, w := range r.Words {
		keys := r.Keys[i]
		if w.Stop && len(keys) == 0 {
			continue
		}
		conv := 1.0
		if w.Conversational {
			conv = m.Conversational
		} else {
			counted++
		}
		best := map[int32]float64{}
		own := map[int32]bool{} // matched by a key other than a related term
		var order []int32       // best's documents, as first met
		for _, k := range keys {
			n := m.HeadOf(k.Kind, full)
			ps, err := k.Entry.Postings(ctx, n)
			if err != nil {
				return nil, err
			}
			if k.Kind == KeyTerm && n > 0 && k.Entry.DF > n {
				r.Approximate = true
			}
			wt := k.Entry.IDF * (k.Factor * conv)
			for _, p := range ps {
				if !ok(p.Doc) {
					continue
				}
				s := wt * src.Weight(p.Level)
				had, seen := best[p.Doc]
				if !seen {
					order = append(order, p.Doc)
				}
				if !seen || had < s {
					best[p.Doc] = s
				}
				if k.Kind != KeyRelated {
					own[p.Doc] = true
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
	if len(r.Words) == 0 && allowed == nil && slices.ContainsFunc(q.Clauses, func(c Clause) bool { return c.Excluded }) {
		// Exclusions alone ("-tag:audit"): every other document.
		docs, err := src.Docs(ctx)
		if err != nil {
			return nil, err
		}
		allowed = docSet{}
		for _, d := range docs {
			allowed[d] = true
		}
	}
	if len(r.Words) == 0 {
		r.Hits = []ScoredDoc{}
		for d := range allowed {
			if ok(d) {
				r.Hits = append(r.Hits, ScoredDoc{Doc: d})
			}
		}
		if len(r.Hits) > 1 {
			order, err := src.ByName(ctx)
			if err != nil {
				return nil, err
			}
			slices.SortFunc(r.Hits, func(a, b ScoredDoc) int { return order(a.Doc, b.Doc) })
		}
		return r, nil
	}
	n := float64(max(counted, 1))
	for d, a := range scores {
		r.Hits = append(r.Hits, ScoredDoc{d, a.sum * float64(a.words) / n})
	}
	slices.SortFunc(r.Hits, func(a, b ScoredDoc) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Doc, b.Doc))
	})
	if r.Hits == nil {
		r.Hits = []ScoredDoc{}
	}
	return r, nil
}
