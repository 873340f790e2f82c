package plugin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/skilldex/skilldex/build/diag"
)

// maxDepth bounds how deeply a manifest may nest. Real manifests nest a
// few levels (inline hooks are the deepest); the bound keeps a hostile file
// from costing more than a small one.
const maxDepth = 64

// document is one JSON file read so that every value knows where it is.
type document struct {
	file string
	// text is the file without a byte order mark; offsets are into it.
	text []byte
	// lineStarts holds the offset of the first byte of every line.
	lineStarts []int
	root       *node
	// last is the furthest position pos counted on its line, where it
	// counts on from.
	last column
}

// column is the number of characters on line before offset.
type column struct{ line, offset, runes int }

// node is one JSON value and where it starts in the text.
type node struct {
	kind       jsontext.Kind // '"', '0', 't', 'f', 'n', '{' or '['
	start, end int
	// str is a string's value (made valid UTF-8) or a number as written.
	str     string
	members []member // of an object, in the order written
	items   []*node  // of an array
}

// member is one name and value of an object.
type member struct {
	name  string
	start int // the name's opening quote
	value *node
}

// syntaxError is where and why the text is not JSON.
type syntaxError struct {
	offset int
	msg    string
}

// parseDocument reads text as one JSON value. Duplicate names and invalid
// UTF-8 are accepted, as JavaScript's JSON.parse (which Claude Code uses)
// accepts them after reading the file as UTF-8.
func parseDocument(file string, text []byte) (*document, *syntaxError) {
	doc := &document{file: file, text: text, lineStarts: lineStarts(text)}
	p := &parser{text: text, dec: jsontext.NewDecoder(bytes.NewReader(text),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))}
	if len(bytes.TrimLeft(text, " \t\r\n")) == 0 {
		return doc, &syntaxError{len(text), "the file is empty: write a JSON object"}
	}
	root, err := p.value(0)
	if err == nil {
		next := p.next()
		if _, err = p.dec.ReadToken(); err == io.EOF {
			doc.root = root
			return doc, nil
		} else if err == nil {
			return doc, &syntaxError{next, "another value follows the top-level object: a manifest holds one JSON object"}
		}
	}
	return doc, p.explain(err)
}

type parser struct {
	text []byte
	dec  *jsontext.Decoder
}

// next returns where the next token starts: after the previous one and any
// whitespace, ':' or ',' that separate them.
func (p *parser) next() int {
	i := int(p.dec.InputOffset())
	for i < len(p.text) && strings.IndexByte(" \t\r\n:,", p.text[i]) >= 0 {
		i++
	}
	return i
}

func (p *parser) value(depth int) (*node, error) {
	start := p.next()
	if depth > maxDepth {
		return nil, &depthError{start}
	}
	tok, err := p.dec.ReadToken()
	if err != nil {
		return nil, err
	}
	n := &node{kind: tok.Kind(), start: start}
	switch n.kind {
	case '{':
		for p.dec.PeekKind() == '"' {
			at := p.next()
			tok, err := p.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := validUTF8(tok.String()) // before the next read voids tok
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, member{name, at, v})
		}
		if _, err := p.dec.ReadToken(); err != nil { // '}', or why not
			return nil, err
		}
	case '[':
		for k := p.dec.PeekKind(); k != ']' && k != 0; k = p.dec.PeekKind() {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		if _, err := p.dec.ReadToken(); err != nil { // ']', or why not
			return nil, err
		}
	case '"':
		n.str = validUTF8(tok.String())
	case '0':
		n.str = tok.String()
	}
	n.end = int(p.dec.InputOffset())
	return n, nil
}

type depthError struct{ offset int }

func (e *depthError) Error() string {
	return fmt.Sprintf("nesting deeper than %d levels", maxDepth)
}

// explain turns a decoding error into a position and a message for people.
func (p *parser) explain(err error) *syntaxError {
	var de *depthError
	if errors.As(err, &de) {
		return &syntaxError{de.offset, de.Error() + ": flatten the manifest"}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		return &syntaxError{len(p.text), "the file ends before the JSON value is complete: close every { and ["}
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		off := min(int(se.ByteOffset), len(p.text))
		if hint := commaHint(p.text, off); hint != "" {
			return &syntaxError{off, hint}
		}
		msg := strings.TrimPrefix(se.Err.Error(), "jsontext: ")
		return &syntaxError{off, msg}
	}
	return &syntaxError{0, err.Error()}
}

// commaHint explains a comma at off that starts no value, the commonest
// mistake in a hand-edited manifest: one after the last member or item
// (JavaScript allows it, JSON does not), one with nothing before it, or a
// second one in a row.
func commaHint(text []byte, off int) string {
	if off >= len(text) || text[off] != ',' {
		return ""
	}
	before := bytes.TrimRight(text[:off], " \t\r\n")
	after := bytes.TrimLeft(text[off+1:], " \t\r\n")
	switch {
	case len(before) > 0 && (before[len(before)-1] == '{' || before[len(before)-1] == '['):
		return fmt.Sprintf("a comma right after %c, with nothing before it: remove it", before[len(before)-1])
	case len(after) > 0 && (after[0] == '}' || after[0] == ']'):
		return fmt.Sprintf("a comma before %c: JSON allows none after the last member or item; remove it", after[0])
	case len(before) > 0 && before[len(before)-1] == ',':
		return "a second comma in a row: remove one"
	}
	return ""
}

// lineStarts returns the offset of every line's first byte. A line ends
// with LF, CRLF or a lone CR, as editors (and build/skill) count lines.
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pos returns the line and column of offset: 1-based, the column counted
// in characters as in the positions of build/skill, so that an editor goes
// to the same place.
//
// Findings come mostly in the order of the text: counting on from the last
// position of the same line keeps a long line (a minified manifest is one
// line) from being counted again for each finding on it.
func (d *document) pos(offset int) diag.Pos {
	offset = max(0, min(offset, len(d.text)))
	line := sort.Search(len(d.lineStarts), func(i int) bool { return d.lineStarts[i] > offset }) - 1
	from, runes := d.lineStarts[line], 0
	if d.last.line == line && d.last.offset <= offset {
		from, runes = d.last.offset, d.last.runes
	}
	runes += utf8.RuneCount(d.text[from:offset])
	if d.last.line != line || offset > d.last.offset {
		d.last = column{line, offset, runes}
	}
	return diag.Pos{Line: line + 1, Column: runes + 1}
}

// raw returns the text of n as written.
func (d *document) raw(n *node) []byte {
	return bytes.Clone(d.text[n.start:n.end])
}

// get returns the value of the member called name, the last one when the
// name repeats (as JSON.parse does), or nil.
func (n *node) get(name string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].name == name {
			return n.members[i].value
		}
	}
	return nil
}

// kindName names a JSON kind as people know it.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
