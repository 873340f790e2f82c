package api

import (
	"strconv"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/yamltree"
)

// appendSkillJSON appends api/v1/skills/NAME.json: the bytes marshal gives
// for sd, written directly. encoding/json would check and indent the
// document yamltree encodes once more, which took a second of a 10,000-skill
// build (TestSkillJSONMatchesMarshal compares the two).
func appendSkillJSON(b []byte, sd *skillDocument) ([]byte, error) {
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
	var err error
	w.key("frontmatter")
	if sd.Frontmatter == nil {
		w.b = append(w.b, "null"...)
	} else if w.b, err = appendTree(w.b, sd.Frontmatter.v); err != nil {
		return b, err
	}
	w.key("document")
	if w.b, err = appendTree(w.b, sd.Document.v); err != nil {
		return b, err
	}
	return append(w.close(), '\n'), nil
}

// appendTree is tree.MarshalJSON as it reads one level deep.
func appendTree(b []byte, v any) ([]byte, error) {
	out, err := yamltree.AppendJSON(b, v, "  ", 1)
	if err != nil {
		return append(b, "null"...), nil
	}
	return out, nil
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
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, "  "...)
	}
	w.b = appendJSONString(w.b, k)
	w.b = append(w.b, ": "...)
}

func (w *objWriter) str(k, v string) {
	w.key(k)
	w.b = appendJSONString(w.b, v)
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
	w.key(k)
	switch {
	case list == nil:
		w.b = append(w.b, "null"...)
		return
	case len(list) == 0:
		w.b = append(w.b, "[]"...)
		return
	}
	w.b = append(w.b, '[')
	for i, s := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(w.b, '\n')
		for range w.depth + 1 {
			w.b = append(w.b, "  "...)
		}
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, "  "...)
	}
	w.b = append(w.b, ']')
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
		w.b = append(w.b, '\n')
		for range w.depth + 1 {
			w.b = append(w.b, "  "...)
		}
		ow := objWriter{b: append(w.b, '{'), depth: w.depth + 2}
		members(i, &ow)
		w.b = ow.close()
	}
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, "  "...)
	}
	w.b = append(w.b, ']')
}

// close ends the object.
func (w *objWriter) close() []byte {
	if w.n == 0 {
		return append(w.b, '}')
	}
	w.b = append(w.b, '\n')
	for range w.depth - 1 {
		w.b = append(w.b, "  "...)
	}
	return append(w.b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes it with HTML
// escaping off: invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029 are
// escaped, since JavaScript reads them as line ends.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
