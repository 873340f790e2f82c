package index_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/testutil"
)

var scratch string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "skilldex-index-test-")
	if err != nil {
		panic(err)
	}
	scratch = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildSite builds a site of sources into out and returns out.
func buildSite(tb testing.TB, out string, sources ...string) string {
	tb.Helper()
	_, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: sources}, Output: out})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

var (
	corpusOnce sync.Once
	corpusDir  string
)

// corpusSite is the site of the corpus, built once per test binary.
func corpusSite(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds the whole corpus")
	}
	src := testutil.Testdata(t, "corpus", "skills")
	corpusOnce.Do(func() { corpusDir = buildSite(t, filepath.Join(scratch, "corpus"), src) })
	if corpusDir == "" {
		t.Fatal("the corpus site failed to build")
	}
	return corpusDir
}

// openCorpus opens the corpus site's bleve index, closed when the test
// ends, and returns the site too.
func openCorpus(t *testing.T) (string, *index.Bleve) {
	t.Helper()
	site := corpusSite(t)
	ix, err := index.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return site, ix
}

// coreScript is static/search-core.js of this checkout.
func coreScript(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(testutil.ProjectRoot(tb), "static", "search-core.js")
}

// needNode skips when Node is missing: the JSON index is read by the
// browser client, which only Node runs outside a browser.
func needNode(tb testing.TB) string {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("node is not installed: the JSON index is checked through static/search-core.js, which needs Node 20 or later (apt-get install nodejs)")
	}
	return node
}

// coreResult is one answer of `node search-core.js SITE -`.
type coreResult struct {
	Names    []string   `json:"names"`
	Bytes    int        `json:"bytes"`
	Requests int        `json:"requests"`
	MS       float64    `json:"ms"`
	Notes    []string   `json:"notes"`
	Terms    [][]string `json:"terms"`
}

// runCore answers queries with the JavaScript core, each from a cold index.
func runCore(tb testing.TB, site string, queries []string, limit int) []coreResult {
	tb.Helper()
	node := needNode(tb)
	cmd := exec.Command(node, coreScript(tb), site, "-", strconvItoa(limit))
	cmd.Stdin = strings.NewReader(strings.Join(queries, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("node search-core.js: %v\n%s", err, stderr.String())
	}
	var res []coreResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r coreResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("node search-core.js printed %q: %v", sc.Text(), err)
		}
		res = append(res, r)
	}
	if len(res) != len(queries) {
		tb.Fatalf("node search-core.js answered %d of %d queries", len(res), len(queries))
	}
	return res
}

func strconvItoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// coreMarks returns, for each query, the words the search page marks in
// the name and description of each of the first limit results
// (search-core.js's highlight of the result's termsOf), from a cold index.
func coreMarks(tb testing.TB, site string, queries []string, limit int) [][][]string {
	tb.Helper()
	node := needNode(tb)
	script := `
import { Index, highlight } from ` + strconvQuote(coreScript(tb)) + `;
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
const [site, limit] = [process.argv[1], Number(process.argv[2])];
const queries = JSON.parse(readFileSync(0, 'utf8'));
const out = [];
for (const q of queries) {
  const index = new Index(async (p) => { try { return JSON.parse(await fs.readFile(path.join(site, 'search', p), 'utf8')); } catch { return null; } });
  const res = await index.search(q);
  const docs = res.hits.slice(0, limit).map((h) => h.doc);
  const cards = await index.cards(docs);
  out.push(cards.map((c, i) => highlight(c.name + ' ' + c.description, res.termsOf(docs[i])).filter(([, m]) => m).map(([w]) => w)));
}
process.stdout.write(JSON.stringify(out));
`
	cmd := exec.Command(node, "--input-type=module", "-e", script, site, strconvItoa(limit))
	in, _ := json.Marshal(queries)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		tb.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var marks [][][]string
	if err := json.Unmarshal(data, &marks); err != nil || len(marks) != len(queries) {
		tb.Fatalf("node printed %s (%v)", data, err)
	}
	return marks
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
