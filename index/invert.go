package index

import (
	"slices"
)

// rangePostings bounds the postings the JSON index holds at once: the
// terms are inverted a range at a time (see inversion), so that a large
// catalog's postings are never all in memory beside the rest of the
// build, while a catalog of fewer postings is inverted in one range, by
// one pass over its term lists, as before ranges.
const rangePostings = 4 << 20

// An inversion holds the sorted terms of the documents' term lists and
// their document frequencies, from which it fills the postings of a range
// of terms at a time, each fill a pass over the lists. The terms in more
// documents than a range holds are a range by themselves.
type inversion struct {
	lists termLists
	terms []string // the terms in use, sorted as compareUTF16
	df    []int32  // df[k] is the number of documents of terms[k]
	rank  []int32  // by the dict's number: the term's place in terms
	total int      // postings of all terms
}

// newInversion counts the documents of each term of the lists, whose
// numbers are those of byID (the dict's terms by number), and sorts the
// terms in use.
func newInversion(byID []string, lists termLists) (*inversion, error) {
	count := make([]int32, len(byID))
	err := lists(func(_ int, ids []uint32, _ []uint8) {
		for _, id := range ids {
			count[id]++
		}
	})
	if err != nil {
		return nil, err
	}
	var used []uint32
	for id, n := range count {
		if n > 0 {
			used = append(used, uint32(id))
		}
	}
	slices.SortFunc(used, func(a, b uint32) int { return compareUTF16(byID[a], byID[b]) })
	inv := &inversion{lists: lists, terms: make([]string, len(used)), df: make([]int32, len(used))}
	inv.rank = count // reused: every number is either in use or never seen again
	for k, id := range used {
		inv.terms[k] = byID[id]
		inv.df[k] = count[id]
		inv.total += int(count[id])
		inv.rank[id] = int32(k)
	}
	return inv, nil
}

// find is the place of term t in terms, or -1.
func (inv *inversion) find(t string) int {
	k, ok := slices.BinarySearchFunc(inv.terms, t, compareUTF16)
	if !ok {
		return -1
	}
	return k
}

// cut returns the ends of consecutive ranges of the terms of at most limit
// postings each, or of one term when it alone has more.
func (inv *inversion) cut(limit int) []int {
	var ends []int
	sum := 0
	for k, n := range inv.df {
		if sum > 0 && sum+int(n) > limit {
			ends = append(ends, k)
			sum = 0
		}
		sum += int(n)
	}
	return append(ends, len(inv.df))
}

// fill returns the postings of terms[lo:hi], each list in document order,
// by a pass over the lists; when h is not nil, it is also handed every
// posting of the terms it collects.
func (inv *inversion) fill(lo, hi int, h *heads) ([][]Posting, error) {
	all := 0
	for _, n := range inv.df[lo:hi] {
		all += int(n)
	}
	flat := make([]Posting, all)
	postings := make([][]Posting, hi-lo)
	at := 0
	for k, n := range inv.df[lo:hi] {
		postings[k] = flat[at : at : at+int(n)]
		at += int(n)
	}
	span := uint32(hi - lo)
	err := inv.lists(func(i int, ids []uint32, q []uint8) {
		for j, id := range ids {
			k := inv.rank[id]
			if r := uint32(k - int32(lo)); r < span {
				postings[r] = append(postings[r], Posting{int32(i), q[j]})
			}
			if h != nil {
				h.add(k, Posting{int32(i), q[j]})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return postings, nil
}

// heads collects the n highest-impact postings (ties: lower document
// first) of some terms, in the order a pass over the term lists hands
// them: split's head of each term's postings, without holding the rest.
type heads struct {
	n    int
	slot []int32     // by the term's place in terms: its heap in top, or -1
	top  [][]Posting // each a heap whose root is the posting that goes first
}

// newHeads collects the n best postings of the terms at the places ks (in
// an inversion of count terms).
func newHeads(count int, ks []int, n int) *heads {
	h := &heads{n: n, slot: make([]int32, count)}
	for k := range h.slot {
		h.slot[k] = -1
	}
	for _, k := range ks {
		if h.slot[k] < 0 {
			h.slot[k] = int32(len(h.top))
			h.top = append(h.top, make([]Posting, 0, n))
		}
	}
	return h
}

// worse says whether a goes before b when a head is full: the lower
// impact, and at the same impact the later document.
func worse(a, b Posting) bool {
	return a.Level < b.Level || a.Level == b.Level && a.Doc > b.Doc
}

// add offers term k's posting p, whose document comes after those of
// the term's postings offered before: at the same impact, p goes first.
func (h *heads) add(k int32, p Posting) {
	s := h.slot[k]
	if s < 0 {
		return
	}
	t := h.top[s]
	if len(t) < h.n {
		t = append(t, p)
		for i := len(t) - 1; i > 0; { // up
			parent := (i - 1) / 2
			if !worse(t[i], t[parent]) {
				break
			}
			t[i], t[parent] = t[parent], t[i]
			i = parent
		}
		h.top[s] = t
		return
	}
	if len(t) == 0 || p.Level <= t[0].Level {
		return
	}
	t[0] = p
	for i := 0; ; { // down
		least := i
		if c := 2*i + 1; c < len(t) && worse(t[c], t[least]) {
			least = c
		}
		if c := 2*i + 2; c < len(t) && worse(t[c], t[least]) {
			least = c
		}
		if least == i {
			break
		}
		t[i], t[least] = t[least], t[i]
		i = least
	}
}

// finish puts each term's postings in document order, when no more come.
func (h *heads) finish() {
	for _, t := range h.top {
		slices.SortFunc(t, func(a, b Posting) int { return int(a.Doc - b.Doc) })
	}
}

// head returns the postings of term k, in document order after finish.
func (h *heads) head(k int) []Posting { return h.top[h.slot[k]] }
