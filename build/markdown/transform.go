package markdown

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/skilldex/skilldex/internal/spaces"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The transform stage replaces goldmark's link, image, autolink and fenced
// code nodes with nodes of our own kinds that carry the decision already
// made (the final URL, whether it is external, the lexer), because the
// renderer is shared by all calls and cannot see the per-call Options.
// Our renderer renders goldmark's own kinds of those nodes as their text
// only: if one slipped through the transform, it would fail closed.

var (
	kindHeading = ast.NewNodeKind("SkilldexHeading")
	kindLink    = ast.NewNodeKind("SkilldexLink")
	kindImage   = ast.NewNodeKind("SkilldexImage")
	kindLiteral = ast.NewNodeKind("SkilldexLiteral")
	kindCode    = ast.NewNodeKind("SkilldexCode")
)

// headingNode is a heading with its level and id settled. (An id set as
// a goldmark attribute would cost a 400-byte attribute table per
// heading.)
type headingNode struct {
	ast.BaseBlock
	level int
	id    string
}

func (n *headingNode) Kind() ast.NodeKind            { return kindHeading }
func (n *headingNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// linkNode is a link whose href is decided and safe.
type linkNode struct {
	ast.BaseInline
	href     []byte // as the browser should read it; escaped when written
	title    []byte // Markdown title, rendered like goldmark's
	external bool   // another origin: rel="nofollow noopener noreferrer"
	class    string // "remote-image" for an image shown as a link
}

func (n *linkNode) Kind() ast.NodeKind               { return kindLink }
func (n *linkNode) Dump(source []byte, level int)    { ast.DumpHelper(n, source, level, nil, nil) }
func (n *imageNode) Kind() ast.NodeKind              { return kindImage }
func (n *imageNode) Dump(source []byte, level int)   { ast.DumpHelper(n, source, level, nil, nil) }
func (n *literalNode) Kind() ast.NodeKind            { return kindLiteral }
func (n *literalNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }
func (n *codeNode) Kind() ast.NodeKind               { return kindCode }
func (n *codeNode) Dump(source []byte, level int)    { ast.DumpHelper(n, source, level, nil, nil) }
func (n *codeNode) IsRaw() bool                      { return true }

// imageNode is a same-origin image.
type imageNode struct {
	ast.BaseInline
	src, alt, title []byte
}

// literalNode is text not in the source (an image URL shown as a link's
// text), written escaped and nothing else.
type literalNode struct {
	ast.BaseInline
	value []byte
}

// codeNode is a fenced code block with its language settled: lexer is nil
// when it is shown plain.
type codeNode struct {
	ast.BaseBlock
	lang  string // sanitised info-string language, "" if none
	lexer chroma.Lexer
	code  []byte
}

// Highlighting budget of one body. A block over maxHighlightBlock bytes is
// shown plain (chroma's regexp lexers cost time in proportion to the
// bytes, and some backtrack badly on hostile input); a body with more than
// maxHighlightBlocks fenced blocks is shown entirely plain (no real skill
// has that many; a generated or hostile one should not cost seconds), and
// highlighting stops once maxHighlightBytes have been highlighted in one
// body.
const (
	maxHighlightBlock  = 16 << 10
	maxHighlightBlocks = 200
	maxHighlightBytes  = 256 << 10
)

// maxNesting bounds how deep block quotes and lists nest on a page.
const maxNesting = 32

// transform prepares doc for rendering with opt: it gives headings their
// ids, settles every link and image and every fenced block's highlighting,
// and returns the headings.
func transform(doc ast.Node, src []byte, opt Options) []Heading {
	c := collected{mentions: opt.LinkMention != nil, src: src}
	c.check(doc)
	c.visit(doc, 0)
	headings, links, fences, tooDeep := c.headings, c.links, c.fences, c.tooDeep

	// Quotes and lists nested past maxNesting are shown as their text:
	// browsers flatten deep trees anyway (Chromium past 512 elements), and
	// the page must stay a tree HTML parsers accept.
	for _, n := range tooDeep {
		p := ast.NewParagraph()
		p.AppendChild(p, &literalNode{value: []byte(spaces.Collapse(plainText(n, src, false)))})
		n.Parent().ReplaceChild(n.Parent(), n, p)
	}

	out := make([]Heading, 0, len(headings))
	if len(headings) > 0 {
		ids := idSet{used: make(map[string]bool, len(headings))}
		nodes := make([]headingNode, len(headings)) // one allocation
		for i, h := range headings {
			text := spaces.Collapse(plainText(h, src, true))
			id := opt.IDPrefix + ids.unique(slug(text))
			level := min(max(h.Level+opt.HeadingShift, 1), 6)
			nodes[i].level, nodes[i].id = level, id
			replaceKeepingChildren(h, &nodes[i])
			out = append(out, Heading{Level: level, ID: id, Text: text})
		}
	}

	for _, n := range links {
		settleLink(n, src, opt)
	}
	if c.mentions {
		linkMentions(c.texts, src, opt)
	}

	highlight := len(fences) <= maxHighlightBlocks
	budget := maxHighlightBytes
	for _, f := range fences {
		c := &codeNode{code: linesValue(f.Lines(), src)}
		c.lang = language(f, src)
		if highlight && c.lang != "" && len(c.code) <= maxHighlightBlock && len(c.code) <= budget {
			if c.lexer = lexerFor(c.lang); c.lexer != nil {
				budget -= len(c.code)
			}
		}
		if p := f.Parent(); p != nil {
			p.ReplaceChild(p, f, c)
		}
	}
	return out
}

// collected holds the nodes transform works on, in document order.
type collected struct {
	headings []*ast.Heading
	links    []ast.Node // links, images and autolinks
	fences   []*ast.FencedCodeBlock
	tooDeep  []ast.Node // quotes and lists nested past maxNesting
	// texts are the text nodes and code spans that may hold a mention,
	// collected when mentions is set.
	mentions bool
	texts    []ast.Node
	src      []byte
}

// visit collects n's descendants; depth is the number of quotes and lists
// n is in. (A walk of its own: ast.Walk calls a closure twice per node,
// which costs more than the work done here.)
func (c *collected) visit(n ast.Node, depth int) {
	for n := n.FirstChild(); n != nil; n = n.NextSibling() {
		d := depth
		if kind := n.Kind(); kind == ast.KindBlockquote || kind == ast.KindList {
			if depth == maxNesting {
				c.tooDeep = append(c.tooDeep, n)
				continue
			}
			d++
		}
		c.check(n)
		c.visit(n, d)
	}
}

// check collects n if transform works on it.
func (c *collected) check(n ast.Node) {
	// Defence in depth: the attribute syntax is off, so no node has
	// attributes from the source; drop any all the same.
	if n.Attributes() != nil {
		n.RemoveAttributes()
	}
	switch n := n.(type) {
	case *ast.Heading:
		c.headings = append(c.headings, n)
	case *ast.Link, *ast.Image, *ast.AutoLink:
		c.links = append(c.links, n)
	case *ast.FencedCodeBlock:
		c.fences = append(c.fences, n)
	case *ast.CodeSpan:
		if c.mentions {
			c.texts = append(c.texts, n)
		}
	case *ast.Text:
		if c.mentions && n.Parent().Kind() != ast.KindCodeSpan && bytes.IndexByte(n.Segment.Value(c.src), ':') >= 0 {
			c.texts = append(c.texts, n)
		}
	case *ast.String:
		// A "code" String is written unescaped; only the typographer
		// makes them, and it is off.
		n.SetCode(false)
	}
}

// linesValue is lines.Value(src) without the copy when the lines are one
// run of src, as a fenced block's are unless it is indented or ends the
// file without a newline. (A code line is ForceNewline: Value adds a
// newline if it does not end with one.)
func linesValue(lines *text.Segments, src []byte) []byte {
	n := lines.Len()
	if n == 0 {
		return nil
	}
	for i := range n {
		seg := lines.At(i)
		addsNewline := seg.ForceNewline && seg.Stop > seg.Start && src[seg.Stop-1] != '\n'
		if seg.Padding != 0 || addsNewline || i > 0 && seg.Start != lines.At(i-1).Stop {
			return lines.Value(src)
		}
	}
	start, stop := lines.At(0).Start, lines.At(n-1).Stop
	return src[start:stop:stop]
}

// settleLink replaces a link, image or autolink with a linkNode, an
// imageNode, a literalNode or its bare content.
func settleLink(n ast.Node, src []byte, opt Options) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	// A link inside a link is not valid HTML (browsers split them); CommonMark
	// allows an image (and so a remote image turned link) inside a link, and
	// anything inside an image's alt text.
	nested := insideLink(parent)
	switch n := n.(type) {
	case *ast.AutoLink:
		label := n.Label(src)
		url := n.URL(src)
		if n.AutoLinkType == ast.AutoLinkEmail && !hasPrefixFold(url, "mailto:") {
			url = append([]byte("mailto:"), url...)
		}
		href := util.URLEscape(url, false)
		kind := classify(string(href))
		lit := &literalNode{value: label}
		if nested || kind == urlUnsafe {
			parent.ReplaceChild(parent, n, lit)
			return
		}
		l := &linkNode{href: href, external: kind == urlExternal}
		l.AppendChild(l, lit)
		parent.ReplaceChild(parent, n, l)

	case *ast.Link:
		if nested {
			unwrap(n)
			return
		}
		href, kind, resolved := destination(n.Destination, opt)
		if kind == urlUnsafe {
			unwrap(n)
			return
		}
		l := &linkNode{href: href, title: n.Title, external: kind == urlExternal && !resolved}
		replaceKeepingChildren(n, l)

	case *ast.Image:
		href, kind, resolved := destination(n.Destination, opt)
		switch {
		case kind == urlUnsafe:
			unwrap(n)
		case resolved || kind == urlRelative || kind == urlFragment:
			img := &imageNode{src: href, alt: []byte(spaces.Collapse(plainText(n, src, true))), title: n.Title}
			parent.ReplaceChild(parent, n, img)
		case nested:
			// A remote image inside a link (a badge): its alt text, in the
			// outer link, is all that can be shown.
			if n.FirstChild() == nil {
				parent.ReplaceChild(parent, n, &literalNode{value: []byte("image")})
				return
			}
			unwrap(n)
		default:
			// Another origin (or mailto:): never loaded, shown as a link to
			// it.
			l := &linkNode{href: href, title: n.Title, external: true, class: "remote-image"}
			if n.FirstChild() == nil || spaces.Collapse(plainText(n, src, true)) == "" {
				for c := n.FirstChild(); c != nil; c = n.FirstChild() {
					n.RemoveChild(n, c)
				}
				n.AppendChild(n, &literalNode{value: href})
			}
			replaceKeepingChildren(n, l)
		}
	}
}

// destination settles a link or image destination: the URL to write, what
// kind it is, and whether opt.ResolveLink mapped it.
func destination(dest []byte, opt Options) (href []byte, kind urlKind, resolved bool) {
	// What goldmark would write: escapes and entities resolved, then
	// percent-encoded where a URL needs it.
	href = util.URLEscape(dest, true)
	kind = classify(string(href))
	if kind != urlRelative || opt.ResolveLink == nil {
		return href, kind, false
	}
	written := util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(dest)))
	url, ok := opt.ResolveLink(string(written))
	if !ok {
		return href, kind, false
	}
	if url == "" {
		return nil, urlUnsafe, false // the page asks for the link to go
	}
	href = util.URLEscape([]byte(url), false)
	if kind = classify(string(href)); kind == urlUnsafe {
		return nil, urlUnsafe, false
	}
	return href, kind, true
}

// insideLink reports whether n is, or is inside, a link or an image.
func insideLink(n ast.Node) bool {
	for ; n != nil; n = n.Parent() {
		switch n.Kind() {
		case ast.KindLink, ast.KindImage, ast.KindAutoLink, kindLink, kindImage:
			return true
		}
	}
	return false
}

// unwrap replaces n with its children.
func unwrap(n ast.Node) {
	p := n.Parent()
	for c := n.FirstChild(); c != nil; c = n.FirstChild() {
		n.RemoveChild(n, c)
		p.InsertBefore(p, n, c)
	}
	p.RemoveChild(p, n)
}

// replaceKeepingChildren puts repl in n's place with n's children.
func replaceKeepingChildren(n, repl ast.Node) {
	for c := n.FirstChild(); c != nil; c = n.FirstChild() {
		n.RemoveChild(n, c)
		repl.AppendChild(repl, c)
	}
	p := n.Parent()
	p.ReplaceChild(p, n, repl)
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// language returns the first word of a fenced block's info string, if it
// is a plausible language name (letters, digits and + # . _ -, at most 40
// bytes): it becomes a class attribute and a lexer cache key, so anything
// else is treated as no language.
func language(f *ast.FencedCodeBlock, src []byte) string {
	lang := f.Language(src)
	// "{.python}" and "python{...}" are Pandoc-style info strings.
	lang = []byte(strings.TrimLeft(string(lang), "{."))
	if i := strings.IndexAny(string(lang), "{},"); i >= 0 {
		lang = lang[:i]
	}
	if len(lang) == 0 || len(lang) > 40 {
		return ""
	}
	for _, c := range lang {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("+#._-", c) >= 0) {
			return ""
		}
	}
	return string(lang)
}

// plainText is the text of n's inline content: what a reader sees, without
// markup. Raw HTML is left out (tags are noise in a table of contents or a
// description); images count by their alt text when withImages.
func plainText(n ast.Node, src []byte, withImages bool) string {
	var b strings.Builder
	appendText(&b, n, src, withImages)
	return b.String()
}

func appendText(b *strings.Builder, n ast.Node, src []byte, withImages bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if !c.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			b.Write(v)
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *literalNode:
			b.Write(c.value)
		case *ast.RawHTML, *east.FootnoteLink, *east.FootnoteBacklink:
		case *ast.Image:
			if withImages {
				appendText(b, c, src, withImages)
			}
		default:
			appendText(b, c, src, withImages)
		}
	}
}

// maxIDLen bounds an id (a 10 KB heading should not make a 10 KB id).
const maxIDLen = 80

// slug makes a GitHub-style id from a heading's text: lower case; letters,
// marks, digits, "_" and "-" kept; each space becomes "-"; everything else
// is dropped. An empty result is "section"; one starting with "sd-" (the
// page's own ids) gets "h-" in front.
func slug(text string) string {
	var b strings.Builder
	b.Grow(min(len(text), maxIDLen+utf8.UTFMax))
	for _, r := range text {
		if b.Len() >= maxIDLen {
			break
		}
		if r < utf8.RuneSelf {
			// The cases below for ASCII, without the Unicode tables.
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
				b.WriteByte(byte(r))
			case 'A' <= r && r <= 'Z':
				b.WriteByte(byte(r) + 'a' - 'A')
			}
			continue
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	s := b.String()
	for len(s) > maxIDLen {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	if s == "" {
		return "section"
	}
	if strings.HasPrefix(s, "sd-") {
		s = "h-" + s
	}
	return s
}

// idSet hands out unique ids. next remembers, for each base, the suffix to
// try next, so that a body with thousands of identical headings costs
// linear time, not quadratic.
type idSet struct {
	used map[string]bool
	next map[string]int
}

// unique returns base, or base-1, base-2, ... the first not yet used, and
// records it. Like GitHub, but also safe when a heading's own text is
// "x-1".
func (s *idSet) unique(base string) string {
	id := base
	if s.used[id] {
		i := s.next[base]
		for {
			i++
			id = base + "-" + strconv.Itoa(i)
			if !s.used[id] {
				break
			}
		}
		if s.next == nil {
			s.next = map[string]int{} // only bodies with repeated headings need it
		}
		s.next[base] = i
	}
	s.used[id] = true
	return id
}
