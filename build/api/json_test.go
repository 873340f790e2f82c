package api

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/skilldex/skilldex/build/yamltree"
)

// fill sets every field of v, which must be settable, to a value of its
// own (strings that need escaping, numbers, true), recursively, with
// lists of two: a field appendJSON did not write, or wrote under another
// name, shows in the output.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Type() {
	case treeType:
		m := yamltree.NewMap()
		m.Set("k"+strconv.Itoa(*n), []any{"a <b>", int64(*n), true})
		v.Set(reflect.ValueOf(tree{m}))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("value \"" + strconv.Itoa(*n) + "\" <é>\n")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(*n))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	default:
		panic("fill: " + v.Type().String())
	}
}

// TestAppendJSONMatchesMarshal: every file appendJSON writes has, for
// each field of its type set, for none set, and for empty lists, the
// bytes encoding/json gives.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	for _, v := range []any{&skillDocument{}, &indexFile{}, &sessionManifestFile{}, &agentSkillsFile{}} {
		typ := reflect.TypeOf(v).Elem()
		cases := map[string]reflect.Value{"zero": reflect.New(typ)}
		full := reflect.New(typ)
		fill(full.Elem(), new(int))
		cases["every field"] = full
		empty := reflect.New(typ)
		for i := range typ.NumField() {
			if f := empty.Elem().Field(i); f.Kind() == reflect.Slice {
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			}
		}
		cases["empty lists"] = empty
		for name, c := range cases {
			want, err := marshal(c.Interface())
			if err != nil {
				t.Fatal(err)
			}
			if got := appendJSON(nil, c.Interface()); string(got) != string(want) {
				t.Errorf("%s, %s:\n%s\nwant\n%s", typ.Name(), name, got, want)
			}
		}
	}
}

func TestHasAnswerFile(t *testing.T) {
	for path, want := range map[string]bool{
		"paths": false, "Paths": false, "PATHS": false, "paths.x": true, "commands": true, "path": true,
	} {
		if got := HasAnswerFile(path); got != want {
			t.Errorf("HasAnswerFile(%q) = %v", path, got)
		}
	}
}
