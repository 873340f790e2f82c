package index

import (
	"math/bits"
	"unsafe"

	bindex "github.com/blevesearch/bleve_index_api"
)

// freqArena holds the token frequencies an indexAnalyzer makes for the
// documents of one segment, and reuses their memory for the next segment.
// Bleve's interface wants a map and a TokenFreq per term of every field,
// the largest part of what analysis allocates, and zap is done with them
// once it has written the segment: it keeps none of them (its pooled
// builder state is reset when New returns).
type freqArena struct {
	freqs slab[bindex.TokenFreq]
	locs  slab[bindex.TokenLocation]
	ptrs  slab[*bindex.TokenLocation]
	// free holds the maps not in use by size class: free[k] those made for
	// 1<<k terms. lent are the maps handed out since reset.
	free [][]bindex.TokenFrequencies
	lent []classMap
}

type classMap struct {
	class int
	m     bindex.TokenFrequencies
}

// reset makes the memory of every frequency handed out reusable: they must
// no longer be in use.
func (r *freqArena) reset() {
	r.freqs.reset()
	r.locs.reset()
	r.ptrs.reset()
	for _, l := range r.lent {
		for len(r.free) <= l.class {
			r.free = append(r.free, nil)
		}
		r.free[l.class] = append(r.free[l.class], l.m)
	}
	r.lent = r.lent[:0]
}

// size estimates the bytes r holds.
func (r *freqArena) size() int {
	n := r.freqs.size() + r.locs.size() + r.ptrs.size()
	for k, maps := range r.free {
		n += len(maps) * mapSlotBytes << k
	}
	for _, l := range r.lent {
		n += mapSlotBytes << l.class
	}
	return n
}

// mapSlotBytes is about what a map of token frequencies takes per term it
// is made for: a string key, a pointer and the map's spare room.
const mapSlotBytes = 32

// tokenFrequencies returns an empty map for n terms, one of the free maps
// made for as many when there is one: reusing maps by size keeps each
// about as large as its use.
func (r *freqArena) tokenFrequencies(n int) bindex.TokenFrequencies {
	k := bits.Len(uint(n)) // n < 1<<k
	var m bindex.TokenFrequencies
	if k < len(r.free) && len(r.free[k]) > 0 {
		last := len(r.free[k]) - 1
		m = r.free[k][last]
		r.free[k] = r.free[k][:last]
		clear(m)
	} else {
		m = make(bindex.TokenFrequencies, 1<<k)
	}
	r.lent = append(r.lent, classMap{k, m})
	return m
}

// slab hands out zeroed slices of one block, and starts a block twice as
// large when it runs out: the older blocks are dropped once no slice of
// theirs is in use, and the latest, large enough for the last segment,
// serves the next.
type slab[T any] struct {
	block []T
	used  int
}

// take returns a zeroed slice of n elements, a full slice (capacity n), so
// that appending to it never reaches the next one.
func (s *slab[T]) take(n int) []T {
	if len(s.block)-s.used < n {
		s.block = make([]T, max(n, 2*len(s.block), 1024))
		s.used = 0
	}
	out := s.block[s.used : s.used+n : s.used+n]
	s.used += n
	clear(out)
	return out
}

func (s *slab[T]) reset() { s.used = 0 }

// size is the bytes of s's block.
func (s *slab[T]) size() int {
	var zero T
	return cap(s.block) * int(unsafe.Sizeof(zero))
}
