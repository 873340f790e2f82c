package index

// porterStem is the Porter stemmer of bleve's English analyzer
// (github.com/blevesearch/go-porterstemmer, which its stemmer_porter
// filter runs), step for step, on a word of ASCII bytes in place: the
// terms of skilldex's indexes are the terms bleve's "en" analyzer gives a
// word, so that a bleve program's query-string search finds them, and
// stemming the millions of words of a large catalog must not allocate.
// TestPorterMatchesBleve compares the two on every word of the corpus,
// and FuzzPorter on any ASCII word. static/search-core.js implements the
// same steps.
//
// go-porterstemmer departs from Porter's paper as bleve does: "bli"
// becomes "ble" and "logi" "log" in step 2, and a suffix is removed only
// from a longer word (hasSuffix is strict).
func porterStem(b []byte) []byte {
	if len(b) <= 2 {
		return b
	}
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5a(b)
	return step5b(b)
}

// consonantAt reports whether b[i] is a consonant in Porter's sense:
// anything but a, e, i, o, u, and y after a consonant.
func consonantAt(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !consonantAt(b, i-1)
	}
	return true
}

// measure counts the vowel-consonant sequences of b ([C](VC)^m[V]).
func measure(b []byte) int {
	m, i, n := 0, 0, len(b)
	for i < n && consonantAt(b, i) {
		i++
	}
	for i < n {
		for i < n && !consonantAt(b, i) {
			i++
		}
		if i >= n {
			break
		}
		for i < n && consonantAt(b, i) {
			i++
		}
		m++
	}
	return m
}

// ends reports whether b ends with s and is longer than s.
func ends(b []byte, s string) bool {
	return len(b) > len(s) && string(b[len(b)-len(s):]) == s
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !consonantAt(b, i) {
			return true
		}
	}
	return false
}

func doubleConsonant(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && consonantAt(b, n-1)
}

// cvc reports whether b ends consonant-vowel-consonant.
func cvc(b []byte) bool {
	n := len(b)
	return n >= 3 && consonantAt(b, n-3) && !consonantAt(b, n-2) && consonantAt(b, n-1)
}

func step1a(b []byte) []byte {
	switch {
	case ends(b, "sses"), ends(b, "ies"):
		return b[:len(b)-2]
	case ends(b, "ss"):
		return b
	case ends(b, "s"):
		return b[:len(b)-1]
	}
	return b
}

func step1b(b []byte) []byte {
	if ends(b, "eed") {
		if measure(b[:len(b)-3]) > 0 {
			return b[:len(b)-1]
		}
		return b
	}
	var stem []byte
	switch {
	case ends(b, "ed"):
		stem = b[:len(b)-2]
	case ends(b, "ing"):
		stem = b[:len(b)-3]
	default:
		return b
	}
	if !hasVowel(stem) {
		return b
	}
	last := stem[len(stem)-1]
	switch {
	case ends(stem, "at"), ends(stem, "bl"), ends(stem, "iz"):
		return append(stem, 'e')
	case last != 'l' && last != 's' && last != 'z' && doubleConsonant(stem):
		return stem[:len(stem)-1]
	case measure(stem) == 1 && cvc(stem) && last != 'w' && last != 'x' && last != 'y':
		return append(stem, 'e')
	}
	return stem
}

func step1c(b []byte) []byte {
	if len(b) >= 2 && b[len(b)-1] == 'y' && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	return b
}

// A rule replaces a suffix by another when the measure of the rest is
// above min.
type rule struct {
	suffix, by string
}

// step2Rules are tried in order; the first suffix found decides, whether
// or not its condition holds.
var step2Rules = []rule{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

var step3Rules = []rule{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

// step4Suffixes are removed when the measure of the rest is above 1; "ion"
// only after s or t.
var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

// replace applies the first rule whose suffix b ends with: the suffix
// gives way to the replacement when the measure of the rest is above 0.
func replace(b []byte, rules []rule) []byte {
	for _, r := range rules {
		if !ends(b, r.suffix) {
			continue
		}
		rest := b[:len(b)-len(r.suffix)]
		if measure(rest) > 0 {
			return append(rest, r.by...)
		}
		return b
	}
	return b
}

func step2(b []byte) []byte { return replace(b, step2Rules) }

func step3(b []byte) []byte { return replace(b, step3Rules) }

func step4(b []byte) []byte {
	for _, s := range step4Suffixes {
		if !ends(b, s) {
			continue
		}
		rest := b[:len(b)-len(s)]
		if measure(rest) > 1 && (s != "ion" || rest[len(rest)-1] == 's' || rest[len(rest)-1] == 't') {
			return rest
		}
		return b
	}
	return b
}

func step5a(b []byte) []byte {
	if b[len(b)-1] != 'e' {
		return b
	}
	rest := b[:len(b)-1]
	m := measure(rest)
	if m > 1 {
		return rest
	}
	if m == 1 {
		last := rest[len(rest)-1]
		if !(cvc(rest) && last != 'w' && last != 'x' && last != 'y') {
			return rest
		}
	}
	return b
}

func step5b(b []byte) []byte {
	n := len(b)
	if n > 2 && b[n-2] == 'l' && b[n-1] == 'l' && measure(b[:n-1]) > 1 {
		return b[:n-1]
	}
	return b
}
