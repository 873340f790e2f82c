package uasp

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/schema"
	"github.com/skilldex/skilldex/build/yamltree"
)

// SchemaJSON is the JSON Schema of uasp.md section 3.1, byte for byte as
// the spec prints it (a test compares the two).
//
//go:embed schema.json
var SchemaJSON []byte

// errata are the changes skilldex makes to the schema as printed: the
// spec's own examples break it at these places, and what an example
// writes is taken as what the spec means. Each only accepts more.
var errata = []struct {
	// at is the place in the schema document the erratum replaces.
	at []string
	// schema is what it puts there.
	schema string
}{
	// Section 8.2 gives the reference entry erd.attributes a list
	// (constraints: ["PK", "FK", "UK", "NN"]), but ReferenceEntry allows
	// only text for keys other than syntax, example, notes and values. The
	// reference implementation's schema (src/uasp/schema/skill.json of
	// ifoster01/uasp) widens those keys to text or a list of text.
	{[]string{"definitions", "ReferenceEntry", "additionalProperties"},
		`{"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}`},
	// Section 5.11 writes default: null for an environment variable
	// without a default, but EnvironmentVar's default must be text.
	{[]string{"definitions", "EnvironmentVar", "properties", "default"},
		`{"type": ["string", "null"]}`},
}

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return compileSchema(true)
})

// compileSchema compiles the embedded schema, with the errata or as printed.
func compileSchema(withErrata bool) (*jsonschema.Schema, error) {
	doc, _, err := yamltree.Decode(SchemaJSON, yamltree.DefaultLimits)
	if err != nil {
		return nil, err
	}
	if withErrata {
		for _, e := range errata {
			fix, _, err := yamltree.Decode([]byte(e.schema), yamltree.DefaultLimits)
			if err != nil {
				return nil, err
			}
			parent, ok := valueAt(doc, e.at[:len(e.at)-1]).(*yamltree.Map)
			if !ok {
				return nil, fmt.Errorf("erratum at %s: no such place in the schema", strings.Join(e.at, "/"))
			}
			parent.Set(e.at[len(e.at)-1], fix)
		}
	}
	return schema.Compile("uasp-skill.json", doc)
}

// Problem is one way a document breaks the schema.
type Problem struct {
	// Path locates the value in the document: keys and list indexes.
	Path []string
	// Message says what is wrong and what to change, starting with the
	// value's location written as Where writes it.
	Message string
}

// Validate checks a document (a yamltree value) against the UASP schema and
// returns its problems, in document order; nil when it conforms.
func Validate(doc any) []Problem {
	// A document of the shapes skilldex writes is checked without the
	// validator, to the same answer (see conforms).
	if _, err := compiled(); err == nil && conforms(doc) {
		return nil
	}
	return validateWith(compiled, doc)
}

func validateWith(compile func() (*jsonschema.Schema, error), doc any) []Problem {
	sch, err := compile()
	if err != nil {
		// The embedded schema compiles (a test checks); this cannot happen
		// unless the binary is broken, and then no document is valid.
		return []Problem{{Message: "the UASP schema does not compile: " + err.Error()}}
	}
	inst, err := schema.Instance(doc)
	if err != nil {
		return []Problem{{Message: "the document cannot be read as JSON: " + err.Error()}}
	}
	verr := sch.Validate(inst)
	if verr == nil {
		return nil
	}
	ps := schema.Problems(verr)
	// The validator visits properties in map order; reports come in the
	// document's order, so that they are the same every run.
	slices.SortStableFunc(ps, func(a, b schema.Problem) int {
		return slices.Compare(docOrder(doc, a.Path), docOrder(doc, b.Path))
	})
	return advise(doc, ps)
}

// docOrder turns a path into positions: the index of each key in its
// mapping, of each item in its list.
func docOrder(v any, path []string) []int {
	out := make([]int, 0, len(path))
	for _, seg := range path {
		switch x := v.(type) {
		case *yamltree.Map:
			i := slices.Index(x.Keys(), seg)
			out = append(out, i)
			v, _ = x.Get(seg)
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return append(out, -1)
			}
			out = append(out, i)
			v = x[i]
		default:
			return append(out, -1)
		}
	}
	return out
}

// advise words the validator's problems for people. The leaves one oneOf
// gives at one place ("want string", "want array") become one problem
// naming every accepted form.
func advise(doc any, ps []schema.Problem) []Problem {
	var out []Problem
	typeAt := map[string]int{} // location -> index in out of its type problem
	wants := map[string][]string{}
	refSeen := map[string]bool{}
	for _, p := range ps {
		// ReferenceEntry's erratum's oneOf fails on both of its branches, item by item;
		// say once what a reference entry's other keys may hold.
		if len(p.Path) >= 3 && p.Path[0] == "reference" && !isReferenceField(p.Path[2]) {
			at := p.Path[:3]
			k := strings.Join(at, "\x00")
			if !refSeen[k] {
				refSeen[k] = true
				out = append(out, Problem{Path: slices.Clone(at), Message: fmt.Sprintf(
					"%s is %s but must be text or a list of text; change its value", Where(at), jsonKind(jsonType(valueAt(doc, at))))})
			}
			continue
		}
		key := strings.Join(p.Path, "\x00")
		if t, ok := p.Kind.(*kind.Type); ok {
			if i, seen := typeAt[key]; seen {
				for _, w := range t.Want {
					if !slices.Contains(wants[key], w) {
						wants[key] = append(wants[key], w)
					}
				}
				out[i].Message = typeMessage(p.Path, t.Got, wants[key])
				continue
			}
			typeAt[key] = len(out)
			wants[key] = slices.Clone(t.Want)
		}
		msg := adviceFor(doc, p)
		if len(out) > 0 && out[len(out)-1].Message == msg {
			continue
		}
		out = append(out, Problem{Path: slices.Clone(p.Path), Message: msg})
	}
	return out
}

// isReferenceField reports the keys ReferenceEntry defines itself.
func isReferenceField(k string) bool {
	return k == "syntax" || k == "example" || k == "notes" || k == "values"
}

// valueAt returns the value at path, or nil.
func valueAt(v any, path []string) any {
	for _, seg := range path {
		switch x := v.(type) {
		case *yamltree.Map:
			v, _ = x.Get(seg)
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// jsonType names a value's JSON type as the validator does.
func jsonType(v any) string {
	switch v.(type) {
	case *yamltree.Map:
		return "object"
	case []any:
		return "array"
	case string, yamltree.Timestamp:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "number"
}

func typeMessage(path []string, got string, want []string) string {
	return fmt.Sprintf("%s is %s but must be %s; change its value", Where(path), jsonKind(got), article(want))
}

func article(want []string) string {
	var parts []string
	for _, w := range want {
		switch w {
		case "object":
			parts = append(parts, "a mapping")
		case "array":
			parts = append(parts, "a list")
		case "string":
			parts = append(parts, "text")
		case "boolean":
			parts = append(parts, "true or false")
		case "null":
			parts = append(parts, "empty (null)")
		case "integer":
			parts = append(parts, "a whole number")
		default:
			parts = append(parts, "a "+w)
		}
	}
	return strings.Join(parts, " or ")
}

func jsonKind(t string) string {
	switch t {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "string":
		return "text"
	case "null":
		return "empty (null)"
	case "boolean":
		return "a boolean"
	case "integer":
		return "a whole number"
	}
	return "a " + t
}

func adviceFor(doc any, p schema.Problem) string {
	where := Where(p.Path)
	switch k := p.Kind.(type) {
	case *kind.Required:
		var fields []string
		for _, m := range k.Missing {
			fields = append(fields, m+":")
		}
		if len(fields) == 1 {
			return fmt.Sprintf("%s lacks %s, which the UASP schema requires; add it", where, fields[0])
		}
		return fmt.Sprintf("%s lacks %s, which the UASP schema requires; add them", where, strings.Join(fields, " and "))
	case *kind.Type:
		return typeMessage(p.Path, k.Got, k.Want)
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		return fmt.Sprintf("%s is %q; use one of %s", where, fmt.Sprint(k.Got), strings.Join(want, ", "))
	case *kind.Pattern:
		if len(p.Path) == 2 && p.Path[0] == "meta" && p.Path[1] == "name" {
			return fmt.Sprintf("%s %q must start with a lowercase letter and hold only lowercase letters, digits and hyphens", where, k.Got)
		}
		return fmt.Sprintf("%s %q does not match the pattern %s", where, k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("%s is %d characters long; shorten it to at most %d", where, k.Got, k.Want)
	case *kind.AdditionalProperties:
		return fmt.Sprintf("%s has %s, which the UASP schema does not allow there; remove or rename it", where, strings.Join(k.Properties, ", "))
	case *kind.OneOf:
		return fmt.Sprintf("%s matches none of the forms the UASP schema allows", where)
	}
	_ = doc
	return fmt.Sprintf("%s: %s", where, p.Message)
}

// Where writes a location in a document as people read YAML paths: keys
// joined by dots, a key holding a dot or blank in quotes and brackets,
// list indexes in brackets: commands.open.args[0].type,
// reference["erd.attributes"].constraints. The root is "the document".
func Where(path []string) string {
	if len(path) == 0 {
		return "the document"
	}
	var b strings.Builder
	for i, seg := range path {
		if _, err := strconv.Atoi(seg); err == nil && i > 0 {
			b.WriteString("[" + seg + "]")
			continue
		}
		if seg == "" || strings.ContainsAny(seg, ".[]\" ") {
			b.WriteString("[" + strconv.Quote(seg) + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

// nodePos returns the position that best shows path in the YAML: the key
// when the value sits in a mapping, else the value, else the deepest node
// on the way.
func nodePos(root *yaml.Node, path []string) diag.Pos {
	if root == nil {
		return diag.Pos{Line: 1, Column: 1}
	}
	if len(path) > 0 {
		parent, ok := yamltree.Lookup(root, path[:len(path)-1])
		if ok {
			for parent.Kind == yaml.AliasNode && parent.Alias != nil {
				parent = parent.Alias
			}
			if k, _ := yamltree.MapEntry(parent, path[len(path)-1]); k != nil {
				return diag.Pos{Line: k.Line, Column: k.Column}
			}
		}
	}
	n, _ := yamltree.Lookup(root, path)
	if n == nil || n.Line == 0 {
		return diag.Pos{Line: 1, Column: 1}
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	return diag.Pos{Line: n.Line, Column: n.Column}
}
