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
	"maps"
	"os"
	"path/filepath"
	"slices"
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
// document. The pass analyses each skill for the JSON index and, in a
// one-off build, adds it to its bleve chunk, whose segment is built as
// soon as the chunk is complete, so that no skill's text outlives the
// pass. Then come the JSON index and the bleve index (folder and archive,
// unless the site leaves it out). With a memo (serve), only the skills
// that changed since the last build are analysed again, and only the
// bleve segments holding them are rebuilt.
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
	// metas are the skills' documents without their bodies, made up
	// front for the facets; the pass gives a skill's its body, and
	// analyses it unless m has its record.
	metas  []*document
	facets []facet
	recs   []*record
	// sample says which skills' text is kept for mining related terms.
	sample relatedSample

	bleve *bleveBuild // nil when the site has no bleve index
}

// bleveBuild is the bleve index being built: documents cut into chunks,
// a segment per chunk, chunks merged into groups (see chunkOf).
type bleveBuild struct {
	sh     *shell
	names  []string
	urls   []string
	perDoc []map[string][]string
	chunks []span
	groups []span
	// In a one-off build the pass builds each chunk's segment as soon as
	// its documents are all there, and merges each group as soon as its
	// chunks are: chunkOf[i] is skill i's chunk. With a memo (nil
	// inPass), chunks are built and groups merged after the pass, only
	// where the memo has no segment.
	chunkOf []int32
	inPass  []chunkInPass // by chunk
	merged  []groupInPass // by group
	// out takes each merged segment of a one-off build as soon as it is
	// made, so that the pass holds only its archive entry.
	out *output.Writer
}

// chunkInPass is a chunk being built in the pass.
type chunkInPass struct {
	group   int32
	docs    []*bleveDoc      // until the chunk is built
	pending atomic.Int32     // documents still to come
	seg     *zap.SegmentBase // until the group is merged
	// err is what went wrong building the chunk or merging its group:
	// reported after the pass, by chunk, as it belongs to no one skill.
	err error
}

// groupInPass is a group being merged in the pass.
type groupInPass struct {
	pending atomic.Int32 // chunks still to come
	// zipped is the merged segment deflated for bleve.zip: the segment
	// itself is written as soon as it is merged.
	zipped *zipped
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
		metas: make([]*document, len(c.Skills)), recs: make([]*record, len(c.Skills)), sample: newRelatedSample(len(c.Skills))}
	parallel.For(ctx, len(c.Skills), 0, func(i int) {
		s := c.Skills[i]
		if key := recordKey(s); key != "" {
			// An unchanged skill's record has its document.
			if r, ok := memo.Lookup[*record](m, key); ok && r.dict == dc && r.hasSeq == b.sample.keeps(s.Name) {
				b.recs[i], b.metas[i] = r, r.doc
				return
			}
		}
		b.metas[i] = metaDocument(s)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.facets = computeFacets(b.metas)
	if site == nil || !site.Parts.Bleve {
		return b, nil
	}
	sh, err := indexShell()
	if err != nil {
		return nil, fmt.Errorf("bleve index: %w", err)
	}
	bb := &bleveBuild{sh: sh, names: make([]string, len(c.Skills)), urls: make([]string, len(c.Skills))}
	for i, s := range c.Skills {
		bb.names[i] = s.Name
		bb.urls[i] = site.URL(siteinfo.SkillPage(s.Name))
	}
	bb.perDoc = facetsByDoc(b.facets, len(c.Skills))
	bb.chunks, bb.groups = chunkOf(bb.names)
	if m == nil {
		bb.chunkOf = make([]int32, len(c.Skills))
		bb.inPass = make([]chunkInPass, len(bb.chunks))
		bb.merged = make([]groupInPass, len(bb.groups))
		for g, gr := range bb.groups {
			bb.merged[g].pending.Store(int32(gr.end - gr.start))
			for k := gr.start; k < gr.end; k++ {
				ch, cp := bb.chunks[k], &bb.inPass[k]
				cp.group, cp.docs = int32(g), make([]*bleveDoc, ch.end-ch.start)
				cp.pending.Store(int32(ch.end - ch.start))
				for i := ch.start; i < ch.end; i++ {
					bb.chunkOf[i] = int32(k)
				}
			}
		}
	}
	b.bleve = bb
	return b, nil
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
// analysed it); in a one-off build, its bleve document too.
func (b *builder) skill(i int) error {
	if b.recs[i] != nil {
		return nil
	}
	s, key := b.c.Skills[i], recordKey(b.c.Skills[i])
	d := b.metas[i]
	d.setBody(s)
	r := analyze(d, b.dict, b.sample.keeps(s.Name))
	if bb := b.bleve; bb != nil && bb.inPass != nil {
		k := bb.chunkOf[i]
		cp := &bb.inPass[k]
		cp.docs[i-bb.chunks[k].start] = newBleveDoc(d, bb.perDoc[i], bb.urls[i], r.weighed())
		if cp.pending.Add(-1) == 0 {
			cp.err = bb.chunkDone(k)
		}
	}
	d.Body = "" // analysed: the indexes need no more of it
	r.key = key
	b.recs[i] = r
	if key != "" {
		b.m.Put(key, r)
	}
	return nil
}

// chunkDone builds the segment of chunk k, whose documents are all there,
// and merges its group if it was the group's last chunk to come. The
// atomic counters order the writes of the goroutines that built the
// other chunks before the merge.
func (bb *bleveBuild) chunkDone(k int32) error {
	ch, cp := bb.chunks[k], &bb.inPass[k]
	sb, err := buildSegment(bb.sh.mapping, bb.names[ch.start:ch.end], cp.docs)
	cp.docs = nil
	if err != nil {
		return err
	}
	cp.seg = sb
	gp := &bb.merged[cp.group]
	if gp.pending.Add(-1) != 0 {
		return nil
	}
	gr := bb.groups[cp.group]
	parts := make([]*zap.SegmentBase, 0, gr.end-gr.start)
	for j := gr.start; j < gr.end; j++ {
		parts = append(parts, bb.inPass[j].seg)
		bb.inPass[j].seg = nil
	}
	seg, err := mergeSegments(parts)
	if err != nil {
		return err
	}
	if err := bb.out.WriteRaw(BleveDir+"/"+segmentPath(int(cp.group)), seg); err != nil {
		return err
	}
	gp.zipped = deflate(seg)
	return nil
}

// write writes the JSON index, then the bleve index.
func (b *builder) write(out *output.Writer) error {
	related := b.relatedTerms()
	jsonFiles, blocks := buildJSON(b.recs, b.facets, pageTemplate, related)
	for _, f := range jsonFiles {
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
	files, err := b.bleveFiles(internalValues(related, blocks))
	if err != nil {
		return fmt.Errorf("bleve index: %w", err)
	}
	// A one-off build wrote its segments in the pass and deflated them
	// there. The other files are written here, and deflated for the
	// archive unless the previous build of the memo did (serve): most of
	// a rebuilt index's segments are the bytes they were.
	var deflating []int
	keys := make([]string, len(files)) // of the entries in the memo
	for i := range files {
		f := &files[i]
		if f.zipped != nil {
			continue
		}
		p := BleveDir + "/" + f.path
		if err := out.WriteRaw(p, f.data); err != nil {
			return err
		}
		digest, err := out.Digest(p)
		if err != nil {
			return err
		}
		keys[i] = "zip:" + hex.EncodeToString(digest[:])
		if z, ok := memo.Lookup[*zipped](b.m, keys[i]); ok {
			f.zipped = z
			continue
		}
		deflating = append(deflating, i)
	}
	parallel.For(b.ctx, len(deflating), 0, func(j int) {
		i := deflating[j]
		files[i].zipped = deflate(files[i].data)
		b.m.Put(keys[i], files[i].zipped)
	})
	if err := b.ctx.Err(); err != nil {
		return err
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
const bleveFormat = "bleve-3"

// bleveFiles returns the files of the bleve index, sorted: index_meta.json,
// store/root.bolt and a segment per group of documents (see chunkOf).
// In a one-off build the pass merged the groups and wrote their
// segments: those files come with their archive entry only. With a memo
// (serve), the groups are merged here, in parallel: a group whose
// documents did not change is taken as it was, and in a group that
// changed only the changed chunks are analysed again.
func (b *builder) bleveFiles(internal map[string][]byte) ([]bleveFile, error) {
	bb, ctx, m := b.bleve, b.ctx, b.m
	for k := range bb.inPass {
		if err := bb.inPass[k].err; err != nil {
			ch := bb.chunks[k]
			return nil, fmt.Errorf("the segment of skills %s to %s: %w", bb.names[ch.start], bb.names[ch.end-1], err)
		}
	}
	chunkKeys := make([]string, len(bb.chunks))
	for k, ch := range bb.chunks {
		chunkKeys[k] = segmentKeyOf(b.recs[ch.start:ch.end], bb.perDoc[ch.start:ch.end], bb.urls[ch.start:ch.end])
	}
	segs := make([]bleveFile, len(bb.groups))
	errs := make([]error, len(bb.groups))
	parallel.For(ctx, len(bb.groups), 0, func(g int) {
		segs[g].path = segmentPath(g)
		if bb.merged != nil {
			segs[g].zipped, bb.merged[g].zipped = bb.merged[g].zipped, nil
			if segs[g].zipped == nil {
				errs[g] = fmt.Errorf("internal error: segment group %d was not merged in the pass", g)
			}
			return
		}
		first, last := bb.groups[g].start, bb.groups[g].end
		key := groupKey(chunkKeys[first:last])
		if seg, ok := memo.Lookup[[]byte](m, key); ok && key != "" {
			segs[g].data = seg
			return
		}
		parts := make([]*zap.SegmentBase, 0, last-first)
		for k := first; k < last && ctx.Err() == nil; k++ {
			if sb, ok := memo.Lookup[*zap.SegmentBase](m, chunkKeys[k]); ok && chunkKeys[k] != "" {
				parts = append(parts, sb)
				continue
			}
			ch := bb.chunks[k]
			docs := make([]*bleveDoc, ch.end-ch.start)
			for i := ch.start; i < ch.end; i++ {
				if s := b.c.Skills[i]; s.Released() || s.Unloaded() {
					errs[g] = fmt.Errorf("internal error: skill %s was released or unloaded before its bleve document was made", bb.names[i])
					return
				}
				docs[i-ch.start] = newBleveDoc(newDocument(b.c.Skills[i]), bb.perDoc[i], bb.urls[i], nil)
			}
			sb, err := buildSegment(bb.sh.mapping, bb.names[ch.start:ch.end], docs)
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
		segs[g].data, errs[g] = mergeSegments(parts)
		if errs[g] == nil && key != "" {
			m.Put(key, segs[g].data)
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
	root, err := rootBolt(bb.sh, len(segs), internal)
	if err != nil {
		return nil, err
	}
	files := []bleveFile{{path: "index_meta.json", data: bb.sh.meta}, {path: "store/root.bolt", data: root}}
	return append(files, segs...), nil
}

// lastRoot is the root.bolt last made, by its key (see rootBolt): it
// depends on nothing else (writeRoot), bolt writes it only to a file,
// synced, and serve's rebuilds mostly ask for the one before.
var lastRoot struct {
	sync.Mutex
	key  string
	data []byte
}

// rootBolt returns the root.bolt of an index of n segments, with the
// internal values.
func rootBolt(sh *shell, n int, internal map[string][]byte) ([]byte, error) {
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(internal)) {
		fmt.Fprintf(h, "%s\x00%d\x00", k, len(internal[k]))
		h.Write(internal[k])
	}
	key := fmt.Sprintf("%d:%x", n, h.Sum(nil))
	lastRoot.Lock()
	defer lastRoot.Unlock()
	if lastRoot.key == key {
		return lastRoot.data, nil
	}
	tmp, err := os.MkdirTemp("", "skilldex-bleve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "root.bolt")
	if err := writeRoot(path, sh.root, n, internal); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lastRoot.key, lastRoot.data = key, b
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
