package index

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Bleve is an open bleve search index.
type Bleve struct {
	idx      bleve.Index
	analyzer analysis.Analyzer
	tmp      string // extracted archive, removed on Close
}

// maxArchive bounds what an index archive may inflate to.
const maxArchive = 4 << 30

// Open opens a bleve index written by skilldex: its folder (the one
// holding index_meta.json, or a site folder or search/ folder above it),
// or the ZIP archive (search/bleve.zip), which is extracted to a
// temporary folder first. The index is opened read-only.
func Open(p string) (*Bleve, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	b := &Bleve{}
	dir := p
	if !st.IsDir() {
		tmp, err := os.MkdirTemp("", "skilldex-index-")
		if err != nil {
			return nil, err
		}
		b.tmp = tmp
		if err := extract(p, tmp); err != nil {
			b.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		dir = tmp
	}
	found := ""
	for _, c := range []string{dir, filepath.Join(dir, "bleve"), filepath.Join(dir, filepath.FromSlash(BleveDir))} {
		if _, err := os.Stat(filepath.Join(c, "index_meta.json")); err == nil {
			found = c
			break
		}
	}
	if found == "" {
		b.Close()
		return nil, fmt.Errorf("%s holds no bleve index (no index_meta.json in it, in bleve/ or in %s/); build the site first or pass --index", p, BleveDir)
	}
	idx, err := bleve.OpenUsing(found, map[string]any{"read_only": true})
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("%s: %w", found, err)
	}
	b.idx = idx
	b.analyzer = idx.Mapping().AnalyzerNamed(analyzerName)
	if b.analyzer == nil {
		b.Close()
		return nil, fmt.Errorf("%s: not a skilldex index (no %s analyzer)", found, analyzerName)
	}
	return b, nil
}

// extract unpacks a ZIP archive into dir, refusing entries that would
// land outside it.
func extract(file, dir string) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return err
	}
	defer zr.Close()
	var total int64
	for _, f := range zr.File {
		name := path.Clean(f.Name)
		if f.FileInfo().IsDir() {
			continue
		}
		if !fs.ValidPath(name) || strings.Contains(f.Name, `\`) {
			return fmt.Errorf("unsafe entry %q", f.Name)
		}
		total += int64(f.UncompressedSize64)
		if total > maxArchive {
			return errors.New("archive inflates to more than 4 GiB")
		}
		out := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		w, err := os.Create(out)
		if err != nil {
			rc.Close()
			return err
		}
		_, err = io.Copy(w, io.LimitReader(rc, maxArchive))
		rc.Close()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Close closes the index and removes any extracted copy.
func (b *Bleve) Close() error {
	var err error
	if b.idx != nil {
		err = b.idx.Close()
	}
	if b.tmp != "" {
		os.RemoveAll(b.tmp)
	}
	return err
}

// Hit is one result.
type Hit struct {
	Name        string              `json:"name"`
	Score       float64             `json:"score"`
	Description string              `json:"description"`
	Type        string              `json:"type,omitempty"`
	Format      string              `json:"format,omitempty"`
	Status      string              `json:"status,omitempty"`
	License     string              `json:"license,omitempty"` // an SPDX expression, or Other
	Source      string              `json:"source,omitempty"`
	Tags        []string            `json:"tags,omitempty"`
	URL         string              `json:"url,omitempty"`
	Highlights  map[string][]string `json:"highlights,omitempty"`
}

// Result is a ranked list of hits.
type Result struct {
	Hits  []Hit  `json:"hits"`
	Total uint64 `json:"total"`
	// Facets counts the matching skills by facet value.
	Facets map[string]map[string]int `json:"facets,omitempty"`
}

// queryWord is one word of a query.
type queryWord struct {
	raw    string // folded, as typed
	term   string // as indexed; "" for a stop word
	prefix bool   // the last word, matched as a prefix too
}

// words analyses a query the way the JSON client does: folded words, the
// last one a prefix unless the query ends with a space or punctuation,
// stop words dropped unless being typed.
func (b *Bleve) words(q string) []queryWord {
	folded := Fold(q)
	ws := Words(folded)
	typing := len(ws) > 0 && strings.HasSuffix(folded, ws[len(ws)-1])
	var out []queryWord
	for i, w := range ws {
		qw := queryWord{raw: w, prefix: typing && i == len(ws)-1}
		if toks := b.analyzer.Analyze([]byte(w)); len(toks) > 0 {
			qw.term = string(toks[0].Term)
		}
		if qw.term == "" && !qw.prefix {
			continue
		}
		out = append(out, qw)
	}
	return out
}

// fieldsQuery matches one term in every searchable field, boosted by the
// field weights times factor.
func fieldsQuery(build func(field string) query.Query, factor float64) query.Query {
	qs := make([]query.Query, 0, len(fields))
	for _, f := range fields {
		q := build(f.name)
		q.(query.BoostableQuery).SetBoost(f.weight * factor)
		qs = append(qs, q)
	}
	return query.NewDisjunctionQuery(qs)
}

// Query builds the bleve query of q: for each word, a disjunction of the
// term in every field (boosted by the field weights), of its completions
// when it is the last word, and of its spelling neighbours when the term
// itself is (nearly) absent; the words in a disjunction (bleve's
// coordination factor ranks skills matching more words first); and a
// boost for the skill whose whole name is the query.
func (b *Bleve) Query(q string) (query.Query, error) {
	ws := b.words(q)
	if len(ws) == 0 {
		return nil, nil
	}
	var wordQs []query.Query
	for _, w := range ws {
		var alts []query.Query
		if w.term != "" {
			t := w.term
			alts = append(alts, fieldsQuery(func(f string) query.Query {
				tq := query.NewTermQuery(t)
				tq.SetField(f)
				return tq
			}, 1))
		}
		var df uint64
		if w.term != "" {
			var err error
			if df, err = b.docFreq(w.term); err != nil {
				return nil, err
			}
		}
		// A word that is not a term of the index may be the start of one
		// ("postgres" of postgresql), as the word being typed always may.
		if w.prefix || (df == 0 && len([]rune(w.raw)) >= 3) {
			p := w.raw
			alts = append(alts, fieldsQuery(func(f string) query.Query {
				pq := query.NewPrefixQuery(p)
				pq.SetField(f)
				return pq
			}, 0.7))
		}
		if w.term != "" && len([]rune(w.term)) >= 4 {
			if df <= 2 {
				t, fuzz := w.term, 1
				if len([]rune(t)) >= 8 {
					fuzz = 2
				}
				alts = append(alts, fieldsQuery(func(f string) query.Query {
					fq := query.NewFuzzyQuery(t)
					fq.SetField(f)
					fq.SetFuzziness(fuzz)
					return fq
				}, 0.5))
			}
		}
		wordQs = append(wordQs, query.NewDisjunctionQuery(alts))
	}
	words := query.NewDisjunctionQuery(wordQs)
	name := query.NewTermQuery(exactName(q))
	name.SetField("name_exact")
	name.SetBoost(weightName * 4)
	return query.NewDisjunctionQuery([]query.Query{words, name}), nil
}

// docFreq counts the skills having term in any searchable field.
func (b *Bleve) docFreq(term string) (uint64, error) {
	q := fieldsQuery(func(f string) query.Query {
		tq := query.NewTermQuery(term)
		tq.SetField(f)
		return tq
	}, 1)
	res, err := b.idx.Search(bleve.NewSearchRequestOptions(q, 0, 0, false))
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}

// Search returns the first limit skills matching q, best first, with
// highlighted fragments (HTML, matches in <mark>) and facet counts.
func (b *Bleve) Search(q string, limit int) (*Result, error) {
	bq, err := b.Query(q)
	if err != nil {
		return nil, err
	}
	out := &Result{Hits: []Hit{}}
	if bq == nil {
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(bq, limit, 0, false)
	req.Fields = []string{"name", "description", "url", facetField("type"), facetField("format"), facetField("status"), facetField("license"), facetField("source"), facetField("tags")}
	req.Highlight = bleve.NewHighlightWithStyle("html")
	req.Highlight.Fields = []string{"name", "description", "tags", "capabilities", "keywords", "intents"}
	req.SortBy([]string{"-_score", "_id"})
	for _, def := range facetDefs {
		req.AddFacet(def.id, bleve.NewFacetRequest(facetField(def.id), 20))
	}
	res, err := b.idx.Search(req)
	if err != nil {
		return nil, err
	}
	out.Total = res.Total
	for _, h := range res.Hits {
		hit := Hit{Name: h.ID, Score: h.Score, Highlights: map[string][]string{}}
		hit.Description, _ = h.Fields["description"].(string)
		hit.URL, _ = h.Fields["url"].(string)
		hit.Type = first(h.Fields[facetField("type")])
		hit.Format = first(h.Fields[facetField("format")])
		hit.Status = first(h.Fields[facetField("status")])
		hit.License = first(h.Fields[facetField("license")])
		hit.Source = first(h.Fields[facetField("source")])
		hit.Tags = all(h.Fields[facetField("tags")])
		for f, frags := range h.Fragments {
			hit.Highlights[f] = frags
		}
		if len(hit.Highlights) == 0 {
			hit.Highlights = nil
		}
		out.Hits = append(out.Hits, hit)
	}
	for id, fr := range res.Facets {
		if fr.Terms == nil {
			continue
		}
		counts := map[string]int{}
		for _, t := range fr.Terms.Terms() {
			counts[t.Term] = t.Count
		}
		if len(counts) > 0 {
			if out.Facets == nil {
				out.Facets = map[string]map[string]int{}
			}
			out.Facets[id] = counts
		}
	}
	return out, nil
}

func first(v any) string {
	if l := all(v); len(l) > 0 {
		return l[0]
	}
	return ""
}

func all(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
