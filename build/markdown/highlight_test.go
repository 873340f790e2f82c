package markdown

import (
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
