// Package searcheval measures how well skilldex's search engines rank the
// skills a person is after: for each judged query (what someone types,
// and every skill that is right for it), where each engine puts the first
// right skill. The engines are the bleve index (what `skilldex search`
// does), the browser's JSON index (static/search-core.js, run by Node) and
// a plain BM25 ranking of name and SKILL.md, the floor any tuned ranking
// should clear. Command searcheval (make eval-search) prints the figures;
// the judged sets are index/testdata/judged/*.tsv.
package searcheval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The judged sets. A task query describes a goal, a symptom, a file type
// or a platform in the words people use, never the skill's own; keyword
// queries are the short terms of a skill's vocabulary (prefixes as typed
// among them); typo queries misspell them.
const (
	TaskTrain   = "task-train"
	TaskHeldOut = "task-heldout"
	Keyword     = "keyword"
	Typo        = "typo"
)

// Sets lists the judged sets in the order reports show them.
var Sets = []string{TaskTrain, TaskHeldOut, Keyword, Typo}

// HeldOutSeed fixes the held-out split of the task queries (see HeldOut).
// It was chosen before any query was written or measured; changing it
// would let a split be picked by its results.
const HeldOutSeed = "skilldex-i19-task-split"

// HeldOut reports whether the task query q belongs to the held-out split:
// when the first 8 bytes of SHA-256(HeldOutSeed + "\n" + q), read as a
// big-endian number, are 0 to 29 modulo 100, which holds for 30% of
// queries on average. Each query's split depends on its own text alone, so
// adding queries never moves one already judged from one split to the
// other.
func HeldOut(q string) bool {
	h := sha256.Sum256([]byte(HeldOutSeed + "\n" + q))
	return binary.BigEndian.Uint64(h[:8])%100 < 30
}

// TaskSet returns the set the split rule gives the task query q.
func TaskSet(q string) string {
	if HeldOut(q) {
		return TaskHeldOut
	}
	return TaskTrain
}

// Query is one judged query.
type Query struct {
	// Text is the query as typed.
	Text string
	// Right lists every skill that is right for the query, the one the
	// query was written for first; any of them ranked counts as a hit.
	Right []string
	// Set is the judged set the query belongs to.
	Set string
	// File and Line say where the query is written.
	File string
	Line int
}

// Parse reads judged queries in the format of index/testdata/judged: one
// query a line, three fields separated by tabs (the query; the right
// skills, comma-separated; the set); lines starting with # and blank
// lines are comments. name is the file's name, for messages.
func Parse(name string, r io.Reader) ([]Query, error) {
	var out []Query
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		q, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		q.File, q.Line = name, line
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

func parseLine(text string) (Query, error) {
	fields := strings.Split(text, "\t")
	if len(fields) != 3 {
		return Query{}, fmt.Errorf("%d tab-separated fields, want 3: the query, the right skills (comma-separated), the set", len(fields))
	}
	q := Query{Text: fields[0], Set: fields[2]}
	if strings.TrimSpace(q.Text) == "" {
		return Query{}, fmt.Errorf("the query is empty")
	}
	if strings.TrimSpace(q.Text) != q.Text {
		// A trailing space changes the query: the last word is no longer
		// matched as a prefix.
		return Query{}, fmt.Errorf("the query %q starts or ends with a space; remove it", q.Text)
	}
	if !slices.Contains(Sets, q.Set) {
		return Query{}, fmt.Errorf("unknown set %q; want one of %s", q.Set, strings.Join(Sets, ", "))
	}
	for _, s := range strings.Split(fields[1], ",") {
		if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, " \t") {
			return Query{}, fmt.Errorf("skill list %q: want skill names separated by commas, without spaces", fields[1])
		}
		if slices.Contains(q.Right, s) {
			return Query{}, fmt.Errorf("skill %q is listed twice", s)
		}
		q.Right = append(q.Right, s)
	}
	return q, nil
}

// ReadDir reads every judged file (*.tsv) of dir, in name order.
func ReadDir(dir string) ([]Query, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no judged query file (*.tsv)", dir)
	}
	var out []Query
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		qs, err := Parse(f, bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		out = append(out, qs...)
	}
	return out, nil
}

// BySet groups queries by set, keeping their order.
func BySet(qs []Query) map[string][]Query {
	out := map[string][]Query{}
	for _, q := range qs {
		out[q.Set] = append(out[q.Set], q)
	}
	return out
}
