package index

import (
	"slices"
	"strings"
	"testing"
)

// TestSpill: entries written in any order are read back in skill order,
// as written; a skill without an entry is an error, not a gap.
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
		err := s.each(func(i int, terms []uint32, q []uint8) {
			if i != len(got) {
				t.Fatalf("pass %d: skill %d after %d skills", pass, i, len(got))
			}
			got = append(got, entry{slices.Clone(terms), slices.Clone(q)})
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !slices.Equal(got[i].terms, want[i].terms) || !slices.Equal(got[i].q, want[i].q) {
				t.Errorf("pass %d: skill %d = %v %v, want %v %v", pass, i, got[i].terms, got[i].q, want[i].terms, want[i].q)
			}
		}
	}

	short, err := newSpill(t.TempDir(), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer short.close()
	short.put(0, []uint32{1}, []uint8{1})
	err = short.each(func(int, []uint32, []uint8) {})
	if err == nil || !strings.Contains(err.Error(), "skill 1 has no search record") {
		t.Errorf("a skill without an entry: error %v", err)
	}
}
