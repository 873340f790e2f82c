package site

import (
	"strings"
	"testing"
)

func TestCodeSpans(t *testing.T) {
	for in, want := range map[string]string{
		"Wraps `npx agentrc readiness` for CI.": "Wraps <code>npx agentrc readiness</code> for CI.",
		"`a` and `b`":                           "<code>a</code> and <code>b</code>",
		"a lone ` backtick":                     "a lone ` backtick",
		"empty `` and blank ` ` spans":          "empty `` and blank ` ` spans",
		"<script>`<b>`&":                        "&lt;script&gt;<code>&lt;b&gt;</code>&amp;",
		`quotes "in" 'text'`:                    "quotes &#34;in&#34; &#39;text&#39;",
		"":                                      "",
	} {
		if got := string(codeSpans(in)); got != want {
			t.Errorf("codeSpans(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzCodeSpans(f *testing.F) {
	f.Add("Wraps `npx x` and `y`")
	f.Fuzz(func(t *testing.T, s string) {
		out := string(codeSpans(s))
		// Only the <code> tags this function writes are markup.
		for _, bad := range []string{"<script", "<b", "<a", "<img"} {
			if strings.Contains(strings.ToLower(out), bad) {
				t.Fatalf("codeSpans(%q) = %q holds %s", s, out, bad)
			}
		}
	})
}
