package api

import (
	"bytes"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// twinFrontmatter is the YAML header of a skill's Markdown twin: what an
// agent needs to decide whether to read on, and where everything is.
type twinFrontmatter struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Format      string   `yaml:"format"`
	Status      string   `yaml:"status"`
	Type        string   `yaml:"type,omitempty"`
	Version     string   `yaml:"version,omitempty"`
	Declared    string   `yaml:"declared_version,omitempty"`
	Tags        []string `yaml:"tags,omitempty"`
	Page        string   `yaml:"page"`
	Source      string   `yaml:"source,omitempty"`
	Archive     string   `yaml:"archive,omitempty"`
	API         string   `yaml:"api"`
	Paths       string   `yaml:"paths,omitempty"`
}

// appendYAML appends fm as yaml.v3 encodes it with an indent of 2. Almost
// every value of a header is a plain or single-quoted scalar (a name, a
// sentence, a URL), which is written directly: yaml.v3's reflection and
// emitter cost about as much as the rest of a skill's twin. When any value
// might be written otherwise, the whole header goes through yaml.v3, so
// the bytes are the same either way (TestTwinFrontmatterMatchesYAML,
// FuzzTwinFrontmatter). The fields, their order and what is omitted come
// from twinFrontmatter's yaml tags (twinFields), its one definition.
func (fm *twinFrontmatter) appendYAML(b []byte) []byte {
	v := reflect.ValueOf(fm).Elem()
	fields := twinFields()
	var small [32]yamlStyle
	styles := small[:0]
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.list {
			if fv.Len() == 0 && !f.omitEmpty {
				return fm.appendYAMLSlow(b) // yaml.v3 writes []
			}
			for i := range fv.Len() {
				style := styleOf(fv.Index(i).String())
				if style == yamlOther {
					return fm.appendYAMLSlow(b)
				}
				styles = append(styles, style)
			}
		} else if s := fv.String(); s != "" || !f.omitEmpty {
			style := styleOf(s)
			if style == yamlOther {
				return fm.appendYAMLSlow(b)
			}
			styles = append(styles, style)
		}
	}
	next := 0
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.list {
			if fv.Len() == 0 {
				continue
			}
			b = append(b, f.key...)
			b = append(b, ":\n"...)
			for i := range fv.Len() {
				b = append(b, "  - "...)
				b = appendYAMLScalar(b, fv.Index(i).String(), styles[next])
				b = append(b, '\n')
				next++
			}
			continue
		}
		s := fv.String()
		if s == "" && f.omitEmpty {
			continue
		}
		b = append(b, f.key...)
		b = append(b, ": "...)
		b = appendYAMLScalar(b, s, styles[next])
		b = append(b, '\n')
		next++
	}
	return b
}

// yamlField is a field of twinFrontmatter, a string or a list of strings,
// as yaml.v3 writes it.
type yamlField struct {
	index     int
	key       string
	omitEmpty bool
	list      bool
}

// twinFields are twinFrontmatter's fields in the order yaml.v3 writes them,
// from their yaml tags.
var twinFields = sync.OnceValue(func() []yamlField {
	t := reflect.TypeFor[twinFrontmatter]()
	var out []yamlField
	for i := range t.NumField() {
		sf := t.Field(i)
		key, opts, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if key == "" {
			key = strings.ToLower(sf.Name)
		}
		switch {
		case sf.Type.Kind() == reflect.String:
		case sf.Type == reflect.TypeFor[[]string]():
		default:
			panic("api: twinFrontmatter." + sf.Name + " is neither a string nor a list of strings")
		}
		out = append(out, yamlField{index: i, key: key, omitEmpty: opts == "omitempty", list: sf.Type.Kind() == reflect.Slice})
	}
	return out
})

// fast reports whether appendYAML writes fm without yaml.v3.
func (fm *twinFrontmatter) fast() bool {
	v := reflect.ValueOf(fm).Elem()
	for _, f := range twinFields() {
		fv := v.Field(f.index)
		if f.list {
			if fv.Len() == 0 && !f.omitEmpty {
				return false
			}
			for i := range fv.Len() {
				if styleOf(fv.Index(i).String()) == yamlOther {
					return false
				}
			}
		} else if s := fv.String(); (s != "" || !f.omitEmpty) && styleOf(s) == yamlOther {
			return false
		}
	}
	return true
}

func (fm *twinFrontmatter) appendYAMLSlow(b []byte) []byte {
	buf := bytes.NewBuffer(b)
	enc := yaml.NewEncoder(buf)
	enc.SetIndent(2)
	// Only strings and lists of strings: encoding cannot fail.
	_ = enc.Encode(fm)
	_ = enc.Close()
	return buf.Bytes()
}

// yamlStyle is how yaml.v3 writes a string: plain, single-quoted, or in
// a way appendYAML leaves to yaml.v3.
type yamlStyle uint8

const (
	yamlOther yamlStyle = iota
	yamlPlain
	yamlSingleQuoted
)

// styleOf returns how yaml.v3 surely writes s, or yamlOther. It is
// stricter than YAML: yamlOther only costs the slow path. s must start
// with a letter or a slash (a site's root-relative links), or with a digit when it cannot be a number (a version
// such as 1.2.3 or a hex digest, see unquotedNumeral); not be
// a word YAML 1.1 reads as a bool or null; and hold no line break,
// control character, tab, or character yaml.v3 escapes. Of those, a
// string with ": ", " #", a trailing colon or a trailing space is
// single-quoted, any other is plain.
func styleOf(s string) yamlStyle {
	if s == "" || !isASCIILetter(s[0]) && s[0] != '/' && !unquotedNumeral(s) || reservedWord(s) {
		return yamlOther
	}
	style := yamlPlain
	if last := s[len(s)-1]; last == ' ' || last == ':' {
		style = yamlSingleQuoted
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20 || c == 0x7f:
				return yamlOther
			case c == ':' && i+1 < len(s) && s[i+1] == ' ', c == '#' && i > 0 && s[i-1] == ' ':
				style = yamlSingleQuoted
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		// yaml.v3 writes printable characters of the Basic Multilingual
		// Plane as they are, except line and paragraph separators and the
		// byte-order mark; it escapes the others.
		if r == utf8.RuneError || r < 0xA0 || r > 0xFFFD || r == 0x2028 || r == 0x2029 || r == 0xFEFF ||
			(r >= 0xD800 && r < 0xE000) {
			return yamlOther
		}
		i += size
	}
	return style
}

// unquotedNumeral reports whether s, made of digits, dots and lower-case
// hex letters and starting with a digit, is surely no YAML number: it has
// two dots (a version such as 1.2.3), or, without a dot, hex letters that
// make no decimal (digits), float (digits, e, digits) or binary (0b)
// number (a hex digest).
func unquotedNumeral(s string) bool {
	if s[0] < '0' || s[0] > '9' {
		return false
	}
	dots, es, otherLetters := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			dots++
		case c == 'e':
			es++
		case c >= 'a' && c <= 'f':
			otherLetters++
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	switch {
	case dots >= 2:
		return true
	case dots == 1:
		return false
	case otherLetters == 0: // digits and e: a float when one e is between digits
		return es >= 2 || s[len(s)-1] == 'e'
	}
	return !strings.HasPrefix(s, "0b")
}

// appendYAMLScalar appends s in the style styleOf gave.
func appendYAMLScalar(b []byte, s string, style yamlStyle) []byte {
	if style == yamlPlain {
		return append(b, s...)
	}
	b = append(b, '\'')
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '\'')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '\'')
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// reservedWord reports whether YAML reads s as a bool or null rather than
// a string (yaml.v3 quotes these, and the YAML 1.1 words, in any case).
func reservedWord(s string) bool {
	if len(s) > 5 {
		return false
	}
	var lower [5]byte
	for i := 0; i < len(s); i++ {
		lower[i] = s[i] | 0x20
	}
	switch string(lower[:len(s)]) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return true
	}
	return false
}
