package yamltree

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

type vector struct {
	Name string `json:"name"`
	YAML string `json:"yaml"`
	JSON string `json:"json"`
}

// pythonVectors reads the vectors made by the real PyYAML safe_load and
// json.dumps (testdata/gen_vectors.py).
func pythonVectors(tb testing.TB) []vector {
	tb.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		tb.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		tb.Fatal(err)
	}
	return vs
}

// TestPythonVectors checks decoding and encoding against outputs of the real
// PyYAML safe_load and json.dumps (testdata/gen_vectors.py).
func TestPythonVectors(t *testing.T) {
	vs := pythonVectors(t)
	if len(vs) < 10 {
		t.Fatalf("only %d vectors", len(vs))
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			val, _, err := Decode([]byte(v.YAML), DefaultLimits)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			got, err := PythonJSON(val)
			if err != nil {
				t.Fatalf("PythonJSON: %v", err)
			}
			if string(got) != v.JSON {
				t.Errorf("got  %s\nwant %s", got, v.JSON)
			}
		})
	}
}

func TestPyFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{1e-4, "0.0001"}, {1e-5, "1e-05"}, {-2.5e-10, "-2.5e-10"}, {123.456, "123.456"},
		{math.MaxFloat64, "1.7976931348623157e+308"}, {5e-324, "5e-324"}, {math.Copysign(0, -1), "-0.0"},
		{1.5e300, "1.5e+300"}, {12345678901234567, "1.2345678901234568e+16"},
	} {
		if got := pyFloat(c.f); got != c.want {
			t.Errorf("pyFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestJSONKeepsOrder(t *testing.T) {
	v, _, err := Decode([]byte("b: 1\na: [x, 2.0, {c: null}]\nc: \"é\\u2028\"\n"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	got, err := JSON(v, "")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":1,"a":["x",2.0,{"c":null}],"c":"é\u2028"}`
	if string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	indented, _ := JSON(v, "  ")
	if !strings.Contains(string(indented), "\n  \"a\": [\n    \"x\",") {
		t.Errorf("indented output:\n%s", indented)
	}
}

func TestLimits(t *testing.T) {
	bomb := `a: &a ["x","x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
`
	cases := map[string]string{
		"alias bomb": bomb,
		"deep":       strings.Repeat("[", 100) + strings.Repeat("]", 100),
		"two docs":   "a: 1\n---\nb: 2\n",
		"bad tag":    "a: !python/object:os.system x\n",
		"syntax":     "a: b\n c: d\n  - e\n",
	}
	for name, src := range cases {
		_, _, err := Decode([]byte(src), DefaultLimits)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		e, ok := err.(*Error)
		if !ok || e.Line == 0 {
			t.Errorf("%s: error without a position: %v", name, err)
		}
	}
}

// TestErrorLines checks that a syntax error names the line to change.
// The parser names the line of the construct the problem is in, and for
// some problems one less than that.
func TestErrorLines(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
	}{
		{"unclosed [", "name: a\ndescription: b\nx: 1\ntags: [a, b\n", 4, 7},
		{"unclosed { on the second line", "name: a\nd: {a: 1, b\n", 2, 4},
		{"unclosed [ on the first line", "tags: [a, b\nname: a\n", 1, 7},
		{"key indented less", "name: a\nx:\n    a: 1\n  b: 2\nc: 3\n", 4, 3},
		{"key after a list", "name: a\nlist:\n  - a\n  - b\n c: 1\n", 5, 2},
		{"key after a block scalar", "x: 1\nz: |\n  ok\n w: 1\n", 4, 2},
		{"colon in a plain value", "name: a\nx: 1\n  y: z: w\n", 3, 3},
		{"tab", "name: a\n\tdescription: b\n", 2, 2},
		{"unclosed quote after an apostrophe and a closed one", "name: a\nd: it's \"x\" y\nt: ['a', \"b\", [c], 'it''s', \"\\\"d\n", 3, 4},
		{"unclosed quote in a list, on a line with a comment", "name: a\nt:\n  - 'abc # not a comment\n", 3, 5},
		{"unclosed quote after a multi-byte key", "name: a\ndé: \"ü\n", 2, 5},
		{"unclosed quote", "name: a\ndescription: \"abc\nx: 1\n", 2, 14},
		// A prefix cut inside an earlier multi-line value fails alike.
		{"unclosed quote after a multi-line one", "a: \"x\n  y\"\nb: \"c\ne: 1\n", 3, 4},
		{"unclosed [ after a multi-line list", "a: [x\n  , y]\nb: 1\nc: [d\n", 4, 4},
		{"carriage returns alone", "a: 1\rb: 2\rc: [d\r", 3, 4},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src), DefaultLimits)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
			continue
		}
		if e.Line != c.line || e.Column != c.col {
			t.Errorf("%s: line %d, column %d (%s); want line %d, column %d", c.name, e.Line, e.Column, e.Msg, c.line, c.col)
		}
		// Each of these problems has advice (syntaxAdvice), in parentheses.
		if !strings.HasSuffix(e.Msg, ")") {
			t.Errorf("%s: %q says nothing of what to change", c.name, e.Msg)
		}
	}
}

func TestLookup(t *testing.T) {
	n, err := Parse([]byte("a:\n  b:\n    - x\n    - y: 1\n"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	got, exact := Lookup(n, []string{"a", "b", "1", "y"})
	if !exact || got.Line != 4 || got.Column != 10 {
		t.Errorf("Lookup = line %d col %d exact %v", got.Line, got.Column, exact)
	}
	got, exact = Lookup(n, []string{"a", "missing"})
	if exact || got.Line != 2 {
		t.Errorf("Lookup missing = line %d exact %v", got.Line, exact)
	}
}

// FuzzDecode checks that no input makes the decoder or encoders panic, and
// that whatever decodes also encodes.
func FuzzDecode(f *testing.F) {
	data, _ := os.ReadFile("testdata/vectors.json")
	var vs []vector
	_ = json.Unmarshal(data, &vs)
	for _, v := range vs {
		f.Add([]byte(v.YAML))
	}
	uasp := testutil.Testdata(f, "corpus", "uasp")
	_ = filepath.WalkDir(uasp, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".yaml") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, src []byte) {
		v, _, err := Decode(src, DefaultLimits)
		if err != nil {
			return
		}
		if _, err := PythonJSON(v); err != nil {
			t.Fatalf("decoded but cannot encode: %v", err)
		}
		if _, err := JSON(v, " "); err != nil {
			t.Fatalf("decoded but cannot encode: %v", err)
		}
	})
}

// FuzzJSONString: AppendJSONString quotes as encoding/json does with HTML
// escaping off.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"quoted\" \\ back", "tab\tnl\ncr\rbs\bff\f\x00\x1f", "<b>&</b>", "\u2028\u2029", "\xff\xfe", "é😀", "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString(nil, s); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Fatalf("%q quoted as %q, want %q", s, got, want.String())
		}
	})
}
