package markdown

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/internal/testutil"
)

// fuzzSeeds are small hostile bodies: each rule's favourite attacks.
var fuzzSeeds = []string{
	"# T\n\n[x](javascript:alert(1)) ![y](https://e.example/i.png)\n",
	"<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n",
	"[x](java\tscript:1) [x](<java\nscript:1>) [x](&#106;avascript:1) [x](javascript&colon;1)\n",
	"![a](//evil.example/a.png) ![b](/\\evil.example/b.png) ![c](\\\\evil.example/c.png)\n",
	"[![b](https://img.shields.io/x)](https://github.com/x) <https://a.example> www.b.example c@d.example\n",
	"# H {#id .c onclick=x style=color:red}\n\n| a |\n|:-:|\n| `b` |\n\n- [x] t\n\n~~s~~[^1]\n\n[^1]: n\n",
	"```go\nfunc main() {}\n```\n\n```\"><script>\nx\n```\n\n    indented <b>\n",
	"[r][1]\n\n[1]: data:text/html,<script>alert(1)</script> \"t\"\n",
	"![x](assets/d.png) [y](references/s.md) [z](evil.md) [w](#frag)\n",
	"<a href=\"javascript:alert(1)\">x</a> <!-- c --> <?php x ?> <![CDATA[ x ]]>\n",
}

// FuzzRender renders arbitrary bodies and fails on anything unsafe in the
// output (see checkSafe), on an error, or on a panic. Its seeds are the
// bodies above and, but under -short, every SKILL.md body of the corpus
// (testdata/corpus/skills), so a plain go test runs them all.
func FuzzRender(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if !testing.Short() {
		for _, body := range corpusBodies(f) {
			f.Add(body)
		}
	}
	// Every mention resolves, so that the fuzzer reaches linkMentions.
	opt := testOptions
	opt.LinkMention = func(m string) (string, bool) { return "/skills/" + m[strings.IndexByte(m, ':')+1:] + "/", true }
	f.Fuzz(func(t *testing.T, src []byte) {
		res, err := Render(src, opt)
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		if err := checkSafe([]byte(res.HTML)); err != nil {
			t.Fatalf("unsafe output: %v\ninput: %q\noutput:\n%s", err, src, res.HTML)
		}
		ids := map[string]bool{}
		for _, h := range res.Headings {
			if ids[h.ID] || h.ID == "" || strings.HasPrefix(h.ID, "sd-") || strings.ContainsAny(h.ID, " :\"<>&") {
				t.Fatalf("bad or repeated heading id %q", h.ID)
			}
			ids[h.ID] = true
		}
		if p := Plain(src, 160); !utf8.ValidString(p) || utf8.RuneCountInString(p) > 160 {
			t.Fatalf("Plain: %q", p)
		}
	})
}

// goldenInputs returns the Markdown inputs of the golden tests.
func goldenInputs(tb testing.TB) [][]byte {
	names, err := filepath.Glob(filepath.Join("testdata", "golden", "*.md"))
	if err != nil || len(names) == 0 {
		tb.Fatalf("no golden inputs in testdata/golden (%v)", err)
	}
	var inputs [][]byte
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		inputs = append(inputs, src)
	}
	return inputs
}

// corpusBodies returns the Markdown body of every SKILL.md under
// the corpus (testdata/corpus/skills).
func corpusBodies(tb testing.TB) [][]byte {
	dir := testutil.Testdata(tb, "corpus", "skills")
	var bodies [][]byte
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(d.Name(), "SKILL.md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		bodies = append(bodies, bytes.Clone(skill.Split(src).Body))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return bodies
}
