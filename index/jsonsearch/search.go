package jsonsearch

import (
	"context"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/index"
)

// This file makes the JSON index an index.TermSource, so that
// index.Rank, the ranking model's Go implementation (the one skilldex
// search ranks the bleve index with), ranks it: as static/search-core.js
// reads the files, file for file. TestRankingMatchesCore compares the two.

// Word is a word of a query, as index.Model.Parse reads it.
type Word = index.Word

// Model is the manifest's model.
func (ix *Index) Model() *index.Model { return &ix.manifest.Model }

// Weight is the weight of a level, with the manifest's qmax.
func (ix *Index) Weight(level uint8) float64 { return ix.weights[level] }

// Lookup finds term's entry in its shard.
func (ix *Index) Lookup(ctx context.Context, term string) (*index.TermEntry, error) {
	e, err := ix.lookup(ctx, term)
	if e == nil || err != nil {
		return nil, err
	}
	return ix.termEntry(e), nil
}

// termEntry is e as ranking reads it: its postings are its list (the
// head of a shard's entry, the first of a completions file's or of a
// related term's), and with the tail file when all are asked for.
func (ix *Index) termEntry(e *entry) *index.TermEntry {
	return &index.TermEntry{Term: e.key, DF: e.df, IDF: e.idf, Postings: func(ctx context.Context, n int) ([]index.Posting, error) {
		ps := e.list.postings()
		if n > 0 {
			return top(ps, n), nil
		}
		t, err := ix.tail(ctx, e)
		if err != nil || t == nil {
			return ps, err
		}
		all := append(ps, t.postings()...)
		slices.SortFunc(all, func(a, b index.Posting) int { return int(a.Doc - b.Doc) })
		return all, nil
	}}
}

// postings returns a decoded list as index.Postings.
func (p postings) postings() []index.Posting {
	out := make([]index.Posting, len(p.docs))
	for i := range p.docs {
		out[i] = index.Posting{Doc: p.docs[i], Level: p.qs[i]}
	}
	return out
}

// top keeps the n highest levels of ps (ties: the first documents), in
// document order, as search-core.js's top does.
func top(ps []index.Posting, n int) []index.Posting {
	if len(ps) <= n {
		return ps
	}
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if ps[a].Level != ps[b].Level {
			return int(ps[b].Level) - int(ps[a].Level)
		}
		return int(ps[a].Doc - ps[b].Doc)
	})
	keep := idx[:n]
	slices.Sort(keep)
	out := make([]index.Posting, n)
	for i, j := range keep {
		out[i] = ps[j]
	}
	return out
}

// Completions returns the n entries whose keys start with p in the most
// documents: from the prefix's completions file when its terms span more
// than the manifest's span of shards, else from the shards.
func (ix *Index) Completions(ctx context.Context, p string, n int) ([]*index.TermEntry, error) {
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
	out := make([]*index.TermEntry, 0, min(n, len(found)))
	for _, e := range found[:min(len(found), n)] {
		out = append(out, ix.termEntry(e))
	}
	return out, nil
}

// Neighbours returns the n keys of term's shard within maxDist edits,
// nearest first, then in the most documents.
func (ix *Index) Neighbours(ctx context.Context, term string, maxDist, n int) ([]index.Neighbour, error) {
	s := ix.shardOf(term)
	entries, err := ix.shard(ctx, s)
	if err != nil {
		return nil, err
	}
	type cand struct {
		e    *entry
		dist int
	}
	var cs []cand
	key := []rune(term)
	for i := range entries {
		if entries[i].key == term {
			continue
		}
		if d := index.EditDistance(key, []rune(entries[i].key), maxDist); d <= maxDist {
			cs = append(cs, cand{entries[i].entry(s, i), d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return b.e.df - a.e.df
	})
	out := make([]index.Neighbour, 0, min(n, len(cs)))
	for _, c := range cs[:min(len(cs), n)] {
		out = append(out, index.Neighbour{TermEntry: ix.termEntry(c.e), Distance: c.dist})
	}
	return out, nil
}

// Related returns the related terms the entry of e holds.
func (ix *Index) Related(ctx context.Context, e *index.TermEntry) ([]index.RelatedEntry, error) {
	raw, err := ix.lookup(ctx, e.Term)
	if raw == nil || err != nil {
		return nil, err
	}
	var out []index.RelatedEntry
	for _, r := range raw.related {
		out = append(out, index.RelatedEntry{TermEntry: ix.termEntry(r.entry), Similarity: r.similarity})
	}
	return out, nil
}

// FacetDocs returns the documents having a facet value, compared
// case-insensitively.
func (ix *Index) FacetDocs(ctx context.Context, facet, value string) ([]int32, error) {
	values, err := ix.FacetValues(ctx, facet)
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		if strings.EqualFold(v.Name, value) {
			return ix.facetDocs(ctx, facet, v.Number)
		}
	}
	return nil, nil
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
	// Full loads every posting, not only the heads (implied by filters,
	// by sorting by name and by the query's required and excluded words,
	// phrases and filters): the total is then exact.
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
	// Mistyped are the words written as filters of no filter's name
	// (index.Query.Mistyped), searched as words.
	Mistyped []index.MistypedFilter
	// EmptyFilters are the query's filters whose value no document has
	// (index.Ranking.EmptyFilters).
	EmptyFilters []index.Clause
}

// Search ranks the documents matching query (in the query syntax of
// index.ParseQuery) with index.Rank.
func (ix *Index) Search(ctx context.Context, query string, opt Options) (*Result, error) {
	m, err := ix.Init(ctx)
	if err != nil {
		return nil, err
	}
	var allowed map[int32]bool
	for _, f := range opt.Filters {
		if len(f.Values) == 0 {
			continue
		}
		set := map[int32]bool{}
		for _, v := range f.Values {
			docs, err := ix.facetDocs(ctx, f.ID, v)
			if err != nil {
				return nil, err
			}
			for _, d := range docs {
				if allowed == nil || allowed[d] {
					set[d] = true
				}
			}
		}
		allowed = set
	}
	q := m.Model.Parse(query)
	r, err := index.Rank(ctx, ix, q, index.RankOptions{Full: opt.Full || opt.ByName, Allowed: allowed})
	if err != nil {
		return nil, err
	}
	res := &Result{Hits: make([]Hit, len(r.Hits)), Total: len(r.Hits), Approximate: r.Approximate, Words: r.Words, Mistyped: q.Mistyped, EmptyFilters: r.EmptyFilters}
	for i, h := range r.Hits {
		res.Hits[i] = Hit{Doc: int(h.Doc), Score: h.Score}
	}
	if opt.ByName && len(r.Words) > 0 && len(res.Hits) > 1 { // without words, Rank lists them by name
		order, err := ix.ByName(ctx)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(res.Hits, func(a, b Hit) int { return order(int32(a.Doc), int32(b.Doc)) })
	}
	for _, keys := range r.Keys {
		for _, k := range keys {
			if !slices.Contains(res.Terms, k.Entry.Term) {
				res.Terms = append(res.Terms, k.Entry.Term)
			}
		}
	}
	return res, nil
}
