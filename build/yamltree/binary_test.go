package yamltree

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// sameTree reports how a and b differ, "" when they are the same tree:
// the same types at every place (int is not int64, a nil list is not an
// empty one), the same keys in the same order, the same numeric keys, the
// same float bits (NaN included).
func sameTree(a, b any, path string) string {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return fmt.Sprintf("%s: %T, want %T", path, b, a)
	}
	switch x := a.(type) {
	case float64:
		if math.Float64bits(x) != math.Float64bits(b.(float64)) {
			return fmt.Sprintf("%s: %v, want %v", path, b, x)
		}
	case *big.Int:
		if x.Cmp(b.(*big.Int)) != 0 {
			return fmt.Sprintf("%s: %v, want %v", path, b, x)
		}
	case []string:
		y := b.([]string)
		if (x == nil) != (y == nil) || len(x) != len(y) {
			return fmt.Sprintf("%s: %#v, want %#v", path, y, x)
		}
		for i := range x {
			if x[i] != y[i] {
				return fmt.Sprintf("%s[%d]: %q, want %q", path, i, y[i], x[i])
			}
		}
	case []any:
		y := b.([]any)
		if (x == nil) != (y == nil) || len(x) != len(y) {
			return fmt.Sprintf("%s: %d items (nil %v), want %d (nil %v)", path, len(y), y == nil, len(x), x == nil)
		}
		for i := range x {
			if d := sameTree(x[i], y[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case *Map:
		y := b.(*Map)
		if (x == nil) != (y == nil) || x.Len() != y.Len() {
			return fmt.Sprintf("%s: %d keys, want %d", path, y.Len(), x.Len())
		}
		for i := range x.Len() {
			if x.entries[i].key != y.entries[i].key || x.numericAt(i) != y.numericAt(i) {
				return fmt.Sprintf("%s: key %d is %q %+v, want %q %+v", path, i, y.entries[i].key, y.numericAt(i), x.entries[i].key, x.numericAt(i))
			}
			if d := sameTree(x.entries[i].value, y.entries[i].value, path+"."+x.entries[i].key); d != "" {
				return d
			}
			if j := y.find(x.entries[i].key); j != i {
				return fmt.Sprintf("%s: key %q found at %d, want %d", path, x.entries[i].key, j, i)
			}
		}
	default:
		if a != b {
			return fmt.Sprintf("%s: %#v, want %#v", path, b, a)
		}
	}
	return ""
}

// roundTrip encodes v and reads it back.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := AppendBinary(nil, v)
	if err != nil {
		t.Fatalf("AppendBinary: %v", err)
	}
	got, err := ReadBinary(b)
	if err != nil {
		t.Fatalf("ReadBinary of what AppendBinary wrote: %v", err)
	}
	return got
}

// TestBinaryRoundTrip: every type a tree holds reads back as it was
// written, in trees built by hand and in every document of the Python
// vectors and the UASP corpus.
func TestBinaryRoundTrip(t *testing.T) {
	large := NewMap()
	for i := range 40 {
		large.Set(fmt.Sprintf("key%02d", 39-i), i)
	}
	numeric, _, err := Decode([]byte("{1: one, 2.5: two, x: three, null: four, true: five}"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	nested := NewMap()
	nested.Set("list", []any{"a", int64(-3), 1.5, nil, true, false, []any{}, []any(nil), NewMap(), (*Map)(nil)})
	nested.Set("strings", []string{"x", "", "é😀"})
	nested.Set("no strings", []string(nil))
	nested.Set("empty strings", []string{})
	nested.Set("big", new(big.Int).Lsh(big.NewInt(3), 100))
	nested.Set("when", Timestamp("2024-01-02"))
	nested.Set("int", math.MinInt64)
	nested.Set("int64", int64(math.MaxInt64))
	nested.Set("floats", []any{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324})
	nested.Set("large", large)
	nested.Set("numeric", numeric)
	cases := map[string]any{
		"nil": nil, "true": true, "string": "text", "nested": nested, "empty map": NewMap(),
	}
	for _, v := range pythonVectors(t) {
		if val, _, err := Decode([]byte(v.YAML), DefaultLimits); err == nil {
			cases["vector "+v.Name] = val
		}
	}
	uasp := testutil.Testdata(t, "corpus", "uasp")
	err = filepath.WalkDir(uasp, func(p string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if val, _, err := Decode(src, DefaultLimits); err == nil {
			cases["corpus "+filepath.Base(p)] = val
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			if d := sameTree(v, roundTrip(t, v), "$"); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestBinaryRefusesOtherTypes: a value no tree holds is an error, not a
// silent loss.
func TestBinaryRefusesOtherTypes(t *testing.T) {
	m := NewMap()
	m.Set("x", []int{1})
	for _, v := range []any{struct{}{}, []any{uint8(1)}, m, (*big.Int)(nil)} {
		if _, err := AppendBinary(nil, v); err == nil {
			t.Errorf("%#v encoded", v)
		}
	}
}

// FuzzBinary: any YAML document that decodes reads back the same after
// its binary form, and ReadBinary of any bytes either fails or gives a
// tree that round-trips.
func FuzzBinary(f *testing.F) {
	for _, s := range []string{"a: 1", "{1: x, 2.5: y}", "- [a, b]\n- {c: 2020-01-01}", "x: .nan\ny: 123456789012345678901234567890"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, _, err := Decode(data, DefaultLimits); err == nil {
			if d := sameTree(v, roundTrip(t, v), "$"); d != "" {
				t.Fatal(d)
			}
		}
		v, err := ReadBinary(data)
		if err != nil {
			return
		}
		if d := sameTree(v, roundTrip(t, v), "$"); d != "" {
			t.Fatalf("read from arbitrary bytes, then round-tripped: %s", d)
		}
	})
}

// TestReadBinaryAllocatesByInput: corrupt input whose every nested list
// claims all the bytes left allocates in proportion to the input, not to
// its square.
func TestReadBinaryAllocatesByInput(t *testing.T) {
	for _, size := range []int{4 << 10, 40 << 10} {
		// Built inside out: each list claims as many items as there are
		// bytes after its header, which passes the check on counts.
		b := []byte{binNil}
		for len(b) < size {
			b = append(binary.AppendUvarint([]byte{binList}, uint64(len(b))), b...)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := ReadBinary(b); err == nil {
			t.Fatalf("%d bytes of nested lists that claim more than there is read as a tree", len(b))
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 64*uint64(len(b))+1<<20 {
			t.Errorf("%d bytes of input allocated %d bytes", len(b), got)
		}
	}
}
