package searcheval

import (
	"math"
	"testing"
)

func TestScore(t *testing.T) {
	right := []string{"b", "x"}
	var s Score
	for _, tc := range []struct {
		ranked []string
		rank   int
	}{
		{[]string{"b", "c"}, 1},
		{[]string{"a", "x", "b"}, 2},
		{[]string{"a", "c", "b"}, 3},
		{[]string{"a", "c", "d", "x"}, 4},
		{[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "b"}, 0}, // past Depth
		{nil, 0},
	} {
		got := FirstRight(tc.ranked, right)
		if got != tc.rank {
			t.Errorf("FirstRight(%v, %v) = %d, want %d", tc.ranked, right, got, tc.rank)
		}
		s.Add(got)
	}
	if s.Queries != 6 || s.At1 != 1 || s.At3 != 3 {
		t.Errorf("score %+v, want 6 queries, 1 at rank 1, 3 within 3", s)
	}
	if want := (1 + 0.5 + 1.0/3 + 0.25) / 6; math.Abs(s.MRR()-want) > 1e-12 {
		t.Errorf("MRR %v, want %v", s.MRR(), want)
	}
	if (Score{}).MRR() != 0 {
		t.Error("MRR of no query is not 0")
	}
}

func TestSameTop(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		n    int
		want bool
	}{
		{[]string{"a", "b", "c", "d"}, []string{"c", "a", "b", "e"}, 3, true},
		{[]string{"a", "b", "c"}, []string{"a", "b", "d"}, 3, false},
		{[]string{"a", "b"}, []string{"b", "a"}, 3, true},
		{[]string{"a", "b"}, []string{"a", "b", "c"}, 3, false},
		{[]string{"a", "b"}, []string{"b", "a"}, 1, false},
		{nil, nil, 3, true},
	} {
		if got := SameTop(tc.a, tc.b, tc.n); got != tc.want {
			t.Errorf("SameTop(%v, %v, %d) = %v, want %v", tc.a, tc.b, tc.n, got, tc.want)
		}
	}
}
