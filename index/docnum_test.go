package index

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkNumbers checks that num numbers names as docnum.go says: distinct
// numbers, at or after each name's home, in (home, name) order, each the
// first free one after the previous document's, within a space of twice
// as many numbers as names (rounded up to a power of two) and its
// overflow.
func checkNumbers(t *testing.T, names []string, num docNumbers) {
	t.Helper()
	if len(num.of) != len(names) {
		t.Fatalf("%d numbers for %d names", len(num.of), len(names))
	}
	space := 2
	for space < 2*len(names) {
		space *= 2
	}
	home := func(i int) uint64 {
		hi, _ := bits.Mul64(mix(nameHash(names[i])), uint64(space)) // ⌊hash × space / 2⁶⁴⌋
		return hi
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(home(a), home(b)), cmp.Compare(names[a], names[b])) })
	next := int32(0)
	for _, i := range order {
		d := num.of[i]
		want := max(int32(home(i)), next)
		if d != want {
			t.Fatalf("%s (home %d) has number %d, want %d", names[i], home(i), d, want)
		}
		if num.at[d] != int32(i) {
			t.Fatalf("number %d is of document %d, want %d", d, num.at[d], i)
		}
		next = d + 1
	}
	if num.size() != int(next) {
		t.Errorf("%d numbers, want %d", num.size(), next)
	}
	used := 0
	for _, i := range num.at {
		if i >= 0 {
			used++
		}
	}
	if used != len(names) {
		t.Errorf("%d numbers used by %d names", used, len(names))
	}
	// Homes spread over the space: documents are rarely far from theirs
	// (half a number on average with half the space used, for a uniform
	// hash; thousands when FNV-1a's top bits were taken unmixed).
	displaced := 0
	for i, d := range num.of {
		displaced += int(uint64(d) - home(i))
	}
	if len(names) >= 1000 && displaced > len(names) {
		t.Errorf("%d names are %d numbers from their homes in all: the hash does not spread them", len(names), displaced)
	}
}

func TestNumberDocs(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17, 1000, 4096} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("skill-%05d", i)
		}
		num := numberDocs(names)
		checkNumbers(t, names, num)
		// The order names are given in changes nothing.
		shuffled := slices.Clone(names)
		rand.New(rand.NewPCG(1, uint64(n))).Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again := numberDocs(shuffled)
		for i, name := range shuffled {
			if want := num.of[slices.Index(names, name)]; again.of[i] != want {
				t.Fatalf("%d names: %s numbered %d given shuffled, %d in order", n, name, again.of[i], want)
			}
		}
	}
}

// TestNumbersSurviveAdditions is why documents are numbered by hash: a
// name added to or removed from a catalog renumbers only the documents
// of its run, one or two on average, wherever it sorts.
func TestNumbersSurviveAdditions(t *testing.T) {
	const n = 10000
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("skill-%05d", i)
	}
	before := numberDocs(names)
	numberOf := map[string]int32{}
	for i, name := range names {
		numberOf[name] = before.of[i]
	}
	moved, most := 0, 0
	const additions = 200
	for k := range additions {
		// Names among the others, that differ from one in their last
		// bytes only.
		added := append(slices.Clone(names), fmt.Sprintf("skill-%05d-b", 37*k))
		after := numberDocs(added)
		m := 0
		for i, name := range names {
			if after.of[i] != numberOf[name] {
				m++
			}
		}
		moved += m
		most = max(most, m)
	}
	t.Logf("%d additions to %d names: %d documents renumbered in all, at most %d by one", additions, n, moved, most)
	if moved > 3*additions || most > 20 {
		t.Errorf("%d additions to %d names renumbered %d documents (at most %d by one); want at most %d, 20 by one", additions, n, moved, most, 3*additions)
	}
}

func TestNameOrder(t *testing.T) {
	for _, tc := range []struct {
		byName, docs, want []int32
	}{
		{[]int32{7, 2, 9}, []int32{9, 2, 7}, []int32{7, 2, 9}},
		// Not listed (a damaged index): last, by number; listed twice:
		// at the first place.
		{[]int32{7, 2, 7}, []int32{9, 4, 2, 7}, []int32{7, 2, 4, 9}},
		{nil, []int32{9, 4, 2}, []int32{2, 4, 9}},
	} {
		got := slices.Clone(tc.docs)
		slices.SortFunc(got, NameOrder(tc.byName))
		if !slices.Equal(got, tc.want) {
			t.Errorf("NameOrder(%v) sorts %v as %v, want %v", tc.byName, tc.docs, got, tc.want)
		}
	}
}

// FuzzDocNumbers feeds arbitrary bytes as a bleve index's document
// numbers (docsKey's value): setDocs gives an error or a consistent
// mapping, never a panic or an allocation the value's size does not
// warrant.
func FuzzDocNumbers(f *testing.F) {
	valid := func(names ...string) []byte {
		return internalValues(nil, nil, numberDocs(names))[docsKey]
	}
	f.Add(valid("alpha", "beta", "gamma"), 3)
	f.Add(valid("x"), 1)
	f.Add([]byte{}, 0)
	f.Add([]byte{}, 2)
	f.Add([]byte{1, 1}, 2)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 1)
	f.Fuzz(func(t *testing.T, value []byte, n int) {
		if n < 0 || n > 1<<12 {
			return
		}
		var sh bleveShared
		if err := sh.setDocs(value, n); err != nil {
			return
		}
		if len(sh.docs) != n || len(sh.internal) > 5*n+2 {
			t.Fatalf("%d documents, %d numbers, for n = %d", len(sh.docs), len(sh.internal), n)
		}
		for i, d := range sh.docs {
			if sh.internal[d] != int32(i) {
				t.Fatalf("document %d has number %d, which maps back to %d", i, d, sh.internal[d])
			}
		}
	})
}

// TestSetDocs: the numbers a build stores for bleve are read back; an
// index without them (an earlier skilldex), a number twice, a number out
// of the space or a count that differs is refused.
func TestSetDocs(t *testing.T) {
	names := []string{"alpha", "beta", "delta", "gamma"}
	num := numberDocs(names)
	var sh bleveShared
	if err := sh.setDocs(internalValues(nil, nil, num)[docsKey], len(names)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sh.docs, num.of) {
		t.Errorf("read %v, stored %v", sh.docs, num.of)
	}
	for _, tc := range []struct {
		value []byte
		n     int
		want  string
	}{
		{nil, 4, "no document numbers"},
		{[]byte{1, 1}, 2, "two documents have number 1"},
		{[]byte{1, 2}, 3, "numbers 2 documents of 3"},
		{[]byte{1, 200, 1}, 2, "damaged"},
	} {
		var sh bleveShared
		if err := sh.setDocs(tc.value, tc.n); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("setDocs(%v, %d) = %v, want an error saying %q", tc.value, tc.n, err, tc.want)
		}
	}
}
