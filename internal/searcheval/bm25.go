package searcheval

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/skilldex/skilldex/index"
)

// The BM25 parameters of the floor: the textbook values, untuned.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// BM25 ranks skills by Okapi BM25 over one field, the skill's name and its
// whole SKILL.md (frontmatter included), with the index's terms
// (index.Tokens: folded, stop words dropped, stemmed) and nothing else: no
// field weights, no prefixes, no spelling tolerance. It is the floor a
// tuned ranking should clear.
type BM25 struct {
	names    []string
	lens     []int
	avgLen   float64
	postings map[string][]posting
}

type posting struct {
	doc, tf int
}

// Doc is one document for BM25: a skill's name and text.
type Doc struct {
	Name, Text string
}

// NewBM25 indexes docs: each is scored on the terms of its name and text.
func NewBM25(docs []Doc) *BM25 {
	m := &BM25{postings: map[string][]posting{}}
	total := 0
	for i, d := range docs {
		tf := map[string]int{}
		n := 0
		for _, t := range index.Tokens(d.Name + "\n" + d.Text) {
			tf[t]++
			n++
		}
		terms := make([]string, 0, len(tf))
		for t := range tf {
			terms = append(terms, t)
		}
		slices.Sort(terms)
		for _, t := range terms {
			m.postings[t] = append(m.postings[t], posting{i, tf[t]})
		}
		m.names = append(m.names, d.Name)
		m.lens = append(m.lens, n)
		total += n
	}
	if len(docs) > 0 {
		m.avgLen = float64(total) / float64(len(docs))
	}
	return m
}

// Name implements Engine.
func (m *BM25) Name() string { return "bm25" }

// Rank implements Engine.
func (m *BM25) Rank(queries []string) ([][]string, error) {
	out := make([][]string, len(queries))
	for i, q := range queries {
		out[i] = m.Top(q, Depth)
	}
	return out, nil
}

// Top returns the names of the first limit skills for q, best first; ties
// go to the name first in byte order. Skills sharing no term with q are
// not ranked. Each distinct term of q counts once.
func (m *BM25) Top(q string, limit int) []string {
	scores := map[int]float64{}
	seen := map[string]bool{}
	n := float64(len(m.names))
	for _, t := range index.Tokens(q) {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := m.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := 1 - bm25B + bm25B*float64(m.lens[p.doc])/m.avgLen
			scores[p.doc] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*norm)
		}
	}
	docs := make([]int, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(m.names[a], m.names[b])
	})
	out := make([]string, 0, min(limit, len(docs)))
	for _, d := range docs[:min(limit, len(docs))] {
		out = append(out, m.names[d])
	}
	return out
}

// SiteDocs reads the published skills of a built site: their names from
// api/v1/index.json, their text from skills/<name>/SKILL.md (the source,
// byte for byte).
func SiteDocs(site string) ([]Doc, error) {
	data, err := os.ReadFile(filepath.Join(site, "api", "v1", "index.json"))
	if err != nil {
		return nil, fmt.Errorf("%w (build the site first)", err)
	}
	var idx struct {
		Skills []struct {
			Name string `json:"name"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(site, "api", "v1", "index.json"), err)
	}
	docs := make([]Doc, 0, len(idx.Skills))
	for _, s := range idx.Skills {
		text, err := os.ReadFile(filepath.Join(site, "skills", s.Name, "SKILL.md"))
		if err != nil {
			return nil, err
		}
		docs = append(docs, Doc{Name: s.Name, Text: string(text)})
	}
	return docs, nil
}
