package spaces

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// TestCleanASCII8 checks the eight-byte test against the byte loop it
// stands for: every byte in every position, and random words of blanks,
// letters, control and high bytes.
func TestCleanASCII8(t *testing.T) {
	want := func(b []byte, first bool) bool {
		for i, c := range b {
			if c < ' ' || c >= 0x80 || c == ' ' && (i == 7 || b[i+1] == ' ' || first && i == 0) {
				return false
			}
		}
		return true
	}
	check := func(b []byte) {
		for _, first := range []bool{false, true} {
			if got := cleanASCII8(string(b), first); got != want(b, first) {
				t.Fatalf("cleanASCII8(%q, %v) = %v", b, first, got)
			}
		}
	}
	for c := range 256 {
		for pos := range 8 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			check(b)
		}
	}
	rnd := rand.New(rand.NewPCG(81, 82))
	alphabet := []byte{' ', ' ', ' ', 'a', 'z', '!', '~', 0x7f, 0x80, 0xff, 0x1f, 0x21, 0x20, '\t', 0, 0xc3}
	for range 200000 {
		var b [8]byte
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		check(b[:])
	}
}

// TestCollapseMatchesFields checks Collapse, which returns clean text as
// it is, against what it computes for the rest.
func TestCollapseMatchesFields(t *testing.T) {
	pieces := []string{"a", " ", "  ", "\t", "\n", "\v", "\f", "\r", "é", "\u00a0", "\u0085", "\u2003", "\u3000", "\xff", "\xc2", "日本", "x y",
		"plain-words!", "~\x7f", "\x21\x20", "0123456789abcdef"}
	for _, s := range testutil.RandomWords(61, 200000, 12, pieces) {
		if got, want := Collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("collapse(%q) = %q, want %q", s, got, want)
		}
	}
}
