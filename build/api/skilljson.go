package api

import (
	"strconv"

	"github.com/skilldex/skilldex/build/yamltree"
)

// appendSkillJSON appends api/v1/skills/NAME.json: the bytes marshal gives
// for sd, written directly. encoding/json would check and indent the
// document yamltree encodes once more, which took a second of a 10,000-skill
// build (TestSkillJSONMatchesMarshal compares the two).
func appendSkillJSON(b []byte, sd *skillDocument) []byte {
	w := objWriter{b: append(b, '{')}
	w.str("name", sd.Name)
	w.str("description", sd.Description)
	w.str("format", sd.Format)
	w.str("status", sd.Status)
	w.strOmit("type", sd.Type)
	w.str("version", sd.Version)
	w.strOmit("declared_version", sd.Declared)
	w.boolean("derived", sd.Derived)
	w.strOmit("derived_from", sd.DerivedFrom)
	w.boolean("valid", sd.Valid)
	if len(sd.Problems) > 0 {
		w.strings("problems", sd.Problems)
	}
	w.strings("tags", sd.Tags)
	w.urls(sd.URLs)
	w.key("frontmatter")
	if sd.Frontmatter == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.b = appendTree(w.b, sd.Frontmatter.v)
	}
	w.key("document")
	w.b = appendTree(w.b, sd.Document.v)
	return append(w.close(), '\n')
}

// appendTree is tree.MarshalJSON as it reads one level deep: null for a
// value yamltree cannot encode.
func appendTree(b []byte, v any) []byte {
	out, err := yamltree.AppendJSON(b, v, "  ", 1)
	if err != nil {
		return append(b, "null"...)
	}
	return out
}

// objWriter writes the members of a JSON object as marshal indents them.
type objWriter struct {
	b     []byte
	depth int // of the object's members, 1 for the top level
	n     int // members written
}

func (w *objWriter) key(k string) {
	if w.depth == 0 {
		w.depth = 1
	}
	if w.n > 0 {
		w.b = append(w.b, ',')
	}
	w.n++
	w.newline(w.depth)
	w.b = yamltree.AppendJSONString(w.b, k)
	w.b = append(w.b, ": "...)
}

func (w *objWriter) str(k, v string) {
	w.key(k)
	w.b = yamltree.AppendJSONString(w.b, v)
}

func (w *objWriter) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *objWriter) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

// strings writes a list of strings; nil is null, as encoding/json writes it.
func (w *objWriter) strings(k string, list []string) {
	if list == nil {
		w.key(k)
		w.b = append(w.b, "null"...)
		return
	}
	w.list(k, len(list), func(i int) { w.b = yamltree.AppendJSONString(w.b, list[i]) })
}

// integer writes a number.
func (w *objWriter) integer(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// urls writes a skill's URLs as an object.
func (w *objWriter) urls(u urls) {
	w.key("urls")
	uw := objWriter{b: append(w.b, '{'), depth: w.depth + 1}
	uw.str("page", u.Page)
	uw.str("json", u.JSON)
	uw.strOmit("markdown", u.Markdown)
	uw.strOmit("skill_md", u.SkillMD)
	uw.strOmit("archive", u.Archive)
	uw.strOmit("paths", u.Paths)
	uw.strOmit("usk_schema", u.Schema)
	w.b = uw.close()
}

// objects writes a list of n objects, object i's members written by
// members. An empty list is [], as encoding/json writes an empty slice:
// callers pass non-nil slices (encoding/json writes null for nil).
func (w *objWriter) objects(k string, n int, members func(i int, ow *objWriter)) {
	w.list(k, n, func(i int) {
		ow := objWriter{b: append(w.b, '{'), depth: w.depth + 2}
		members(i, &ow)
		w.b = ow.close()
	})
}

// list writes a list of n items, item i written by item, one a line.
func (w *objWriter) list(k string, n int, item func(i int)) {
	w.key(k)
	if n == 0 {
		w.b = append(w.b, "[]"...)
		return
	}
	w.b = append(w.b, '[')
	for i := range n {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.newline(w.depth + 1)
		item(i)
	}
	w.newline(w.depth)
	w.b = append(w.b, ']')
}

// newline breaks the line and indents the next one by depth levels.
func (w *objWriter) newline(depth int) {
	w.b = append(w.b, '\n')
	for range depth {
		w.b = append(w.b, "  "...)
	}
}

// close ends the object.
func (w *objWriter) close() []byte {
	if w.n == 0 {
		return append(w.b, '}')
	}
	w.newline(w.depth - 1)
	return append(w.b, '}')
}
