package index

import (
	"slices"
	"strings"
	"testing"
)

// TestSpill: entries written in any order are read back as written, in
// the order of the skills' document numbers; a skill without an entry is
// an error, not a gap.
func TestSpill(t *testing.T) {
	type entry struct {
		terms []uint32
		q     []uint8
	}
	want := []entry{
		{[]uint32{0, 1, 2}, []uint8{1, 2, 3}},
		{nil, nil},
		{[]uint32{1 << 20, 7, 300}, []uint8{255, 1, 128}},
		{[]uint32{5}, []uint8{9}},
	}
	num := numberDocs([]string{"alpha", "beta", "gamma", "delta"})
	s, err := newSpill(t.TempDir(), len(want))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for _, i := range []int{2, 0, 3, 1} {
		s.put(i, want[i].terms, want[i].q)
	}
	for pass := range 2 { // invert reads the entries twice
		var got []entry
		var docs []int
		err := s.each(num)(func(d int, terms []uint32, q []uint8) {
			docs = append(docs, d)
			got = append(got, entry{slices.Clone(terms), slices.Clone(q)})
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(docs) || len(docs) != len(want) {
			t.Fatalf("pass %d: documents %v, want the %d numbers in order", pass, docs, len(want))
		}
		for k, d := range docs {
			w := want[num.at[d]]
			if !slices.Equal(got[k].terms, w.terms) || !slices.Equal(got[k].q, w.q) {
				t.Errorf("pass %d: document %d = %v %v, want %v %v", pass, d, got[k].terms, got[k].q, w.terms, w.q)
			}
		}
	}

	short, err := newSpill(t.TempDir(), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer short.close()
	short.put(0, []uint32{1}, []uint8{1})
	err = short.each(numberDocs([]string{"a", "b"}))(func(int, []uint32, []uint8) {})
	if err == nil || !strings.Contains(err.Error(), "skill 1 has no search record") {
		t.Errorf("a skill without an entry: error %v", err)
	}
}
