package site

import (
	"html/template"
	"strings"
)

// codeSpans returns plain text, such as a skill's description, as HTML
// with its `code spans` in <code> elements, the one piece of Markdown
// descriptions commonly hold; everything else is escaped text.
func codeSpans(s string) template.HTML {
	var b strings.Builder
	for _, p := range codeSpanParts(s) {
		if p.code {
			b.WriteString("<code>")
			b.WriteString(template.HTMLEscapeString(p.text))
			b.WriteString("</code>")
		} else {
			b.WriteString(template.HTMLEscapeString(p.text))
		}
	}
	return template.HTML(b.String())
}

// textPart is a part of a text: a code span's content, or text.
type textPart struct {
	text string
	code bool
}

// blanks are the characters a code span of nothing but them is not one
// of: ASCII's, as static/search-core.js's codeParts has them.
const blanks = " \t\n\r\f"

// codeSpanParts splits s into text and code spans as CommonMark reads
// them: a run of backticks opens a span that the next run of as many
// closes, and one space is stripped from each end of a span holding
// spaces at both; a run without its match, or a span of blanks alone, is
// text. static/search-core.js's codeParts must split alike.
func codeSpanParts(s string) []textPart {
	var out []textPart
	text := 0 // where the pending text starts
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := backticks(s[i:])
		end := -1
		for j := i + n; j < len(s); {
			k := strings.IndexByte(s[j:], '`')
			if k < 0 {
				break
			}
			j += k
			m := backticks(s[j:])
			if m == n {
				end = j
				break
			}
			j += m
		}
		if end < 0 {
			i += n
			continue
		}
		code := s[i+n : end]
		if strings.Trim(code, blanks) == "" {
			i = end + n
			continue
		}
		if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' {
			code = code[1 : len(code)-1]
		}
		if i > text {
			out = append(out, textPart{s[text:i], false})
		}
		out = append(out, textPart{code, true})
		i = end + n
		text = i
	}
	if text < len(s) {
		out = append(out, textPart{s[text:], false})
	}
	return out
}

// backticks counts the backticks s starts with.
func backticks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// unbrokenWords returns text as HTML whose words (runs without a space)
// are each kept on one line, so that a command wraps between its words,
// not after the hyphens of --skill or a skill's name. A word longer than
// the line still breaks (overflow-wrap).
func unbrokenWords(s string) template.HTML {
	var b strings.Builder
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" {
			b.WriteString(`<span class="sd-word">`)
			b.WriteString(template.HTMLEscapeString(w))
			b.WriteString("</span>")
		}
	}
	return template.HTML(b.String())
}
