package markdown

import (
	"strings"
	"testing"
)

func TestLinkMention(t *testing.T) {
	known := map[string]string{"superpowers:brainstorming": "/skills/brainstorming/", "tools:a-b": "/skills/a-b/"}
	opt := Options{LinkMention: func(m string) (string, bool) { u, ok := known[m]; return u, ok }}
	cases := []struct{ in, want string }{
		{"Use superpowers:brainstorming first.", `<p>Use <a href="/skills/brainstorming/">superpowers:brainstorming</a> first.</p>`},
		{"Use `superpowers:brainstorming`.", `<p>Use <a href="/skills/brainstorming/"><code>superpowers:brainstorming</code></a>.</p>`},
		{"**REQUIRED:** tools:a-b, then superpowers:brainstorming\nnext", `<p><strong>REQUIRED:</strong> <a href="/skills/a-b/">tools:a-b</a>, then <a href="/skills/brainstorming/">superpowers:brainstorming</a>
next</p>`},
		// Not a mention the catalog has, or not a mention at all.
		{"Use superpowers:unknown and x/superpowers:brainstorming.", `<p>Use superpowers:unknown and x/superpowers:brainstorming.</p>`},
		{"See http://superpowers:brainstorming and superpowers:brainstorming:x.", `<p>See http://superpowers:brainstorming and superpowers:brainstorming:x.</p>`},
		{"`run superpowers:brainstorming`", `<p><code>run superpowers:brainstorming</code></p>`},
		{"[superpowers:brainstorming](x.md)", `<p><a href="x.md">superpowers:brainstorming</a></p>`},
		{"```\nsuperpowers:brainstorming\n```", `<pre tabindex="0"><code>superpowers:brainstorming
</code></pre>`},
	}
	for _, c := range cases {
		res, err := Render([]byte(c.in), opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(res.HTML); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
