package derive

import (
	"sort"
	"strconv"
	"testing"

	"github.com/skilldex/skilldex/build/yamltree"
)

func decodeMap(tb testing.TB, src []byte) *yamltree.Map {
	tb.Helper()
	v, _, err := yamltree.Decode(src, yamltree.DefaultLimits)
	if err != nil {
		tb.Fatalf("decode: %v", err)
	}
	m, ok := v.(*yamltree.Map)
	if !ok {
		tb.Fatalf("not a mapping: %T", v)
	}
	return m
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }
