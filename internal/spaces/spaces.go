// Package spaces collapses blanks in text, as headings, descriptions and
// derived prose need it.
package spaces

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Collapse turns every run of blanks (unicode.IsSpace) into one space and
// trims the ends: strings.Join(strings.Fields(s), " "), without
// allocating for text that is collapsed already.
func Collapse(s string) string {
	// Most text is collapsed already: return it without allocating. It is
	// when its only blanks (unicode.IsSpace, as strings.Fields splits at)
	// are single ' ', neither first nor last.
	clean := true
	for i := 0; i < len(s) && clean; {
		// Most text is ASCII words and single blanks: eight bytes of it
		// are passed over at once (not tried from a non-ASCII byte, where
		// it would fail at every byte of such text).
		if s[i] < utf8.RuneSelf && i+8 <= len(s) && cleanASCII8(s[i:i+8], i == 0) {
			i += 8
			continue
		}
		c := s[i]
		if c > ' ' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			clean = !unicode.IsSpace(r)
			i += size
			continue
		}
		switch c {
		case ' ':
			clean = i > 0 && i < len(s)-1 && s[i+1] != ' '
		case '\n', '\t', '\r', '\v', '\f':
			clean = false
		}
		i++
	}
	if clean {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// cleanASCII8 reports whether the 8 bytes of s are ones Collapse keeps as
// they are, by a test on the word they make: no byte below ' ' or from
// 0x80 up, no two blanks side by side, and no blank last (its neighbour
// is in the next eight) or, when first is set, first.
func cleanASCII8(s string, first bool) bool {
	_ = s[7]
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	if w&highs != 0 || (w-0x20*ones)&^w&highs != 0 {
		return false // a byte from 0x80 up, or (none such) below 0x20
	}
	x := w ^ 0x20*ones                       // blanks become zero bytes
	blanks := ^((x&lows + lows) | x) & highs // the high bit of each blank
	return blanks&(blanks>>8) == 0 && s[7] != ' ' && !(first && s[0] == ' ')
}
