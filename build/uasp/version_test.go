package uasp

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/testutil"
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

// TestVersionVectorsTSV checks every row of the corpus's VERSION_VECTORS.tsv:
// the recomputed column is what the spec's Python gives.
func TestVersionVectorsTSV(t *testing.T) {
	base := testutil.Testdata(t, "corpus", "uasp")
	f, err := os.Open(filepath.Join(base, "VERSION_VECTORS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	rows := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows++
		src, err := os.ReadFile(filepath.Join(base, "ifoster01__uasp", cols[0]))
		if err != nil {
			t.Fatal(err)
		}
		root := decodeMap(t, src)
		if got := ContentVersion(root); got != cols[2] {
			t.Errorf("%s: version %s, want %s", cols[0], got, cols[2])
		}
		d := NewDocument("", root)
		if d.DeclaredVersion != cols[1] || d.Version != cols[2] {
			t.Errorf("%s: declared %q computed %q, want %q %q", cols[0], d.DeclaredVersion, d.Version, cols[1], cols[2])
		}
		meta, _ := yamltree.GetAs[*yamltree.Map](d.Root, "meta")
		if v, _ := yamltree.GetAs[string](meta, "version"); v != cols[2] {
			t.Errorf("%s: published meta.version %q, want the computed %q", cols[0], v, cols[2])
		}
	}
	if rows != 10 {
		t.Errorf("%d rows, want 10", rows)
	}
}

// TestVersionVectors checks tricky content against versions computed by the
// spec's Python (testdata/gen_versions.py).
func TestVersionVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/version_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct{ Name, YAML, Version string }
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 9 {
		t.Fatalf("only %d vectors", len(vs))
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			root := decodeMap(t, []byte(v.YAML))
			if got := ContentVersion(root); got != v.Version {
				t.Errorf("version %s, want %s", got, v.Version)
			}
			// The version does not depend on meta.version nor on key order.
			d := NewDocument("x", root)
			if again := ContentVersion(d.Root); again != v.Version {
				t.Errorf("after stamping and reordering: %s, want %s", again, v.Version)
			}
		})
	}
}

func TestContentVersionIgnoresOnlyMetaVersion(t *testing.T) {
	a := decodeMap(t, []byte("meta: {name: a, version: x, type: cli}\n"))
	b := decodeMap(t, []byte("meta: {type: cli, version: y, name: a}\n"))
	c := decodeMap(t, []byte("meta: {name: a, type: cli, description: d}\n"))
	if ContentVersion(a) != ContentVersion(b) {
		t.Error("version depends on meta.version or key order")
	}
	if ContentVersion(a) == ContentVersion(c) {
		t.Error("version ignores meta.description")
	}
	// No meta at all: hashed whole, no panic.
	if v := ContentVersion(decodeMap(t, []byte("a: 1\n"))); len(v) != 8 {
		t.Errorf("version %q", v)
	}
}

// TestStreamHashMatchesHashJSON checks the hash stamp computes against the
// hash of yamltree.PythonJSON on random trees of every kind of value (text with escapes, invalid UTF-8 and
// characters above U+FFFF; numbers; dates; mappings whose keys were
// numbers in YAML, which Python sorts by value).
func TestStreamHashMatchesHashJSON(t *testing.T) {
	var decoded []any
	for _, y := range []string{"{10: a, 9: b, 1: c}", "{1.5: x, 1e3: y, -2: z}", "{.nan: a, .inf: b, -.inf: c}", "{true: a, null: b, 3: c}",
		"{'1': a, 2: b, 10: c}", "{a: 1, b: 2.5, c: 2024-01-02, d: ~, e: 123456789012345678901234567890, f: [1, 2.0e+20]}", "{}", "[]"} {
		v, _, err := yamltree.Decode([]byte(y), yamltree.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		decoded = append(decoded, v)
	}
	texts := []string{"", "plain", "quote\" back\\ slash", "\n\r\t\b\f\x00\x1f\x7f", "é日本", "😀 astral", "bad \xff\xfe utf-8", "\xe2\x80", "1", "10", "9",
		"NaN", "-1e+16", "N.aN", "meta"}
	rnd := rand.New(rand.NewPCG(51, 52))
	var tree func(depth int) any
	tree = func(depth int) any {
		switch k := rnd.IntN(9); {
		case k == 0 && depth < 4:
			m := yamltree.NewMap()
			for range rnd.IntN(5) {
				m.Set(texts[rnd.IntN(len(texts))], tree(depth+1))
			}
			return m
		case k == 1 && depth < 4:
			l := make([]any, rnd.IntN(4))
			for i := range l {
				l[i] = tree(depth + 1)
			}
			return l
		case k == 2:
			return decoded[rnd.IntN(len(decoded))]
		case k == 3:
			return rnd.IntN(2) == 0
		case k == 4:
			return []any{nil, int64(rnd.IntN(100)), rnd.Float64() * 1e20, yamltree.Timestamp("2024-01-01")}
		default:
			return texts[rnd.IntN(len(texts))]
		}
	}
	for range 20000 {
		v := tree(0)
		if got, want := streamHash(v), hashJSON(v); got != want {
			b, _ := yamltree.PythonJSON(v)
			t.Fatalf("streamHash %s, hashJSON %s, of %s", got, want, b)
		}
	}
	// A value PythonJSON cannot encode: both hash the error.
	bad := []any{"a", struct{}{}}
	if got, want := streamHash(bad), hashJSON(bad); got != want {
		t.Errorf("unencodable value: streamHash %s, hashJSON %s", got, want)
	}
}
