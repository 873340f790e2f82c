package site

import (
	"html/template"
	"strings"
)

// codeSpans returns plain text, such as a skill's description, as HTML
// with its `code spans` in <code> elements, the one piece of Markdown
// descriptions commonly hold; everything else, a lone backtick included,
// is escaped text.
func codeSpans(s string) template.HTML {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '`')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open+1:], '`')
		if end < 0 {
			break
		}
		code := s[open+1 : open+1+end]
		if strings.TrimSpace(code) == "" {
			b.WriteString(template.HTMLEscapeString(s[:open+2+end]))
		} else {
			b.WriteString(template.HTMLEscapeString(s[:open]))
			b.WriteString("<code>")
			b.WriteString(template.HTMLEscapeString(code))
			b.WriteString("</code>")
		}
		s = s[open+2+end:]
	}
	b.WriteString(template.HTMLEscapeString(s))
	return template.HTML(b.String())
}
