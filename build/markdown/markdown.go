// Package markdown renders a skill's Markdown body to safe HTML.
//
// Skill bodies are written by strangers, so the output is built to be safe
// to place inside a page whatever the input:
//
//   - raw HTML (blocks and inline tags) is never rendered: it is shown as
//     escaped text, so readers see what the author wrote; HTML comments are
//     left out, as an author meant them to be invisible;
//   - link and image URLs whose scheme is not http, https or mailto are
//     dropped (the text stays, the link goes), after undoing the tricks that
//     hide a scheme: entities, escapes, whitespace and control characters;
//   - images on other origins are not loaded: they become links (the alt
//     text, linking to the image), so the page never requests another
//     origin; links to other origins get rel="nofollow noopener noreferrer";
//   - nothing in the source can set an attribute: goldmark's attribute
//     syntax is off, and the renderer writes only attributes it chose;
//   - code is highlighted with CSS classes only, never style attributes, so
//     the page works under a Content Security Policy of style-src 'self'
//     (the stylesheet is [CSS]).
//
// The Markdown dialect is CommonMark with the GitHub extensions (tables,
// strikethrough, autolinks, task lists) and footnotes.
//
// Headings get GitHub-style ids (lower case, punctuation dropped, spaces to
// hyphens; "-1", "-2" for repeats). The page's own ids start with "sd-", so
// a heading whose id would start with "sd-" gets "h-" in front of it, and
// footnotes use ids with a colon ("fn:1", "fnref:1"), which headings never
// have: ids in the rendered body never collide with the page's.
//
// Classes the page may style: pre.chroma (highlighted code, with
// code.language-NAME; unhighlighted fenced code is a bare pre), a.remote-image
// (an image of another origin shown as a link), div.footnotes,
// a.footnote-ref and a.footnote-backref. Table cell alignment is an align
// attribute, not a style.
//
// Highlighting is chroma's, whose cost grows with the bytes, so it is
// bounded: a block over 16 KB, every block of a body with more than 200
// fenced blocks, and blocks after the first 256 KB highlighted in a body
// are shown plain. Highlighted blocks are cached by content (16 MB at
// most), which makes rebuilds cheap.
package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/linkify"
	"github.com/skilldex/skilldex/internal/spaces"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Options are the per-page settings of [Render].
type Options struct {
	// ResolveLink maps the destination of a relative link or image in the
	// body ("references/style.md", "./scripts/run.sh",
	// "assets/diagram.png#x") to its published URL. dest is as the author
	// wrote it, with Markdown backslash escapes and HTML entities resolved
	// and no percent-decoding. Fragment-only links ("#usage") are not
	// passed. When ok is false (or ResolveLink is nil) the destination
	// stays as written. A resolved URL is trusted to be on the page's
	// origin, so a resolved image is shown with <img>; it is still dropped
	// if its scheme is unsafe. A url of "" with ok true removes the link
	// and keeps its text: for a link to a file that is not published.
	ResolveLink func(dest string) (url string, ok bool)
	// IDPrefix is put before every heading id, for a second document on
	// the same page whose ids must not collide with the first's.
	IDPrefix string
	// HeadingShift moves every heading that many levels down (at most to
	// h6): a body's "# Title" sits under the page's own <h1>.
	HeadingShift int
	// LinkMention maps a mention of a plugin's skill, PLUGIN:SKILL as
	// Claude Code names it ("superpowers:brainstorming"), written in prose
	// or as a whole code span, to the URL of the skill's page; ok false
	// (or a nil LinkMention) leaves the mention as text. The URL is
	// trusted like ResolveLink's.
	LinkMention func(mention string) (url string, ok bool)
}

// Heading is one heading of the body, for a table of contents.
type Heading struct {
	// Level is 1 to 6 (h1 to h6).
	Level int
	// ID is the heading's id attribute, unique in the body.
	ID string
	// Text is the heading as plain text (no markup, entities resolved,
	// raw HTML tags left out).
	Text string
}

// Result is a rendered body.
type Result struct {
	// HTML is a fragment to place inside the page's article element; a
	// string, as the page's template takes it (a copy less).
	HTML string
	// Headings lists every heading in document order.
	Headings []Heading
}

// Linkify only turns http(s) URLs, www. names and e-mail addresses into
// links; ftp: and the like stay text.
var linkifyProtocols = []string{"http:", "https:", "mailto:"}

// md is the one goldmark instance: building it (and its renderer's
// dispatch table) per call would cost more than a small body's rendering,
// and goldmark's parser and renderer are safe for concurrent use. Per-call
// state (the Options, heading ids, the highlighting budget) lives in the
// AST, which the transform stage of Render fills in before rendering.
var md = goldmark.New(
	goldmark.WithParser(newParser()),
	goldmark.WithExtensions(
		// extension.Linkify with linkifyProtocols, made cheaper.
		linkify.New(linkifyProtocols...),
		// align="..." rather than goldmark's default style="text-align:
		// ...", which the Content Security Policy would block.
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		extension.Strikethrough,
		extension.TaskList,
		extension.Footnote,
	),
	// No parser.WithAttribute, no parser.WithAutoHeadingID: authors cannot
	// set attributes, and heading ids are made by Render. The default
	// renderer is not Unsafe. Ours (priority 0) takes over the node kinds
	// where safety is decided: headings, links, images, raw HTML, code.
	goldmark.WithRendererOptions(html.WithWriter(textWriter), renderer.WithNodeRenderers(util.Prioritized(nodeRenderer{}, 0))),
)

// buffers pools the output buffer and its bufio.Writer across calls, so
// that a build of many bodies does not allocate a fresh 4 KB writer and a
// growing buffer per body.
var buffers = sync.Pool{New: func() any {
	b := &outBuf{}
	b.w = bufio.NewWriterSize(&b.buf, 8<<10)
	return b
}}

type outBuf struct {
	buf bytes.Buffer
	w   *bufio.Writer
}

// maxPooledBuf keeps one huge body from pinning a huge buffer in the pool.
const maxPooledBuf = 1 << 20

// Render renders a skill's Markdown body to an HTML fragment and lists its
// headings. It is safe for concurrent use, and the same src and options
// always give the same bytes. Invalid UTF-8 is replaced with U+FFFD. The
// error is non-nil only if rendering failed (it does not for any input
// known; a panic inside a dependency is turned into an error).
func Render(src []byte, opt Options) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = Result{}, fmt.Errorf("markdown: render: %v", r)
		}
	}()
	src = validUTF8(src)
	doc := md.Parser().Parse(text.NewReader(src))
	headings := transform(doc, src, opt)

	b := buffers.Get().(*outBuf)
	defer func() {
		if b.buf.Cap() <= maxPooledBuf {
			buffers.Put(b)
		}
	}()
	b.buf.Reset()
	b.w.Reset(&b.buf)
	if err := md.Renderer().Render(b.w, src, doc); err != nil {
		return Result{}, fmt.Errorf("markdown: render: %w", err)
	}
	return Result{HTML: b.buf.String(), Headings: headings}, nil
}

// Plain returns the body's first paragraph of prose as plain text, for a
// meta description or a summary: markup removed, entities resolved,
// whitespace collapsed, at most max runes (cut at a word boundary with an
// ellipsis; max <= 0 means no limit). Paragraphs that are only images
// (badges) or only raw HTML are skipped; "" if there is no paragraph.
func Plain(src []byte, max int) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	src = validUTF8(src)
	doc := md.Parser().Parse(text.NewReader(src))
	var found string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if n.Kind() != ast.KindParagraph {
			return ast.WalkContinue, nil
		}
		if t := spaces.Collapse(plainText(n, src, false)); t == "" {
			return ast.WalkSkipChildren, nil
		}
		found = spaces.Collapse(plainText(n, src, true))
		return ast.WalkStop, nil
	})
	return truncate(found, max)
}

// validUTF8 returns src as valid UTF-8: goldmark copies invalid bytes
// through to the output (URLEscape skips them, the escapers pass them), and
// a page must be valid UTF-8.
func validUTF8(src []byte) []byte {
	if utf8.Valid(src) {
		return src
	}
	return bytes.ToValidUTF8(src, []byte("\uFFFD"))
}

// truncate cuts s to at most max runes, at a word boundary if there is one
// in the second half, ending with "…".
func truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	if max == 1 {
		return "…"
	}
	// Byte offset of rune max-1: room for the ellipsis.
	cut, i := 0, 0
	for off := range s {
		if i == max-1 {
			cut = off
			break
		}
		i++
	}
	head := s[:cut]
	if sp := strings.LastIndexByte(head, ' '); sp > len(head)/2 {
		head = head[:sp]
	}
	return strings.TrimRightFunc(head, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}
