package index

import (
	"cmp"
	"math/bits"
	"slices"
)

// Documents are numbered by the hash of their names, not in name order,
// so that a skill added to or removed from a catalog renumbers almost no
// other: every file holding a document number (postings, cards, facet
// lists) of a document that keeps its number is written again the same,
// and an incremental build leaves it alone. With numbers in name order, a
// skill added near the start of the catalog shifted every later number
// and rewrote most of the index (BenchmarkRebuildAfterAdd measures it).
//
// A name's home is the top bits of its hash (mixed), in a space of at
// least twice as many numbers as documents (a power of two, so that it
// changes only when the catalog doubles or halves). The documents, taken
// in the order of their homes (ties: by name), each take the first number
// at or after its home not taken by the one before. Numbers therefore
// follow (home, name) order: a document's number depends only on the
// documents of its run of consecutive numbers, and an addition moves only
// those after it in its run: usually none, since at most half the numbers
// are taken (TestNumbersSurviveAdditions counts them).

// docNumbers is the numbering of a catalog's documents.
type docNumbers struct {
	// of is each document's number, by its place in the names given.
	of []int32
	// at is the place of the document of each number, or -1 when no
	// document has it; its length is one more than the largest number.
	at []int32
}

// numberDocs numbers the documents of the given names (distinct).
func numberDocs(names []string) docNumbers {
	space := 2 * len(names)
	shift := 64 - bits.Len(uint(max(space-1, 1)))
	homes := make([]uint64, len(names))
	order := make([]int32, len(names))
	for i, name := range names {
		homes[i] = mix(nameHash(name)) >> shift
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(homes[a], homes[b]), cmp.Compare(names[a], names[b]))
	})
	num := docNumbers{of: make([]int32, len(names))}
	next := uint64(0)
	for _, i := range order {
		d := max(homes[i], next)
		num.of[i] = int32(d)
		next = d + 1
	}
	num.at = make([]int32, next)
	for d := range num.at {
		num.at[d] = -1
	}
	for i, d := range num.of {
		num.at[d] = int32(i)
	}
	return num
}

// mix spreads every bit of h over the top bits, which FNV-1a leaves
// alike for names that differ only in their last bytes (murmur3's final
// mix).
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// size is the number of document numbers: one more than the largest.
func (num docNumbers) size() int { return len(num.at) }
