package skill

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzSplit checks the frontmatter split on arbitrary bytes: the text is
// valid UTF-8 with LF line endings and no BOM, the frontmatter and body
// are parts of it, BodyLine counts the lines before the body, and
// splitting the normalised text again gives the same parts.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"---\nname: a\ndescription: b\n---\nbody",
		"\ufeff---\r\nname: a\r\n---\r\nbody\r\n",
		"\n\n---\nname: a\n...\nbody",
		"---\nname: a\n",
		"---",
		"no frontmatter\n---\n",
		"---\r---\r",
		"---\nx: \xff\xfe\n---\n\xed\xa0\x80",
		"---  \t\nname: a\n---\t\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d := Split(src)
		if !utf8.Valid(d.Text) || bytes.ContainsRune(d.Text, '\r') || bytes.HasPrefix(d.Text, bom) {
			t.Fatalf("text not normalised: %q", d.Text)
		}
		if !bytes.HasSuffix(d.Text, d.Body) {
			t.Fatalf("body %q is not the end of the text %q", d.Body, d.Text)
		}
		if !bytes.Contains(d.Text, d.Frontmatter) {
			t.Fatalf("frontmatter %q is not in the text", d.Frontmatter)
		}
		if !d.Opened && (d.Closed || d.Frontmatter != nil) {
			t.Fatalf("no opening delimiter, but closed=%v frontmatter=%q", d.Closed, d.Frontmatter)
		}
		if d.Closed {
			before := d.Text[:len(d.Text)-len(d.Body)]
			n := bytes.Count(before, []byte("\n"))
			if len(d.Body) == 0 && !bytes.HasSuffix(d.Text, []byte("\n")) {
				n++ // the closing line ends the file: the body is the empty line after it
			}
			if n != d.BodyLine-1 {
				t.Fatalf("BodyLine %d, but %d lines come before the body", d.BodyLine, n)
			}
			if d.ClosingLine != d.BodyLine-1 || d.FrontmatterLine > d.ClosingLine {
				t.Fatalf("lines: frontmatter %d, closing %d, body %d", d.FrontmatterLine, d.ClosingLine, d.BodyLine)
			}
		}
		again := Split(d.Text)
		if !bytes.Equal(again.Frontmatter, d.Frontmatter) || !bytes.Equal(again.Body, d.Body) || again.Closed != d.Closed || again.BodyLine != d.BodyLine {
			t.Fatalf("splitting the normalised text again differs: %+v vs %+v", again, d)
		}
	})
}
