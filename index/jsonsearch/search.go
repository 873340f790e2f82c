package jsonsearch

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/skilldex/skilldex/index"
)

// This file is the ranking model, in step with static/search-core.js:
// parseQuery, Index.matches (which keys a word matches, and how much each
// counts) and Index.Search (how the matches make a score). A change to
// one is a change to both; TestRankingMatchesCore compares them.

// Word is a word of a query.
type Word struct {
	Raw    string // folded, as typed
	Stem   string
	Prefix bool // the word being typed: matched as a prefix too
	Stop   bool
}

// parseQuery splits a query into the words to match. The last word is a
// prefix (the user is still typing it) unless the query ends with a space
// or punctuation. Stop words are dropped, except as a prefix.
func parseQuery(q string) []Word {
	folded := index.Fold(q)
	all := index.Words(folded)
	last, _ := utf8.DecodeLastRuneInString(folded)
	typing := len(all) > 0 && (unicode.IsLetter(last) || unicode.IsDigit(last))
	var out []Word
	for i, w := range all {
		if utf8.RuneCountInString(w) > index.MaxTokenLen {
			continue
		}
		prefix := typing && i == len(all)-1
		stop := index.IsStopWord(w)
		if stop && !prefix {
			continue
		}
		out = append(out, Word{Raw: w, Stem: index.Stem(w), Prefix: prefix, Stop: stop})
	}
	return out
}

// editDistance is the optimal string alignment distance between a and b
// in UTF-16 code units, as JavaScript indexes strings, or max+1 past max.
func editDistance(as, bs string, max int) int {
	a, b := utf16.Encode([]rune(as)), utf16.Encode([]rune(bs))
	if abs(len(a)-len(b)) > max {
		return max + 1
	}
	var prev2 []int
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, 1, len(b)+1)
		cur[0] = i
		best := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if prev2 != nil && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur = append(cur, v)
			if v < best {
				best = v
			}
		}
		if best > max {
			return max + 1
		}
		prev2, prev = prev, cur
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Word endings whose partial typing should still find the stem: while
// "reviewi" is typed, "reviewing" (stem "review") is meant.
var suffixes = []string{"s", "es", "ed", "ing"}

// Score factors of the ways a key can match a word.
const (
	exact          = 1.0
	maxCompletions = 24
	maxFuzzy       = 3
)

// fuzzy is the factor of a spelling neighbour, by edit distance.
var fuzzy = [3]float64{0, 0.6, 0.4}

// completions returns entries whose keys start with p, most documents
// first.
func (ix *Index) completions(ctx context.Context, p string) ([]*entry, error) {
	first, last := ix.prefixRange(p)
	var found []*entry
	if last-first+1 > ix.manifest.Span {
		var list []rawEntry
		if _, err := ix.decode(ctx, "p/"+index.PrefixFile(p), &list); err != nil {
			return nil, err
		}
		for i := range list {
			found = append(found, list[i].entry(-1, -1))
		}
	} else {
		for s := first; s <= last; s++ {
			entries, err := ix.shard(ctx, s)
			if err != nil {
				return nil, err
			}
			for i := range entries {
				if strings.HasPrefix(entries[i].key, p) {
					found = append(found, entries[i].entry(s, i))
				}
			}
		}
	}
	slices.SortStableFunc(found, func(a, b *entry) int {
		if a.df != b.df {
			return b.df - a.df
		}
		if index.CompareUTF16(a.key, b.key) < 0 {
			return -1
		}
		return 1
	})
	return found[:min(len(found), maxCompletions)], nil
}

// neighbour is a key within edit distance of a word.
type neighbour struct {
	*entry
	distance int
}

// neighbours returns keys of key's shard within edit distance, most
// documents first.
func (ix *Index) neighbours(ctx context.Context, key string) ([]neighbour, error) {
	n := utf8.RuneCountInString(key)
	if n < 4 {
		return nil, nil
	}
	maxDist := 1
	if n >= 8 {
		maxDist = 2
	}
	s := ix.shardOf(key)
	entries, err := ix.shard(ctx, s)
	if err != nil {
		return nil, err
	}
	var out []neighbour
	for i := range entries {
		if entries[i].key == key {
			continue
		}
		if d := editDistance(key, entries[i].key, maxDist); d <= maxDist {
			out = append(out, neighbour{entries[i].entry(s, i), d})
		}
	}
	slices.SortStableFunc(out, func(a, b neighbour) int {
		if a.distance != b.distance {
			return a.distance - b.distance
		}
		return b.df - a.df
	})
	return out[:min(len(out), maxFuzzy)], nil
}

// match is a key a word matches, with its factor.
type match struct {
	entry  *entry
	factor float64
}

// keySet is the keys a word matches, in the order they were first found
// (a JavaScript Map's order), each keeping its best factor.
type keySet struct {
	order []string
	byKey map[string]*match
}

func (k *keySet) add(e *entry, factor float64) {
	if e == nil {
		return
	}
	had := k.byKey[e.key]
	if had == nil {
		k.order = append(k.order, e.key)
		k.byKey[e.key] = &match{e, factor}
		return
	}
	if had.factor < factor {
		*had = match{e, factor}
	}
}

// orderedSet is a JavaScript Set of strings: insertion order, no repeats.
func orderedSet(items ...string) []string {
	var out []string
	for _, s := range items {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// matches returns the keys a query word matches, each with its factor.
func (ix *Index) matches(ctx context.Context, w Word) (*keySet, error) {
	keys := &keySet{byKey: map[string]*match{}}
	if !w.Stop {
		e, err := ix.lookup(ctx, w.Stem)
		if err != nil {
			return nil, err
		}
		keys.add(e, exact)
	}
	// A word that is not a term of the index may be the start of one
	// ("postgres" of postgresql), as the word being typed always may.
	completing := w.Prefix || len(keys.order) == 0
	if w.Prefix {
		var stems []string
		for _, sfx := range suffixes {
			for k := 1; k < len(sfx); k++ {
				if strings.HasSuffix(w.Raw, sfx[:k]) {
					stems = orderedSet(append(stems, index.Stem(w.Raw+sfx[k:]))...)
				}
			}
		}
		for _, s := range stems {
			if s == w.Stem {
				continue
			}
			e, err := ix.lookup(ctx, s)
			if err != nil {
				return nil, err
			}
			keys.add(e, exact)
		}
	}
	least := 3
	if w.Prefix {
		least = 1
	}
	if completing && utf8.RuneCountInString(w.Raw) >= least {
		for _, p := range orderedSet(w.Raw, w.Stem) {
			found, err := ix.completions(ctx, p)
			if err != nil {
				return nil, err
			}
			for _, e := range found {
				factor := exact
				if e.key != w.Stem {
					ratio := float64(utf8.RuneCountInString(p)) / float64(utf8.RuneCountInString(e.key))
					// The conversion keeps the product rounded as
					// JavaScript rounds it (no fused multiply-add).
					factor = 0.5 + float64(0.45*math.Min(ratio, 1))
				}
				keys.add(e, factor)
			}
		}
	}
	if w.Stop && len(keys.order) == 0 {
		return keys, nil
	}
	ex := keys.byKey[w.Stem]
	if len(keys.order) == 0 || (ex != nil && ex.entry.df <= 2 && len(keys.order) == 1) {
		found, err := ix.neighbours(ctx, w.Stem)
		if err != nil {
			return nil, err
		}
		for _, e := range found {
			if ex == nil || e.df > 4*ex.entry.df {
				keys.add(e.entry, fuzzy[e.distance])
			}
		}
	}
	return keys, nil
}

// Filter keeps the documents having one of Values (value numbers, as
// FacetValues gives them) of the facet ID.
type Filter struct {
	ID     string
	Values []int
}

// Options change how Search ranks.
type Options struct {
	// Filters: a document must have one of the values of every filter.
	Filters []Filter
	// ByName sorts the hits by name instead of relevance.
	ByName bool
	// Full loads every posting, not only the heads (implied by filters
	// and by sorting by name): the total is then exact.
	Full bool
}

// Hit is a matching document and its score.
type Hit struct {
	Doc   int
	Score float64
}

// Result is a ranked list of hits.
type Result struct {
	Hits  []Hit
	Total int
	// Approximate reports that postings past the heads were not loaded,
	// so that Total may be short: the first hits are right all the same.
	Approximate bool
	// Terms are the index keys the query matched.
	Terms []string
	Words []Word
}

// Search ranks the documents matching query.
func (ix *Index) Search(ctx context.Context, query string, opt Options) (*Result, error) {
	if _, err := ix.Init(ctx); err != nil {
		return nil, err
	}
	ws := parseQuery(query)
	var filters []Filter
	for _, f := range opt.Filters {
		if len(f.Values) > 0 {
			filters = append(filters, f)
		}
	}
	full := opt.Full || len(filters) > 0 || opt.ByName

	var allowed map[int32]bool
	var allowedOrder []int32 // a JavaScript Set's order
	for _, f := range filters {
		set := map[int32]bool{}
		var order []int32
		for _, v := range f.Values {
			docs, err := ix.facetDocs(ctx, f.ID, v)
			if err != nil {
				return nil, err
			}
			for _, d := range docs {
				if !set[d] {
					set[d] = true
					order = append(order, d)
				}
			}
		}
		if allowed != nil {
			var kept []int32
			for _, d := range allowedOrder {
				if set[d] {
					kept = append(kept, d)
				}
			}
			order = kept
			set = map[int32]bool{}
			for _, d := range kept {
				set[d] = true
			}
		}
		allowed, allowedOrder = set, order
	}

	type score struct {
		sum   float64
		words int
	}
	scores := map[int32]*score{}
	res := &Result{Words: ws}
	perWord := make([]*keySet, len(ws))
	for i, w := range ws {
		var err error
		if perWord[i], err = ix.matches(ctx, w); err != nil {
			return nil, err
		}
	}
	weights := &ix.weights
	counted := 0
	for wi, keys := range perWord {
		if ws[wi].Stop && len(keys.order) == 0 {
			continue
		}
		counted++
		best := map[int32]float64{}
		for _, k := range keys.order {
			m := keys.byKey[k]
			e := m.entry
			res.Terms = append(res.Terms, e.key)
			lists := []postings{e.list}
			if e.df > len(e.list.docs) {
				var t *postings
				if full {
					var err error
					if t, err = ix.tail(ctx, e); err != nil {
						return nil, err
					}
				}
				if t != nil {
					lists = append(lists, *t)
				} else {
					res.Approximate = true
				}
			}
			w := e.idf * m.factor
			for _, l := range lists {
				for i, d := range l.docs {
					if allowed != nil && !allowed[d] {
						continue
					}
					s := w * weights[l.qs[i]]
					if had, ok := best[d]; !ok || had < s {
						best[d] = s
					}
				}
			}
		}
		for d, s := range best {
			if cur := scores[d]; cur != nil {
				cur.sum += s
				cur.words++
			} else {
				scores[d] = &score{s, 1}
			}
		}
	}

	if len(ws) == 0 && allowed != nil {
		for _, d := range allowedOrder {
			res.Hits = append(res.Hits, Hit{Doc: int(d)})
		}
	} else {
		n := float64(max(counted, 1))
		for d, s := range scores {
			res.Hits = append(res.Hits, Hit{Doc: int(d), Score: s.sum * float64(s.words) / n})
		}
	}
	if opt.ByName {
		slices.SortFunc(res.Hits, func(a, b Hit) int { return a.Doc - b.Doc })
	} else {
		slices.SortFunc(res.Hits, func(a, b Hit) int {
			switch {
			case a.Score > b.Score:
				return -1
			case a.Score < b.Score:
				return 1
			}
			return a.Doc - b.Doc
		})
	}
	res.Total = len(res.Hits)
	res.Terms = orderedSet(res.Terms...)
	if res.Hits == nil {
		res.Hits = []Hit{}
	}
	return res, nil
}
