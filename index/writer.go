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
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	zap "github.com/blevesearch/zapx/v15"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pass"
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

// Begin works out the facets, which both indexes need for every
// document. The pass analyses each skill for the JSON index and adds it
// to its bleve chunk, whose segment is built as soon as the chunk is
// complete, and merges each group of chunks as soon as its chunks are, so
// that no skill's text outlives the pass. Then come the JSON index and
// the rest of the bleve index (folder and archive, unless the site leaves
// it out). With a memo (serve), a skill that did not change since the
// last build is not analysed again, and a chunk or group whose documents
// did not change is taken as it was: its skills' content is not read.
func (Writer) Begin(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) (pass.Work, error) {
	if siteinfo.SkillPage("{name}") != pageTemplate {
		return pass.Work{}, fmt.Errorf("search: skill pages moved to %s; update index.pageTemplate", siteinfo.SkillPage("{name}"))
	}
	b, err := newBuilder(ctx, c, site, m)
	if err != nil {
		return pass.Work{}, err
	}
	if b.bleve != nil {
		b.bleve.out = out
	}
	return pass.Work{Skill: b.skill, Catalog: func() error { return b.write(out) }}, nil
}

// builder makes a site's search indexes.
type builder struct {
	ctx  context.Context
	c    *catalog.Catalog
	site *siteinfo.Info
	m    *memo.Memo

	dict *dict
	// metas are the skills' documents without their bodies, made from
	// their summaries up front for the facets; the pass completes a
	// skill's from its content and analyses it, unless m has its record.
	metas []*document
	recs  []*record

	bleve *bleveBuild // nil when the site has no bleve index
}

// bleveBuild is the bleve index being built: documents cut into chunks,
// a segment per chunk, chunks merged into groups (see chunkOf). The pass
// builds each chunk's segment as soon as its documents are all there, and
// merges each group as soon as its chunks are; a chunk or group that the
// memo holds from the last build, its documents unchanged, is taken as it
// was.
type bleveBuild struct {
	sh    *shell
	names []string
	urls  []string
	// perDoc are each document's facet values, spelt as the facets made
	// up front spell them. A type still to be derived is added by the
	// pass: a derived type is one of the schema's, spelt as it is
	// (catalog.Catalog.CanonicalTypes).
	perDoc  []map[string][]string
	chunks  []span
	groups  []span
	chunkOf []int32       // skill -> chunk
	inPass  []chunkInPass // by chunk
	merged  []groupInPass // by group
	// recs are the builder's records, by skill.
	recs []*record
	m    *memo.Memo
	// out takes each merged segment as soon as it is made, so that the
	// pass holds only its archive entry.
	out *output.Writer
}

// chunkInPass is a chunk being built in the pass.
type chunkInPass struct {
	group int32
	// docs are the chunk's documents until its segment is built; nil for
	// a chunk taken from the memo.
	docs    []*bleveDoc
	pending atomic.Int32     // documents still to come
	seg     *zap.SegmentBase // until the group is merged
	// err is what went wrong building the chunk or merging its group:
	// reported after the pass, by chunk, as it belongs to no one skill.
	err error
}

// groupInPass is a group of chunks in the pass.
type groupInPass struct {
	pending atomic.Int32 // chunks still to be built
	// file is the merged segment, written and deflated for bleve.zip;
	// nil until merged.
	file *bleveFile
}

// newBuilder starts the indexes of c; without a site, only the JSON
// index's records.
func newBuilder(ctx context.Context, c *catalog.Catalog, site *siteinfo.Info, m *memo.Memo) (*builder, error) {
	dc, ok := memo.Lookup[*dict](m, searchFormat+":dict")
	if !ok {
		dc = newDict()
		m.Put(searchFormat+":dict", dc)
	}
	b := &builder{ctx: ctx, c: c, site: site, m: m, dict: dc,
		metas: make([]*document, len(c.Skills)), recs: make([]*record, len(c.Skills))}
	parallel.For(ctx, len(c.Skills), 0, func(i int) {
		s := c.Skills[i]
		if key := recordKey(s); key != "" {
			// An unchanged skill's record has its document.
			if r, ok := memo.Lookup[*record](m, key); ok && r.dict == dc {
				b.recs[i], b.metas[i] = r, r.doc
				return
			}
		}
		b.metas[i] = metaDocument(s)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if site == nil || !site.Parts.Bleve {
		return b, nil
	}
	sh, err := indexShell()
	if err != nil {
		return nil, fmt.Errorf("bleve index: %w", err)
	}
	bb := &bleveBuild{sh: sh, m: m, recs: b.recs, names: make([]string, len(c.Skills)), urls: make([]string, len(c.Skills))}
	for i, s := range c.Skills {
		bb.names[i] = s.Name
		bb.urls[i] = site.URL(siteinfo.SkillPage(s.Name))
	}
	bb.perDoc = facetsByDoc(computeFacets(b.metas), len(c.Skills))
	bb.chunks, bb.groups = chunkOf(bb.names)
	bb.chunkOf = make([]int32, len(c.Skills))
	bb.inPass = make([]chunkInPass, len(bb.chunks))
	bb.merged = make([]groupInPass, len(bb.groups))
	for g, gr := range bb.groups {
		for k := gr.start; k < gr.end; k++ {
			ch, cp := bb.chunks[k], &bb.inPass[k]
			cp.group = int32(g)
			for i := ch.start; i < ch.end; i++ {
				bb.chunkOf[i] = int32(k)
			}
			if sb := bb.remembered(ch); sb != nil {
				cp.seg = sb
				continue
			}
			cp.docs = make([]*bleveDoc, ch.end-ch.start)
			cp.pending.Store(int32(ch.end - ch.start))
			bb.merged[g].pending.Add(1)
		}
	}
	b.bleve = bb
	return b, nil
}

// remembered returns the segment of chunk ch that the memo holds, when
// every skill of the chunk is unchanged (its record remembered).
func (bb *bleveBuild) remembered(ch span) *zap.SegmentBase {
	recs := bb.recs[ch.start:ch.end]
	for _, r := range recs {
		if r == nil {
			return nil
		}
	}
	key := segmentKeyOf(recs, bb.perDoc[ch.start:ch.end], bb.urls[ch.start:ch.end])
	if key == "" {
		return nil
	}
	sb, _ := memo.Lookup[*zap.SegmentBase](bb.m, key)
	return sb
}

// recordKey is the memo key of a skill's record: "" when the skill has no
// content key (never reused).
func recordKey(s *catalog.Skill) string {
	if s.Key == "" {
		return ""
	}
	return searchFormat + ":rec:" + s.Key + ":" + s.Name + ":" + string(s.Status)
}

// skill is the pass's work for skill i: its record, unless newBuilder
// found it in the memo (the skill is unchanged since the build that
// analysed it), and its bleve document, unless its chunk was found there.
// Either reads the skill's content.
func (b *builder) skill(i int, s *pass.Skill) error {
	bb := b.bleve
	inChunk := bb != nil && bb.inPass[bb.chunkOf[i]].docs != nil
	if b.recs[i] != nil && !inChunk {
		return nil
	}
	k, err := s.Content()
	if err != nil {
		return err
	}
	d := b.metas[i]
	if b.recs[i] != nil {
		// The remembered record's document, which the memo shares, made
		// whole again for its bleve document.
		copied := *d
		d = &copied
	}
	d.setContent(s.Skill, k)
	d.setBody(k)
	if inChunk {
		perDoc := bb.perDoc[i]
		if _, ok := perDoc["type"]; !ok && d.Type != "" {
			perDoc["type"] = []string{d.Type}
		}
		bleveDoc := newBleveDoc(d, perDoc, bb.urls[i])
		if b.recs[i] == nil {
			b.analyze(i, d)
		}
		k := bb.chunkOf[i]
		cp := &bb.inPass[k]
		cp.docs[i-bb.chunks[k].start] = bleveDoc
		if cp.pending.Add(-1) == 0 {
			cp.err = bb.chunkDone(k)
		}
		return nil
	}
	b.analyze(i, d)
	return nil
}

// analyze makes the record of skill i from its document d, and keeps it
// in the memo.
func (b *builder) analyze(i int, d *document) {
	r := analyze(d, b.dict)
	r.key = recordKey(b.c.Skills[i])
	b.recs[i] = r
	if r.key != "" {
		b.m.Put(r.key, r)
	}
}

// chunkDone builds the segment of chunk k, whose documents (and records)
// are all there, and merges its group if it was the group's last chunk to
// come. The atomic counters order the writes of the goroutines that made
// the documents and records, and built the group's other chunks, before
// what follows.
func (bb *bleveBuild) chunkDone(k int32) error {
	ch, cp := bb.chunks[k], &bb.inPass[k]
	sb, err := buildSegment(bb.sh.mapping, bb.names[ch.start:ch.end], cp.docs)
	cp.docs = nil
	if err != nil {
		return err
	}
	cp.seg = sb
	if key := segmentKeyOf(bb.recs[ch.start:ch.end], bb.perDoc[ch.start:ch.end], bb.urls[ch.start:ch.end]); key != "" {
		bb.m.Put(key, sb)
	}
	gp := &bb.merged[cp.group]
	if gp.pending.Add(-1) != 0 {
		return nil
	}
	f, err := bb.merge(int(cp.group))
	gp.file = f
	return err
}

// merge merges the chunks of group g, whose segments are all there,
// writes the merged segment and deflates it for bleve.zip; the memo keeps
// both, by the chunks' keys and by the segment's digest.
func (bb *bleveBuild) merge(g int) (*bleveFile, error) {
	gr := bb.groups[g]
	parts := make([]*zap.SegmentBase, 0, gr.end-gr.start)
	for j := gr.start; j < gr.end; j++ {
		parts = append(parts, bb.inPass[j].seg)
		bb.inPass[j].seg = nil
	}
	seg, err := mergeSegments(parts)
	if err != nil {
		return nil, err
	}
	if key := bb.groupKey(g); key != "" {
		bb.m.Put(key, seg)
	}
	return bb.writeSegment(g, seg)
}

// writeSegment writes seg as the segment of group g and returns its file
// with its archive entry, deflated unless the memo has it by digest (most
// of a rebuilt index's segments are the bytes they were).
func (bb *bleveBuild) writeSegment(g int, seg []byte) (*bleveFile, error) {
	f := &bleveFile{path: segmentPath(g)}
	p := BleveDir + "/" + f.path
	if err := bb.out.WriteRaw(p, seg); err != nil {
		return nil, err
	}
	digest, err := bb.out.Digest(p)
	if err != nil {
		return nil, err
	}
	key := "zip:" + hex.EncodeToString(digest[:])
	z, ok := memo.Lookup[*zipped](bb.m, key)
	if !ok {
		z = deflate(seg)
		bb.m.Put(key, z)
	}
	f.zipped = z
	return f, nil
}

// groupKey is the memo key of group g's merged segment, whose skills'
// records are all made: its chunks' keys, "" when a chunk has none (never
// reused).
func (bb *bleveBuild) groupKey(g int) string {
	gr := bb.groups[g]
	keys := make([]string, 0, gr.end-gr.start)
	for k := gr.start; k < gr.end; k++ {
		ch := bb.chunks[k]
		keys = append(keys, segmentKeyOf(bb.recs[ch.start:ch.end], bb.perDoc[ch.start:ch.end], bb.urls[ch.start:ch.end]))
	}
	return groupKey(keys)
}

// write writes the JSON index, then the rest of the bleve index.
func (b *builder) write(out *output.Writer) error {
	docs := make([]*document, len(b.recs))
	for i, r := range b.recs {
		docs[i] = r.doc
	}
	for _, f := range buildJSON(b.recs, computeFacets(docs), pageTemplate) {
		if err := out.WriteRaw(Dir+f.path, f.data); err != nil {
			return err
		}
	}
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if b.bleve == nil {
		return nil
	}
	files, err := b.bleveFiles()
	if err != nil {
		return fmt.Errorf("bleve index: %w", err)
	}
	for i := range files[:2] {
		f := &files[i]
		p := BleveDir + "/" + f.path
		if err := out.WriteRaw(p, f.data); err != nil {
			return err
		}
		f.zipped = deflate(f.data)
	}
	zf, err := out.Create(BleveArchive)
	if err != nil {
		return err
	}
	if err := writeZip(zf, files, "bleve"); err != nil {
		zf.Close()
		return err
	}
	return zf.Close()
}

// bleveFormat changes whenever the segments skilldex writes do (mapping,
// document fields, zap version), so that serve never reuses an older
// skilldex's segment.
const bleveFormat = "bleve-2"

// bleveFiles returns the files of the bleve index, sorted: index_meta.json
// and store/root.bolt, to be written, then a segment per group of
// documents (see chunkOf), written. The pass merged the groups that had a
// chunk to build; the others are taken from the memo, or merged here from
// the memo's chunks.
func (b *builder) bleveFiles() ([]bleveFile, error) {
	bb, ctx := b.bleve, b.ctx
	for k := range bb.inPass {
		if err := bb.inPass[k].err; err != nil {
			ch := bb.chunks[k]
			return nil, fmt.Errorf("the segment of skills %s to %s: %w", bb.names[ch.start], bb.names[ch.end-1], err)
		}
	}
	segs := make([]*bleveFile, len(bb.groups))
	errs := make([]error, len(bb.groups))
	parallel.For(ctx, len(bb.groups), 0, func(g int) {
		if f := bb.merged[g].file; f != nil {
			segs[g] = f
			return
		}
		if bb.merged[g].pending.Load() != 0 {
			errs[g] = fmt.Errorf("internal error: segment group %d was not merged in the pass", g)
			return
		}
		if key := bb.groupKey(g); key != "" {
			if seg, ok := memo.Lookup[[]byte](bb.m, key); ok {
				segs[g], errs[g] = bb.writeSegment(g, seg)
				return
			}
		}
		segs[g], errs[g] = bb.merge(g)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	root, err := rootBolt(bb.sh, len(segs))
	if err != nil {
		return nil, err
	}
	files := []bleveFile{{path: "index_meta.json", data: bb.sh.meta}, {path: "store/root.bolt", data: root}}
	for _, f := range segs {
		files = append(files, *f)
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
