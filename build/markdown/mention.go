package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Mentions of a plugin's skill, PLUGIN:SKILL (how Claude Code names the
// skills of a plugin, "superpowers:using-git-worktrees"), in prose or as a
// whole code span, become links when Options.LinkMention resolves them.

// linkMentions links the mentions in texts (text nodes and code spans, in
// document order) that opt.LinkMention resolves.
func linkMentions(texts []ast.Node, src []byte, opt Options) {
	for _, n := range texts {
		if n.Parent() == nil || insideLink(n.Parent()) {
			continue
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			code := codeSpanText(n, src)
			if end, ok := mentionAt(code, 0); ok && end == len(code) {
				if href, ok := resolveMention(string(code), opt); ok {
					l := &linkNode{href: href}
					p := n.Parent()
					p.ReplaceChild(p, n, l)
					l.AppendChild(l, n)
				}
			}
		case *ast.Text:
			linkTextMentions(n, src, opt)
		}
	}
}

// linkTextMentions splits the text node n around the mentions it holds
// that resolve, each becoming a link of its own text.
func linkTextMentions(n *ast.Text, src []byte, opt Options) {
	seg := n.Segment
	value := seg.Value(src)
	p := n.Parent()
	start := 0 // of the text not yet placed, in value
	for i := 0; i < len(value); i++ {
		if value[i] != ':' {
			continue
		}
		// The plugin's name runs back from the colon.
		from := i
		for from > 0 && isNameByte(value[from-1]) {
			from--
		}
		if from == i || (from > 0 && !mentionBoundary(value[from-1])) || from < start {
			continue
		}
		end, ok := mentionAt(value, from)
		if !ok || (end < len(value) && !mentionEnd(value, end)) {
			continue
		}
		href, ok := resolveMention(string(value[from:end]), opt)
		if !ok {
			continue
		}
		if from > start {
			p.InsertBefore(p, n, ast.NewTextSegment(text.NewSegment(seg.Start+start, seg.Start+from)))
		}
		l := &linkNode{href: href}
		l.AppendChild(l, ast.NewTextSegment(text.NewSegment(seg.Start+from, seg.Start+end)))
		p.InsertBefore(p, n, l)
		start, i = end, end-1
	}
	if start > 0 {
		// The rest keeps the node, and with it its line break.
		n.Segment = text.NewSegment(seg.Start+start, seg.Stop)
	}
}

// mentionAt returns where the mention that starts at b[from] ends: NAME:NAME,
// names of lowercase letters, digits and hyphens starting with a letter or
// digit.
func mentionAt(b []byte, from int) (int, bool) {
	i := from
	name := func() bool {
		if i >= len(b) || b[i] == '-' || !isNameByte(b[i]) {
			return false
		}
		for i < len(b) && isNameByte(b[i]) {
			i++
		}
		return true
	}
	if !name() || i >= len(b) || b[i] != ':' {
		return 0, false
	}
	i++
	if !name() {
		return 0, false
	}
	// A trailing hyphen is punctuation ("see x:y-"), not the name's.
	for b[i-1] == '-' {
		i--
	}
	return i, true
}

func isNameByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' }

// mentionBoundary reports whether c may come just before a mention: not a
// part of a word, a path or a URL.
func mentionBoundary(c byte) bool {
	return !(isNameByte(c) || 'A' <= c && c <= 'Z' || c == '_' || c == '/' || c == '.' || c == ':' || c == '@')
}

// mentionEnd reports whether the mention that ends at b[end] ends there: what
// follows is not a part of a word or of a longer name (a.b:c:d, x:y/z).
func mentionEnd(b []byte, end int) bool {
	c := b[end]
	if c == '.' || c == ',' || c == ';' || c == '!' || c == '?' || c == ')' {
		// Punctuation, unless a word goes on after it.
		return end+1 >= len(b) || !isNameByte(b[end+1])
	}
	return mentionBoundary(c) && c != ':'
}

func resolveMention(mention string, opt Options) ([]byte, bool) {
	url, ok := opt.LinkMention(mention)
	if !ok || url == "" {
		return nil, false
	}
	href := []byte(url)
	if classify(url) == urlUnsafe {
		return nil, false
	}
	return href, true
}

// codeSpanText is the text of a code span.
func codeSpanText(n *ast.CodeSpan, src []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b = append(b, t.Segment.Value(src)...)
		} else {
			return nil
		}
	}
	return b
}
