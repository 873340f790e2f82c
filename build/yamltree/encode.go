package yamltree

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PythonJSON encodes v exactly as Python's
// json.dumps(v, sort_keys=True, separators=(',', ':')) does: keys sorted,
// no spaces, every non-ASCII character escaped as \uXXXX (with surrogate
// pairs), floats as Python's repr prints them, and NaN and Infinity written
// as Python writes them.
func PythonJSON(v any) ([]byte, error) {
	e := encoder{python: true}
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.b, nil
}

// JSON encodes v in document order, with indent per level ("" for compact
// output). Strings keep their UTF-8; floats print as Python does (1.0 stays
// 1.0); NaN and infinities, which JSON cannot hold, become null.
func JSON(v any, indent string) ([]byte, error) {
	e := encoder{indent: indent}
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.b, nil
}

// Text returns a scalar as people read it: a string or a timestamp as
// written, any other value as its compact JSON.
func Text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case Timestamp:
		return string(x)
	}
	b, err := JSON(v, "")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// AppendJSON appends JSON(v, indent) to dst as it reads nested depth
// levels deep in an indented document: every line it breaks starts with
// depth+1 indents or more, and its closing bracket with depth.
func AppendJSON(dst []byte, v any, indent string, depth int) ([]byte, error) {
	e := encoder{b: dst, indent: indent, depth: depth}
	if err := e.value(v); err != nil {
		return dst, err
	}
	return e.b, nil
}

type encoder struct {
	b      buffer
	python bool
	indent string
	depth  int
}

func (e *encoder) newline() {
	if e.indent == "" {
		return
	}
	e.b.WriteByte('\n')
	for range e.depth {
		e.b.WriteString(e.indent)
	}
}

func (e *encoder) sep() {
	if e.indent != "" {
		e.b.WriteString(": ")
	} else {
		e.b.WriteByte(':')
	}
}

func (e *encoder) value(v any) error {
	switch x := v.(type) {
	case nil:
		e.b.WriteString("null")
	case bool:
		if x {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
	case string:
		e.str(x)
	case Timestamp:
		e.str(string(x))
	case int:
		e.b.WriteString(strconv.Itoa(x))
	case int64:
		e.b.WriteString(strconv.FormatInt(x, 10))
	case *big.Int:
		e.b.WriteString(x.String())
	case float64:
		switch {
		case math.IsNaN(x):
			e.b.WriteString(e.special("NaN"))
		case math.IsInf(x, 1):
			e.b.WriteString(e.special("Infinity"))
		case math.IsInf(x, -1):
			e.b.WriteString(e.special("-Infinity"))
		default:
			e.b.WriteString(pyFloat(x))
		}
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		return e.value(items)
	case []any:
		if len(x) == 0 {
			e.b.WriteString("[]")
			return nil
		}
		e.b.WriteByte('[')
		e.depth++
		for i, item := range x {
			if i > 0 {
				e.b.WriteByte(',')
			}
			e.newline()
			if err := e.value(item); err != nil {
				return err
			}
		}
		e.depth--
		e.newline()
		e.b.WriteByte(']')
	case *Map:
		if x.Len() == 0 {
			e.b.WriteString("{}")
			return nil
		}
		e.b.WriteByte('{')
		e.depth++
		member := func(i int, k string, val any) error {
			if i > 0 {
				e.b.WriteByte(',')
			}
			e.newline()
			e.str(k)
			e.sep()
			return e.value(val)
		}
		if e.python {
			for i, k := range x.sortedKeys() {
				val, _ := x.Get(k)
				if err := member(i, k, val); err != nil {
					return err
				}
			}
		} else {
			for i, en := range x.entries {
				if err := member(i, en.key, en.value); err != nil {
					return err
				}
			}
		}
		e.depth--
		e.newline()
		e.b.WriteByte('}')
	default:
		return fmt.Errorf("yamltree: cannot encode %T as JSON", v)
	}
	return nil
}

func (e *encoder) special(python string) string {
	if e.python {
		return python
	}
	return "null"
}

// buffer is the encoder's output, appended to.
type buffer []byte

func (b *buffer) WriteByte(c byte) error {
	*b = append(*b, c)
	return nil
}

func (b *buffer) WriteString(s string) { *b = append(*b, s...) }

const hexDigits = "0123456789abcdef"

func (e *encoder) str(s string) {
	if !e.python {
		e.b = AppendJSONString(e.b, s)
		return
	}
	b := &e.b
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				if c < 0x20 || c == 0x7f {
					writeU(b, rune(c))
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			r -= 0x10000
			writeU(b, 0xd800|(r>>10)&0x3ff)
			writeU(b, 0xdc00|r&0x3ff)
		} else {
			writeU(b, r) // invalid bytes decode to U+FFFD, as errors="replace" would
		}
		i += size
	}
	b.WriteByte('"')
}

func writeU(b *buffer, r rune) {
	b.WriteString(`\u`)
	b.WriteByte(hexDigits[r>>12&0xf])
	b.WriteByte(hexDigits[r>>8&0xf])
	b.WriteByte(hexDigits[r>>4&0xf])
	b.WriteByte(hexDigits[r&0xf])
}

// pyFloat formats f as Python's repr(float) does: the shortest digits that
// round-trip, in fixed notation when the decimal exponent is in [-4, 16),
// else in scientific notation with a signed, two-digit exponent.
func pyFloat(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddddde±XX
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := exp + 1 // position of the decimal point after the first digit
	var out string
	if decpt <= -4 || decpt > 16 {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		out += fmt.Sprintf("e%s%02d", sign, exp)
	} else if decpt <= 0 {
		out = "0." + strings.Repeat("0", -decpt) + digits
	} else if decpt >= len(digits) {
		out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	} else {
		out = digits[:decpt] + "." + digits[decpt:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// AppendJSONString appends s quoted as encoding/json quotes it with HTML
// escaping off (and as JSON and AppendJSON quote strings): invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029 are
// escaped, since JavaScript reads them as line ends.
func AppendJSONString(b []byte, s string) []byte {
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
