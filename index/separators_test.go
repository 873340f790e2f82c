package index

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	butokenizer "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// separatorBlocks are the blocks of characters wordSeparators covers.
var separatorBlocks = []unicode.Range32{
	{Lo: 0x0080, Hi: 0x00ff}, {Lo: 0x2000, Hi: 0x2bff}, {Lo: 0x3000, Hi: 0x303f}, {Lo: 0x1f000, Hi: 0x1faff},
}

// separatedByBleve reports whether bleve's tokenizer keeps r apart from
// its neighbours and makes no token of it, whatever they are: alone, r
// gives no token, and between two letters, two digits or two underscores
// (the neighbours that join across a character) it leaves them two
// tokens of one character each. Only a character of no word and of no
// mid-word class (letter, digit, connector, MidLetter, MidNum, combining
// mark, format, Chinese or Japanese) does that.
func separatedByBleve(tok *butokenizer.UnicodeTokenizer, r rune) bool {
	rs := string(r)
	if len(tok.Tokenize([]byte(rs))) != 0 {
		return false
	}
	for _, c := range []string{"a", "Z", "1", "_"} {
		ts := tok.Tokenize([]byte(c + rs + c))
		if len(ts) != 2 || string(ts[0].Term) != c || string(ts[1].Term) != c ||
			ts[0].Start != 0 || ts[1].Start != 1+len(rs) || ts[1].Position != 2 {
			return false
		}
	}
	return true
}

// TestWordSeparators asks bleve's tokenizer about every character of
// separatorBlocks: wordSeparators must hold exactly those it separates,
// and nothing outside the blocks. On a difference it prints the table to
// paste into separators.go.
func TestWordSeparators(t *testing.T) {
	tok := butokenizer.NewUnicodeTokenizer()
	var want []unicode.Range32
	for _, b := range separatorBlocks {
		for r := b.Lo; r <= b.Hi; r++ {
			if !separatedByBleve(tok, rune(r)) {
				continue
			}
			if n := len(want); n > 0 && want[n-1].Hi == r-1 {
				want[n-1].Hi = r
			} else {
				want = append(want, unicode.Range32{Lo: r, Hi: r, Stride: 1})
			}
		}
	}
	var got []unicode.Range32
	for _, r := range wordSeparators.R16 {
		got = append(got, unicode.Range32{Lo: uint32(r.Lo), Hi: uint32(r.Hi), Stride: uint32(r.Stride)})
	}
	got = append(got, wordSeparators.R32...)
	latin := 0
	for _, r := range wordSeparators.R16 {
		if r.Hi <= unicode.MaxLatin1 {
			latin++
		}
	}
	if fmt.Sprint(got) == fmt.Sprint(want) && latin == wordSeparators.LatinOffset {
		return
	}
	var b strings.Builder
	b.WriteString("var wordSeparators = &unicode.RangeTable{\n\tR16: []unicode.Range16{\n")
	latin = 0
	for _, r := range want {
		if r.Hi <= 0xffff {
			fmt.Fprintf(&b, "\t\t{Lo: 0x%04x, Hi: 0x%04x, Stride: 1},\n", r.Lo, r.Hi)
			if r.Hi <= unicode.MaxLatin1 {
				latin++
			}
		}
	}
	b.WriteString("\t},\n\tR32: []unicode.Range32{\n")
	for _, r := range want {
		if r.Hi > 0xffff {
			fmt.Fprintf(&b, "\t\t{Lo: 0x%x, Hi: 0x%x, Stride: 1},\n", r.Lo, r.Hi)
		}
	}
	fmt.Fprintf(&b, "\t},\n\tLatinOffset: %d,\n}\n", latin)
	t.Errorf("wordSeparators differs from what bleve's tokenizer separates; it should be:\n%s", b.String())
}
