// Package jsonsearch ranks skills from the sharded JSON search index that
// skilldex build writes under search/ (index/jsonindex.go describes the
// files), fetching only the files a query needs, exactly as the browser's
// client does: it reads the files as static/search-core.js does and ranks
// with index.Rank, the ranking model's Go implementation, which
// search-core.js mirrors; TestRankingMatchesCore checks that both give
// the same ranking on the judged queries over the corpus.
//
// The ranking model lives in two places that must change together:
// static/search-core.js (the browser) and package index (model.go for its
// parameters, which the manifest carries, query.go, rank.go). This package
// only reads files.
package jsonsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/index"
)

// A Loader returns the bytes of a file of the index, by its path under
// search/ ("manifest.json", "t/0.json"); an error wrapping fs.ErrNotExist
// when there is no such file. id is the manifest's id ("" while reading
// the manifest), which a loader over HTTP may add to the URL so that
// caches never mix two builds, as the browser does.
type Loader func(ctx context.Context, path, id string) ([]byte, error)

// Manifest is search/manifest.json, the file a client reads first.
type Manifest = index.Manifest

// FacetValue is [value, count, number]: the number names the file of the
// documents having the value (f/<facet>/<number>.json).
type FacetValue struct {
	Name   string
	Count  int
	Number int
}

// facetValue reads a facet value's array form, as encoding/json decodes
// it into [3]any.
func facetValue(v [3]any) (FacetValue, error) {
	name, ok1 := v[0].(string)
	count, ok2 := v[1].(float64)
	num, ok3 := v[2].(float64)
	if !ok1 || !ok2 || !ok3 {
		return FacetValue{}, fmt.Errorf("a facet value is [name, count, number], not %v", v)
	}
	return FacetValue{Name: name, Count: int(count), Number: int(num)}, nil
}

// Index reads one site's JSON index through its loader. Every file is
// loaded at most once, as by the browser's Index: make a new Index to see
// a site that changed. An Index is safe for concurrent use.
type Index struct {
	load Loader

	mu       sync.Mutex
	files    map[string]*file
	manifest *Manifest
	weights  [256]float64
	byName   func(a, b int32) int // from order.json, once read
	docs     []int32              // order.json
	docsRead bool
}

// file is a loaded file, or the error loading it gave.
type file struct {
	once sync.Once
	data []byte // nil when missing
	err  error
}

// New returns an Index reading through load.
func New(load Loader) *Index {
	return &Index{load: load, files: map[string]*file{}}
}

// Init reads the manifest, once.
func (ix *Index) Init(ctx context.Context) (*Manifest, error) {
	ix.mu.Lock()
	m := ix.manifest
	ix.mu.Unlock()
	if m != nil {
		return m, nil
	}
	data, err := ix.load(ctx, "manifest.json", "")
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	m = new(Manifest)
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("search index: manifest.json: %v", err)
	}
	if m.Version != index.FormatVersion {
		return nil, fmt.Errorf("search index: manifest version %d, not %d: rebuild the site with this skilldex, or read it with the skilldex that built it", m.Version, index.FormatVersion)
	}
	if len(m.Shards) == 0 || m.Cards < 1 {
		return nil, errors.New("search index: manifest.json lists no shards or cards")
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.manifest == nil {
		for q := range ix.weights {
			ix.weights[q] = math.Expm1(float64(q) / 255 * m.QMax)
		}
		ix.manifest = m
	}
	return ix.manifest, nil
}

// file returns the bytes of path, nil when it is missing: a missing file
// reads as the browser's null. Other failures are errors (the browser
// would take them for null too, and rank without the file).
func (ix *Index) file(ctx context.Context, path string) ([]byte, error) {
	ix.mu.Lock()
	f := ix.files[path]
	if f == nil {
		f = &file{}
		ix.files[path] = f
	}
	id := ""
	if ix.manifest != nil {
		id = ix.manifest.ID
	}
	ix.mu.Unlock()
	f.once.Do(func() {
		f.data, f.err = ix.load(ctx, path, id)
		if errors.Is(f.err, fs.ErrNotExist) {
			f.data, f.err = nil, nil
		}
	})
	if f.err != nil {
		// A failure (a cancelled context, a network error) is not kept:
		// the next query tries again.
		ix.mu.Lock()
		if ix.files[path] == f {
			delete(ix.files, path)
		}
		ix.mu.Unlock()
		return nil, fmt.Errorf("search index: %s: %w", path, f.err)
	}
	return f.data, nil
}

// decode reads the JSON file path into v; a missing file leaves v as it
// is and reports false.
func (ix *Index) decode(ctx context.Context, path string, v any) (bool, error) {
	data, err := ix.file(ctx, path)
	if err != nil || data == nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("search index: %s: %v", path, err)
	}
	return true, nil
}

// entry is a term of a shard or of a completions file: [term, df, idf,
// head postings, related terms]. shard and pos locate it in its shard (-1
// for one of a completions file, or a related term, whose tail cannot be
// loaded).
type entry struct {
	key     string
	df      int
	idf     float64
	list    postings
	related []related
	shard   int
	pos     int
}

// related is a related term of an entry: [term, similarity, idf, its best
// postings].
type related struct {
	entry      *entry
	similarity float64
}

// postings are a decoded list: docs in order, with their impacts.
type postings struct {
	docs []int32
	qs   []uint8
}

// rawEntry is an entry as its file holds it.
type rawEntry struct {
	key     string
	df      int
	idf     float64
	pairs   []int64
	related []rawRelated
}

// rawRelated is a related term as an entry holds it.
type rawRelated struct {
	key        string
	similarity float64
	idf        float64
	pairs      []int64
}

func (e *rawEntry) UnmarshalJSON(b []byte) error {
	var a []json.RawMessage
	if err := json.Unmarshal(b, &a); err != nil || (len(a) != 4 && len(a) != 5) {
		return fmt.Errorf("a term entry is [term, df, idf, postings, related terms?], not %.60s", b)
	}
	for i, v := range []any{&e.key, &e.df, &e.idf, &e.pairs} {
		if err := json.Unmarshal(a[i], v); err != nil {
			return err
		}
	}
	if len(a) == 4 {
		return nil
	}
	var rs [][]json.RawMessage
	if err := json.Unmarshal(a[4], &rs); err != nil {
		return err
	}
	for _, r := range rs {
		var x rawRelated
		if len(r) != 4 {
			return fmt.Errorf("a related term is [term, similarity, idf, postings], not %d values", len(r))
		}
		for i, v := range []any{&x.key, &x.similarity, &x.idf, &x.pairs} {
			if err := json.Unmarshal(r[i], v); err != nil {
				return err
			}
		}
		e.related = append(e.related, x)
	}
	return nil
}

func (e *rawEntry) entry(shard, pos int) *entry {
	out := &entry{key: e.key, df: e.df, idf: e.idf, list: decodePostings(e.pairs), shard: shard, pos: pos}
	for _, r := range e.related {
		re := &entry{key: r.key, idf: r.idf, list: decodePostings(r.pairs), shard: -1, pos: -1}
		re.df = len(re.list.docs)
		out.related = append(out.related, related{re, r.similarity})
	}
	return out
}

// decodePostings turns [Δdoc, q, ...] into docs and impacts.
func decodePostings(list []int64) postings {
	n := len(list) / 2
	p := postings{docs: make([]int32, n), qs: make([]uint8, n)}
	d := int32(0)
	for i := range n {
		d += int32(list[2*i])
		p.docs[i] = d
		p.qs[i] = uint8(list[2*i+1])
	}
	return p
}

// decodeDocs turns [Δdoc, ...] into document numbers.
func decodeDocs(list []int64) []int32 {
	out := make([]int32, len(list))
	d := int32(0)
	for i, x := range list {
		d += int32(x)
		out[i] = d
	}
	return out
}

// shardOf returns the shard that holds key (the last separator <= key).
func (ix *Index) shardOf(key string) int {
	seps := ix.manifest.Shards
	lo, hi := 0, len(seps)
	for lo < hi {
		mid := (lo + hi) >> 1
		if index.CompareUTF16(seps[mid], key) <= 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return max(lo-1, 0)
}

// prefixRange returns the shards that may hold keys starting with p.
func (ix *Index) prefixRange(p string) (first, last int) {
	seps := ix.manifest.Shards
	first = ix.shardOf(p)
	last = first
	for last+1 < len(seps) && strings.HasPrefix(seps[last+1], p) {
		last++
	}
	return first, last
}

// shard returns the entries of shard i (none when it is missing).
func (ix *Index) shard(ctx context.Context, i int) ([]rawEntry, error) {
	var entries []rawEntry
	_, err := ix.decode(ctx, "t/"+strconv.Itoa(i)+".json", &entries)
	return entries, err
}

// lookup finds key's entry, or nil.
func (ix *Index) lookup(ctx context.Context, key string) (*entry, error) {
	s := ix.shardOf(key)
	entries, err := ix.shard(ctx, s)
	if err != nil {
		return nil, err
	}
	lo, hi := 0, len(entries)
	for lo < hi {
		mid := (lo + hi) >> 1
		if index.CompareUTF16(entries[mid].key, key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(entries) && entries[lo].key == key {
		return entries[lo].entry(s, lo), nil
	}
	return nil, nil
}

// tail loads the postings past the head of an entry, when it has one.
func (ix *Index) tail(ctx context.Context, e *entry) (*postings, error) {
	if e.df <= len(e.list.docs) || e.shard < 0 {
		return nil, nil
	}
	var list []int64
	ok, err := ix.decode(ctx, "x/"+strconv.Itoa(e.shard)+"-"+strconv.Itoa(e.pos)+".json", &list)
	if !ok || err != nil {
		return nil, err
	}
	p := decodePostings(list)
	return &p, nil
}

// facetDocs returns the documents having value number v of facet id.
func (ix *Index) facetDocs(ctx context.Context, id string, v int) ([]int32, error) {
	var list []int64
	if _, err := ix.decode(ctx, "f/"+id+"/"+strconv.Itoa(v)+".json", &list); err != nil {
		return nil, err
	}
	return decodeDocs(list), nil
}

// ByName returns a comparison of documents by name (index.NameOrder of
// order.json); in document order when the file is missing, as the
// browser reads it.
func (ix *Index) ByName(ctx context.Context) (func(a, b int32) int, error) {
	ix.mu.Lock()
	order := ix.byName
	ix.mu.Unlock()
	if order != nil {
		return order, nil
	}
	docs, err := ix.Docs(ctx)
	if err != nil {
		return nil, err
	}
	order = index.NameOrder(docs)
	ix.mu.Lock()
	ix.byName = order
	ix.mu.Unlock()
	return order, nil
}

// Docs returns every document in name order: order.json, read once.
// Without it, every document with a status (every skill has one), in
// document order, as ByName orders them then.
func (ix *Index) Docs(ctx context.Context) ([]int32, error) {
	ix.mu.Lock()
	docs, read := ix.docs, ix.docsRead
	ix.mu.Unlock()
	if read {
		return docs, nil
	}
	found, err := ix.decode(ctx, "order.json", &docs)
	if err != nil {
		return nil, err
	}
	if !found {
		values, err := ix.FacetValues(ctx, "status")
		if err != nil {
			return nil, err
		}
		for _, v := range values {
			d, err := ix.facetDocs(ctx, "status", v.Number)
			if err != nil {
				return nil, err
			}
			docs = append(docs, d...)
		}
		slices.Sort(docs)
		docs = slices.Compact(docs)
	}
	ix.mu.Lock()
	ix.docs, ix.docsRead = docs, true
	ix.mu.Unlock()
	return docs, nil
}

// FacetValues returns every value of a facet ("type", "tags", ...), most
// common first; none for a facet the index does not have.
func (ix *Index) FacetValues(ctx context.Context, id string) ([]FacetValue, error) {
	m, err := ix.Init(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range m.Facets {
		if f.ID != id {
			continue
		}
		values := f.Values
		if f.All {
			var all [][3]any
			ok, err := ix.decode(ctx, "f/"+id+".json", &all)
			if err != nil {
				return nil, err
			}
			if ok {
				values = all
			}
		}
		out := make([]FacetValue, 0, len(values))
		for _, v := range values {
			fv, err := facetValue(v)
			if err != nil {
				return nil, fmt.Errorf("search index: facet %s: %v", id, err)
			}
			out = append(out, fv)
		}
		return out, nil
	}
	return nil, nil
}

// Card is what a result shows.
type Card struct {
	Doc         int
	Name        string
	Description string
	Format      string
	Status      string
	Type        string
	Tags        []string
	// Plugins names the skill's plugins (plugin marketplaces).
	Plugins []string
	// Page is the site path of the skill's page.
	Page string
}

// Cards returns the cards of docs, in order; nil for a document the index
// has no card for.
func (ix *Index) Cards(ctx context.Context, docs []int) ([]*Card, error) {
	m, err := ix.Init(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*Card, len(docs))
	for i, d := range docs {
		if d < 0 {
			continue
		}
		var cards [][]json.RawMessage
		if _, err := ix.decode(ctx, "c/"+strconv.Itoa(d/m.Cards)+".json", &cards); err != nil {
			return nil, err
		}
		if d%m.Cards >= len(cards) || cards[d%m.Cards] == nil { // null: no document has the number
			continue
		}
		raw := cards[d%m.Cards]
		c := &Card{Doc: d}
		fields := []any{&c.Name, &c.Description, &c.Format, &c.Status, &c.Type, &c.Tags, &c.Plugins}
		for j := range min(len(raw), len(fields)) {
			if err := json.Unmarshal(raw[j], fields[j]); err != nil {
				return nil, fmt.Errorf("search index: card %d: %v", d, err)
			}
		}
		c.Page = strings.ReplaceAll(m.Page, "{name}", encodeURIComponent(c.Name))
		out[i] = c
	}
	return out, nil
}

// encodeURIComponent escapes s as JavaScript's encodeURIComponent does:
// everything but letters, digits and - _ . ! ~ * ' ( ).
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
