package searcheval_test

import (
	"strings"

	"github.com/skilldex/skilldex/index"
)

// The judged sets were written, and their rule about name words checked,
// when the index folded words and stemmed them with Porter's step 1 alone
// (plurals, -ed, -ing). The index has stemmed further since (all of
// Porter's steps, as bleve's English analyzer does), which makes some
// task queries a little easier ("attacker" now meets the "attack" of
// attack-tree-construction) without changing what they ask: the rule is
// checked as the set was written.

// judgedStopWords are the stop words of that index.
var judgedStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for from has have how i if in into is it its
		of on or s t that the their then there these this to was were what when where which who will with you your`) {
		m[w] = true
	}
	return m
}()

// judgedTerms returns the terms of text as the index made them when the
// judged sets were written.
func judgedTerms(text string) []string {
	var out []string
	for _, w := range index.Words(index.Fold(text)) {
		if !judgedStopWords[w] && len([]rune(w)) <= 32 {
			out = append(out, judgedStem(w))
		}
	}
	return out
}

// judgedStem is Porter's steps 1a, 1b and 1c on ASCII words longer than
// three letters; other words are left as they are.
func judgedStem(w string) string {
	b := []byte(w)
	if len(b) <= 3 {
		return w
	}
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return w
		}
	}
	switch {
	case hasSuffix(b, "sses"), hasSuffix(b, "ies"):
		b = b[:len(b)-2]
	case hasSuffix(b, "ss"):
	case hasSuffix(b, "s"):
		b = b[:len(b)-1]
	}
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
	if hasSuffix(b, "y") && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	return string(b)
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

func consonant(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !consonant(b, i-1)
	}
	return true
}

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

func cvc(b []byte) bool {
	n := len(b)
	if n < 3 || !consonant(b, n-3) || consonant(b, n-2) || !consonant(b, n-1) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}
