package searcheval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/index"
)

// An Engine ranks skills for queries.
type Engine interface {
	// Name is the engine's name in reports.
	Name() string
	// Rank returns, for each query, the names of the first Depth skills,
	// best first.
	Rank(queries []string) ([][]string, error)
}

// Bleve is the bleve index of a built site, queried as `skilldex search`
// queries it (index.Bleve.Search).
type Bleve struct {
	ix *index.Bleve
}

// OpenBleve opens the bleve index of the site folder site.
func OpenBleve(site string) (*Bleve, error) {
	ix, err := index.Open(site)
	if err != nil {
		return nil, err
	}
	return &Bleve{ix}, nil
}

// Close closes the index.
func (b *Bleve) Close() error { return b.ix.Close() }

// Name implements Engine.
func (b *Bleve) Name() string { return "bleve" }

// Rank implements Engine.
func (b *Bleve) Rank(queries []string) ([][]string, error) {
	out := make([][]string, len(queries))
	for i, q := range queries {
		res, err := b.ix.Search(q, Depth)
		if err != nil {
			return nil, fmt.Errorf("bleve: %q: %w", q, err)
		}
		for _, h := range res.Hits {
			out[i] = append(out[i], h.Name)
		}
	}
	return out, nil
}

// JSONIndex is the site's sharded JSON index as the browser reads it:
// static/search-core.js run by Node, one process answering every query
// from standard input (its "-" mode), each from a cold index.
type JSONIndex struct {
	// Node is the node executable; Core is the path of search-core.js;
	// Site is the site folder.
	Node, Core, Site string
}

// Name implements Engine.
func (j *JSONIndex) Name() string { return "json" }

// Rank implements Engine.
func (j *JSONIndex) Rank(queries []string) ([][]string, error) {
	for _, q := range queries {
		if strings.ContainsAny(q, "\r\n") || strings.TrimSpace(q) == "" {
			return nil, fmt.Errorf("json: query %q cannot be passed one a line", q)
		}
	}
	cmd := exec.Command(j.Node, j.Core, j.Site, "-", strconv.Itoa(Depth))
	cmd.Stdin = strings.NewReader(strings.Join(queries, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("json: node %s: %v\n%s", j.Core, err, stderr.Bytes())
	}
	var out [][]string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r struct {
			Names []string `json:"names"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("json: search-core.js printed %q: %v", sc.Text(), err)
		}
		out = append(out, r.Names)
	}
	if len(out) != len(queries) {
		return nil, fmt.Errorf("json: search-core.js answered %d of %d queries", len(out), len(queries))
	}
	return out, nil
}
