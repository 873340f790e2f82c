// Package index writes a skilldex site's search indexes and reads them
// back: a bleve index for programs (and `skilldex search`), and a JSON
// index sharded so that a browser downloads only what a query needs (read
// by static/search-core.js). Both come from the same documents, analysed
// with the same field weights; see jsonindex.go for the JSON files and
// bleve.go for the bleve index.
package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	zap "github.com/blevesearch/zapx/v15"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/parallel"
)

// Site paths of the search files. The pages writer owns search/index.html;
// everything else under search/ is written here.
const (
	// Dir is the folder of the search files.
	Dir = "search/"
	// BleveDir is the bleve index, a folder bleve.Open reads.
	BleveDir = "search/bleve"
	// BleveArchive is the same index as one ZIP file (its entries under
	// bleve/), for downloading; `skilldex search --index` opens it as is.
	BleveArchive = "search/bleve.zip"
)

// pageTemplate is the site path of a skill's page, {name} standing for the
// name; the client fills it in (siteinfo.SkillPage).
const pageTemplate = "skills/{name}/"

// Writer writes the search indexes of a site. It is a build.Writer.
type Writer struct{}

// Name is the build stage name.
func (Writer) Name() string { return "search" }

// Write writes the JSON index and the bleve index (folder and archive,
// unless the site leaves it out) of the published skills. With a memo (serve), only the skills that changed
// since the last build are analysed again, and only the bleve segments
// holding them are rebuilt.
func (Writer) Write(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) error {
	recs := records(ctx, c, m)
	if err := ctx.Err(); err != nil {
		return err
	}
	docs := make([]*document, len(recs))
	for i, r := range recs {
		docs[i] = r.doc
	}
	facets := computeFacets(docs)
	if siteinfo.SkillPage("{name}") != pageTemplate {
		return fmt.Errorf("search: skill pages moved to %s; update index.pageTemplate", siteinfo.SkillPage("{name}"))
	}
	for _, f := range buildJSON(recs, facets, pageTemplate) {
		if err := out.WriteRaw(Dir+f.path, f.data); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !site.Parts.Bleve {
		return nil
	}
	files, err := bleveFiles(ctx, c, recs, facets, site, m)
	if err != nil {
		return fmt.Errorf("bleve index: %w", err)
	}
	digests := make([][32]byte, len(files))
	for i, f := range files {
		p := BleveDir + "/" + f.path
		if err := out.WriteRaw(p, f.data); err != nil {
			return err
		}
		if digests[i], err = out.Digest(p); err != nil {
			return err
		}
	}
	zf, err := out.Create(BleveArchive)
	if err != nil {
		return err
	}
	if err := writeZip(zf, files, digests, "bleve", m); err != nil {
		zf.Close()
		return err
	}
	return zf.Close()
}

// bleveFormat changes whenever the segments skilldex writes do (mapping,
// document fields, zap version), so that serve never reuses an older
// skilldex's segment.
const bleveFormat = "bleve-2"

// bleveFiles returns the files of the bleve index, sorted: index_meta.json,
// store/root.bolt and a segment per group of documents (see chunkOf).
// Groups are built in parallel, each a chunk at a time. With a memo
// (serve), a group whose documents did not change is taken as it was, and
// in a group that changed only the changed chunks are analysed again.
func bleveFiles(ctx context.Context, c *catalog.Catalog, recs []*record, facets []facet, site *siteinfo.Info, m *memo.Memo) ([]jsonFile, error) {
	sh, err := indexShell()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(recs))
	for i, r := range recs {
		names[i] = r.doc.Name
	}
	perDoc := facetsByDoc(facets, len(recs))
	urls := make([]string, len(recs))
	for i, name := range names {
		urls[i] = site.URL(siteinfo.SkillPage(name))
	}
	chunks, groups := chunkOf(names)
	chunkKeys := make([]string, len(chunks))
	for k, ch := range chunks {
		chunkKeys[k] = segmentKeyOf(recs[ch.start:ch.end], perDoc[ch.start:ch.end], urls[ch.start:ch.end])
	}
	segs := make([][]byte, len(groups))
	errs := make([]error, len(groups))
	parallel.For(ctx, len(groups), 0, func(g int) {
		first, last := groups[g].start, groups[g].end
		key := groupKey(chunkKeys[first:last])
		if seg, ok := memo.Lookup[[]byte](m, key); ok && key != "" {
			segs[g] = seg
			return
		}
		parts := make([]*zap.SegmentBase, 0, last-first)
		for k := first; k < last && ctx.Err() == nil; k++ {
			if sb, ok := memo.Lookup[*zap.SegmentBase](m, chunkKeys[k]); ok && chunkKeys[k] != "" {
				parts = append(parts, sb)
				continue
			}
			ch := chunks[k]
			docs := make([]*bleveDoc, ch.end-ch.start)
			for i := ch.start; i < ch.end; i++ {
				docs[i-ch.start] = newBleveDoc(newDocument(c.Skills[i]), perDoc[i], urls[i])
			}
			sb, err := buildSegment(sh.mapping, names[ch.start:ch.end], docs)
			if err != nil {
				errs[g] = err
				return
			}
			if chunkKeys[k] != "" {
				m.Put(chunkKeys[k], sb)
			}
			parts = append(parts, sb)
		}
		if ctx.Err() != nil {
			return
		}
		segs[g], errs[g] = mergeSegments(parts)
		if errs[g] == nil && key != "" {
			m.Put(key, segs[g])
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	root, err := rootBolt(sh, len(segs))
	if err != nil {
		return nil, err
	}
	files := []jsonFile{{"index_meta.json", sh.meta}, {"store/root.bolt", root}}
	for i, seg := range segs {
		files = append(files, jsonFile{"store/" + segmentFile(i), seg})
	}
	return files, nil
}

// rootBolts holds root.bolt by segment count: it depends on nothing else
// (writeRoot), and bolt writes it only to a file, synced.
var rootBolts sync.Map

// rootBolt returns the root.bolt of an index of n segments.
func rootBolt(sh *shell, n int) ([]byte, error) {
	if b, ok := rootBolts.Load(n); ok {
		return b.([]byte), nil
	}
	tmp, err := os.MkdirTemp("", "skilldex-bleve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "root.bolt")
	if err := writeRoot(path, sh.root, n); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rootBolts.Store(n, b)
	return b, nil
}

// groupKey is the memo key of a group's merged segment: its chunks' keys.
// "" when a chunk has none: never reused.
func groupKey(chunkKeys []string) string {
	h := sha256.New()
	for _, k := range chunkKeys {
		if k == "" {
			return ""
		}
		fmt.Fprintf(h, "%s\x00", k)
	}
	return bleveFormat + ":group:" + hex.EncodeToString(h.Sum(nil))
}

// segmentKeyOf is the memo key of a chunk's segment: everything its
// documents hold, as the records' keys (the skills' content) and what
// bleve adds to them. "" when a skill has no key: never reused.
func segmentKeyOf(recs []*record, perDoc []map[string][]string, urls []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", bleveFormat)
	for i, r := range recs {
		if r.key == "" {
			return ""
		}
		fmt.Fprintf(h, "%s\x00%s\x00", r.key, urls[i])
		for _, def := range facetDefs {
			for _, v := range perDoc[i][def.id] {
				fmt.Fprintf(h, "%s=%s\x00", def.id, v)
			}
		}
	}
	return bleveFormat + ":seg:" + hex.EncodeToString(h.Sum(nil))
}

// facetsByDoc lists each document's facet values by facet id.
func facetsByDoc(facets []facet, n int) []map[string][]string {
	out := make([]map[string][]string, n)
	for i := range out {
		out[i] = map[string][]string{}
	}
	for _, f := range facets {
		for _, v := range f.values {
			for _, d := range v.docs {
				out[d][f.id] = append(out[d][f.id], v.name)
			}
		}
	}
	return out
}
