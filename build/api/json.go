package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/build/yamltree"
)

// marshal encodes v as the API's JSON files are written: two-space
// indent, a final newline, and no HTML escaping (the files are served as
// application/json and never rendered, so "<" stays readable). Every value
// passed is built by this package and encodes; an error means a bug.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// tree embeds a yamltree value (a UASP document, frontmatter) in a JSON
// file with its keys in document order, which encoding/json's maps would
// sort.
type tree struct{ v any }

// MarshalJSON encodes the tree; a value yamltree cannot encode (none that
// its decoder produces) becomes null rather than failing the whole build.
func (t tree) MarshalJSON() ([]byte, error) {
	b, err := yamltree.JSON(t.v, "")
	if err != nil {
		return []byte("null"), nil
	}
	return b, nil
}

// appendJSON appends v as marshal encodes it, for the files written for
// every skill or rewritten on every rebuild (NAME.json, index.json, the
// session manifest, the discovery index). The struct types are the one
// definition of each file: their fields are read from their json tags
// once a type, and each value is written straight into b. encoding/json
// would reflect on every value and, for a tree, check and indent the JSON
// the tree gave it once more. It takes the kinds those types hold:
// structs, strings, booleans, integers, slices, pointers and trees
// (TestAppendJSONMatchesMarshal fills every field of each file's type).
func appendJSON(b []byte, v any) []byte {
	return append(appendValue(b, reflect.ValueOf(v), 0), '\n')
}

// appendValue appends v, which starts at indent level depth.
func appendValue(b []byte, v reflect.Value, depth int) []byte {
	switch v.Type() {
	case treeType:
		return appendTree(b, v.Interface().(tree).v, depth)
	case treePtrType:
		if v.IsNil() {
			return append(b, "null"...)
		}
		return appendTree(b, v.Interface().(*tree).v, depth)
	}
	switch v.Kind() {
	case reflect.String:
		return yamltree.AppendJSONString(b, v.String())
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...)
		}
		return appendValue(b, v.Elem(), depth)
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...)
		}
		if v.Len() == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = appendValue(b, v.Index(i), depth+1)
		}
		return append(newline(b, depth), ']')
	case reflect.Struct:
		n := 0
		b = append(b, '{')
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = newline(b, depth+1)
			b = append(b, f.key...)
			b = appendValue(b, fv, depth+1)
		}
		if n == 0 {
			return append(b, '}')
		}
		return append(newline(b, depth), '}')
	}
	panic("api: appendJSON cannot encode a " + v.Type().String())
}

// isEmpty is what omitempty leaves out, as encoding/json says it.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Map, reflect.Array:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Pointer, reflect.Interface:
		return v.IsZero()
	}
	return false
}

var (
	treeType    = reflect.TypeFor[tree]()
	treePtrType = reflect.TypeFor[*tree]()
)

// appendTree is tree.MarshalJSON as marshal indents it at depth: null for
// a value yamltree cannot encode.
func appendTree(b []byte, v any, depth int) []byte {
	out, err := yamltree.AppendJSON(b, v, "  ", depth)
	if err != nil {
		return append(b, "null"...)
	}
	return out
}

// newline breaks the line and indents the next one by depth levels.
func newline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

// jsonField is a field of a struct as appendJSON writes it.
type jsonField struct {
	index     int
	key       string // the quoted name, a colon and a blank
	omitEmpty bool
}

var jsonFields sync.Map // reflect.Type -> []jsonField

// fieldsOf returns the fields encoding/json writes of struct type t, in
// order: exported fields, named by their json tag, "-" left out. The types
// appendJSON takes embed no struct.
func fieldsOf(t reflect.Type) []jsonField {
	if fs, ok := jsonFields.Load(t); ok {
		return fs.([]jsonField)
	}
	var fs []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() || sf.Anonymous {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		key := string(yamltree.AppendJSONString(nil, name)) + ": "
		fs = append(fs, jsonField{index: i, key: key, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	stored, _ := jsonFields.LoadOrStore(t, fs)
	return stored.([]jsonField)
}
