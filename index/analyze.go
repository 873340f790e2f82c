package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The JSON index and the browser agree on what a term is: static/search-core.js
// implements Tokens and Stem line for line, and TestCoreTokenizerAgrees
// checks the two on every word of the corpus.

// maxTokenLen drops longer tokens (hashes, base64, minified code): nobody
// types them, and they would bloat the dictionary.
const maxTokenLen = 32

// MaxTokenLen is the longest word, in characters, that is a term.
const MaxTokenLen = maxTokenLen

// IsStopWord reports whether the folded word w is a stop word, which is
// not indexed.
func IsStopWord(w string) bool { return stopWords[w] }

// stopWords are not indexed: they match nearly every skill. Single letters
// other than these stay ("c", "r" are languages).
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by for from has have how i if in into is it its
		of on or s t that the their then there these this to was were what when where which who will with you your`) {
		stopWords[w] = true
	}
}

// Fold lowercases s and removes accents (NFKD, combining marks dropped),
// so that "Café" and "cafe" are one word.
func Fold(s string) string {
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Words splits folded text into words: maximal runs of letters and digits.
// Everything else (spaces, punctuation, hyphens, underscores) separates.
func Words(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// Tokens returns the index terms of text, in order, repeats kept: folded
// words without stop words and overlong ones, stemmed.
func Tokens(text string) []string {
	var out []string
	tokenize(text, func(term []byte) { out = append(out, string(term)) })
	return out
}

// tokenize calls fn with each term Tokens returns, in order; term is valid
// only during the call. ASCII text, most of what skills say, is folded,
// split and stemmed in one pass over its bytes with no allocation: for
// ASCII, folding is lowercasing (no character has a decomposition) and
// words are runs of [a-z0-9].
func tokenize(text string, fn func(term []byte)) {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			for _, w := range Words(Fold(text)) {
				if !stopWords[w] && utf8.RuneCountInString(w) <= maxTokenLen {
					fn(stemBytes([]byte(w)))
				}
			}
			return
		}
	}
	var buf [maxTokenLen + 2]byte // a stem may grow by one letter
	word := buf[:0]
	long := false
	end := func() {
		if len(word) > 0 && !long && !stopWords[string(word)] {
			fn(stemBytes(word))
		}
		word, long = buf[:0], false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		default:
			end()
			continue
		}
		if len(word) == maxTokenLen {
			long = true
			continue
		}
		word = append(word, c)
	}
	end()
}

// Stem conflates the inflections of an English word: plurals, -ed, -ing
// and final y (steps 1a, 1b and 1c of Porter's algorithm), and nothing
// more. The later steps merge words people keep apart ("general" and
// "generate") and make typed prefixes stop matching their words. Words
// with anything but ASCII letters, or of three letters or fewer, are left
// as they are.
func Stem(w string) string {
	return string(stemBytes([]byte(w)))
}

// stemBytes is Stem working in b, which it may lengthen by one byte.
func stemBytes(b []byte) []byte {
	if len(b) <= 3 {
		return b
	}
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return b
		}
	}
	// Step 1a.
	switch {
	case hasSuffix(b, "sses"):
		b = b[:len(b)-2]
	case hasSuffix(b, "ies"):
		b = b[:len(b)-2]
	case hasSuffix(b, "ss"):
	case hasSuffix(b, "s"):
		b = b[:len(b)-1]
	}
	// Step 1b.
	again := false
	switch {
	case hasSuffix(b, "eed"):
		if measure(b[:len(b)-3]) > 0 {
			b = b[:len(b)-1]
		}
	case hasSuffix(b, "ed") && hasVowel(b[:len(b)-2]):
		b, again = b[:len(b)-2], true
	case hasSuffix(b, "ing") && hasVowel(b[:len(b)-3]):
		b, again = b[:len(b)-3], true
	}
	if again {
		switch {
		case hasSuffix(b, "at"), hasSuffix(b, "bl"), hasSuffix(b, "iz"):
			b = append(b, 'e')
		case doubleConsonant(b) && !hasSuffix(b, "l") && !hasSuffix(b, "s") && !hasSuffix(b, "z"):
			b = b[:len(b)-1]
		case measure(b) == 1 && cvc(b):
			b = append(b, 'e')
		}
	}
	// Step 1c.
	if hasSuffix(b, "y") && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	return b
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// consonant reports whether b[i] is a consonant in Porter's sense: not
// a, e, i, o, u, and y only after a vowel (or at the start).
func consonant(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !consonant(b, i-1)
	}
	return true
}

// measure counts the vowel-consonant sequences of b ([C](VC)^m[V]).
func measure(b []byte) int {
	m, i, n := 0, 0, len(b)
	for i < n && consonant(b, i) {
		i++
	}
	for i < n {
		for i < n && !consonant(b, i) {
			i++
		}
		if i >= n {
			break
		}
		for i < n && consonant(b, i) {
			i++
		}
		m++
	}
	return m
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !consonant(b, i) {
			return true
		}
	}
	return false
}

func doubleConsonant(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && consonant(b, n-1)
}

// cvc: b ends consonant-vowel-consonant, the last not w, x or y.
func cvc(b []byte) bool {
	n := len(b)
	if n < 3 || !consonant(b, n-3) || consonant(b, n-2) || !consonant(b, n-1) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func decodeRune(s string) (rune, int) {
	r, n := utf8.DecodeRuneInString(s)
	return r, n
}
