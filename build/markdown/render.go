package markdown

import (
	"bytes"
	"strconv"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// nodeRenderer renders the node kinds where safety is decided, over
// goldmark's HTML renderer. Every attribute it writes is one it chose,
// with a value it escaped.
type nodeRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindHeading, renderHeadingNode)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(kindLink, renderLink)
	reg.Register(kindImage, renderImage)
	reg.Register(kindLiteral, renderLiteral)
	reg.Register(kindCode, renderCode)
	reg.Register(east.KindTable, renderTable)
	reg.Register(east.KindTableCell, renderTableCell)
	reg.Register(east.KindTaskCheckBox, renderTaskCheckBox)
	// The transform replaces these; should one remain, it shows as its
	// text (or, for code, plain; a heading has no id), never with a URL
	// nobody checked.
	reg.Register(ast.KindHeading, renderHeading)
	reg.Register(ast.KindLink, renderNothing)
	reg.Register(ast.KindImage, renderNothing)
	reg.Register(ast.KindAutoLink, renderAutoLinkText)
	reg.Register(ast.KindFencedCodeBlock, renderFencedPlain)
	reg.Register(ast.KindCodeBlock, renderFencedPlain)
}

// Code blocks and tables scroll sideways when they are wider than the
// page, and a region that scrolls must take the keyboard's focus for a
// keyboard user to scroll it (WCAG 2.1.1; axe's
// scrollable-region-focusable): they carry tabindex="0".
const (
	preOpen   = `<pre tabindex="0">`
	tableOpen = `<table tabindex="0">` + "\n"
)

// renderTable is goldmark's table rendering with the tabindex above; the
// table options md uses give a table node no attributes.
func renderTable(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(tableOpen)
	} else {
		_, _ = w.WriteString("</table>\n")
	}
	return ast.WalkContinue, nil
}

// textWriter writes text as goldmark's html.DefaultWriter does, which is
// the one md's renderers use; see fastTextWriter.
var textWriter = fastTextWriter{html.DefaultWriter}

// fastTextWriter is an html.Writer with a shortcut: text with no
// backslash, no "&" and no NUL has no escape, reference or NUL to
// resolve, and for such text the wrapped writer's Write does exactly what
// its RawWrite does, after a first pass over every byte to find none.
// Most text is such text.
type fastTextWriter struct {
	html.Writer
}

// Write implements html.Writer.
func (t fastTextWriter) Write(w util.BufWriter, source []byte) {
	if bytes.IndexByte(source, '\\') < 0 && bytes.IndexByte(source, '&') < 0 && bytes.IndexByte(source, 0) < 0 {
		t.Writer.RawWrite(w, source)
		return
	}
	t.Writer.Write(w, source)
}

const relExternal = ` rel="nofollow noopener noreferrer"`

func renderHeading(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	level := strconv.Itoa(min(max(node.(*ast.Heading).Level, 1), 6))
	if entering {
		_, _ = w.WriteString("<h" + level + ">")
	} else {
		_, _ = w.WriteString("</h" + level + ">\n")
	}
	return ast.WalkContinue, nil
}

func renderHeadingNode(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*headingNode)
	level := byte('0' + min(max(n.level, 1), 6))
	if entering {
		_, _ = w.WriteString("<h")
		_ = w.WriteByte(level)
		_, _ = w.WriteString(` id="`)
		_, _ = w.Write(util.EscapeHTML(util.StringToReadOnlyBytes(n.id)))
		_, _ = w.WriteString(`">`)
	} else {
		_, _ = w.WriteString("</h")
		_ = w.WriteByte(level)
		_, _ = w.WriteString(">\n")
	}
	return ast.WalkContinue, nil
}

// renderTableCell is goldmark's TableHTMLRenderer.renderTableCell (v1.8.7)
// for md's table options (alignment as an align attribute), without the
// fmt.Fprintf calls that allocate for every cell.
func renderTableCell(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*east.TableCell)
	tag := "td"
	if n.Parent().Kind() == east.KindTableHeader {
		tag = "th"
	}
	if !entering {
		_, _ = w.WriteString("</")
		_, _ = w.WriteString(tag)
		_, _ = w.WriteString(">\n")
		return ast.WalkContinue, nil
	}
	_ = w.WriteByte('<')
	_, _ = w.WriteString(tag)
	// A cell has no attributes: the transform removes every node's.
	if n.Alignment != east.AlignNone {
		_, _ = w.WriteString(` align="`)
		_, _ = w.WriteString(n.Alignment.String())
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

// renderHTMLBlock shows a raw HTML block as a paragraph of its source
// text, escaped; an HTML comment is left out, since its author meant it to
// be invisible.
func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if !entering || n.HTMLBlockType == ast.HTMLBlockType2 {
		return ast.WalkSkipChildren, nil
	}
	var raw []byte
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		raw = append(raw, seg.Value(source)...)
	}
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(source)...)
	}
	raw = bytes.TrimRight(raw, " \t\n")
	if len(raw) == 0 {
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString("<p>")
	textWriter.RawWrite(w, raw)
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// renderRawHTML shows an inline tag as its escaped text; an inline comment
// is left out.
func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	segs := n.Segments
	if segs.Len() > 0 {
		if first := segs.At(0); bytes.HasPrefix(first.Value(source), []byte("<!--")) {
			return ast.WalkSkipChildren, nil
		}
	}
	for i := range segs.Len() {
		seg := segs.At(i)
		textWriter.RawWrite(w, seg.Value(source))
	}
	return ast.WalkSkipChildren, nil
}

func renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*linkNode)
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML(n.href))
	_ = w.WriteByte('"')
	writeTitle(w, n.title)
	if n.external {
		_, _ = w.WriteString(relExternal)
	}
	if n.class != "" {
		_, _ = w.WriteString(` class="` + n.class + `"`)
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

func renderImage(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*imageNode)
	_, _ = w.WriteString(`<img src="`)
	_, _ = w.Write(util.EscapeHTML(n.src))
	_, _ = w.WriteString(`" alt="`)
	_, _ = w.Write(util.EscapeHTML(n.alt))
	_ = w.WriteByte('"')
	writeTitle(w, n.title)
	_, _ = w.WriteString(` loading="lazy">`)
	return ast.WalkSkipChildren, nil
}

// writeTitle writes a Markdown link title as goldmark does (escapes and
// entities resolved, then escaped).
func writeTitle(w util.BufWriter, title []byte) {
	if title == nil {
		return
	}
	_, _ = w.WriteString(` title="`)
	textWriter.Write(w, title)
	_ = w.WriteByte('"')
}

func renderLiteral(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		textWriter.RawWrite(w, node.(*literalNode).value)
	}
	return ast.WalkSkipChildren, nil
}

func renderCode(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*codeNode)
	if n.lexer != nil {
		if out := cachedHighlight(n.lexer, n.code); out != nil {
			_, _ = w.WriteString(`<pre class="chroma" tabindex="0"><code class="language-` + n.lang + `">`)
			_, _ = w.Write(out)
			_, _ = w.WriteString("</code></pre>\n")
			return ast.WalkSkipChildren, nil
		}
	}
	if n.lang != "" {
		_, _ = w.WriteString(preOpen + `<code class="language-` + n.lang + `">`)
	} else {
		_, _ = w.WriteString(preOpen + "<code>")
	}
	textWriter.RawWrite(w, n.code)
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

func renderNothing(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
	return ast.WalkContinue, nil
}

func renderAutoLinkText(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		textWriter.RawWrite(w, node.(*ast.AutoLink).Label(source))
	}
	return ast.WalkSkipChildren, nil
}

func renderFencedPlain(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(preOpen + "<code>")
		textWriter.RawWrite(w, node.Lines().Value(source))
		_, _ = w.WriteString("</code></pre>\n")
	}
	return ast.WalkSkipChildren, nil
}

// renderTaskCheckBox writes a task list item's box as goldmark does, with
// a name, which a form control needs for a screen reader to say what it
// is: "done" or "to do", as the box is ticked or not.
func renderTaskCheckBox(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if node.(*east.TaskCheckBox).IsChecked {
		w.WriteString(`<input checked="" disabled="" type="checkbox" aria-label="done"> `)
	} else {
		w.WriteString(`<input disabled="" type="checkbox" aria-label="to do"> `)
	}
	return ast.WalkContinue, nil
}
