package index

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/unicode/norm"

	"github.com/skilldex/skilldex/internal/arena"
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

// stopWords are not indexed: they match nearly every skill. They are the
// stop words of bleve's English analyzer (en.EnglishStopWords, which a
// bleve program's query drops), less the forms with an apostrophe that
// Words never makes, and the s and t that it makes of them ("it's",
// "don't") and will. Single letters other than these stay ("c", "r" are
// languages).
var stopWords = func() map[string]bool {
	m := map[string]bool{"s": true, "t": true, "will": true}
	for _, line := range strings.Split(string(en.EnglishStopWords), "\n") {
		line, _, _ = strings.Cut(line, "|") // the rest is a comment
		for _, w := range strings.Fields(line) {
			if !strings.Contains(w, "'") {
				m[w] = true
			}
		}
	}
	return m
}()

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
// split and stemmed in one pass over its bytes, allocating only for words
// not stemmed before (stemCache): for ASCII, folding is lowercasing (no
// character has a decomposition) and words are runs of [a-z0-9].
func tokenize(text string, fn func(term []byte)) {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			for _, w := range Words(Fold(text)) {
				if !stopWords[w] && utf8.RuneCountInString(w) <= maxTokenLen {
					fn([]byte(Stem(w)))
				}
			}
			return
		}
	}
	var buf [maxTokenLen + 2]byte
	word := buf[:0]
	long := false
	cache := stemCaches.Get().(*stemCache)
	defer stemCaches.Put(cache)
	end := func() {
		if len(word) > 0 && !long && !stopWords[string(word)] {
			fn(cache.stem(word))
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

// Stem returns the term of a folded word: the word as bleve's English
// analyzer stems it (Porter's algorithm, see porterStem), so that the terms of
// both indexes are those a bleve program's query finds.
func Stem(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return string(porterstemmer.StemWithoutLowerCasing([]rune(w)))
		}
	}
	return string(porterStem([]byte(w)))
}

// stemCache remembers the stems of the ASCII words it stemmed: Porter's
// steps cost more than the rest of tokenizing, and a catalog says the same
// words again and again. It is used by one goroutine at a time
// (stemCaches).
type stemCache struct {
	stems map[string]string
	// strs holds the words and stems (see package arena): tens of
	// thousands of strings per cache, alive from skill to skill.
	strs arena.Strings
}

// maxStems bounds the words a stemCache remembers: past it, they are all
// forgotten.
const maxStems = 1 << 16

var stemCaches = sync.Pool{New: func() any { return &stemCache{stems: map[string]string{}} }}

// stem returns the stem of the ASCII word b, in b's array.
func (c *stemCache) stem(b []byte) []byte {
	if s, ok := c.stems[string(b)]; ok {
		return append(b[:0], s...) // a stem is never longer than its word
	}
	if len(c.stems) >= maxStems {
		clear(c.stems)
		c.strs = arena.Strings{}
	}
	w := c.strs.StringOf(b)
	st := porterStem(b)
	c.stems[w] = c.strs.StringOf(st)
	return st
}

func decodeRune(s string) (rune, int) {
	r, n := utf8.DecodeRuneInString(s)
	return r, n
}
