package markdown

import (
	"html"
	"strings"
)

// urlKind is what a URL would make a browser do.
type urlKind int

const (
	// urlUnsafe: a scheme other than http, https, mailto (javascript:,
	// data:, vbscript:, file:, and everything unknown). Dropped.
	urlUnsafe urlKind = iota
	// urlFragment: "#x", a place in the same page.
	urlFragment
	// urlRelative: a path on the page's own origin.
	urlRelative
	// urlExternal: http:, https: or protocol-relative ("//host/x"):
	// another origin.
	urlExternal
	// urlMailto: a mailto: address.
	urlMailto
)

// classify says what u is, where u is the URL exactly as the browser will
// read it from the attribute. It is deliberately more suspicious than a
// browser: it resolves entities (up to three times, for "&amp;#106;"),
// percent-escapes and removes every ASCII control character and space
// before looking for a scheme, so that "java\tscript:", "&#106;avascript:",
// " javascript:" and "java%0Ascript:" are all seen as javascript:. A
// "scheme" is anything before a colon that comes before the first / ? # or
// backslash, whether or not it is a valid scheme: "1x:y" is dropped too.
// Anything that looks like a scheme and is not http, https or mailto is
// unsafe. Obfuscation can only make a URL look more like a scheme here,
// never less, so nothing a browser would run gets through.
func classify(u string) urlKind {
	s := u
	for range 3 {
		t := html.UnescapeString(s)
		if t == s {
			break
		}
		s = t
	}
	s = strings.ToLower(strip(percentDecode(s)))
	if s == "" {
		return urlRelative
	}
	if s[0] == '#' {
		return urlFragment
	}
	if i := strings.IndexAny(s, ":/?#\\"); i >= 0 && s[i] == ':' {
		switch s[:i] {
		case "http", "https":
			return urlExternal
		case "mailto":
			return urlMailto
		}
		return urlUnsafe
	}
	// Browsers read a backslash as a slash in http URLs: "/\host" and
	// "\\host" are protocol-relative too.
	if len(s) >= 2 && (s[0] == '/' || s[0] == '\\') && (s[1] == '/' || s[1] == '\\') {
		return urlExternal
	}
	return urlRelative
}

// strip removes ASCII control characters and spaces anywhere in s
// (browsers remove tabs and newlines anywhere in a URL and the others at
// its ends; removing them everywhere is the cautious superset).
func strip(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c > ' ' && c != 0x7f {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// percentDecode decodes %XX escapes leniently (a malformed one stays as
// written), so that an escaped scheme character cannot hide a scheme.
func percentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
