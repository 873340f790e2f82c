package arena

import (
	"strings"
	"testing"
)

func TestStrings(t *testing.T) {
	var a Strings
	long := strings.Repeat("x", blockSize)
	inputs := []string{"", "a", "skills/review/index.html", long, "é✓", strings.Repeat("y", blockSize/8), "after"}
	var got []string
	for range 200 { // many blocks
		for _, s := range inputs {
			got = append(got, a.String(s), a.StringOf([]byte(s)))
			b := a.Bytes(s)
			if string(b) != s || cap(b) != len(b) {
				t.Fatalf("Bytes(%.10q) = %.10q, cap %d", s, b, cap(b))
			}
			b = append(b, "!"...) // must not write into the block
			got = append(got, string(b[:len(s)]))
		}
	}
	for i, g := range got {
		if want := inputs[(i/3)%len(inputs)]; g != want {
			t.Fatalf("copy %d = %.20q, want %.20q", i, g, want)
		}
	}
}

func TestSlab(t *testing.T) {
	var s Slab[[2]int]
	var ps []*[2]int
	for i := range 3000 {
		ps = append(ps, s.New([2]int{i, -i}))
	}
	for i, p := range ps {
		if *p != [2]int{i, -i} {
			t.Fatalf("value %d = %v", i, *p)
		}
	}
}
