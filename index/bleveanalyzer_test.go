package index

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/skilldex/skilldex/internal/testutil"
)

// analyzerEdgeCases are texts where bleve's tokenizer or filters do
// something particular.
var analyzerEdgeCases = []string{
	"", " ", "a", "_", "__init__", "_1", "1_", "1_a", "a_1", "___ a", "x_", "_x_y_",
	"John's JOHN'S a's 's s' Ares's it's ponies' a_'s", "don't rock'n'roll 'quoted' ''",
	"1,000.50 1.2.3 1..2 1,,2 1;2 1:2 1'2 1.a a.1 a1.2 1a.b a.b.c a..b a:b a:1 a,b a;b",
	"e.g. U.S.A. v2.0.1-beta k8s x86_64 3rd-party API_v2", "a.b. .a. :a: ,1, '1' 'a'",
	"The CARESSES of IT, agreed; feed hopping happy sky generalization oscillators",
	"THE And oF tO are their there", "\r\n\r\v\f\t\x00\x7f", "a\rb\nc\r\nd",
	"Café crème naïve résumé", "don’t", "a—b a–b a→b", "日本語のテキスト", "ＰＤＦ", "x\u0301y",
	"a\u00adb", "a·b", "1٬2", "\xff\xfe a", "a\u2028b", "🔴 done ✅", "a\u200db", "İstanbul",
	"naïve\nJohn's 1.5 the\n", "a.\né", "é\n.a", "x\u0301\ny\u0301", "日本\nabc 日本", "a\r\nb é\r\nc",
	"\n", "é\n", "\nend é", "a\xffb\nc", "\u0301\nthe é of\n\u00ad", "📚 Docs\n⚠️ Warning: don't\n",
}

// analyzerSeeds returns the edge cases and paragraphs of the corpus's
// SKILL.md files: a few of each file, and those with characters outside
// ASCII.
func analyzerSeeds(tb testing.TB) []string {
	seeds := append([]string(nil), analyzerEdgeCases...)
	root := testutil.Testdata(tb, "corpus")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "SKILL.md" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		plain, other := 0, 0
		for _, p := range strings.Split(string(data), "\n\n") {
			if len(p) > 4096 {
				continue
			}
			ascii := isASCII(p)
			switch {
			case ascii && plain < 3:
				plain++
			case !ascii && other < 6:
				other++
			default:
				continue
			}
			seeds = append(seeds, p)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return seeds
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzIndexAnalyzer checks indexAnalyzer against bleve's "en"
// analyzer: the same tokens (term, offsets, position, type), and the same
// token frequencies as bleve's analysis.TokenFrequency makes of them.
func FuzzIndexAnalyzer(f *testing.F) {
	for _, s := range analyzerSeeds(f) {
		f.Add(s)
	}
	m, err := NewMapping()
	if err != nil {
		f.Fatal(err)
	}
	ref := m.AnalyzerNamed(analyzerName)
	warm, err := newIndexAnalyzer(ref)
	if err != nil {
		f.Fatal(err)
	}
	// forgetful forgets its words every few texts.
	forgetful, _ := newIndexAnalyzer(ref)
	forgetful.maxWords = 8
	f.Fuzz(func(t *testing.T, s string) {
		want := ref.Analyze([]byte(s)) // bleve lowercases in place: a copy
		for _, a := range []*indexAnalyzer{warm, forgetful} {
			got := a.Analyze([]byte(s))
			if d := diffTokens(got, want); d != "" {
				t.Fatalf("tokens of %q: %s", s, d)
			}
			if !a.tokenize([]byte(s)) {
				continue
			}
			for _, opts := range []bindex.FieldIndexingOptions{
				bindex.IndexField,
				bindex.IndexField | bindex.StoreField | bindex.IncludeTermVectors,
				bindex.IndexField | bindex.IncludeTermVectors | bindex.SkipFreqNorm,
			} {
				pos := []uint64{3}
				wantF := analysis.TokenFrequency(want, pos, opts)
				if gotF := a.frequencies(pos, opts); !sameFrequencies(gotF, wantF) {
					t.Fatalf("frequencies of %q with options %v differ", s, opts)
				}
			}
		}
	})
}

// diffTokens describes the first difference between two token streams,
// "" when there is none.
func diffTokens(got, want analysis.TokenStream) string {
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if !bytes.Equal(g.Term, w.Term) || g.Start != w.Start || g.End != w.End ||
			g.Position != w.Position || g.Type != w.Type || g.KeyWord != w.KeyWord {
			return "token " + g.String() + ", bleve's " + w.String()
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d tokens, bleve's %d", len(got), len(want))
	}
	return ""
}

// sameFrequencies compares token frequencies: terms, counts and
// locations, in order.
func sameFrequencies(got, want bindex.TokenFrequencies) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || !bytes.Equal(g.Term, w.Term) || g.Frequency() != w.Frequency() || len(g.Locations) != len(w.Locations) {
			return false
		}
		if cap(g.Locations) != len(g.Locations) {
			return false // an append by MergeAll would overwrite the next term's
		}
		for i := range w.Locations {
			if !reflect.DeepEqual(*g.Locations[i], *w.Locations[i]) {
				return false
			}
		}
	}
	return true
}

// TestBleveFieldsFollowTheStruct checks that bleveFields lists the
// exported fields of bleveDoc (what MapDocument maps) by their json tags,
// in the struct's order, each with a function of the right kind.
func TestBleveFieldsFollowTheStruct(t *testing.T) {
	typ := reflect.TypeFor[bleveDoc]()
	exported := 0
	for i := range typ.NumField() {
		if typ.Field(i).IsExported() {
			exported++
		}
	}
	if exported != len(bleveFields) {
		t.Fatalf("bleveDoc has %d exported fields, bleveFields %d", exported, len(bleveFields))
	}
	for i, f := range bleveFields {
		sf := typ.Field(i)
		tag := strings.Split(sf.Tag.Get("json"), ",")[0]
		isList := sf.Type.Kind() == reflect.Slice
		if f.name != tag || isList != (f.list != nil) || isList == (f.one != nil) {
			t.Errorf("bleveFields[%d] is %s (list %v), bleveDoc's field %s (json %q, list %v)", i, f.name, f.list != nil, sf.Name, tag, isList)
		}
	}
}

// BenchmarkCollectWithVocabulary measures a full garbage collection while
// two analyzers (a build's two workers) remember as many words as they
// may, what each collection of a build visits besides the rest of it.
func BenchmarkCollectWithVocabulary(b *testing.B) {
	m, err := NewMapping()
	if err != nil {
		b.Fatal(err)
	}
	var analyzers []*indexAnalyzer
	for w := range 2 {
		a, err := newIndexAnalyzer(m.AnalyzerNamed(analyzerName))
		if err != nil {
			b.Fatal(err)
		}
		var text strings.Builder
		for i := range maxWords {
			fmt.Fprintf(&text, "word%dx%d ", w, i)
			if i%1000 == 999 {
				a.tokenize([]byte(text.String()))
				text.Reset()
			}
		}
		a.tokenize([]byte(text.String()))
		analyzers = append(analyzers, a)
	}
	testutil.BenchCollections(b, analyzers)
}
