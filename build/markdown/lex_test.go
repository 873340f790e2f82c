package markdown

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// lexEdgeCases are inputs every lexer is tried on: empty, no final
// newline, CR line ends, unterminated strings and comments, non-ASCII.
var lexEdgeCases = []string{
	"", "x", "\n", "\n\n", "a\r\nb\rc\r", "  \t\n",
	"if x then y fi # c\n\"unterminated\n",
	"/* open comment\nfoo(1, 'a', \"b\") { return x <= 2 && y != 3; }\n",
	"héllo wörld ✓ 日本語 \u00a0 🙂 = 1\n",
	"<a href=\"x\">t</a> $HOME ${x:-y} `cmd` @decorator #include <x.h>\n",
	"key: value\n- item\n  nested: [1, 2.5e3, true, null]\n",
	"invalid \xdf UTF-8 \xff\xfe\n",
}

// maxTokens bounds a tokenisation in these tests: chroma itself never
// ends on some inputs (JSONata and Jungle return empty tokens forever
// after an unterminated string), and fastLexer, doing the same, must not
// hang the test either.
func maxTokens(src string) int { return 20*len(src) + 1000 }

func takeTokens(it chroma.Iterator, n int) []chroma.Token {
	var out []chroma.Token
	for t := it(); t != chroma.EOF && len(out) < n; t = it() {
		out = append(out, t)
	}
	return out
}

// sameTokens fails t unless fast gives l's tokens for src.
func sameTokens(t *testing.T, l chroma.Lexer, fast *fastLexer, src string) {
	t.Helper()
	var got, want []chroma.Token
	// chroma bounds each regexp run by a time (matchTimeout), and a run
	// that takes longer on a loaded machine (the race detector, other
	// tests) counts as no match, on either side. A difference that such
	// a timeout made goes away when tried again; one the code makes does
	// not.
	for try := 0; try < 3; try++ {
		it, err := l.Tokenise(nil, src)
		if err != nil {
			t.Fatalf("%s: chroma: %v", l.Config().Name, err)
		}
		want = takeTokens(it, maxTokens(src))
		got = takeTokens(fast.Tokenise(src), maxTokens(src))
		if slices.Equal(got, want) {
			return
		}
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s: token %d of %.60q differs:\nchroma %v\nfast   %v", l.Config().Name, i,
		src, want[i:min(i+3, len(want))], got[i:min(i+3, len(got))])
}

// TestFastLexerTokens checks that fastLexer gives chroma's tokens, for
// every lexer of the registry it takes over: on chroma's own test inputs
// for that lexer (read from the module cache when go list finds it), on
// the fenced blocks of the golden files and the shared corpus, on edge
// cases, and on two other languages' inputs, which exercise the error
// paths.
func TestFastLexerTokens(t *testing.T) {
	samples := chromaTestInputs(t)
	blocks := fencedBlocks(t)
	var cross []string
	for _, name := range []string{"python", "html"} {
		if s := samples[lexers.Get(name)]; len(s) > 0 {
			cross = append(cross, s[0][:min(len(s[0]), 600)])
		}
	}
	taken := 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		fast := newFastLexer(l)
		if fast == nil {
			continue
		}
		taken++
		inputs := slices.Concat(lexEdgeCases, cross, samples[l], blocks[l])
		for _, src := range inputs {
			sameTokens(t, l, fast, src)
		}
	}
	// Most lexers are regexp lexers: a change of chroma that made them
	// something else would silently turn the fast path off.
	if taken < 250 {
		t.Errorf("fastLexer takes over %d lexers, want most of the %d", taken, len(lexers.GlobalLexerRegistry.Lexers))
	}
	for _, name := range []string{"bash", "python", "json", "yaml", "go", "javascript", "typescript"} {
		if newFastLexer(lexers.Get(name)) == nil {
			t.Errorf("no fastLexer for %s", name)
		}
	}
}

// chromaTestInputs returns chroma's lexer test inputs
// (lexers/testdata/NAME.actual), by lexer, or nothing if the module's
// folder cannot be found.
func chromaTestInputs(t *testing.T) map[chroma.Lexer][]string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Logf("chroma's test inputs not found (go list: %v): edge cases and fenced blocks only", err)
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "lexers", "testdata", "*.actual"))
	inputs := map[chroma.Lexer][]string{}
	for _, f := range files {
		name, _, _ := strings.Cut(filepath.Base(f), ".")
		l := lexers.Get(name)
		if l == nil {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[l] = append(inputs[l], string(src))
	}
	return inputs
}

// fencedBlocks returns the highlighted fenced blocks of the golden inputs
// and of the corpus bodies of testdata/, by lexer.
func fencedBlocks(t *testing.T) map[chroma.Lexer][]string {
	bodies := corpusBodies(t)
	bodies = append(bodies, goldenInputs(t)...)
	blocks := map[chroma.Lexer][]string{}
	for _, src := range bodies {
		doc := md.Parser().Parse(text.NewReader(src))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if f, ok := n.(*ast.FencedCodeBlock); ok && entering {
				if l := lexerFor(language(f, src)); l != nil {
					blocks[l] = append(blocks[l], string(bytes.Clone(f.Lines().Value(src))))
				}
			}
			return ast.WalkContinue, nil
		})
	}
	return blocks
}

// fuzzLanguages are the languages FuzzFastLexer tries: those of most
// skills' code blocks.
var fuzzLanguages = []string{"bash", "python", "json", "yaml", "javascript", "typescript", "go", "sql", "html", "css", "toml", "rust", "java", "c", "diff", "dockerfile", "powershell", "xml"}

// FuzzFastLexer compares fastLexer's tokens with chroma's on arbitrary
// code, in one of fuzzLanguages.
func FuzzFastLexer(f *testing.F) {
	for i, s := range lexEdgeCases {
		f.Add(uint8(i), s)
	}
	f.Add(uint8(0), "for f in *.md; do echo \"$f\" | sed -e 's/a/b/' >> out.txt; done\n")
	f.Add(uint8(1), "@dataclass\nclass A(B):\n    '''doc'''\n    def f(self, x: int = 0x1F) -> str:\n        return f\"{x!r}\"\n")
	fast := map[string]*fastLexer{}
	for _, name := range fuzzLanguages {
		if fast[name] = newFastLexer(lexers.Get(name)); fast[name] == nil {
			f.Fatalf("no fastLexer for %s", name)
		}
	}
	f.Fuzz(func(t *testing.T, lang uint8, src string) {
		name := fuzzLanguages[int(lang)%len(fuzzLanguages)]
		// chroma gives up on a regexp that runs for 250 ms, which on a
		// busy machine can happen to chroma and not to fastLexer (or the
		// other way round): such inputs cannot be compared.
		start := time.Now()
		it, err := lexers.Get(name).Tokenise(nil, src)
		if err == nil {
			takeTokens(it, maxTokens(src))
		}
		if time.Since(start) > 50*time.Millisecond {
			t.Skip("chroma is too slow on this input for a fair comparison")
		}
		sameTokens(t, lexers.Get(name), fast[name], src)
	})
}

// simpleRules are the rules of every fastLexer that simpleMatcher takes
// over, with their patterns.
var simpleRules = sync.OnceValue(func() (rules []fastRule) {
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		f := newFastLexer(l)
		if f == nil {
			continue
		}
		for _, state := range slices.Sorted(maps.Keys(f.states)) {
			for _, r := range f.states[state] {
				if r.simple != nil {
					rules = append(rules, r)
				}
			}
		}
	}
	return rules
})

// FuzzSimpleMatcher compares simpleMatcher with regexp2, match and groups,
// for a rule of any lexer, on arbitrary text at an arbitrary position.
func FuzzSimpleMatcher(f *testing.F) {
	rules := simpleRules()
	if len(rules) < 1000 {
		f.Fatalf("simpleMatcher takes over %d rules only", len(rules))
	}
	for i, s := range lexEdgeCases {
		f.Add(uint16(i*97), uint8(0), s)
		f.Add(uint16(i*31), uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, rule uint16, pos uint8, text string) {
		r := rules[int(rule)%len(rules)]
		runes := []rune(text)
		p := int(pos)
		if p >= len(runes) {
			return
		}
		starts := make([]int, r.simple.longest+1)
		end, ok, decided := r.simple.match(runes, p, starts)
		if !decided {
			return
		}
		m, err := r.Regexp.FindRunesMatchStartingAt(runes, p)
		if err != nil {
			return // a timeout: chroma would not match either, but cannot tell
		}
		want := m != nil && m.RuneIndex == p
		if ok != want {
			t.Fatalf("%q at %d in %q: simpleMatcher %v, regexp2 %v", r.Pattern, p, text, ok, want)
		}
		if !ok {
			return
		}
		if got, want := end, p+m.RuneLength; got != want {
			t.Fatalf("%q at %d in %q: simpleMatcher ends at %d, regexp2 at %d", r.Pattern, p, text, got, want)
		}
		groups := m.Groups()
		if len(groups) != len(r.simple.groups)+1 {
			t.Fatalf("%q: %d groups, regexp2 %d", r.Pattern, len(r.simple.groups)+1, len(groups))
		}
		for i, span := range r.simple.groups {
			g := groups[i+1]
			from, to := starts[span.from], starts[span.to]
			if g.Name != r.simple.names[i+1] || from != g.RuneIndex || to-from != g.RuneLength {
				t.Fatalf("%q at %d in %q: group %d is %q [%d,%d), regexp2 %q [%d,%d)", r.Pattern, p, text, i+1,
					r.simple.names[i+1], from, to, g.Name, g.RuneIndex, g.RuneIndex+g.RuneLength)
			}
		}
	})
}

// TestLexerThatNeverEnds renders blocks on which chroma's JSONata and
// Jungle lexers never end: the block is shown plain, where chroma would
// have hung the build.
func TestLexerThatNeverEnds(t *testing.T) {
	for _, lang := range []string{"jsonata", "jungle"} {
		done := make(chan string, 1)
		go func() {
			res, _ := Render([]byte("```"+lang+"\n\"unterminated\n```\n"), testOptions)
			done <- res.HTML
		}()
		select {
		case out := <-done:
			if want := `<pre tabindex="0"><code class="language-` + lang + `">&quot;unterminated` + "\n</code></pre>"; !strings.Contains(out, want) {
				t.Errorf("%s: got %s, want it plain: %s", lang, out, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: Render does not end", lang)
		}
	}
}
