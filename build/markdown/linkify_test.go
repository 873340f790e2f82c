package markdown

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/skilldex/skilldex/build/linkify"
)

// linkifySeeds are lines around linkify's decisions.
var linkifySeeds = []string{
	"see https://a.example/x?y=(1). and http://b.example",
	"www.c.example/path, (www.d.example) *www.e.example* ~www.f.example~",
	"_g@h.example_ (i@j.example)",
	"mail a.b+c@k.example or mailto:l@m.example; not @n or o@ or p@q",
	"ftp://r.example ~http://s.example~ hxxp://t.example wwwx.example",
	strings.Repeat("x", 64) + "@u.example " + strings.Repeat("y", 65) + "@v.example",
	"-w@x.example .y@z.example é@a.example",
}

// plainParser is md without the filters: goldmark's default parser and
// its own Linkify extension. plainDefault and filteredDefault are the
// parser of uasp's deriver, without and with the linkify filter.
var plainParser = goldmark.New(goldmark.WithExtensions(
	extension.NewLinkify(extension.WithLinkifyAllowedProtocols(linkifyProtocols)),
	extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
	extension.Strikethrough,
	extension.TaskList,
	extension.Footnote,
)).Parser()

var (
	plainDefault = goldmark.New(goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, extension.Linkify, extension.TaskList)).Parser()
	filteredDefault = goldmark.New(goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, linkify.New(), extension.TaskList)).Parser()
)

// linkRefSeeds are paragraphs around link reference definitions.
var linkRefSeeds = []string{
	"[a]: https://a.example\n\n[a]\n",
	"   [b]: /b 'title'\ntext after\n\n[b]\n",
	"text\n[c]: /c\n\n[c]\n",
	"\t[d]: /d\n\n[d]\n",
	"> [e]: /e\n>\n> [e]\n",
	"- [f]: /f\n\n  [f]\n",
	"[g]:\n/g\n\"t\"\n[h]: <> [i]\n\n[g] [h]\n",
	" \u00a0[j]: /j\n\n[j]\n",
}

// TestParserSameTree checks that md's parser, with the filters, builds
// the same tree as goldmark's own, on the golden inputs, the fuzz seeds
// and the corpus bodies.
func TestParserSameTree(t *testing.T) {
	inputs := corpusBodies(t)
	inputs = append(inputs, goldenInputs(t)...)
	for _, s := range slices.Concat(linkifySeeds, linkRefSeeds, fuzzSeeds) {
		inputs = append(inputs, []byte(s))
	}
	for _, src := range inputs {
		sameTree(t, src)
	}
}

// FuzzParserSameTree is TestParserSameTree on arbitrary bodies.
func FuzzParserSameTree(f *testing.F) {
	for _, s := range slices.Concat(linkifySeeds, linkRefSeeds, fuzzSeeds) {
		f.Add([]byte(s))
	}
	f.Fuzz(sameTree)
}

func sameTree(t *testing.T, src []byte) {
	want := treeString(plainParser.Parse(text.NewReader(src)), src)
	got := treeString(md.Parser().Parse(text.NewReader(src)), src)
	if got != want {
		t.Errorf("trees differ for %.80q:\ngoldmark %s\nmd       %s", src, want, got)
	}
	want = treeString(plainDefault.Parse(text.NewReader(src)), src)
	got = treeString(filteredDefault.Parse(text.NewReader(src)), src)
	if got != want {
		t.Errorf("trees differ for %.80q with the default protocols:\ngoldmark %s\nfiltered %s", src, want, got)
	}
}

// treeString writes a tree's nodes with what distinguishes them: kinds,
// text segments and line breaks, autolink URLs, link destinations.
func treeString(doc ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			b.WriteString(")")
			return ast.WalkContinue, nil
		}
		b.WriteString("(" + n.Kind().String())
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %d-%d %v %v %v", n.Segment.Start, n.Segment.Stop, n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.AutoLink:
			fmt.Fprintf(&b, " %d %q %q", n.AutoLinkType, n.URL(src), n.Protocol)
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.String:
			fmt.Fprintf(&b, " %q", n.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
