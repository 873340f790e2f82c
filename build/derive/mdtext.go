package derive

import (
	"sort"
	"strings"

	"github.com/skilldex/skilldex/internal/spaces"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// inline is the plain text of a block's inline content, as the derivation
// rules read it: emphasis and link markup gone, code spans kept in
// backticks, line breaks as blanks. Rules read prose through its masks,
// which are made only when asked for: headings, table cells and list items
// need the text alone.
type inline struct {
	text  strings.Builder
	code  []span   // text ranges that are code, which the masks hide
	marks []mark   // text offset -> source offset, increasing
	links []linkAt // links, by text offset
	codes []codeAt // code spans
}

// span is a range of text offsets.
type span struct{ start, end int }

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

// inlines hands out the inline of one block at a time, reusing the last
// one given back: all but its text, which the document's strings point
// into.
type inlines struct{ spare *inline }

// get returns an empty inline with room for the text of block n, which is
// seldom longer than n's source: the text then grows once, not by
// doubling.
func (p *inlines) get(n ast.Node) *inline {
	in := p.spare
	if in != nil {
		p.spare = nil
		*in = inline{code: in.code[:0], marks: in.marks[:0], links: in.links[:0], codes: in.codes[:0]}
	} else {
		in = &inline{}
	}
	if n.Type() == ast.TypeBlock {
		if segs := n.Lines(); segs.Len() > 0 {
			in.text.Grow(segs.At(segs.Len()-1).Stop - segs.At(0).Start)
		}
	}
	return in
}

// put gives back an inline that nothing reads any more.
func (p *inlines) put(in *inline) { p.spare = in }

// write appends b to the text; code text is hidden by the masks.
func (in *inline) write(b []byte, code bool) {
	if code && len(b) > 0 {
		in.code = append(in.code, span{in.text.Len(), in.text.Len() + len(b)})
	}
	in.text.Write(b)
}

func (in *inline) writeString(s string, code bool) {
	if code && s != "" {
		in.code = append(in.code, span{in.text.Len(), in.text.Len() + len(s)})
	}
	in.text.WriteString(s)
}

// masks returns the text with the contents of code spans replaced by 'x',
// byte for byte, so that rules looking for words ("never", "if") do not see
// what is inside code while offsets stay aligned with the text; and the
// same mask ASCII-lowercased (as lowerASCII does), which most rules read.
// Both are made for the whole block at once, in one allocation.
func (in *inline) masks() (mask, lm string) {
	text := in.text.String()
	if len(in.code) == 0 {
		return text, lowerASCII(text) // nothing to hide
	}
	var b strings.Builder
	b.Grow(2 * len(text))
	at := 0
	for _, c := range in.code {
		b.WriteString(text[at:c.start])
		for n := c.end - c.start; n > 0; n -= min(n, len(xs)) {
			b.WriteString(xs[:min(n, len(xs))])
		}
		at = c.end
	}
	b.WriteString(text[at:])
	mask = b.String()
	writeLowerASCII(&b, mask)
	return mask, b.String()[len(mask):]
}

// writeLowerASCII writes s with ASCII capitals lowercased; runs without
// capitals are copied whole.
func writeLowerASCII(b *strings.Builder, s string) {
	at := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b.WriteString(s[at:i])
			b.WriteByte(c + 'a' - 'A')
			at = i + 1
		}
	}
	b.WriteString(s[at:])
}

const xs = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

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
			in.write(x.Value(src), false)
			if x.SoftLineBreak() || x.HardLineBreak() {
				in.writeString(" ", false)
			}
		case *ast.String:
			in.write(x.Value, x.IsCode())
		case *ast.CodeSpan:
			in.mark(x.Pos())
			in.writeString("`", false)
			start := in.text.Len()
			for t := x.FirstChild(); t != nil; t = t.NextSibling() {
				switch tt := t.(type) {
				case *ast.Text:
					in.write(tt.Value(src), true)
				case *ast.String:
					in.write(tt.Value, true)
				}
			}
			// The code is read from the text, which is never rewritten.
			in.codes = append(in.codes, codeAt{code: in.text.String()[start:], src: x.Pos()})
			in.writeString("`", false)
		case *ast.Link:
			// The label is the text the link's content adds, read back
			// once it is collected.
			start, i := in.text.Len(), len(in.links)
			in.links = append(in.links, linkAt{off: start, dest: string(x.Destination), src: x.Pos()})
			in.collect(x, src)
			in.links[i].label = in.text.String()[start:]
		case *ast.AutoLink:
			url := x.URL(src)
			if x.AutoLinkType == ast.AutoLinkURL {
				u := string(url)
				if !strings.Contains(u, "://") {
					u = "http://" + u // linkify's www.example.com
				}
				in.links = append(in.links, linkAt{off: in.text.Len(), dest: u, src: x.Pos()})
			}
			in.mark(x.Pos())
			in.write(url, false)
		case *ast.Image, *ast.RawHTML, *extast.Strikethrough, *extast.TaskCheckBox:
			// Not text a reader of the rules would see as instructions.
		default:
			in.collect(c, src)
		}
	}
}

// sentence is a piece of a block's text with its source offset, its mask
// and its lowercased mask (see masks), and the destination of its first
// link ("" when it has none).
type sentence struct {
	text, mask, lm string
	src            int
	ref            string
}

// abbreviations end with a dot without ending a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"incl": true, "fig": true, "no": true, "eg": true, "ie": true, "resp": true, "esp": true}

// eachSentence splits the text at '.', '!' or '?' followed by a blank and
// an opening character (capital, digit, backtick, quote, emphasis), and at
// "; " as well, outside code spans, and calls yield with each sentence in
// turn.
func (in *inline) eachSentence(yield func(sentence)) {
	text := in.text.String()
	mask, lm := in.masks()
	start := 0
	emit := func(end int) {
		t := text[start:end]
		m := mask[start:end]
		lead := len(t) - len(strings.TrimLeft(t, " \t"))
		t, m = t[lead:], m[lead:]
		t = strings.TrimRight(t, " \t")
		m = m[:len(t)]
		if t != "" {
			s := sentence{text: t, mask: m, lm: lm[start+lead : start+lead+len(t)], src: in.srcAt(start + lead)}
			for _, l := range in.links {
				if l.off >= start && l.off < end {
					s.ref = l.dest
					break
				}
			}
			yield(s)
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
}

func opens(c byte) bool {
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '`' || c == '"' || c == '\'' || c == '*' || c == '(' || c == '[' || c >= 0x80
}

// lowerASCII lowercases ASCII letters only, so that offsets stay valid.
// Text without capitals is returned as it is.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && !(s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	writeLowerASCII(&b, s)
	return b.String()
}

// plainText returns the inline text of a node (headings, list items).
func (p *inlines) plainText(n ast.Node, src []byte) string {
	return spaces.Collapse(p.rawText(n, src))
}

// cleanText is clean(p.plainText(n, src)), which collapses the text once
// (clean collapses it too, and collapsing twice gives what once does).
func (p *inlines) cleanText(n ast.Node, src []byte) string {
	return clean(p.rawText(n, src))
}

// rawText returns the inline text of a node, not collapsed.
func (p *inlines) rawText(n ast.Node, src []byte) string {
	in := p.get(n)
	in.collect(n, src)
	t := in.text.String()
	p.put(in)
	return t
}
