package markdown

import (
	"bytes"
	"math"
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

// TestHighlightContrast: every token colour of the stylesheet has WCAG
// AA's contrast (4.5:1) against the code backgrounds of its theme;
// chroma's github style painted Python's self #6a737d, 4.38:1 on the
// site's code background. The backgrounds are those the site uses, and
// the contrast is WCAG's (checked on colours whose ratio is known).
func TestHighlightContrast(t *testing.T) {
	for _, c := range []struct {
		fg, bg string
		want   float64
	}{{"000000", "#ffffff", 21}, {"767676", "#ffffff", 4.54}, {"777777", "#ffffff", 4.48}, {"6a737d", "#f3f4f6", 4.38}} {
		if got := worstContrast(parseHex(c.fg), []string{c.bg}); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast of #%s on %s: %.3f, want %.2f", c.fg, c.bg, got, c.want)
		}
	}
	style, err := os.ReadFile(filepath.Join("..", "..", "static", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	for _, theme := range []string{lightStyle, darkStyle} {
		if site := codeBackgrounds[theme][1]; !bytes.Contains(style, []byte("--code: "+site+";")) {
			t.Errorf("static/style.css has no --code: %s; codeBackgrounds is out of date", site)
		}
	}
	checked := map[string]int{}
	for line := range strings.Lines(string(CSS())) {
		if strings.Contains(line, "background") {
			continue // a colour on a background of its own
		}
		theme := lightStyle
		if strings.Contains(line, ":root[data-theme=dark]") || strings.Contains(line, ":root:not([data-theme=light])") {
			theme = darkStyle
		}
		for _, m := range foreground.FindAllStringSubmatch(strings.TrimSpace(strings.Trim(strings.TrimSpace(line[strings.Index(line, "{")+1:]), "}")), -1) {
			checked[theme]++
			if c := worstContrast(parseHex(m[2]), codeBackgrounds[theme]); c < minContrast {
				t.Errorf("%s: %s: contrast %.2f", theme, strings.TrimSpace(line), c)
			}
		}
	}
	if checked[lightStyle] < 40 || checked[darkStyle] < 40 {
		t.Errorf("colours checked: %v; the stylesheet was not read", checked)
	}
}
