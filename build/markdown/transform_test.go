package markdown

import (
	"bytes"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestLinesValue checks linesValue against goldmark's Segments.Value on
// every fenced block of the goldens, the corpus and odd layouts:
// indented fences, tabs, a block left open at the end of the file.
func TestLinesValue(t *testing.T) {
	inputs := append(corpusBodies(t),
		[]byte("```sh\na\n\n  b\n```\n"),
		[]byte("  ```sh\n  a\n   b\n c\n  ```\n"),
		[]byte("- x\n\n  ```go\n  func f() {}\n\t\tx\n  ```\n"),
		[]byte("> ```\n> a\n>\tb\n> ```\n"),
		[]byte("```\nopen at the end"),
		[]byte("```\nopen at the end\n"),
		[]byte("```\n```\n"),
		[]byte("```\r\na\r\nb\r\n```\r\n"),
	)
	inputs = append(inputs, goldenInputs(t)...)
	for _, src := range inputs {
		doc := md.Parser().Parse(text.NewReader(src))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if f, ok := n.(*ast.FencedCodeBlock); ok && entering {
				want := bytes.Clone(f.Lines().Value(bytes.Clone(src)))
				if got := linesValue(f.Lines(), src); !bytes.Equal(got, want) {
					t.Errorf("linesValue = %q, want %q, in %.60q", got, want, src)
				}
			}
			return ast.WalkContinue, nil
		})
	}
}

// TestSlugASCII checks slug's shortcut for ASCII against the Unicode
// tables it stands for.
func TestSlugASCII(t *testing.T) {
	for c := rune(0); c < utf8.RuneSelf; c++ {
		want := ""
		switch {
		case c == ' ':
			want = "-"
		case c == '-' || c == '_':
			want = string(c)
		case unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.IsNumber(c) || unicode.Is(unicode.M, c) || unicode.Is(unicode.Pc, c):
			want = string(unicode.ToLower(c))
		}
		if got := slug("x" + string(c) + "y"); got != "x"+want+"y" {
			t.Errorf("slug(%q) = %q, want %q", "x"+string(c)+"y", got, "x"+want+"y")
		}
	}
}
