package linkify

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// seeds are lines around linkify's decisions. The trees a filtered
// parser builds are compared with goldmark's in build/markdown
// (TestParserSameTree, FuzzParserSameTree), for both uses.
var seeds = []string{
	"see https://a.example/x?y=(1). and http://b.example ftp://c.example",
	"www.d.example/path, (www.e.example) *www.f.example* ~www.g.example~",
	"_h@i.example_ (j@k.example) mailto:l@m.example; not @n or o@ or p@q",
	"ftp:/r ~ftp://s.example~ hxxp://t.example wwwx.example FTP://u.example",
	strings.Repeat("x", 64) + "@v.example " + strings.Repeat("y", 65) + "@w.example",
	"-x@y.example .z@a.example é@b.example",
}

// mdProtocols are build/markdown's.
var mdProtocols = []string{"http:", "https:", "mailto:"}

// linkifyConfigs are the filter's two uses: build/markdown's protocols,
// and goldmark's default ones (uasp's deriver).
var linkifyConfigs = []struct {
	name   string
	filter *linkify
	parser parser.InlineParser
}{
	{"md", New(mdProtocols...).(*linkify), extension.NewLinkifyParser(extension.WithLinkifyAllowedProtocols(mdProtocols))},
	{"default", New().(*linkify), extension.NewLinkifyParser()},
	{"empty protocol", New("", "https:").(*linkify), extension.NewLinkifyParser(extension.WithLinkifyAllowedProtocols([]string{"", "https:"}))},
}

// FuzzLinkifyFilter checks the filter's one claim: where mayStartLink is
// false, goldmark's linkify parser finds nothing.
func FuzzLinkifyFilter(f *testing.F) {
	for _, s := range seeds {
		for i := range len(s) {
			f.Add(s[i:])
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		line, _, _ = strings.Cut(line, "\n")
		src := []byte(line + "\n")
		for _, c := range linkifyConfigs {
			if c.filter.mayStartLink(src) {
				continue
			}
			if n := c.parser.Parse(ast.NewParagraph(), text.NewReader(src), parser.NewContext()); n != nil {
				t.Fatalf("%s: mayStartLink(%q) is false, but linkify finds %s", c.name, src, n.Kind())
			}
		}
	})
}
