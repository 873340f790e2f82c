package skill

import (
	"bytes"
	"unicode/utf8"
)

// Document is a SKILL.md split into frontmatter and body. Text is the file
// as read, made valid UTF-8, without a byte order mark, with every line
// ending (CRLF, lone CR) turned into LF, so that positions in it are the
// lines and columns an editor shows.
type Document struct {
	Text []byte
	// HadBOM, HadCRLF and InvalidUTF8 record what the normalisation changed.
	HadBOM, HadCRLF, InvalidUTF8 bool
	// LeadingBlankLines counts blank lines before the opening ---.
	LeadingBlankLines int
	// Frontmatter is the YAML between the --- lines; FrontmatterLine is the
	// line of its first line in the file (the line after the opening ---).
	Frontmatter     []byte
	FrontmatterLine int
	// Body is the Markdown after the closing ---; BodyLine is its first line.
	Body     []byte
	BodyLine int
	// Opened reports an opening --- line; Closed a closing --- (or ...) line.
	Opened, Closed bool
	// ClosingLine is the line of the closing delimiter.
	ClosingLine int
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Normalize returns src as valid UTF-8 with LF line endings and no BOM.
func Normalize(src []byte) (text []byte, hadBOM, hadCRLF, invalid bool) {
	text = src
	if bytes.HasPrefix(text, bom) {
		text, hadBOM = text[len(bom):], true
	}
	if !utf8.Valid(text) {
		text, invalid = bytes.ToValidUTF8(text, []byte("\uFFFD")), true
	}
	if bytes.IndexByte(text, '\r') >= 0 {
		hadCRLF = true
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
		text = bytes.ReplaceAll(text, []byte("\r"), []byte("\n"))
	}
	return text, hadBOM, hadCRLF, invalid
}

// isDelimiter reports whether line (without its newline) is a frontmatter
// delimiter: three dashes, optionally followed by blanks. A closing
// delimiter may also be YAML's document end, "...".
func isDelimiter(line []byte, closing bool) bool {
	t := bytes.TrimRight(line, " \t")
	return bytes.Equal(t, []byte("---")) || (closing && bytes.Equal(t, []byte("...")))
}

// Split splits a SKILL.md on lines: the frontmatter runs from a line that
// is exactly --- to the next such line, so "---" inside a value, which is
// not alone on its line, never ends it.
func Split(src []byte) *Document {
	d := &Document{}
	d.Text, d.HadBOM, d.HadCRLF, d.InvalidUTF8 = Normalize(src)
	text := d.Text
	line := 1
	pos := 0
	next := func() ([]byte, bool) {
		if pos >= len(text) {
			return nil, false
		}
		end := bytes.IndexByte(text[pos:], '\n')
		var l []byte
		if end < 0 {
			l = text[pos:]
			pos = len(text)
		} else {
			l = text[pos : pos+end]
			pos += end + 1
		}
		return l, true
	}
	// Skip blank lines before the opening delimiter; they are reported, not
	// fatal, since most clients trim them.
	for {
		start := pos
		l, ok := next()
		if !ok {
			d.Body, d.BodyLine = nil, 1
			return d
		}
		if len(bytes.TrimSpace(l)) == 0 {
			d.LeadingBlankLines++
			line++
			continue
		}
		if !isDelimiter(l, false) {
			pos = start
			d.Body, d.BodyLine = text[:], 1
			return d
		}
		d.Opened = true
		line++
		break
	}
	d.FrontmatterLine = line
	fmStart := pos
	for {
		start := pos
		l, ok := next()
		if !ok {
			d.Frontmatter = text[fmStart:]
			return d
		}
		if isDelimiter(l, true) {
			d.Closed = true
			d.Frontmatter = text[fmStart:start]
			d.ClosingLine = line
			d.Body = text[pos:]
			d.BodyLine = line + 1
			return d
		}
		line++
	}
}
