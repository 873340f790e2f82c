package uasp_test

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/derive"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testskills"

	"github.com/skilldex/skilldex/build/yamltree"
)

// TestConformsOnCorpus checks, for the document of every corpus skill
// (derived or written by its author), that conforms is never wrong: a
// document it accepts is one the validator accepts. Every derived
// document must conform, or Validate would gain nothing.
func TestConformsOnCorpus(t *testing.T) {
	docs := corpusDocs(t)
	derived, given := 0, 0
	for _, d := range docs {
		ok := uasp.Conforms(d.Root)
		if ok && len(uasp.FullValidate(d.Root)) != 0 {
			t.Errorf("%s: conforms, but the validator says %v", d.Name(), uasp.FullValidate(d.Root))
		}
		if d.Derived {
			derived++
			if !ok {
				t.Errorf("%s: derived document does not conform (valid: %v)", d.Name(), d.Valid())
			}
		} else {
			given++
		}
	}
	if derived < 400 || given < 10 {
		t.Errorf("%d derived and %d given documents; the corpus is missing", derived, given)
	}
}

// TestConformsOnMutations breaks the corpus's documents at random (a value
// replaced by one of another kind, a key removed or added) and checks that
// conforms never accepts what the validator rejects.
func TestConformsOnMutations(t *testing.T) {
	docs := corpusDocs(t)
	rnd := rand.New(rand.NewPCG(11, 12))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	rejected, accepted := 0, 0
	for i := range n {
		d := docs[rnd.IntN(len(docs))]
		root := yamltree.Clone(d.Root).(*yamltree.Map)
		for range 1 + rnd.IntN(2) {
			mutate(rnd, root)
		}
		problems := uasp.FullValidate(root)
		if len(problems) != 0 {
			rejected++
		}
		if uasp.Conforms(root) {
			accepted++
			if len(problems) != 0 {
				y, _ := yamltree.JSON(root, "  ")
				t.Fatalf("mutation %d of %s: conforms, but the validator says %v\n%s", i, d.Name(), problems, y)
			}
		}
	}
	t.Logf("%d mutations: %d rejected by the validator, %d accepted by conforms", n, rejected, accepted)
	if rejected < n/4 || accepted < n/20 {
		t.Errorf("%d of %d mutations rejected, %d accepted: the test proves little", rejected, n, accepted)
	}
}

// TestStreamHashOnCorpus checks the hash stamp computes against the hash
// of yamltree.PythonJSON on every corpus document (see
// TestStreamHashMatchesHashJSON for random trees).
func TestStreamHashOnCorpus(t *testing.T) {
	for _, d := range corpusDocs(t) {
		if got, want := uasp.StreamHash(d.Root), uasp.HashJSON(d.Root); got != want {
			t.Errorf("%s: streamHash %s, hashJSON %s", d.Name(), got, want)
		}
	}
}

// corpusDocs returns the documents of the corpus's skills.
func corpusDocs(t *testing.T) []*uasp.Document {
	t.Helper()
	var docs []*uasp.Document
	for _, dir := range []string{"skills", "usk", "uasp"} {
		for _, s := range testskills.Corpus(t, dir) {
			if d, _ := derive.ForSkill(s); d != nil {
				docs = append(docs, d)
			}
		}
	}
	return docs
}

// oddValues are what a mutation puts in place of a value: every kind of
// value, and text the schema's pattern, enum, maxLength and format read.
var oddValues = []func() any{
	func() any { return "" },
	func() any { return "text" },
	func() any { return "Not-A-Name" },
	func() any { return "a-name-2" },
	func() any { return "knowledge" },
	func() any { return "hybrid " },
	func() any { return int64(3) },
	func() any { return 1.5 },
	func() any { return big.NewInt(7) },
	func() any { return true },
	func() any { return nil },
	func() any { return yamltree.Timestamp("2024-01-01") },
	func() any { return []any{} },
	func() any { return []any{"a", "b"} },
	func() any { return []any{int64(1)} },
	func() any { return []any{yamltree.NewMap()} },
	func() any { return yamltree.NewMap() },
	func() any { m := yamltree.NewMap(); m.Set("name", "x"); m.Set("type", "string"); return m },
	func() any { m := yamltree.NewMap(); m.Set("syntax", "x"); return m },
	func() any { return strings.Repeat("a", 500) },
	func() any { return strings.Repeat("a", 501) },
	func() any { return strings.Repeat("é", 500) },
	func() any { return strings.Repeat("é", 501) },
	func() any { return "https://example.com/a b" },
	func() any { return "https://[::1]:80/x" },
	func() any { return "https://[::1/x" },
	func() any { return "http://a:b:c/" },
	func() any { return "relative/path" },
	func() any { return "mailto:a@b.c" },
	func() any { return "https://example.com/%zz" },
	func() any { return "ht tp://x" },
}

// oddKeys are keys a mutation adds: the schema's, in the wrong places, and
// others.
var oddKeys = []string{"x", "state", "reference", "global_flags", "aliases", "name", "type", "required", "default", "url",
	"steps", "cmd", "optional", "description", "syntax", "meta", "version", "invariants", "when", "then", "use", "over"}

// mutate changes one place of root: a value, or a mapping's key.
func mutate(rnd *rand.Rand, root *yamltree.Map) {
	var maps []*yamltree.Map
	type slot struct {
		list []any
		i    int
	}
	var slots []slot
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *yamltree.Map:
			maps = append(maps, x)
			for _, e := range x.All() {
				walk(e)
			}
		case []any:
			for i, e := range x {
				slots = append(slots, slot{x, i})
				walk(e)
			}
		}
	}
	walk(root)
	odd := oddValues[rnd.IntN(len(oddValues))]()
	switch op := rnd.IntN(4); {
	case op == 0 && len(slots) > 0:
		s := slots[rnd.IntN(len(slots))]
		s.list[s.i] = odd
	default:
		m := maps[rnd.IntN(len(maps))]
		keys := m.Keys()
		switch {
		case op == 1 && len(keys) > 0:
			m.Delete(keys[rnd.IntN(len(keys))])
		case op == 2:
			k := oddKeys[rnd.IntN(len(oddKeys))]
			if rnd.IntN(4) == 0 {
				k += strconv.Itoa(rnd.IntN(10))
			}
			m.Set(k, odd)
		case len(keys) > 0:
			m.Set(keys[rnd.IntN(len(keys))], odd)
		default:
			m.Set(oddKeys[rnd.IntN(len(oddKeys))], odd)
		}
	}
}
