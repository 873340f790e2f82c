package index

import (
	"fmt"
	"slices"
	"testing"

	porterstemmer "github.com/blevesearch/go-porterstemmer"

	"github.com/skilldex/skilldex/internal/testutil"
)

func TestStem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"cats", "cat"}, {"caress", "caress"},
		{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"},
		{"motoring", "motor"}, {"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"},
		{"sized", "size"}, {"hopping", "hop"}, {"tanned", "tan"}, {"falling", "fall"}, {"hissing", "hiss"},
		{"fizzed", "fizz"}, {"failing", "fail"}, {"filing", "file"}, {"happy", "happi"}, {"sky", "sky"},
		{"requesting", "request"}, {"requests", "request"}, {"reviews", "review"}, {"reviewing", "review"},
		{"queries", "queri"}, {"query", "queri"}, {"deploying", "deploi"}, {"deployment", "deploy"},
		{"kubernetes", "kubernet"}, {"k8s", "k8"}, {"pdf", "pdf"}, {"pdfs", "pdf"}, {"writing", "write"},
		{"optimization", "optim"}, {"optimize", "optim"}, {"relational", "relat"}, {"generalization", "gener"},
		{"biology", "biologi"}, {"geology", "geologi"}, {"terminology", "terminolog"}, {"possibly", "possibl"}, {"café", "café"}, {"cafés", "café"}, {"testing", "test"},
		{"tests", "test"}, {"go", "go"}, {"ies", "ie"},
	} {
		if got := Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// bleveStem is what bleve's English analyzer makes of a folded word.
func bleveStem(w string) string {
	return string(porterstemmer.StemWithoutLowerCasing([]rune(w)))
}

// TestPorterMatchesBleve stems every word of the corpus with porterStem
// and with go-porterstemmer, which bleve's "en" analyzer runs.
func TestPorterMatchesBleve(t *testing.T) {
	words := corpusWords(t)
	bad := 0
	for w := range words {
		for _, x := range Words(Fold(w)) {
			if got, want := Stem(x), bleveStem(x); got != want {
				bad++
				if bad <= 20 {
					t.Errorf("Stem(%q) = %q, bleve %q", x, got, want)
				}
			}
		}
	}
	t.Logf("%d words compared", len(words))
}

// FuzzPorter compares porterStem with go-porterstemmer on any word of
// ASCII letters and digits.
func FuzzPorter(f *testing.F) {
	for _, s := range []string{"caresses", "agreed", "hopping", "relational", "biliti", "ying", "yyyed", "eed", "abed", "ies", "sses", "ss", "y", "a1b2ing", "zzing", "alli", "logies"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := make([]byte, 0, len(s))
		for i := 0; i < len(s); i++ {
			if c := s[i] | 0x20; 'a' <= c && c <= 'z' || '0' <= s[i] && s[i] <= '9' {
				if '0' <= s[i] && s[i] <= '9' {
					c = s[i]
				}
				w = append(w, c)
			}
		}
		if got, want := string(porterStem(slices.Clone(w))), bleveStem(string(w)); got != want {
			t.Fatalf("porterStem(%q) = %q, bleve %q", w, got, want)
		}
	})
}

func TestTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Review a Pull-Request", []string{"review", "pull", "request"}},
		{"requesting-code-review", []string{"request", "code", "review"}},
		{"Café crème: naïve résumé", []string{"cafe", "creme", "naiv", "resum"}},
		{"use_snake_case and k8s, C#", []string{"us", "snake", "case", "k8", "c"}},
		{"How do I make my tests pass?", []string{"make", "test", "pass"}},
		{"the of to", nil},
		{"ＰＤＦ files", []string{"pdf", "file"}},
		{"Straße 日本語のテキスト", []string{"straße", "日本語のテキスト"}},
		{"x" + string(make([]byte, 0)) + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b", []string{"b"}},
	} {
		got := Tokens(c.in)
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// BenchmarkCollectWithStems measures a full garbage collection while two
// stem caches (a build's two workers) are full.
func BenchmarkCollectWithStems(b *testing.B) {
	var caches []*stemCache
	for w := range 2 {
		c := &stemCache{stems: map[string]string{}}
		for i := range maxStems {
			c.stem(fmt.Appendf(nil, "word%dx%dings", w, i))
		}
		caches = append(caches, c)
	}
	testutil.BenchCollections(b, caches)
}
