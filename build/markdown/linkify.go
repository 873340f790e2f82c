package markdown

import (
	"slices"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Linkify only turns http(s) URLs, www. names and e-mail addresses into
// links; ftp: and the like stay text.
var linkifyProtocols = []string{"http:", "https:", "mailto:"}

// linkify is goldmark's Linkify extension with its inline parser behind
// linkifyFilter. goldmark calls that parser at every space of every line
// of prose (a URL can follow any space), and there it looks for each
// protocol, www. and an e-mail address before giving up: about a quarter
// of all parsing time. The filter gives up at once when the parser would.
type linkify struct{}

// Extend is extension.Linkify's, with the parser wrapped.
func (linkify) Extend(m goldmark.Markdown) {
	p := extension.NewLinkifyParser(extension.WithLinkifyAllowedProtocols(linkifyProtocols))
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(linkifyFilter{p}, 999)))
}

// linkifyFilter is an inline parser that passes to the one it wraps only
// the positions where that one could find a link.
type linkifyFilter struct {
	parser.InlineParser
}

// Parse returns nil, as linkify's parser would, where no link can start,
// and otherwise what that parser returns.
func (f linkifyFilter) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !mayStartLink(line) {
		return nil
	}
	return f.InlineParser.Parse(parent, block, pc)
}

// linkifyFilter has no SetOption: goldmark's parser options (none are
// set here) must not change the wrapped parser's protocols behind
// mayStartLink's back.

// mayStartLink is false only where goldmark's linkify parser (v1.8.7,
// extension/linkify.go) returns nil without looking further: after the
// one trigger character it skips, the line must start with an allowed
// protocol or "www.", or else be an e-mail address, which starts with a
// character that is not punctuation and has its "@" within 65 bytes, with
// only printable ASCII before it (util.FindEmailIndex reads at most 64
// bytes of local part, from a subset of those).
func mayStartLink(line []byte) bool {
	if len(line) == 0 {
		return true // the parser's own business
	}
	switch line[0] {
	case ' ', '*', '_', '~', '(':
		line = line[1:]
	}
	if len(line) == 0 {
		return false
	}
	if linkStarts[line[0]] {
		for _, p := range linkifyProtocols {
			if hasPrefix(line, p) {
				return true
			}
		}
		if hasPrefix(line, "www.") {
			return true
		}
	}
	if util.IsPunct(line[0]) {
		return false
	}
	local := line[:min(len(line), 65)]
	i := 0
	for i < len(local) && localPart[local[i]] {
		i++
	}
	return i < len(local) && local[i] == '@'
}

// localPart holds the bytes an e-mail address's local part may have, and
// more: printable ASCII but "@".
var localPart = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = c != '@'
	}
	return t
}()

// linkStarts holds the first bytes of linkifyProtocols and "www.".
var linkStarts = func() (t [256]bool) {
	for _, p := range append(slices.Clone(linkifyProtocols), "www.") {
		t[p[0]] = true
	}
	return t
}()

func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}
