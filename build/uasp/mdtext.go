package uasp

import (
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// inline is the plain text of a block's inline content, as the derivation
// rules read it: emphasis and link markup gone, code spans kept in
// backticks, line breaks as blanks. mask is the same text with code span
// contents replaced by 'x', byte for byte, so that rules looking for words
// ("never", "if") do not see what is inside code while keeping offsets
// aligned with text.
type inline struct {
	text  strings.Builder
	mask  strings.Builder
	marks []mark   // text offset -> source offset, increasing
	links []linkAt // links, by text offset
	codes []codeAt // code spans
}

type codeAt struct {
	code string
	src  int
}

type mark struct{ off, src int }

type linkAt struct {
	off   int
	dest  string
	label string
	src   int
}

func (in *inline) write(s string, code bool) {
	in.text.WriteString(s)
	if code {
		in.mask.WriteString(strings.Repeat("x", len(s)))
	} else {
		in.mask.WriteString(s)
	}
}

func (in *inline) mark(src int) {
	if src >= 0 {
		in.marks = append(in.marks, mark{off: in.text.Len(), src: src})
	}
}

// srcAt returns the source offset of the text at off.
func (in *inline) srcAt(off int) int {
	i := sort.Search(len(in.marks), func(i int) bool { return in.marks[i].off > off }) - 1
	if i < 0 {
		if len(in.marks) > 0 {
			return in.marks[0].src
		}
		return -1
	}
	return in.marks[i].src
}

// collect appends the inline content of n.
func (in *inline) collect(n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch x := c.(type) {
		case *ast.Text:
			in.mark(x.Segment.Start)
			in.write(string(x.Value(src)), false)
			if x.SoftLineBreak() || x.HardLineBreak() {
				in.write(" ", false)
			}
		case *ast.String:
			in.write(string(x.Value), x.IsCode())
		case *ast.CodeSpan:
			in.mark(x.Pos())
			var code strings.Builder
			for t := x.FirstChild(); t != nil; t = t.NextSibling() {
				switch tt := t.(type) {
				case *ast.Text:
					code.Write(tt.Value(src))
				case *ast.String:
					code.Write(tt.Value)
				}
			}
			in.codes = append(in.codes, codeAt{code: code.String(), src: x.Pos()})
			in.write("`", false)
			in.write(code.String(), true)
			in.write("`", false)
		case *ast.Link:
			start := in.text.Len()
			sub := &inline{}
			sub.collect(x, src)
			in.links = append(in.links, linkAt{off: start, dest: string(x.Destination), label: sub.text.String(), src: x.Pos()})
			in.collect(x, src)
		case *ast.AutoLink:
			u := string(x.URL(src))
			if x.AutoLinkType == ast.AutoLinkURL {
				if !strings.Contains(u, "://") {
					u = "http://" + u // linkify's www.example.com
				}
				in.links = append(in.links, linkAt{off: in.text.Len(), dest: u, src: x.Pos()})
			}
			in.mark(x.Pos())
			in.write(string(x.URL(src)), false)
		case *ast.Image, *ast.RawHTML, *extast.Strikethrough, *extast.TaskCheckBox:
			// Not text a reader of the rules would see as instructions.
		default:
			in.collect(c, src)
		}
	}
}

// sentence is a piece of a block's text with its source offset.
type sentence struct {
	text, mask string
	src        int
	links      []linkAt
}

// abbreviations end with a dot without ending a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"incl": true, "fig": true, "no": true, "eg": true, "ie": true, "resp": true, "esp": true}

// sentences splits the text at '.', '!' or '?' followed by a blank and an
// opening character (capital, digit, backtick, quote, emphasis), and at
// "; " as well, outside code spans.
func (in *inline) sentences() []sentence {
	text, mask := in.text.String(), in.mask.String()
	var out []sentence
	start := 0
	emit := func(end int) {
		t := text[start:end]
		m := mask[start:end]
		lead := len(t) - len(strings.TrimLeft(t, " \t"))
		t, m = t[lead:], m[lead:]
		t = strings.TrimRight(t, " \t")
		m = m[:len(t)]
		if t != "" {
			s := sentence{text: t, mask: m, src: in.srcAt(start + lead)}
			for _, l := range in.links {
				if l.off >= start && l.off < end {
					s.links = append(s.links, l)
				}
			}
			out = append(out, s)
		}
	}
	for i := 0; i < len(mask); i++ {
		c := mask[i]
		if c != '.' && c != '!' && c != '?' && c != ';' {
			continue
		}
		j := i + 1
		for j < len(mask) && (mask[j] == '"' || mask[j] == '\'' || mask[j] == ')' || mask[j] == '*') {
			j++ // closing quote or parenthesis after the stop
		}
		if j >= len(mask) || mask[j] != ' ' {
			continue
		}
		k := j
		for k < len(mask) && mask[k] == ' ' {
			k++
		}
		if k >= len(mask) {
			continue
		}
		if c != ';' && !opens(mask[k]) {
			continue
		}
		if c == '.' {
			w := i
			for w > start && mask[w-1] != ' ' && mask[w-1] != '(' {
				w--
			}
			if abbreviations[strings.ToLower(mask[w:i])] {
				continue
			}
		}
		emit(j)
		start = k
		i = k - 1
	}
	emit(len(text))
	return out
}

func opens(c byte) bool {
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '`' || c == '"' || c == '\'' || c == '*' || c == '(' || c == '[' || c >= 0x80
}

// lowerASCII lowercases ASCII letters only, so that offsets stay valid.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// plainText returns the inline text of a node (headings, list items).
func plainText(n ast.Node, src []byte) string {
	in := &inline{}
	in.collect(n, src)
	return collapse(in.text.String())
}

// collapse turns runs of blanks into one blank and trims.
func collapse(s string) string {
	// Most text is collapsed already: return it without allocating.
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		switch c := s[i]; {
		case c == ' ':
			clean = i > 0 && i < len(s)-1 && s[i+1] != ' '
		case c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c >= 0x80:
			clean = false // and non-ASCII may hold Unicode spaces
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
