package index

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/skill"
)

// The JSON index lets a browser search without a server while fetching
// only what a query needs. Under search/:
//
//	manifest.json       what the client reads first: document count,
//	                    scoring constants, the first key of every term
//	                    shard, facets with their most common values
//	t/<i>.json          term shard i: a run of consecutive terms (stems),
//	                    each [term, df, idf, head postings], and when the
//	                    term has related terms, a fifth element: each
//	                    [term, similarity, idf, its best postings]
//	x/<i>-<j>.json      the rest of the postings of entry j of shard i,
//	                    for terms in more documents than a head holds
//	p/<prefix>.json     the most common completions of a prefix whose
//	                    terms span more than prefixSpan shards (typing
//	                    "k" must not fetch every shard of k)
//	c/<i>.json          result cards of documents i×cardsPerFile onward,
//	                    null for a number no document has
//	f/<facet>.json      every value of a facet with its count
//	f/<facet>/<i>.json  the documents having value i of the facet
//	order.json          every document, in name order
//
// Documents are numbered by the hashes of their names (docnum.go), so
// that adding or removing a skill changes the files that hold it and
// almost no other; order.json says how to sort by name. Postings are
// [Δdoc, impact, Δdoc, impact, ...] in document order; the impact q is
// the term's weight in the document (see scorer) on an 8-bit log scale,
// and the client's score for a term is idf × dequantize(q). Heads hold
// the headSize highest impacts: ranking the first results of a query
// never needs more.
const (
	headSize    = 128
	shardTarget = 24 << 10 // bytes of JSON per shard (about 8 KB gzipped)
	prefixSpan  = 2
	prefixTerms = 24
	prefixHead  = 48
	// cardsPerFile is 8 numbers, which hold two to four cards: the
	// numbering leaves half to three quarters of the numbers free.
	cardsPerFile = 8
	// manifestValues bounds the values of one facet listed in the
	// manifest; the others are in f/<facet>.json.
	manifestValues = 30
	// cardDescription bounds a card's description, in characters.
	cardDescription = 240
)

// FormatVersion is the manifest's version: it changes when the file
// formats do, or what a reader must do with them (the ranking model).
const FormatVersion = 3

// jsonFile is one file of the JSON index.
type jsonFile struct {
	path string // relative to search/
	data []byte
	// sum is the SHA-256 of data, set by buildJSON before emit.
	sum [sha256.Size]byte
}

// Manifest is search/manifest.json, which index/jsonsearch reads too.
type Manifest struct {
	Version int `json:"version"`
	// ID identifies this index's content; the client adds it to the URL
	// of every other file so that caches never mix two builds.
	ID    string `json:"id"`
	Count int    `json:"count"`
	// Docs is the number of document numbers: one more than the
	// largest (docnum.go).
	Docs int `json:"docs"`
	// QMax is log1p of the largest term weight: weight = expm1(q/255 × QMax).
	QMax   float64     `json:"qmax"`
	Head   int         `json:"head"`
	Span   int         `json:"span"`
	Cards  int         `json:"cards"`
	Page   string      `json:"page"`
	Shards []string    `json:"shards"`
	Facets []FacetInfo `json:"facets"`
	// Model is the query-time ranking model every reader uses.
	Model Model `json:"model"`
}

// FacetInfo is a facet of the manifest.
type FacetInfo struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// Values are [value, count, file number], most common first; All
	// is set when f/<id>.json lists more.
	Values [][3]any `json:"values"`
	All    bool     `json:"all,omitempty"`
	// Labels name the values shown otherwise than they are filtered by
	// (the format "skill-md" is shown "SKILL.md"), for every value.
	Labels map[string]string `json:"labels,omitempty"`
}

// facetDefs are the facets, in display order.
var facetDefs = []struct {
	id, label string
	values    func(d *document) []string
	// display, when set, is how a value is shown.
	display func(value string) string
}{
	{"source", "Source", func(d *document) []string { return nonEmpty(d.Source) }, nil},
	{"plugin", "Plugin", func(d *document) []string { return d.Plugins }, nil},
	{"type", "Type", func(d *document) []string { return nonEmpty(d.Type) }, nil},
	{"category", "Category", func(d *document) []string { return d.Categories }, nil},
	{"tags", "Tags", func(d *document) []string { return d.Tags }, nil},
	{"capabilities", "Capabilities", func(d *document) []string { return d.Capabilities }, nil},
	{"license", "License", func(d *document) []string { return nonEmpty(d.License) }, nil},
	{"status", "Status", func(d *document) []string { return nonEmpty(d.Status) }, nil},
	{"format", "Format", func(d *document) []string { return nonEmpty(d.Format) }, func(v string) string { return skill.Format(v).Label() }},
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// analysed is what the JSON index is made of: n documents numbered from
// 0 to size-1 (some numbers unused), their terms with their impacts, and
// the documents without their text (see dropText) for the cards and
// facets.
type analysed struct {
	n, size int
	byID    []string // the dict's terms by number
	lists   termLists
	// doc returns the document of a number, nil for an unused number.
	doc func(d int) *document
	// byName are the documents' numbers in name order.
	byName []int32
	// rangePostings, when not 0, replaces the constant (tests).
	rangePostings int
}

// writeTerms writes the term shards and the prefix files of a's terms,
// inverting them a range at a time (see inversion), and returns the
// shards' separators.
func writeTerms(a analysed, related map[string][]relatedTerm, put func(jsonFile)) ([]string, error) {
	inv, err := newInversion(a.byID, a.lists)
	if err != nil {
		return nil, err
	}
	ends := inv.cut(cmp.Or(a.rangePostings, rangePostings))
	// held are the postings of the range being written, from its first
	// term's place lo; the last range's stay for the prefix files.
	var held [][]Posting
	lo := 0
	// A term's related terms may be in another range than its own: with
	// more than one range, the first pass over the lists also collects
	// every related term's best postings.
	var rel *heads
	if len(ends) > 1 {
		var ks []int
		for _, rs := range related {
			for _, r := range rs {
				if k := inv.find(r.term); k >= 0 {
					ks = append(ks, k)
				}
			}
		}
		rel = newHeads(len(inv.terms), ks, model.RelatedHead)
	}
	var relatedHeads, prefixHeads splitter
	relatedOf := func(t string) (df int, head []Posting) {
		k := inv.find(t)
		switch {
		case k < 0:
			return 0, nil
		case rel != nil:
			return int(inv.df[k]), rel.head(k)
		}
		head, _ = relatedHeads.split(held[k-lo], model.RelatedHead, false)
		return int(inv.df[k]), head
	}
	w := &shardWriter{terms: inv.terms, n: a.n, related: related, relatedOf: relatedOf, emit: put}
	for r, end := range ends {
		collect := rel
		if r > 0 {
			collect = nil
		}
		held = nil // before the next range's are made
		held, err = inv.fill(lo, end, collect)
		if err != nil {
			return nil, err
		}
		if collect != nil {
			collect.finish()
		}
		for k := lo; k < end; k++ {
			w.add(k, held[k-lo])
		}
		if end < len(inv.terms) {
			lo = end
		}
	}
	seps := w.finish()

	// The prefixes' terms are known only now, with the shards: those of
	// the last range have their postings at hand, the others' best are
	// collected by another pass.
	prefixes := prefixChoices(inv.terms, inv.df, seps)
	var missing []int
	for _, p := range prefixes {
		for _, k := range p.places {
			if k < lo {
				missing = append(missing, k)
			}
		}
	}
	var best *heads
	if len(missing) > 0 {
		best = newHeads(len(inv.terms), missing, prefixHead)
		if _, err := inv.fill(0, 0, best); err != nil {
			return nil, err
		}
		best.finish()
	}
	for _, p := range prefixes {
		b := []byte{'['}
		for i, k := range p.places {
			if i > 0 {
				b = append(b, ',')
			}
			var head []Posting
			if k >= lo {
				head, _ = prefixHeads.split(held[k-lo], prefixHead, false)
			} else {
				head = best.head(k)
			}
			b = appendEntry(b, inv.terms[k], int(inv.df[k]), head, a.n, nil, nil)
		}
		put(jsonFile{path: "p/" + PrefixFile(p.prefix), data: append(b, ']')})
	}
	return seps, nil
}

// buildJSON makes the files of the JSON index of a, with the related
// terms of its terms, and hands each to emit as soon as it is made, the
// manifest last, so that the index is never held whole. It returns the
// first key of each term shard: the dictionary's blocks, among which
// spelling neighbours are sought (rank.go).
func buildJSON(a analysed, facets []facet, page string, related map[string][]relatedTerm, emit func(jsonFile) error) (blocks []string, err error) {
	// The ID is a hash of every file's path and hash, which the output
	// needs anyway: each file is hashed once.
	h := sha256.New()
	put := func(f jsonFile) {
		if err == nil {
			f.sum = sha256.Sum256(f.data)
			h.Write([]byte(f.path))
			h.Write([]byte{0})
			h.Write(f.sum[:])
			err = emit(f)
		}
	}
	shards, terr := writeTerms(a, related, put)
	if terr != nil {
		return nil, terr
	}
	for _, f := range cardFiles(a.size, a.doc) {
		put(f)
	}
	put(jsonFile{path: "order.json", data: docNumberList(a.byName)})
	facetInfos, facetFiles := writeFacets(facets)
	for _, f := range facetFiles {
		put(f)
	}
	if err != nil {
		return nil, err
	}
	m := Manifest{
		Version: FormatVersion,
		Count:   a.n,
		Docs:    a.size,
		QMax:    qmax,
		Head:    headSize,
		Span:    prefixSpan,
		Cards:   cardsPerFile,
		Page:    page,
		Shards:  shards,
		Facets:  facetInfos,
		Model:   model,
	}
	m.ID = hex.EncodeToString(h.Sum(nil))[:12]
	manifest := jsonFile{path: "manifest.json", data: mustJSON(m)}
	manifest.sum = sha256.Sum256(manifest.data)
	return shards, emit(manifest)
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only plain values are encoded here
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// appendPostings appends [Δdoc,q,...] for ps, which must be in doc order.
func appendPostings(b []byte, ps []Posting) []byte {
	b = append(b, '[')
	prev := int32(0)
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p.Doc-prev), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.Level), 10)
		prev = p.Doc
	}
	return append(b, ']')
}

// split returns the n highest-impact postings of ps (ties: lower doc
// first) in doc order, and the rest in doc order.
//
// Impacts are bytes, so no sort is needed: counting finds the lowest
// impact the head takes (all postings above it, and the first of those at
// it), and one pass in doc order deals the postings out.
func split(ps []Posting, n int) (head, tail []Posting) {
	return new(splitter).split(ps, n, true)
}

// A splitter splits posting lists as split does, into buffers it reuses
// from list to list: the index has one list a term, and allocating a head
// and a tail for each was most of what writing it allocated. What it
// returns is valid until its next call.
type splitter struct{ head, tail []Posting }

// split is split of ps at n; without withTail the tail is not made (nil).
func (s *splitter) split(ps []Posting, n int, withTail bool) (head, tail []Posting) {
	if len(ps) <= n {
		return ps, nil
	}
	var count [quantLevels + 1]int
	for _, p := range ps {
		count[p.Level]++
	}
	threshold, above := quantLevels, 0 // above: postings with q > threshold
	for above+count[threshold] < n {
		above += count[threshold]
		threshold--
	}
	atThreshold := n - above // how many postings at the threshold the head takes
	s.head, s.tail = s.head[:0], s.tail[:0]
	for _, p := range ps {
		switch {
		case int(p.Level) > threshold:
			s.head = append(s.head, p)
		case int(p.Level) == threshold && atThreshold > 0:
			s.head = append(s.head, p)
			atThreshold--
		case withTail:
			s.tail = append(s.tail, p)
		}
	}
	if !withTail {
		return s.head, nil
	}
	return s.head, s.tail
}

// appendEntry appends a term's entry [term, df, idf, head]; with related
// terms, a fifth element holds each as [term, similarity, idf, its
// model.RelatedHead best postings], which relatedOf gives with the
// related term's document frequency.
func appendEntry(b []byte, term string, df int, head []Posting, n int, related []relatedTerm, relatedOf func(string) (df int, head []Posting)) []byte {
	b = append(b, '[')
	b = append(b, mustJSON(term)...)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(df), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, EntryIDF(n, df), 'f', -1, 64)
	b = append(b, ',')
	b = appendPostings(b, head)
	if len(related) > 0 {
		b = append(b, ",["...)
		for i, r := range related {
			if i > 0 {
				b = append(b, ',')
			}
			rdf, rhead := relatedOf(r.term)
			b = append(b, '[')
			b = append(b, mustJSON(r.term)...)
			b = append(b, ',')
			b = strconv.AppendFloat(b, r.similarity, 'f', -1, 64)
			b = append(b, ',')
			b = strconv.AppendFloat(b, EntryIDF(n, rdf), 'f', -1, 64)
			b = append(b, ',')
			b = appendPostings(b, rhead)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// A shardWriter cuts the sorted terms into shards of about shardTarget
// bytes as their postings are added, and hands each file to emit as it is
// made.
type shardWriter struct {
	terms     []string
	n         int
	related   map[string][]relatedTerm
	relatedOf func(string) (df int, head []Posting)
	emit      func(jsonFile)

	seps    []string // each shard's separator (see separator)
	cur     []byte   // the shard being made
	first   int      // its first term's place
	entries int      // its terms
	lists   splitter
}

// add adds the entry of terms[k], whose postings are ps; the terms must be
// added in order.
func (w *shardWriter) add(k int, ps []Posting) {
	if w.entries == 0 {
		w.cur = append(w.cur, '[')
		w.first = k
	} else {
		w.cur = append(w.cur, ',')
	}
	t := w.terms[k]
	head, tail := w.lists.split(ps, headSize, true)
	w.cur = appendEntry(w.cur, t, len(ps), head, w.n, w.related[t], w.relatedOf)
	if tail != nil {
		// About six bytes a posting: grown once, not a dozen times.
		w.emit(jsonFile{path: fmt.Sprintf("x/%d-%d.json", len(w.seps), w.entries), data: appendPostings(make([]byte, 0, 6*len(tail)+2), tail)})
	}
	w.entries++
	if len(w.cur) >= shardTarget {
		w.flush()
	}
}

func (w *shardWriter) flush() {
	if w.entries == 0 {
		return
	}
	sep := ""
	if w.first > 0 {
		sep = separator(w.terms[w.first-1], w.terms[w.first])
	}
	w.seps = append(w.seps, sep)
	w.cur = append(w.cur, ']')
	w.emit(jsonFile{path: "t/" + strconv.Itoa(len(w.seps)-1) + ".json", data: w.cur})
	w.cur, w.entries = nil, 0
}

// finish writes the last shard and returns each shard's separator (the
// shortest prefix of its first term greater than the previous shard's
// last term).
func (w *shardWriter) finish() []string {
	w.flush()
	if len(w.seps) == 0 {
		w.seps = []string{""}
		w.emit(jsonFile{path: "t/0.json", data: []byte("[]")})
	}
	return w.seps
}

// separator is the shortest prefix of next (in runes) that sorts after prev.
func separator(prev, next string) string {
	for i := range next {
		if i > 0 && compareUTF16(next[:i], prev) > 0 {
			return next[:i]
		}
	}
	return next
}

// shardOf is the shard holding key: the last whose separator is <= key.
func shardOf(seps []string, key string) int {
	i, _ := slices.BinarySearchFunc(seps, key, func(s, k string) int {
		if compareUTF16(s, k) <= 0 {
			return -1
		}
		return 1
	})
	return max(i-1, 0)
}

// prefixRange returns the shards that may hold terms starting with p,
// computed from the separators alone, as the client computes it.
func prefixRange(seps []string, p string) (first, last int) {
	first = shardOf(seps, p)
	last = first
	for last+1 < len(seps) && strings.HasPrefix(seps[last+1], p) {
		last++
	}
	return first, last
}

// A prefixChoice is a prefix whose terms span more than prefixSpan
// shards, and the places of its completions: its prefixTerms terms in
// most documents, in term order. Its file holds each with its prefixHead
// highest impacts.
type prefixChoice struct {
	prefix string
	places []int
}

// prefixChoices returns the prefixes of the sorted terms, whose document
// frequencies are df, that span more than prefixSpan of the shards
// separated by seps, with their completions.
func prefixChoices(terms []string, df []int32, seps []string) []prefixChoice {
	done := map[string]bool{}
	var prefixes []string
	for _, t := range terms {
		for i := range t {
			_, size := utf8.DecodeRuneInString(t[i:])
			p := t[:i+size]
			if done[p] {
				continue
			}
			first, last := prefixRange(seps, p)
			if last-first+1 <= prefixSpan {
				break // longer prefixes span no more
			}
			done[p] = true
			prefixes = append(prefixes, p)
		}
	}
	choices := make([]prefixChoice, 0, len(prefixes))
	for _, p := range prefixes {
		lo, _ := slices.BinarySearchFunc(terms, p, compareUTF16)
		var idx []int
		for i := lo; i < len(terms) && strings.HasPrefix(terms[i], p); i++ {
			idx = append(idx, i)
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(df[b], df[a]) })
		idx = idx[:min(len(idx), prefixTerms)]
		slices.Sort(idx)
		choices = append(choices, prefixChoice{p, slices.Clip(idx)})
	}
	return choices
}

// PrefixFile names the completions file of prefix p: p itself when it is
// plain ASCII letters and digits, else its UTF-8 bytes in hex; always with
// a leading letter, so that no name is reserved on Windows (con, aux).
func PrefixFile(p string) string {
	plain := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return "a" + p + ".json"
	}
	return "x" + hex.EncodeToString([]byte(p)) + ".json"
}

// card is what a result shows: [name, description, format, status, type,
// tags], and the names of its plugins when it has any.
func card(d *document) []any {
	desc := d.Description
	if utf8.RuneCountInString(desc) > cardDescription {
		r := []rune(desc)[:cardDescription]
		cut := string(r)
		if i := strings.LastIndexByte(cut, ' '); i > cardDescription/2 {
			cut = cut[:i]
		}
		desc = strings.TrimRight(cut, " ,.;:") + "…"
	}
	tags := d.Tags
	if len(tags) > 8 {
		tags = tags[:8]
	}
	if tags == nil {
		tags = []string{}
	}
	if len(d.Plugins) > 0 {
		return []any{d.Name, desc, d.Format, d.Status, d.Type, tags, d.Plugins}
	}
	return []any{d.Name, desc, d.Format, d.Status, d.Type, tags}
}

// cardFiles returns the card files of the documents numbered below size
// (doc returns nil for an unused number): a file for each run of
// cardsPerFile numbers that has a document, null for an unused number
// before the run's last document.
func cardFiles(size int, doc func(d int) *document) []jsonFile {
	var files []jsonFile
	for i := 0; i < size; i += cardsPerFile {
		var cards [][]any
		for j := i; j < min(i+cardsPerFile, size); j++ {
			if d := doc(j); d != nil {
				for len(cards) < j-i {
					cards = append(cards, nil)
				}
				cards = append(cards, card(d))
			}
		}
		if cards != nil {
			files = append(files, jsonFile{path: "c/" + strconv.Itoa(i/cardsPerFile) + ".json", data: mustJSON(cards)})
		}
	}
	return files
}

// facet is one facet's values, most common first.
type facet struct {
	id, label string
	values    []facetValue
	display   func(value string) string
}

// shown is how the facet's value v is shown.
func (f facet) shown(v string) string {
	if f.display == nil {
		return v
	}
	return f.display(v)
}

type facetValue struct {
	name string
	docs []int32 // sorted
}

// computeFacets groups documents by facet value. Values that differ only
// in case are one value, spelt as most documents spell it (ties: the
// first in byte order). Both indexes use these groups.
func computeFacets(docs []*document) []facet {
	return facetsOf(len(docs), func(i int) *document { return docs[i] })
}

// facetsOf is computeFacets of the documents numbered below n, each
// asked for once; doc returns nil for an unused number.
func facetsOf(n int, doc func(i int) *document) []facet {
	type group struct {
		spellings map[string]int
		docs      []int32
	}
	groups := make([]map[string]*group, len(facetDefs)) // by facet, then lowercased value
	for f := range groups {
		groups[f] = map[string]*group{}
	}
	for i := range n {
		d := doc(i)
		if d == nil {
			continue
		}
		for f, def := range facetDefs {
			for _, v := range def.values(d) {
				k := strings.ToLower(v)
				g := groups[f][k]
				if g == nil {
					g = &group{spellings: map[string]int{}}
					groups[f][k] = g
				}
				g.spellings[v]++
				if n := len(g.docs); n == 0 || g.docs[n-1] != int32(i) {
					g.docs = append(g.docs, int32(i))
				}
			}
		}
	}
	var out []facet
	for f, def := range facetDefs {
		fc := facet{id: def.id, label: def.label, display: def.display}
		for _, g := range groups[f] {
			name := ""
			for sp, c := range g.spellings {
				if name == "" || c > g.spellings[name] || (c == g.spellings[name] && sp < name) {
					name = sp
				}
			}
			fc.values = append(fc.values, facetValue{name, g.docs})
		}
		slices.SortFunc(fc.values, func(a, b facetValue) int {
			return cmp.Or(cmp.Compare(len(b.docs), len(a.docs)), cmp.Compare(a.name, b.name))
		})
		out = append(out, fc)
	}
	return out
}

// writeFacets writes each value's document list and returns the
// manifest's facet entries (facets without values are left out).
func writeFacets(facets []facet) ([]FacetInfo, []jsonFile) {
	var infos []FacetInfo
	var files []jsonFile
	for _, f := range facets {
		if len(f.values) == 0 {
			continue
		}
		info := FacetInfo{ID: f.id, Label: f.label}
		all := make([][3]any, len(f.values))
		for i, v := range f.values {
			all[i] = [3]any{v.name, len(v.docs), i}
			if shown := f.shown(v.name); shown != v.name {
				if info.Labels == nil {
					info.Labels = map[string]string{}
				}
				info.Labels[v.name] = shown
			}
			files = append(files, jsonFile{path: fmt.Sprintf("f/%s/%d.json", f.id, i), data: docList(v.docs)})
		}
		info.Values = all[:min(len(all), manifestValues)]
		if len(all) > manifestValues {
			info.All = true
			files = append(files, jsonFile{path: "f/" + f.id + ".json", data: mustJSON(all)})
		}
		infos = append(infos, info)
	}
	return infos, files
}

// docNumberList encodes document numbers as they are: [doc, ...].
func docNumberList(docs []int32) []byte {
	b := make([]byte, 0, 6*len(docs)+2)
	b = append(b, '[')
	for i, d := range docs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return append(b, ']')
}

// docList encodes sorted document numbers as [Δdoc, ...].
func docList(docs []int32) []byte {
	b := []byte{'['}
	prev := int32(0)
	for i, d := range docs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d-prev), 10)
		prev = d
	}
	return append(b, ']')
}
