package markdown

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLexerThatNeverEnds renders blocks on which chroma's JSONata and
// Jungle lexers never end (after an unterminated string they match the
// empty string forever): the block is shown plain, where chroma would
// hang the build.
func TestLexerThatNeverEnds(t *testing.T) {
	for _, lang := range []string{"jsonata", "jungle"} {
		done := make(chan string, 1)
		go func() {
			res, _ := Render([]byte("```"+lang+"\n\"unterminated\n```\n"), testOptions)
			done <- res.HTML
		}()
		select {
		case out := <-done:
			if want := `<pre tabindex="0"><code class="language-` + lang + `">&quot;unterminated` + "\n</code></pre>"; !strings.Contains(out, want) {
				t.Errorf("%s: got %s, want it plain: %s", lang, out, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: Render does not end", lang)
		}
	}
}

// TestHighlightContrast: every token colour of the highlighting has
// WCAG AA's contrast (4.5:1) against the code backgrounds of its theme;
// chroma's github style painted Python's self #6a737d, 4.38:1 on the
// site's code background. The backgrounds are those the site uses.
func TestHighlightContrast(t *testing.T) {
	style, err := os.ReadFile(filepath.Join("..", "..", "static", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	for _, theme := range []string{lightStyle, darkStyle} {
		if site := codeBackgrounds[theme][1]; !bytes.Contains(style, []byte("--code: "+site+";")) {
			t.Errorf("static/style.css has no --code: %s; codeBackgrounds is out of date", site)
		}
		n := 0
		for _, r := range legible(themeRules(theme), codeBackgrounds[theme], theme == darkStyle) {
			if strings.Contains(r.decls, "background") {
				continue
			}
			for _, m := range foreground.FindAllStringSubmatch(r.decls, -1) {
				n++
				if c := worstContrast(parseHex(m[2]), codeBackgrounds[theme]); c < minContrast {
					t.Errorf("%s %s { %s }: contrast %.2f", theme, r.selector, r.decls, c)
				}
			}
		}
		if n < 20 {
			t.Errorf("%s: only %d colours checked", theme, n)
		}
	}
}
