package markdown

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/yuin/goldmark/renderer/html"
)

// FuzzTextWriter checks that textWriter writes what goldmark's
// html.DefaultWriter writes.
func FuzzTextWriter(f *testing.F) {
	for _, s := range []string{"", "plain text", `a <b> & "c"`, `\*x\*`, "&amp; &#34; &#x22; &nbsp;", "nul\x00byte", `back\`, "é ✓"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, raw := range []bool{false, true} {
			var got, want bytes.Buffer
			gw, ww := bufio.NewWriter(&got), bufio.NewWriter(&want)
			if raw {
				textWriter.RawWrite(gw, src)
				html.DefaultWriter.RawWrite(ww, src)
			} else {
				textWriter.Write(gw, src)
				html.DefaultWriter.Write(ww, src)
			}
			_, _ = gw.Flush(), ww.Flush()
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%q: textWriter %q, DefaultWriter %q", src, got.Bytes(), want.Bytes())
			}
		}
	})
}
