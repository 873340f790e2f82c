package uasp

import (
	"bufio"
	"encoding/json"
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
	base := testutil.Shared(t, "corpus", "uasp")
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
		meta, _ := getMap(d.Root, "meta")
		if v, _ := getString(meta, "version"); v != cols[2] {
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
