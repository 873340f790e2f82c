package uasp

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/yamltree"
)

// ContentVersion computes a document's version as uasp.md section 3.3
// defines it: the first 8 hex digits of the SHA-256 of
// json.dumps(doc without meta.version, sort_keys=True, separators=(',', ':')),
// byte for byte what the spec's Python computes for the same YAML read with
// PyYAML's safe_load.
//
// Where that Python fails, skilldex still gives a version: a document
// without a meta mapping is hashed whole, and a date (which json.dumps
// cannot encode) is hashed as the text written.
func ContentVersion(root *yamltree.Map) string {
	c := yamltree.Clone(root).(*yamltree.Map)
	if meta, ok := c.Get("meta"); ok {
		if m, ok := meta.(*yamltree.Map); ok {
			m.Delete("version")
		}
	}
	return hashJSON(c)
}

// hashJSON returns the first 8 hex digits of the SHA-256 of v's
// PythonJSON.
func hashJSON(v any) string {
	b, err := yamltree.PythonJSON(v)
	if err != nil {
		// A yamltree value always encodes; a tree built by hand with another
		// type is a programming error, and hashing the error text keeps the
		// result deterministic rather than panicking.
		b = []byte(err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:8]
}

// streamHash is hashJSON(v), computed without building the JSON: the
// text, the lists and the mappings whose keys sort as text are encoded
// here, straight into the hash, and anything else (numbers, dates, null,
// mappings whose keys may all be numbers, which Python sorts by value) by
// yamltree.PythonJSON. The JSON of a document is several times the size of
// its text, and stamping every document built it.
func streamHash(v any) string {
	j := jsonHashers.Get().(*jsonHasher)
	defer jsonHashers.Put(j)
	j.h.Reset()
	j.w.Reset(j.h)
	j.depth = 0
	if !j.value(v) {
		return hashJSON(v) // an error, whose text is hashed
	}
	j.w.Flush()
	var sum [sha256.Size]byte
	return hex.EncodeToString(j.h.Sum(sum[:0]))[:8]
}

type jsonHasher struct {
	h hash.Hash
	w *bufio.Writer
	// keys holds a slice of keys for each depth of mappings, reused from
	// one mapping to the next.
	keys  [][]string
	depth int
}

var jsonHashers = sync.Pool{New: func() any {
	h := sha256.New()
	return &jsonHasher{h: h, w: bufio.NewWriterSize(h, 4096)}
}}

// value writes v as PythonJSON does; false when it cannot be encoded.
func (j *jsonHasher) value(v any) bool {
	switch x := v.(type) {
	case string:
		j.str(x)
	case bool:
		if x {
			j.w.WriteString("true")
		} else {
			j.w.WriteString("false")
		}
	case []any:
		j.w.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				j.w.WriteByte(',')
			}
			if !j.value(e) {
				return false
			}
		}
		j.w.WriteByte(']')
	case *yamltree.Map:
		if j.depth == len(j.keys) {
			j.keys = append(j.keys, nil)
		}
		keys := j.keys[j.depth][:0]
		for k := range x.All() {
			keys = append(keys, k)
		}
		j.keys[j.depth] = keys
		if !textKeys(keys) {
			return j.other(x)
		}
		slices.Sort(keys) // byte order, which is code point order
		// A failure below leaves depth raised: streamHash starts over.
		j.depth++
		j.w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				j.w.WriteByte(',')
			}
			j.str(k)
			j.w.WriteByte(':')
			e, _ := x.Get(k)
			if !j.value(e) {
				return false
			}
		}
		j.depth--
		j.w.WriteByte('}')
	default:
		return j.other(v)
	}
	return true
}

// other writes v with yamltree.PythonJSON.
func (j *jsonHasher) other(v any) bool {
	b, err := yamltree.PythonJSON(v)
	if err != nil {
		return false
	}
	j.w.Write(b)
	return true
}

// textKeys reports keys of which one at least is no number's text: then not
// every key was a number in YAML (a number key is stored as its JSON text,
// made of digits, signs, '.', 'e', and "NaN" or "Inf" pieces), and Python
// sorts the keys as text. An empty mapping sorts nothing either way.
func textKeys(keys []string) bool {
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			switch c := k[i]; {
			case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'N', c == 'a', c == 'I', c == 'n', c == 'f':
			default:
				return true
			}
		}
	}
	return len(keys) == 0
}

const lowerHex = "0123456789abcdef"

// str writes s as a JSON string as Python's json.dumps does by default:
// the usual escapes, other control characters, DEL and every non-ASCII
// character as \uXXXX (surrogate pairs above U+FFFF; invalid UTF-8 as
// U+FFFD). Runs of characters written as they are go in one write.
func (j *jsonHasher) str(s string) {
	w := j.w
	w.WriteByte('"')
	at := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		w.WriteString(s[at:i])
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				w.WriteString(`\"`)
			case '\\':
				w.WriteString(`\\`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			default:
				j.u(rune(c))
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r >= 0x10000 {
				r -= 0x10000
				j.u(0xd800 | (r>>10)&0x3ff)
				j.u(0xdc00 | r&0x3ff)
			} else {
				j.u(r) // invalid bytes decode to U+FFFD
			}
			i += size
		}
		at = i
	}
	w.WriteString(s[at:])
	w.WriteByte('"')
}

// u writes \uXXXX.
func (j *jsonHasher) u(r rune) {
	j.w.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		j.w.WriteByte(lowerHex[r>>shift&0xf])
	}
}
