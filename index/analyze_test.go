package index

import (
	"slices"
	"testing"
)

func TestStem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"cats", "cat"}, {"caress", "caress"},
		{"feed", "feed"}, {"agreed", "agree"}, {"plastered", "plaster"}, {"bled", "bled"},
		{"motoring", "motor"}, {"sing", "sing"}, {"conflated", "conflate"}, {"troubled", "trouble"},
		{"sized", "size"}, {"hopping", "hop"}, {"tanned", "tan"}, {"falling", "fall"}, {"hissing", "hiss"},
		{"fizzed", "fizz"}, {"failing", "fail"}, {"filing", "file"}, {"happy", "happi"}, {"sky", "sky"},
		{"requesting", "request"}, {"requests", "request"}, {"reviews", "review"}, {"reviewing", "review"},
		{"queries", "queri"}, {"query", "queri"}, {"deploying", "deploi"}, {"deploy", "deploi"},
		{"kubernetes", "kubernete"}, {"k8s", "k8s"}, {"pdf", "pdf"}, {"pdfs", "pdf"}, {"writing", "write"},
		{"café", "café"}, {"testing", "test"}, {"tests", "test"},
	} {
		if got := Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Review a Pull-Request", []string{"review", "pull", "request"}},
		{"requesting-code-review", []string{"request", "code", "review"}},
		{"Café crème: naïve résumé", []string{"cafe", "creme", "naive", "resume"}},
		{"use_snake_case and k8s, C#", []string{"use", "snake", "case", "k8s", "c"}},
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
