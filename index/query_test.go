package index

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

var updateQueries = flag.Bool("update", false, "rewrite testdata/queries.json with the parses of this checkout")

// queryCase is a case of testdata/queries.json: a query and its parse.
type queryCase struct {
	Query  string `json:"query"`
	Parsed Query  `json:"parsed"`
}

func readQueryCases(t *testing.T) []queryCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []queryCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestQueryCases parses the queries of testdata/queries.json and compares
// with the parses written there (go test -update rewrites them; review
// the diff).
func TestQueryCases(t *testing.T) {
	cases := readQueryCases(t)
	if *updateQueries {
		for i := range cases {
			cases[i].Parsed = ParseQuery(cases[i].Query)
		}
		data, err := json.MarshalIndent(cases, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "queries.json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		got, _ := json.Marshal(ParseQuery(c.Query))
		want, _ := json.Marshal(c.Parsed)
		if string(got) != string(want) {
			t.Errorf("ParseQuery(%q) = %s\nwant %s", c.Query, got, want)
		}
	}
}

// TestCoreParsesQueriesAlike runs static/search-core.js's parseQuery on the
// queries of testdata/queries.json and on 2,000 random ones made of the
// syntax's characters, words, spaces and letters outside ASCII: the
// browser must read a query as skilldex search does.
func TestCoreParsesQueriesAlike(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: static/search-core.js needs Node 20 or later to be checked (apt-get install nodejs)")
	}
	var queries []string
	for _, c := range readQueryCases(t) {
		queries = append(queries, c.Query)
	}
	pieces := []string{`"`, "+", "-", ":", " ", "  ", "\t", "\u00a0", "\u0085", "\u3000", "\ufeff", "type", "tag", "Source", "plugin", "x", "kube",
		"the", "want", "Café", "ＰＤＦ", "日本", "c++", "node.js", "deploying", "é", "\u0301", "İ", "𝐀", "1.5",
		"tags:", "Types:", "categories:", "taag:", "licence:", "K"}
	r := rand.New(rand.NewPCG(19, 19))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(8) + 1 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if q := b.String(); !strings.ContainsAny(q, "\r\n") {
			queries = append(queries, q)
		}
	}
	script := `import { parseQuery } from ` + jsString("file://"+filepath.Join(testutil.ProjectRoot(t), "static", "search-core.js")) + `;
let input = '';
for await (const c of process.stdin) input += c;
const { queries, conversational } = JSON.parse(input);
const out = queries.map((q) => JSON.stringify(parseQuery(q, new Set(conversational)), (k, v) => (v === false ? undefined : v)));
process.stdout.write(JSON.stringify(out));`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	in, _ := json.Marshal(map[string]any{"queries": queries, "conversational": model.ConversationalWords})
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	bad, mistyped := 0, 0
	for i, q := range queries {
		var js Query
		if err := json.Unmarshal([]byte(got[i]), &js); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var jsMistyped struct{ Mistyped []MistypedFilter }
		json.Unmarshal([]byte(got[i]), &jsMistyped)
		goQuery := ParseQuery(q)
		a, _ := json.Marshal(js)
		b, _ := json.Marshal(goQuery)
		if string(a) != string(b) || !slices.Equal(jsMistyped.Mistyped, goQuery.Mistyped) {
			if bad++; bad <= 10 {
				t.Errorf("%q: JavaScript %s, mistyped %q\nGo %s, mistyped %q", q, a, jsMistyped.Mistyped, b, goQuery.Mistyped)
			}
		}
		mistyped += len(goQuery.Mistyped)
	}
	if mistyped < 50 {
		t.Errorf("only %d mistyped filters among the queries: the comparison is not exercised", mistyped)
	}
	t.Logf("%d queries parsed alike but %d", len(queries), bad)
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"kube", `"pull request" -pdf +git type:cli tag:"a b"`, `source:"`, "+-", `-"`, "x:", "\u00a0+\u0085", "ＰＤＦ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := ParseQuery(s)
		for _, c := range q.Clauses {
			if (c.Facet == "") == (len(c.Words) == 0) {
				t.Fatalf("%q: clause %+v is neither words nor a filter", s, c)
			}
			for _, w := range c.Words {
				if w.Raw == "" || w.Term == "" || (w.Stop && !w.Prefix) {
					t.Fatalf("%q: word %+v", s, w)
				}
			}
		}
	})
}

// TestMistypedFilters: a word written as a filter of a name near a
// filter's is noted with the filter meant, sign and quoted value kept; a
// word inside a phrase, or one no filter is near, is not.
func TestMistypedFilters(t *testing.T) {
	for q, want := range map[string]string{
		"tags:audit":                "tags:audit -> tag:audit",
		"-Types:cli deploy":         "-Types:cli -> -type:cli",
		`tags:"my tag" x`:           `tags:"my tag" -> tag:"my tag"`,
		"capabilities:x categry:y":  "capabilities:x -> capability:x, categry:y -> category:y",
		"categories:x licence:MIT":  "categories:x -> category:x, licence:MIT -> license:MIT",
		"tag:audit foo:bar node:20": "",
		`"a phrase tags:x" c++`:     "",
		"https://x.example":         "",
	} {
		var got []string
		for _, m := range ParseQuery(q).Mistyped {
			got = append(got, m.Written+" -> "+m.Meant)
		}
		if g := strings.Join(got, ", "); g != want {
			t.Errorf("ParseQuery(%q).Mistyped = %q, want %q", q, g, want)
		}
	}
}
