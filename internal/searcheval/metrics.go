package searcheval

import "slices"

// Depth is how many results of each engine are read: MRR@10 looks no
// further.
const Depth = 10

// FirstRight returns the 1-based rank of the first right skill among the
// first Depth of ranked, or 0 when none is there.
func FirstRight(ranked, right []string) int {
	for i, name := range ranked[:min(Depth, len(ranked))] {
		if slices.Contains(right, name) {
			return i + 1
		}
	}
	return 0
}

// Score sums an engine's ranks over a set of queries.
type Score struct {
	// Queries is the number of queries.
	Queries int
	// At1 and At3 count the queries with a right skill first, and among
	// the first three.
	At1, At3 int
	// RR sums the reciprocal ranks of the first right skill (0 past rank
	// Depth).
	RR float64
}

// Add counts one query whose first right skill is at rank (0: none in the
// first Depth).
func (s *Score) Add(rank int) {
	s.Queries++
	if rank == 0 {
		return
	}
	if rank == 1 {
		s.At1++
	}
	if rank <= 3 {
		s.At3++
	}
	s.RR += 1 / float64(rank)
}

// MRR is the mean reciprocal rank at Depth.
func (s Score) MRR() float64 {
	if s.Queries == 0 {
		return 0
	}
	return s.RR / float64(s.Queries)
}

// SameTop reports whether two rankings have the same skills among their
// first n, in any order (both shorter than n: the same skills, however
// many).
func SameTop(a, b []string, n int) bool {
	a, b = slices.Clone(a[:min(n, len(a))]), slices.Clone(b[:min(n, len(b))])
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
