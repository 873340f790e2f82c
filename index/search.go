package index

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Bleve is an open bleve search index.
type Bleve struct {
	idx bleve.Index
	tmp string // extracted archive, removed on Close
	// shared is what every search reads alike.
	shared *bleveShared
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
	b.shared = &bleveShared{}
	if im, ok := idx.Mapping().(*mapping.IndexMappingImpl); !ok || im.DefaultField != allField {
		b.Close()
		return nil, fmt.Errorf("%s: not an index of this skilldex (no %s field); rebuild the site", found, allField)
	}
	related, err := idx.GetInternal([]byte(relatedKey))
	if err == nil {
		b.shared.related, err = decodeRelated(related)
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("%s: %w", found, err)
	}
	blocks, err := idx.GetInternal([]byte(blocksKey))
	if err != nil || len(blocks) == 0 {
		b.Close()
		return nil, fmt.Errorf("%s: not an index of this skilldex (no %s); rebuild the site", found, blocksKey)
	}
	b.shared.blocks = strings.Split(strings.TrimSuffix(string(blocks), "\n"), "\n")
	docs, err := idx.GetInternal([]byte(docsKey))
	if err == nil {
		var n uint64
		if n, err = idx.DocCount(); err == nil {
			err = b.shared.setDocs(docs, int(n))
		}
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("%s: not an index of this skilldex version (%v); rebuild the site", found, err)
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
	// Terms are the terms the hit counted for the query's content words
	// (Ranking.CountedTerms): what Highlights mark.
	Terms []string `json:"terms,omitempty"`
	// Explanation says how Score was made, with SearchOptions.Explain.
	Explanation *Explanation `json:"explanation,omitempty"`
}

// Result is a ranked list of hits.
type Result struct {
	Hits  []Hit  `json:"hits"`
	Total uint64 `json:"total"`
	// Facets counts the matching skills by facet value.
	Facets map[string]map[string]int `json:"facets,omitempty"`
	// Mistyped are the query's words written as filters of no filter's
	// name (Query.Mistyped), searched as words.
	Mistyped []MistypedFilter `json:"-"`
	// EmptyFilters are the query's filters whose value no skill has
	// (Ranking.EmptyFilters).
	EmptyFilters []Clause `json:"-"`
}

// SearchOptions tune a search.
type SearchOptions struct {
	// Limit is how many hits to return.
	Limit int
	// Explain gives each hit its Explanation.
	Explain bool
	// Facets counts the matching skills by facet value (Result.Facets).
	Facets bool
}

// Search returns the first limit skills matching q, best first, with
// highlighted fragments (HTML, matches in <mark>) and facet counts. q is
// in the query syntax of ParseQuery.
func (b *Bleve) Search(q string, limit int) (*Result, error) {
	return b.SearchWith(q, SearchOptions{Limit: limit, Facets: true})
}

// SearchWith is Search with options.
func (b *Bleve) SearchWith(q string, opt SearchOptions) (*Result, error) {
	src, err := b.source()
	if err != nil {
		return nil, err
	}
	defer src.close()
	ctx := context.Background()
	parsed := ParseQuery(q)
	r, err := Rank(ctx, src, parsed, RankOptions{})
	if err != nil {
		return nil, err
	}
	out := &Result{Hits: []Hit{}, Total: uint64(len(r.Hits)), Mistyped: parsed.Mistyped, EmptyFilters: r.EmptyFilters}
	top := r.Hits[:min(len(r.Hits), max(opt.Limit, 0))]
	if err := b.fillHits(src, r, top, out); err != nil {
		return nil, err
	}
	if opt.Explain {
		for i, h := range top {
			if out.Hits[i].Explanation, err = src.explain(ctx, r, h); err != nil {
				return nil, err
			}
		}
	}
	if opt.Facets {
		if out.Facets, err = src.facetCounts(r.Hits); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fillHits adds the hits of top to out, in order, with their stored
// fields and highlights: one bleve search for the documents of top, on
// the text fields, for the terms each counted (Ranking.CountedTerms).
func (b *Bleve) fillHits(src *bleveSource, r *Ranking, top []ScoredDoc, out *Result) error {
	if len(top) == 0 {
		return nil
	}
	ids := make([]string, len(top))
	for i, h := range top {
		id, err := src.name(h.Doc)
		if err != nil {
			return err
		}
		ids[i] = id
	}
	// One search finds the documents with the terms any of them counted,
	// and where; each document's highlights are then made from the
	// places of its own terms alone.
	highlighted := []string{"name", "description", "triggers", "tags", "capabilities", "keywords", "intents"}
	alts := []query.Query{query.NewDocIDQuery(ids)}
	counted := make([][]string, len(top))
	seen := map[string]bool{}
	for i, h := range top {
		terms, err := r.CountedTerms(context.Background(), src, h.Doc)
		if err != nil {
			return err
		}
		counted[i] = terms
		for _, t := range terms {
			if seen[t] {
				continue
			}
			seen[t] = true
			for _, f := range highlighted {
				tq := query.NewTermQuery(t)
				tq.SetField(f)
				alts = append(alts, tq)
			}
		}
	}
	bq := query.NewConjunctionQuery([]query.Query{query.NewDocIDQuery(ids), query.NewDisjunctionQuery(alts)})
	req := bleve.NewSearchRequestOptions(bq, len(ids), 0, false)
	req.IncludeLocations = true
	res, err := b.idx.Search(req)
	if err != nil {
		return err
	}
	hl, err := bleve.Config.Cache.HighlighterNamed("html")
	if err != nil {
		return err
	}
	adv, err := b.idx.Advanced()
	if err != nil {
		return err
	}
	rd, err := adv.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	byID := map[string]*bsearch.DocumentMatch{}
	for _, h := range res.Hits {
		byID[h.ID] = h
	}
	for i, id := range ids {
		h := byID[id]
		if h == nil {
			return fmt.Errorf("bleve index: skill %s is ranked but has no document", id)
		}
		// The document is read once, for its stored fields and for the
		// highlights.
		doc, err := rd.Document(id)
		if err != nil || doc == nil {
			return fmt.Errorf("bleve index: skill %s is ranked but cannot be read: %v", id, err)
		}
		highlight(hl, h, doc, highlighted, counted[i])
		stored := storedText(doc)
		hit := Hit{Name: id, Score: top[i].Score, Highlights: map[string][]string{}, Terms: counted[i]}
		hit.Description = first(stored["description"])
		hit.URL = first(stored["url"])
		hit.Type = first(stored[facetField("type")])
		hit.Format = first(stored[facetField("format")])
		hit.Status = first(stored[facetField("status")])
		hit.License = first(stored[facetField("license")])
		hit.Source = first(stored[facetField("source")])
		hit.Tags = stored[facetField("tags")]
		for f, frags := range h.Fragments {
			for _, fr := range frags {
				if strings.Contains(fr, "<mark>") {
					hit.Highlights[f] = append(hit.Highlights[f], fr)
				}
			}
		}
		if len(hit.Highlights) == 0 {
			hit.Highlights = nil
		}
		out.Hits = append(out.Hits, hit)
	}
	return nil
}

// highlight sets the fragments of h's fields, from doc, with the places
// of terms alone, with hl (bleve's HTML highlighter), as a search
// request's Highlight would with the places of every term the query
// matched.
func highlight(hl bhighlight.Highlighter, h *bsearch.DocumentMatch, doc bindex.Document, fields, terms []string) {
	for _, places := range h.Locations {
		for t := range places {
			if !slices.Contains(terms, t) {
				delete(places, t)
			}
		}
	}
	if len(terms) == 0 {
		return
	}
	for _, f := range fields {
		hl.BestFragmentsInField(h, doc, f, 1)
	}
}

// storedText returns the text of the fields doc holds (a document read
// from the index holds its stored fields), by field, in the
// order stored.
func storedText(doc bindex.Document) map[string][]string {
	out := map[string][]string{}
	doc.VisitFields(func(f bindex.Field) {
		if t, ok := f.(bindex.TextField); ok {
			out[f.Name()] = append(out[f.Name()], t.Text())
		}
	})
	return out
}

func first(l []string) string {
	if len(l) > 0 {
		return l[0]
	}
	return ""
}
