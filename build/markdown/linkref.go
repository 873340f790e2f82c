package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// newParser is goldmark's DefaultParser with its one paragraph
// transformer, the one that takes link reference definitions
// ("[x]: https://...") out of paragraphs, behind linkRefFilter: goldmark
// runs it on every paragraph, and it allocates a reader for each before
// looking at the first character.
func newParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(linkRefFilter{parser.LinkReferenceParagraphTransformer}, 100)),
	)
}

// linkRefFilter passes on only the paragraphs that can start with a link
// reference definition.
type linkRefFilter struct {
	parser.ParagraphTransformer
}

// Transform leaves a paragraph alone, as goldmark's transformer (v1.8.7,
// its parser package's linkReferenceParagraphTransformer) would, when its first character after white space
// is not "[": a definition starts with its label.
func (f linkRefFilter) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if node.Lines().Len() > 0 {
		seg := node.Lines().At(0)
		for _, c := range reader.Source()[seg.Start:seg.Stop] {
			if !util.IsSpace(c) {
				if c != '[' {
					return
				}
				break
			}
		}
	}
	f.ParagraphTransformer.Transform(node, reader, pc)
}
