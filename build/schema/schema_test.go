package schema

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skilldex/skilldex/build/yamltree"
)

// TestInstanceMatchesJSON checks the direct conversion against the JSON
// round trip it replaces.
func TestInstanceMatchesJSON(t *testing.T) {
	src := "a: 1\nb: [1.5, true, null, x]\nc: {d: 12345678901234567890123, e: 1e3, f: 1.0e+3, g: .inf}\nh: 2024-01-01\n"
	v, _, err := yamltree.Decode([]byte(src), yamltree.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Instance(v)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := yamltree.JSON(v, "")
	want, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// Numbers may be spelled differently (1000.0 and 1000); compare values.
	norm := func(x any) any {
		var walk func(any) any
		walk = func(x any) any {
			switch y := x.(type) {
			case map[string]any:
				for k, e := range y {
					y[k] = walk(e)
				}
			case []any:
				for i, e := range y {
					y[i] = walk(e)
				}
			case interface{ Float64() (float64, error) }:
				f, _ := y.Float64()
				return f
			}
			return x
		}
		return walk(x)
	}
	if g, w := norm(got), norm(want); !reflect.DeepEqual(g, w) {
		t.Errorf("Instance = %#v\nJSON round trip = %#v", g, w)
	}
}

func TestCompileRefusesRefs(t *testing.T) {
	for _, ref := range []string{"file:///etc/passwd", "https://example.com/schema.json"} {
		doc := yamltree.NewMap()
		doc.Set("$ref", ref)
		if _, err := Compile("x", doc); err == nil {
			t.Errorf("a schema with $ref %s compiled: it must not be loaded", ref)
		}
	}
}
