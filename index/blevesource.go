package index

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	bindex "github.com/blevesearch/bleve_index_api"
)

// bleveSource is the bleve index as ranking reads it (a TermSource): the
// terms of _all, their documents and weights (allFrequencies), the facet
// fields. Its document numbers are the JSON index's (docnum.go), which
// the index keeps (docsKey) in the order of bleve's internal numbers,
// the order of the names: skilldex writes the segments in name order,
// each with its documents in name order, and scorch numbers a snapshot's
// documents segment after segment.
type bleveSource struct {
	r       bindex.IndexReader
	n       int
	shared  *bleveShared
	entries map[string]*TermEntry
	names   map[int32]string
}

// bleveShared is what the searches of an open index read alike: the
// related terms and the dictionary's blocks, read when the index is
// opened, and the facets' values with their documents, read when first
// needed.
type bleveShared struct {
	related map[string][]relatedTerm
	blocks  []string
	// docs is the JSON index's number of each document by its internal
	// number, so in name order; internal the internal number of each
	// JSON index number, -1 for an unused one.
	docs, internal []int32

	mu     sync.Mutex
	facets map[string][]facetValueDocs
}

type dictTerm struct {
	term string
	df   int
}

type facetValueDocs struct {
	value string
	docs  []int32
}

// setDocs reads the JSON index's numbers of the documents in name order
// (docsKey's value) of an index of n documents.
func (sh *bleveShared) setDocs(value []byte, n int) error {
	if len(value) == 0 && n > 0 {
		return errors.New("it has no document numbers: an earlier skilldex built it")
	}
	docs := make([]int32, 0, n)
	size := 0
	for len(value) > 0 {
		d, w := binary.Uvarint(value)
		// Numbers are below the space of at most 4n (docnum.go) and
		// its overflow of at most n.
		if w <= 0 || d >= 5*uint64(n)+2 {
			return errors.New("its document numbers are damaged")
		}
		docs = append(docs, int32(d))
		size = max(size, int(d)+1)
		value = value[w:]
	}
	if len(docs) != n {
		return fmt.Errorf("it numbers %d documents of %d", len(docs), n)
	}
	internal := make([]int32, size)
	for d := range internal {
		internal[d] = -1
	}
	for i, d := range docs {
		if internal[d] >= 0 {
			return fmt.Errorf("two documents have number %d", d)
		}
		internal[d] = int32(i)
	}
	sh.docs, sh.internal = docs, internal
	return nil
}

// doc is the JSON index's number of the document of internal number id.
func (sh *bleveShared) doc(id bindex.IndexInternalID) (int32, error) {
	i := id.Value()
	if i >= uint64(len(sh.docs)) {
		return 0, fmt.Errorf("bleve index: document %d is not numbered: rebuild the site", i)
	}
	return sh.docs[i], nil
}

// internalID is the internal number of the document the JSON index
// numbers d.
func (sh *bleveShared) internalID(d int32) (bindex.IndexInternalID, error) {
	if d < 0 || int(d) >= len(sh.internal) || sh.internal[d] < 0 {
		return nil, fmt.Errorf("bleve index: no document has number %d", d)
	}
	return bindex.NewIndexInternalID(nil, uint64(sh.internal[d])), nil
}

// facet returns the values of a facet with their documents, reading them
// with r the first time.
func (sh *bleveShared) facet(r bindex.IndexReader, id string) ([]facetValueDocs, error) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if vs, ok := sh.facets[id]; ok {
		return vs, nil
	}
	vs, err := sh.readFacet(r, id)
	if err != nil {
		return nil, err
	}
	if sh.facets == nil {
		sh.facets = map[string][]facetValueDocs{}
	}
	sh.facets[id] = vs
	return vs, nil
}

// source opens a reader of the index; close it after use.
func (b *Bleve) source() (*bleveSource, error) {
	ix, err := b.idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := ix.Reader()
	if err != nil {
		return nil, err
	}
	n, err := r.DocCount()
	if err != nil {
		r.Close()
		return nil, err
	}
	return &bleveSource{r: r, n: int(n), shared: b.shared, entries: map[string]*TermEntry{}, names: map[int32]string{}}, nil
}

func (s *bleveSource) close() error { return s.r.Close() }

func (s *bleveSource) Model() *Model { return &model }

func (s *bleveSource) Weight(level uint8) float64 { return dequantize(level) }

// name returns the name of document d.
func (s *bleveSource) name(d int32) (string, error) {
	if n, ok := s.names[d]; ok {
		return n, nil
	}
	id, err := s.shared.internalID(d)
	if err != nil {
		return "", err
	}
	n, err := s.r.ExternalID(id)
	if err != nil {
		return "", err
	}
	s.names[d] = n
	return n, nil
}

func (s *bleveSource) Lookup(ctx context.Context, term string) (*TermEntry, error) {
	if e, ok := s.entries[term]; ok {
		return e, nil
	}
	tfr, err := s.r.TermFieldReader(ctx, []byte(term), allField, true, false, false)
	if err != nil {
		return nil, err
	}
	df := int(tfr.Count())
	tfr.Close()
	var e *TermEntry
	if df > 0 {
		e = s.entry(term, df)
	}
	s.entries[term] = e
	return e, nil
}

// entry makes the entry of a term of df documents; its postings are read
// when first asked for.
func (s *bleveSource) entry(term string, df int) *TermEntry {
	if e, ok := s.entries[term]; ok && e != nil {
		return e
	}
	var all []Posting
	heads := map[int][]Posting{}
	e := &TermEntry{Term: term, DF: df, IDF: EntryIDF(s.n, df)}
	e.Postings = func(ctx context.Context, n int) ([]Posting, error) {
		if all == nil {
			ps, err := s.postings(ctx, term)
			if err != nil {
				return nil, err
			}
			all = ps
		}
		if n <= 0 || n >= len(all) {
			return all, nil
		}
		if h, ok := heads[n]; ok {
			return h, nil
		}
		h, _ := split(all, n)
		heads[n] = h
		return h, nil
	}
	s.entries[term] = e
	return e
}

// postings reads the documents of term in _all with their weight levels.
func (s *bleveSource) postings(ctx context.Context, term string) ([]Posting, error) {
	var out []Posting
	tfr, err := s.r.TermFieldReader(ctx, []byte(term), allField, true, false, false)
	err = eachDoc(tfr, err, func(d *bindex.TermFieldDoc) error {
		q, ok := levelOfFrequency(d.Freq)
		if !ok {
			return fmt.Errorf("bleve index: term %q has frequency %d in %s, which no weight gives: not an index of this skilldex (rebuild the site)", term, d.Freq, allField)
		}
		doc, err := s.shared.doc(d.ID)
		out = append(out, Posting{Doc: doc, Level: q})
		return err
	})
	slices.SortFunc(out, func(a, b Posting) int { return cmp.Compare(a.Doc, b.Doc) })
	return out, err
}

// ByName compares documents by name: by their internal numbers, which
// follow the names (unnumbered documents last, as NameOrder puts them).
func (s *bleveSource) ByName(context.Context) (func(a, b int32) int, error) {
	internal := s.shared.internal
	at := func(d int32) int {
		if d >= 0 && int(d) < len(internal) && internal[d] >= 0 {
			return int(internal[d])
		}
		return math.MaxInt
	}
	return func(a, b int32) int { return cmp.Or(cmp.Compare(at(a), at(b)), cmp.Compare(a, b)) }, nil
}

// Docs returns every document, in name order.
func (s *bleveSource) Docs(context.Context) ([]int32, error) {
	return s.shared.docs, nil
}

// eachEntry calls fn with each entry of a field dictionary (fd and err
// as the reader's FieldDict methods return them), then closes it.
func eachEntry(fd bindex.FieldDict, err error, fn func(*bindex.DictEntry)) error {
	if err != nil {
		return err
	}
	defer fd.Close()
	for {
		de, err := fd.Next()
		if err != nil || de == nil {
			return err
		}
		fn(de)
	}
}

// eachDoc calls fn with each document of a term field reader (tfr and
// err as the reader's TermFieldReader returns them), then closes it.
func eachDoc(tfr bindex.TermFieldReader, err error, fn func(*bindex.TermFieldDoc) error) error {
	if err != nil {
		return err
	}
	defer tfr.Close()
	var tfd bindex.TermFieldDoc
	for {
		d, err := tfr.Next(tfd.Reset())
		if err != nil || d == nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
}

// Related looks the related terms of e up in the index.
func (s *bleveSource) Related(ctx context.Context, e *TermEntry) ([]RelatedEntry, error) {
	var out []RelatedEntry
	for _, r := range s.shared.related[e.Term] {
		re, err := s.Lookup(ctx, r.term)
		if err != nil {
			return nil, err
		}
		if re != nil {
			out = append(out, RelatedEntry{re, r.similarity})
		}
	}
	return out, nil
}

func (s *bleveSource) Completions(_ context.Context, p string, n int) ([]*TermEntry, error) {
	var cs []dictTerm
	fd, err := s.r.FieldDictPrefix(allField, []byte(p))
	err = eachEntry(fd, err, func(de *bindex.DictEntry) { cs = append(cs, dictTerm{term: de.Term, df: int(de.Count)}) })
	if err != nil {
		return nil, err
	}
	slices.SortFunc(cs, func(a, b dictTerm) int { return cmp.Or(cmp.Compare(b.df, a.df), compareUTF16(a.term, b.term)) })
	out := make([]*TermEntry, 0, min(n, len(cs)))
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, s.entry(c.term, c.df))
	}
	return out, nil
}

// neighbours seeks the neighbours of term among the terms of its block of
// the dictionary (the JSON index's term shard), as the browser does.
func (s *bleveSource) Neighbours(_ context.Context, term string, maxDist, n int) ([]Neighbour, error) {
	type cand struct {
		dictTerm
		dist int
	}
	blocks := s.shared.blocks
	k := shardOf(blocks, term)
	var end []byte
	if k+1 < len(blocks) {
		end = []byte(blocks[k+1])
	}
	var cs []cand
	key := []rune(term)
	fd, err := s.r.FieldDictRange(allField, []byte(blocks[k]), end)
	err = eachEntry(fd, err, func(de *bindex.DictEntry) {
		if de.Term == term || shardOf(blocks, de.Term) != k {
			return
		}
		if d := EditDistance(key, []rune(de.Term), maxDist); d <= maxDist {
			cs = append(cs, cand{dictTerm{de.Term, int(de.Count)}, d})
		}
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(b.df, a.df), compareUTF16(a.term, b.term))
	})
	out := make([]Neighbour, 0, min(n, len(cs)))
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, Neighbour{s.entry(c.term, c.df), c.dist})
	}
	return out, nil
}

func (s *bleveSource) FacetDocs(_ context.Context, facet, value string) ([]int32, error) {
	vs, err := s.shared.facet(s.r, facet)
	if err != nil {
		return nil, err
	}
	var out []int32
	for _, v := range vs {
		if strings.EqualFold(v.value, value) {
			out = append(out, v.docs...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// readFacet reads every value of a facet with its documents, in order.
func (sh *bleveShared) readFacet(r bindex.IndexReader, facet string) ([]facetValueDocs, error) {
	field := facetField(facet)
	var values []string
	fd, err := r.FieldDict(field)
	if err := eachEntry(fd, err, func(de *bindex.DictEntry) { values = append(values, de.Term) }); err != nil {
		return nil, err
	}
	out := make([]facetValueDocs, 0, len(values))
	for _, v := range values {
		var docs []int32
		tfr, err := r.TermFieldReader(context.Background(), []byte(v), field, false, false, false)
		err = eachDoc(tfr, err, func(d *bindex.TermFieldDoc) error {
			doc, err := sh.doc(d.ID)
			docs = append(docs, doc)
			return err
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(docs)
		out = append(out, facetValueDocs{v, docs})
	}
	return out, nil
}

// facetLimit bounds the values of a facet counted in a result.
const facetLimit = 20

// facetCounts counts the hits by facet value: the facetLimit values of
// each facet with the most hits (ties: in value order).
func (s *bleveSource) facetCounts(hits []ScoredDoc) (map[string]map[string]int, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	in := make(map[int32]bool, len(hits))
	for _, h := range hits {
		in[h.Doc] = true
	}
	var out map[string]map[string]int
	for _, def := range facetDefs {
		type count struct {
			value string
			n     int
		}
		var counts []count
		vs, err := s.shared.facet(s.r, def.id)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			n := 0
			for _, d := range v.docs {
				if in[d] {
					n++
				}
			}
			if n > 0 {
				counts = append(counts, count{v.value, n})
			}
		}
		if len(counts) == 0 {
			continue
		}
		slices.SortStableFunc(counts, func(a, b count) int { return cmp.Compare(b.n, a.n) })
		m := map[string]int{}
		for _, c := range counts[:min(len(counts), facetLimit)] {
			m[c.value] = c.n
		}
		if out == nil {
			out = map[string]map[string]int{}
		}
		out[def.id] = m
	}
	return out, nil
}

// Explanation is how a hit's score was made: each scoring word of the
// query with the term that scored for it, summed, times the share of the
// query's words that matched.
type Explanation struct {
	Words []WordScore `json:"words"`
	// Sum is the sum of the words' scores; Matched of Counted words
	// matched (conversational words count in neither).
	Sum     float64 `json:"sum"`
	Matched int     `json:"matched"`
	Counted int     `json:"counted"`
}

// WordScore is a word's part in a score: idf × factor × weight, the best
// of its terms.
type WordScore struct {
	Word string `json:"word"`
	// Conversational is set on a conversational word, whose factor is
	// model.Conversational and which counts in neither Matched nor
	// Counted.
	Conversational bool `json:"conversational,omitempty"`
	// Term is the term that scored, matched as Match says: "term" (the
	// word's own), "completion", "neighbour" or "related"; "" when none of
	// the word's terms is in the skill.
	Term   string  `json:"term,omitempty"`
	Match  string  `json:"match,omitempty"`
	Factor float64 `json:"factor,omitempty"`
	IDF    float64 `json:"idf,omitempty"`
	// Weight is the term's weight in the skill (the index keeps it on a
	// scale of 255 levels); Fields splits it by field.
	Weight float64      `json:"weight,omitempty"`
	Score  float64      `json:"score"`
	Fields []FieldScore `json:"fields,omitempty"`
}

// FieldScore is a field's part in a term's weight: the field's weight ×
// BM25's saturation of Count occurrences in Length terms.
type FieldScore struct {
	Field  string  `json:"field"`
	Count  int     `json:"count"`
	Length int     `json:"length"`
	Weight float64 `json:"weight"`
}

// explain explains the score of hit h of ranking r.
func (s *bleveSource) explain(ctx context.Context, r *Ranking, h ScoredDoc) (*Explanation, error) {
	m := s.Model()
	matches, err := r.Matches(ctx, s, h.Doc)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{}
	for i, w := range r.Words {
		if w.Stop && len(r.Keys[i]) == 0 {
			continue
		}
		if !w.Conversational {
			ex.Counted++
		}
		ws := WordScore{Word: w.Raw, Conversational: w.Conversational}
		if mt := matches[i]; mt.Found {
			f := mt.Key.Factor
			if w.Conversational {
				f *= m.Conversational
			}
			e := mt.Key.Entry
			ws = WordScore{Word: w.Raw, Conversational: w.Conversational, Term: e.Term, Match: mt.Key.Kind.String(), Factor: f, IDF: e.IDF, Weight: s.Weight(mt.Level)}
			ws.Score = e.IDF * f * ws.Weight
			if !w.Conversational && mt.Own {
				ex.Matched++
			}
			ex.Sum += ws.Score
			fs, err := s.fieldScores(ctx, ws.Term, h.Doc)
			if err != nil {
				return nil, err
			}
			ws.Fields = fs
		}
		ex.Words = append(ex.Words, ws)
	}
	return ex, nil
}

// fieldScores splits the weight of term in document d by field, from the
// fields' own postings (which bleve's "en" analyzer made: the same terms
// as the model's but for words it keeps whole, "node.js").
func (s *bleveSource) fieldScores(ctx context.Context, term string, d int32) ([]FieldScore, error) {
	var out []FieldScore
	id, err := s.shared.internalID(d)
	if err != nil {
		return nil, err
	}
	for f, fl := range fields {
		tfr, err := s.r.TermFieldReader(ctx, []byte(term), fl.name, true, true, false)
		if err != nil {
			return nil, err
		}
		tfd, err := tfr.Advance(id, nil)
		tfr.Close()
		if err != nil {
			return nil, err
		}
		if tfd == nil || !tfd.ID.Equals(id) || tfd.Norm == 0 {
			continue
		}
		length := int(math.Round(1 / (tfd.Norm * tfd.Norm)))
		out = append(out, FieldScore{Field: fl.name, Count: int(tfd.Freq), Length: length, Weight: fieldWeight(f, float64(tfd.Freq), float64(length))})
	}
	return out, nil
}

// EditDistance is the optimal string alignment distance of a and b, or
// max+1 when it is more than max.
func EditDistance(a, b []rune, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev2 := []int(nil)
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
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
			cur[j] = v
			best = min(best, v)
		}
		if best > max {
			return max + 1
		}
		prev2, prev = prev, cur
	}
	return prev[len(b)]
}
