// Package linkify is goldmark's Linkify extension made cheaper: the same
// links in the same trees, found in a fraction of the time.
package linkify

import (
	"slices"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// New returns goldmark's Linkify extension allowing protocols (none:
// goldmark's default, http:, https: and ftp:), with its inline parser
// behind linkifyFilter. goldmark calls that parser at every space of
// every line of prose (a URL can follow any space), and there it looks
// for each protocol, www. and an e-mail address before giving up, which
// made it a large part of parsing. The filter gives up at once when the
// parser would; the tree is the same (FuzzParserSameTree).
func New(protocols ...string) goldmark.Extender {
	l := linkify{protocols: protocols}
	if len(protocols) == 0 {
		protocols = []string{"http:", "https:", "ftp:"}
	}
	for _, p := range append(slices.Clone(protocols), "www.") {
		if p == "" {
			// Every line starts with it: goldmark's parser looks for a URL
			// everywhere, and the filter must let it.
			l.everywhere = true
			continue
		}
		l.starts[p[0]] = true
	}
	l.filterProtocols = protocols
	return &l
}

type linkify struct {
	protocols       []string // as given to goldmark
	filterProtocols []string // what goldmark's parser then looks for
	// starts holds the first bytes of filterProtocols and "www.";
	// everywhere is set when a protocol is "", which any line starts with.
	starts     [256]bool
	everywhere bool
}

// Extend is extension.Linkify's, with the parser wrapped.
func (l *linkify) Extend(m goldmark.Markdown) {
	var opts []extension.LinkifyOption
	if l.protocols != nil {
		opts = append(opts, extension.WithLinkifyAllowedProtocols(l.protocols))
	}
	p := extension.NewLinkifyParser(opts...)
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(linkifyFilter{p, l}, 999)))
}

// linkifyFilter is an inline parser that passes to the one it wraps only
// the positions where that one could find a link.
type linkifyFilter struct {
	parser.InlineParser
	l *linkify
}

// Parse returns nil, as linkify's parser would, where no link can start,
// and otherwise what that parser returns.
func (f linkifyFilter) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !f.l.mayStartLink(line) {
		return nil
	}
	return f.InlineParser.Parse(parent, block, pc)
}

// linkifyFilter has no SetOption: goldmark's parser options (none are
// set here) must not change the wrapped parser's protocols behind
// mayStartLink's back.

// mayStartLink is false only where goldmark's linkify parser (v1.8.7, its
// extension package's linkifyParser.Parse) returns nil without looking further: after the
// one trigger character it skips, the line must start with an allowed
// protocol or "www.", or else be an e-mail address, which starts with a
// character that is not punctuation and has its "@" within 65 bytes, with
// only printable ASCII before it (util.FindEmailIndex reads at most 64
// bytes of local part, from a subset of those).
func (l *linkify) mayStartLink(line []byte) bool {
	if len(line) == 0 || l.everywhere {
		return true // the parser's own business
	}
	switch line[0] {
	case ' ', '*', '_', '~', '(':
		line = line[1:]
	}
	if len(line) == 0 {
		return false
	}
	if l.starts[line[0]] {
		for _, p := range l.filterProtocols {
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

func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}
