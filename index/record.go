package index

import "sync"

// A record is what the JSON index keeps of one skill: the skill's search
// document without its body, and its analysed terms with their counts per
// field. Records depend on the skill alone, so `skilldex serve` keeps them
// between rebuilds (see newBuilder and builder.skill) and re-analyses only
// the skills that changed.
type record struct {
	// key identifies the skill's content ("" when unknown: never reused).
	key string
	doc *document // what is only analysed (Body, Headings, Keywords, Intents) dropped
	// dict numbers the terms; a record is valid only with the dict that
	// made it.
	dict *dict
	// terms are the document's distinct terms (numbers in dict), and
	// impacts their weights in the document, quantized (see termWeight):
	// what both indexes store of a term in a document.
	terms   []uint32
	impacts []uint8
	// seq is the document's text as term numbers, sentence after
	// sentence (seqBreak between them), for mining related terms; only
	// in the records of the sample (hasSeq, see relatedSample.keeps).
	seq    []uint32
	hasSeq bool
}

// dict interns terms: records store term numbers, not strings. Numbers are
// given in no particular order (records are analysed in parallel); the
// files sort terms by their text.
type dict struct {
	mu    sync.Mutex
	ids   map[string]uint32
	terms []string
}

func newDict() *dict { return &dict{ids: map[string]uint32{}} }

// intern returns the numbers of terms, adding the new ones.
func (d *dict) intern(terms []string) []uint32 {
	out := make([]uint32, len(terms))
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, t := range terms {
		id, ok := d.ids[t]
		if !ok {
			id = uint32(len(d.terms))
			d.ids[t] = id
			d.terms = append(d.terms, t)
		}
		out[i] = id
	}
	return out
}

// snapshot returns the terms by number, as they are now.
func (d *dict) snapshot() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.terms[:len(d.terms):len(d.terms)]
}

// analyze makes the record of a search document, counting its terms, and
// keeping its text as terms when seq is set. The caller drops the
// document's body when it needs it no more.
func analyze(d *document, dc *dict, seq bool) *record {
	sc := scratches.Get().(*scratch)
	defer sc.release()
	r := &record{doc: d, dict: dc, hasSeq: seq}
	if seq {
		r.seq = sequence(d, dc)
	}
	lens := sc.count(d)
	r.terms = dc.intern(sc.order)
	r.impacts = make([]uint8, len(sc.order))
	for i := range sc.tfs {
		r.impacts[i] = quantize(termWeight(&sc.tfs[i], &lens))
	}
	return r
}

// weighed returns the record's terms with their weight levels, in the
// order they first occur: what weighTerms returns of its document.
func (r *record) weighed() []weighedTerm {
	byID := r.dict.snapshot()
	out := make([]weighedTerm, len(r.terms))
	for i, id := range r.terms {
		out[i] = weighedTerm{byID[id], r.impacts[i]}
	}
	return out
}

// weighTerms returns the distinct terms of a search document with their
// weight levels, in the order they first occur: what the bleve index's
// _all holds, and the JSON index's postings (see invert) of the same
// document.
func weighTerms(d *document) []weighedTerm {
	sc := scratches.Get().(*scratch)
	defer sc.release()
	lens := sc.count(d)
	out := make([]weighedTerm, len(sc.order))
	for i, t := range sc.order {
		out[i] = weighedTerm{t, quantize(termWeight(&sc.tfs[i], &lens))}
	}
	return out
}

// count counts the terms of d by field into sc, and returns the fields'
// lengths in terms.
func (sc *scratch) count(d *document) (lens [len(fields)]int32) {
	for f, text := range d.texts() {
		n := int32(0)
		tokenize(text, func(term []byte) {
			n++
			i, ok := sc.local[string(term)]
			if !ok {
				t := string(term)
				i = len(sc.order)
				sc.local[t] = i
				sc.order = append(sc.order, t)
				sc.tfs = append(sc.tfs, [len(fields)]uint16{})
			}
			if sc.tfs[i][f] < 1<<16-1 {
				sc.tfs[i][f]++
			}
		})
		lens[f] = n
	}
	return lens
}

// scratch is what analyze counts in, recycled: a document has hundreds of
// distinct terms, and growing a map and two slices for each document was
// most of what analysing allocated.
type scratch struct {
	local map[string]int // term -> its place in order
	order []string
	tfs   [][len(fields)]uint16
}

var scratches = sync.Pool{New: func() any { return &scratch{local: map[string]int{}} }}

func (sc *scratch) release() {
	clear(sc.local)
	sc.order, sc.tfs = sc.order[:0], sc.tfs[:0]
	scratches.Put(sc)
}

// searchFormat changes whenever what a record holds or how it is analysed
// does, so that serve never reuses a record an older skilldex made.
const searchFormat = "search-5"
