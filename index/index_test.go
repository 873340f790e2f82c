package index

import (
	"encoding/json"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/js"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/testutil"
)

func TestSeparatorAndShardOf(t *testing.T) {
	for _, c := range []struct{ prev, next, want string }{
		{"apple", "banana", "b"},
		{"kube", "kubernete", "kuber"},
		{"a", "ab", "ab"},
		{"zz", "é", "é"},
	} {
		if got := separator(c.prev, c.next); got != c.want {
			t.Errorf("separator(%q, %q) = %q, want %q", c.prev, c.next, got, c.want)
		}
	}
	seps := []string{"", "d", "kub", "kuc", "m"}
	for _, c := range []struct {
		key  string
		want int
	}{{"a", 0}, {"d", 1}, {"kuba", 2}, {"kub", 2}, {"ku", 1}, {"kuz", 3}, {"zeta", 4}} {
		if got := shardOf(seps, c.key); got != c.want {
			t.Errorf("shardOf(%q) = %d, want %d", c.key, got, c.want)
		}
	}
	if f, l := prefixRange(seps, "ku"); f != 1 || l != 3 {
		t.Errorf("prefixRange(ku) = %d..%d, want 1..3", f, l)
	}
	if f, l := prefixRange(seps, "kuba"); f != 2 || l != 2 {
		t.Errorf("prefixRange(kuba) = %d..%d, want 2..2", f, l)
	}
}

// Terms sort as JavaScript compares strings (UTF-16 code units), which
// differs from Go's byte order past the Basic Multilingual Plane.
func TestCompareUTF16(t *testing.T) {
	words := []string{"b", "a", "ab", "\uffe0", "\U0001d400", "z", "\ue000x"}
	slices.SortFunc(words, compareUTF16)
	want := []string{"a", "ab", "b", "z", "\U0001d400", "\ue000x", "\uffe0"}
	if !slices.Equal(words, want) {
		t.Errorf("sorted %q, want %q", words, want)
	}
}

func TestSplitHeads(t *testing.T) {
	ps := []Posting{{0, 5}, {1, 9}, {2, 1}, {3, 9}, {4, 7}}
	head, tail := split(ps, 3)
	if !slices.Equal(head, []Posting{{1, 9}, {3, 9}, {4, 7}}) || !slices.Equal(tail, []Posting{{0, 5}, {2, 1}}) {
		t.Errorf("split: head %v tail %v", head, tail)
	}
	if h, tl := split(ps, 10); len(h) != 5 || tl != nil {
		t.Error("a short list must be all head")
	}
	if got := string(appendPostings(nil, head)); got != "[1,9,2,9,1,7]" {
		t.Errorf("postings %s", got)
	}
}

// TestSplitMatchesSort: split's counting gives what a stable sort by
// impact (ties: lower document first) gives, on random lists full of ties.
func TestSplitMatchesSort(t *testing.T) {
	reference := func(ps []Posting, n int) (head, tail []Posting) {
		if len(ps) <= n {
			return ps, nil
		}
		byImpact := slices.Clone(ps)
		slices.SortStableFunc(byImpact, func(a, b Posting) int { return int(b.Level) - int(a.Level) })
		head, tail = slices.Clone(byImpact[:n]), slices.Clone(byImpact[n:])
		byDoc := func(a, b Posting) int { return int(a.Doc - b.Doc) }
		slices.SortFunc(head, byDoc)
		slices.SortFunc(tail, byDoc)
		return head, tail
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		ps := make([]Posting, rng.IntN(300))
		levels := 1 + rng.IntN(256)
		for i := range ps {
			ps[i] = Posting{int32(i * 3), uint8(rng.IntN(levels))}
		}
		n := 1 + rng.IntN(200)
		h, tl := split(ps, n)
		wh, wt := reference(ps, n)
		if !slices.Equal(h, wh) || !slices.Equal(tl, wt) {
			t.Fatalf("split of %d postings at %d differs from the sort", len(ps), n)
		}
	}
}

// TestQuantizeMatchesFormula: the bounds give the formula's impact for
// every weight, next to a bound (where the formula decides) and between.
func TestQuantizeMatchesFormula(t *testing.T) {
	var ws []float64
	for _, b := range quantBounds() {
		w := b
		for range 40 {
			w = math.Nextafter(w, 0)
		}
		for range 80 {
			ws = append(ws, w)
			w = math.Nextafter(w, math.Inf(1))
		}
		ws = append(ws, b*(1-2e-9), b*(1+2e-9), b*(1-1e-6), b*(1+1e-6))
	}
	for w := 0.0; w < maxWeight()*1.5; w += maxWeight() / 100003 {
		ws = append(ws, w)
	}
	for _, w := range ws {
		if got, want := quantize(w), quantizeExact(w); got != want {
			t.Fatalf("quantize(%v) = %d, the formula gives %d", w, got, want)
		}
	}
}

func FuzzQuantize(f *testing.F) {
	for _, w := range []float64{0, 0.01, 1, maxWeight(), quantBounds()[7], 1e9} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w float64) {
		if !(w >= 0) || math.IsInf(w, 0) {
			return // weights are finite and not negative
		}
		if got, want := quantize(w), quantizeExact(w); got != want {
			t.Fatalf("quantize(%v) = %d, the formula gives %d", w, got, want)
		}
	})
}

func TestScoring(t *testing.T) {
	prev := uint8(0)
	for _, w := range []float64{0.01, 0.5, 1, 2, 5, 10, 20, maxWeight()} {
		q := quantize(w)
		if q < prev {
			t.Errorf("quantize not monotonic at %v", w)
		}
		if d := dequantize(q); w > 0.5 && (d < w*0.97 || d > w*1.03) {
			t.Errorf("dequantize(quantize(%v)) = %v", w, d)
		}
		prev = q
	}
	if quantize(maxWeight()) != quantLevels {
		t.Error("the largest weight must quantize to the top level")
	}
	// A name match outweighs a body match of the same term, and a
	// document's weights depend on the document alone.
	var name, body [len(fields)]uint16
	name[0], body[len(fields)-1] = 1, 3
	var lens [len(fields)]int32
	for f := range lens {
		lens[f] = int32(fields[f].pivot)
	}
	if termWeight(&name, &lens) <= termWeight(&body, &lens) {
		t.Errorf("name %v, body %v", termWeight(&name, &lens), termWeight(&body, &lens))
	}
	long := lens
	long[len(fields)-1] *= 4
	if termWeight(&body, &long) >= termWeight(&body, &lens) {
		t.Error("the same count must weigh less in a longer body")
	}
	if idf(100, 1) <= idf(100, 50) {
		t.Error("rare terms must weigh more")
	}
}

func TestPrefixFile(t *testing.T) {
	for p, want := range map[string]string{"con": "acon.json", "k8s": "ak8s.json", "é": "xc3a9.json"} {
		if got := PrefixFile(p); got != want {
			t.Errorf("PrefixFile(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestUASPView reads the spec's three complete examples (uasp.md section
// 8) as the UASP stage will hand them over.
func TestUASPView(t *testing.T) {
	for _, c := range []struct {
		file, typ, keyword, intent string
	}{
		{"uasp-stripe.yaml", "knowledge", "stripe", ""},
		{"uasp-mermaid.yaml", "hybrid", "", ""},
		{"uasp-agent-browser.yaml", "cli", "screenshot", "fill forms"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := yamltree.Decode(data, skill.UASPLimits)
		if err != nil {
			t.Fatal(err)
		}
		root := v.(*yamltree.Map)
		for _, s := range []*catalog.Content{
			{Skill: &skill.Skill{}, Doc: uasp.NewDocument("x", root)}, // the UASP stage's document
			{Skill: &skill.Skill{UASPValue: root}},                    // the author's, before it
		} {
			u := uaspOf(s)
			if u.Type != c.typ {
				t.Errorf("%s: type %q, want %q", c.file, u.Type, c.typ)
			}
			if c.keyword != "" && !slices.Contains(u.Keywords, c.keyword) {
				t.Errorf("%s: keywords %v lack %q", c.file, u.Keywords, c.keyword)
			}
			if c.intent != "" && !slices.Contains(u.Intents, c.intent) {
				t.Errorf("%s: intents %v lack %q", c.file, u.Intents, c.intent)
			}
			if len(u.Keywords) == 0 || len(u.Intents) == 0 {
				t.Errorf("%s: no triggers read", c.file)
			}
		}
	}
	if u := uaspOf(&catalog.Content{Skill: &skill.Skill{}}); u.Type != "" || u.Keywords != nil {
		t.Errorf("no document gave %+v", u)
	}
}

// TestCoreTokenizerAgrees runs static/search-core.js's tokens() on every
// word of the corpus (and some awkward ones) and compares with
// Tokens: the browser must look up the very terms the build indexed.
func TestCoreTokenizerAgrees(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: static/search-core.js needs Node 20 or later to be checked (apt-get install nodejs)")
	}
	words := corpusWords(t)
	for _, w := range []string{"Café", "ＰＤＦ", "İstanbul", "ΣΑΣ", "naïve-résumé", "x²", "Ⅻ", "日本語", "𝐀𝐁𝐂", "k8s_v2", "hopping", "agreed"} {
		words[w] = true
	}
	list := make([]string, 0, len(words))
	for w := range words {
		list = append(list, w)
	}
	slices.Sort(list)
	script := `import { tokens } from ` + jsString("file://"+filepath.Join(testutil.ProjectRoot(t), "static", "search-core.js")) + `;
let input = '';
for await (const c of process.stdin) input += c;
const out = JSON.parse(input).map((w) => tokens(w));
process.stdout.write(JSON.stringify(out));`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	in, _ := json.Marshal(list)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, w := range list {
		want := Tokens(w)
		if !slices.Equal(got[i], want) && !(len(got[i]) == 0 && len(want) == 0) {
			bad++
			if bad <= 20 {
				t.Errorf("%q: JavaScript %q, Go %q", w, got[i], want)
			}
		}
	}
	t.Logf("%d distinct words compared, %d differ", len(list), bad)
}

// corpusWords returns the distinct space-separated words of the corpus'
// Markdown files.
func corpusWords(t *testing.T) map[string]bool {
	t.Helper()
	words := map[string]bool{}
	corpus := testutil.Testdata(t, "corpus", "skills")
	err := filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		for _, w := range strings.FieldsFunc(string(data), unicode.IsSpace) {
			if utf8.ValidString(w) {
				words[w] = true
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return words
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestStaticFiles loads the client's files as the site build will: the
// pages writer embeds static/ and the output writer minifies JavaScript,
// so both files must minify, and Node must accept them as modules. The
// page file must use no API that the Content Security Policy forbids.
func TestStaticFiles(t *testing.T) {
	root := testutil.ProjectRoot(t)
	m := minify.New()
	m.AddFunc("application/javascript", js.Minify)
	for _, name := range []string{"search.js", "search-core.js"} {
		p := filepath.Join(root, "static", name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		min, err := m.Bytes("application/javascript", data)
		if err != nil {
			t.Errorf("%s does not minify: %v", name, err)
		}
		if len(min) == 0 || len(min) >= len(data) {
			t.Errorf("%s: minified to %d bytes from %d", name, len(min), len(data))
		}
		for _, banned := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "new Function", "document.write", "http://", "https://"} {
			if strings.Contains(string(data), banned) {
				t.Errorf("%s uses %s", name, banned)
			}
		}
		if node, err := exec.LookPath("node"); err == nil {
			mjs := filepath.Join(t.TempDir(), name+".mjs")
			if err := os.WriteFile(mjs, min, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(node, "--check", mjs).CombinedOutput()
			if err != nil {
				t.Errorf("minified %s is not a valid module: %v\n%s", name, err, out)
			}
		}
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"Review a Pull-Request", "kubernets", "Café ＰＤＦ", "x\u0301\u0302", "İ", "𝐀𝐁", "a-b_c.d", strings.Repeat("a", 40), "\xff\xfe", "hopping caresses",
		strings.Repeat("b", 32) + " " + strings.Repeat("c", 33) + "s", "The CARESSES of IT, agreed; Ares's 3rd-party API v2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := Words(Fold(s))
		// Tokens' one-pass ASCII path gives what folding, splitting and
		// stemming give.
		var want []string
		for _, w := range words {
			if !stopWords[w] && utf8.RuneCountInString(w) <= maxTokenLen {
				want = append(want, Stem(w))
			}
		}
		if got := Tokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%q) = %q, want %q", s, got, want)
		}
		for _, tok := range Tokens(s) {
			if tok == "" {
				t.Fatalf("empty token of %q", s)
			}
			// Stop words go before stemming, so a stem may be one ("Ares"
			// gives "are"); a token that is a stop word must be such a stem.
			if stopWords[tok] && !slices.ContainsFunc(words, func(w string) bool { return !stopWords[w] && Stem(w) == tok }) {
				t.Fatalf("token %q of %q is a stop word", tok, s)
			}
			if utf8.RuneCountInString(tok) > maxTokenLen {
				t.Fatalf("long token %q", tok)
			}
			for _, r := range tok {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					t.Fatalf("token %q of %q has %q", tok, s, r)
				}
			}
		}
		for _, x := range words {
			if st := Stem(x); utf8.RuneCountInString(st) > utf8.RuneCountInString(x)+1 {
				t.Fatalf("Stem(%q) = %q grew", x, st)
			}
		}
		_ = exactName(s)
		_ = PrefixFile(s)
	})
}

// FuzzStripURLs: stripURLs replaces what urlPattern matches, as the
// regexp would.
func FuzzStripURLs(f *testing.F) {
	for _, s := range []string{"see https://example.com/x).", "xhttp://a", "_http://a b", "http://", "https:// x", "http://a]http://b>c",
		"é https://ü.example/ä", "hhttps://a", "https://a\vb", "(http://x) and [https://y]", "httpss://a", "\xffhttp://\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := stripURLs(s), urlPattern.ReplaceAllString(s, " "); got != want {
			t.Fatalf("stripURLs(%q) = %q, want %q", s, got, want)
		}
	})
}
