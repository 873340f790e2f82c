// Package index writes a skilldex site's search indexes and reads them
// back: a bleve index for programs (and `skilldex search`), and a JSON
// index sharded so that a browser downloads only what a query needs (read
// by static/search-core.js). Both come from the same documents, analysed
// with the same field weights; see jsonindex.go for the JSON files and
// bleve.go for the bleve index.
package index

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
// complete, so that no skill's text outlives the pass; without a memo, it
// merges each group of chunks as soon as its chunks are. Then come the
// JSON index and the rest of the bleve index (folder and archive, unless
// the site leaves it out). With a memo (serve), a skill that did not
// change since the last build is not analysed again, a chunk or group
// whose documents did not change is taken as it was (its skills' content
// is not read), and the groups that changed are merged beside the JSON
// index.
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
	if m == nil {
		if b.spill, err = newSpill(out.Dir(), len(c.Skills)); err != nil {
			return pass.Work{}, err
		}
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
	// sample says which skills' text is kept for mining related terms.
	sample relatedSample
	// spill, without a memo, takes each record's terms as soon as the
	// skill is analysed: the record goes (but for the sample's, which
	// mining reads, their impacts dropped), and so does the document,
	// made again from the summary when the JSON index needs it.
	spill *spill

	bleve *bleveBuild // nil when the site has no bleve index
}

// bleveBuild is the bleve index being built: documents cut into chunks,
// a segment per chunk, chunks merged into groups (see chunkOf). The pass
// builds each chunk's segment as soon as its documents are all there, and
// without a memo merges each group as soon as its chunks are (chunkDone);
// a chunk or group that the memo holds from the last build, its documents
// unchanged, is taken as it was.
type bleveBuild struct {
	sh    *shell
	names []string
	urls  []string
	// facets spell each document's facet values as the facets made up
	// front do.
	facets  facetNames
	chunks  []span
	groups  []span
	chunkOf []int32       // skill -> chunk
	inPass  []chunkInPass // by chunk
	merged  []groupInPass // by group
	// recs are the builder's records, by skill.
	recs []*record
	m    *memo.Memo
	// out takes each merged segment as soon as it is made: bleve.zip
	// reads it back from there.
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
	// key is the chunk's segmentKey once keyed: worked out when the memo
	// is asked for the chunk, and read again for its group's key.
	key   string
	keyed bool
}

// groupInPass is a group of chunks in the pass.
type groupInPass struct {
	pending atomic.Int32 // chunks still to be built
	merged  bool         // and written
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
	bb.facets = newFacetNames(computeFacets(b.metas))
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
			if sb := bb.remembered(k); sb != nil {
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

// remembered returns the segment of chunk k that the memo holds, when
// every skill of the chunk is unchanged (its record remembered).
func (bb *bleveBuild) remembered(k int) *zap.SegmentBase {
	ch := bb.chunks[k]
	recs := bb.recs[ch.start:ch.end]
	for _, r := range recs {
		if r == nil {
			return nil
		}
	}
	key := bb.chunkKey(k)
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
	return searchFormat + ":rec:" + s.Key + ":" + s.Name + ":" + string(s.Status) + ":" + s.PluginsKey()
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
	d.setBody(s.Skill, k)
	fresh := b.recs[i] == nil
	if fresh {
		b.analyze(i, d)
	}
	if inChunk {
		bleveDoc := newBleveDoc(d, bb.facets.of(d), bb.urls[i], b.recs[i].weighed())
		if fresh {
			d.dropText()
			b.spillRecord(i)
		}
		k := bb.chunkOf[i]
		cp := &bb.inPass[k]
		cp.docs[i-bb.chunks[k].start] = bleveDoc
		if cp.pending.Add(-1) == 0 {
			cp.err = bb.chunkDone(k)
		}
		return nil
	}
	d.dropText()
	b.spillRecord(i)
	return nil
}

// spillRecord writes the terms of skill i's record to the spill, if the
// build has one, and lets go of what nothing reads any more.
func (b *builder) spillRecord(i int) {
	if b.spill == nil {
		return
	}
	r := b.recs[i]
	b.spill.put(i, r.terms, r.impacts)
	b.metas[i] = nil
	if r.hasSeq {
		r.impacts = nil
		return
	}
	b.recs[i] = nil
}

// doc returns the document of skill i without its text: after the pass,
// what the JSON index's cards and facets read.
func (b *builder) doc(i int) *document {
	if d := b.metas[i]; d != nil {
		return d
	}
	// Spilled: the summary, complete after the pass, makes the same
	// document again.
	return metaDocument(b.c.Skills[i])
}

// analyze makes the record of skill i from its document d, and keeps it
// in the memo, if the build has one.
func (b *builder) analyze(i int, d *document) {
	s := b.c.Skills[i]
	r := analyze(d, b.dict, b.sample.keeps(s.Name))
	b.recs[i] = r
	if b.m == nil {
		return
	}
	r.key = recordKey(s)
	if r.key != "" {
		b.m.Put(r.key, r)
	}
}

// chunkDone builds the segment of chunk k, whose documents (and records)
// are all there, and, in a build without a memo, merges its group if it
// was the group's last chunk to come. The atomic counters order the
// writes of the goroutines that made the documents and records, and
// built the group's other chunks, before what follows.
func (bb *bleveBuild) chunkDone(k int32) error {
	ch, cp := bb.chunks[k], &bb.inPass[k]
	sb, err := buildSegment(bb.sh.mapping, bb.names[ch.start:ch.end], cp.docs)
	cp.docs = nil
	if err != nil {
		return err
	}
	cp.seg = sb
	if key := bb.chunkKey(int(k)); key != "" {
		bb.m.Put(key, sb)
	}
	gp := &bb.merged[cp.group]
	if gp.pending.Add(-1) != 0 || bb.m != nil {
		// With a memo, which keeps the chunks' segments anyway (but for
		// skills without a content key, never reused), merging waits for
		// writeSegments: there it runs beside the JSON index instead of
		// holding up the pass, and a rebuild's pass is short. Without
		// one, merging now lets the group's chunks go.
		return nil
	}
	err = bb.merge(int(cp.group))
	gp.merged = err == nil
	return err
}

// merge merges the chunks of group g, whose segments are all there, and
// writes the merged segment; the memo keeps it by the chunks' keys.
func (bb *bleveBuild) merge(g int) error {
	gr := bb.groups[g]
	parts := make([]*zap.SegmentBase, 0, gr.end-gr.start)
	for j := gr.start; j < gr.end; j++ {
		parts = append(parts, bb.inPass[j].seg)
		bb.inPass[j].seg = nil
	}
	p := BleveDir + "/" + segmentPath(g)
	key := bb.groupKey(g)
	if bb.m == nil || key == "" {
		// Nothing keeps the segment: it goes straight to its file.
		f, err := bb.out.Create(p)
		if err != nil {
			return err
		}
		err = mergeSegments(parts, f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	var buf bytes.Buffer
	if err := mergeSegments(parts, &buf); err != nil {
		return err
	}
	seg := &mergedSegment{data: buf.Bytes(), sum: sha256.Sum256(buf.Bytes())}
	bb.m.Put(key, seg)
	return bb.out.WriteRawSum(p, seg.data, seg.sum)
}

// A mergedSegment is a group's segment kept in the memo, with its hash,
// so that writing it again in a rebuild hashes nothing.
type mergedSegment struct {
	data []byte
	sum  [sha256.Size]byte
}

// groupKey is the memo key of group g's merged segment, whose skills'
// records are all made: its chunks' keys, "" when a chunk has none (never
// reused).
func (bb *bleveBuild) groupKey(g int) string {
	gr := bb.groups[g]
	keys := make([]string, 0, gr.end-gr.start)
	for k := gr.start; k < gr.end; k++ {
		keys = append(keys, bb.chunkKey(k))
	}
	return groupKey(keys)
}

// chunkKey is segmentKey of chunk k, worked out once: call it only once
// every record of the chunk is made, from the goroutine that finished the
// chunk or one ordered after it.
func (bb *bleveBuild) chunkKey(k int) string {
	cp := &bb.inPass[k]
	if !cp.keyed {
		cp.key, cp.keyed = bb.segmentKey(bb.chunks[k]), true
	}
	return cp.key
}

// write writes the JSON index and, beside it, the bleve index's
// segments and bleve.zip but for root.bolt, then root.bolt, which holds
// values the JSON index works out.
func (b *builder) write(out *output.Writer) error {
	related := b.relatedTerms()
	names := make([]string, len(b.c.Skills))
	for i, s := range b.c.Skills {
		names[i] = s.Name
	}
	num := numberDocs(names)
	a := analysed{n: len(b.recs), size: num.size(), byID: b.dict.snapshot(), byName: num.of}
	a.doc = func(d int) *document {
		if i := num.at[d]; i >= 0 {
			return b.doc(int(i))
		}
		return nil
	}
	if b.spill != nil {
		a.lists = b.spill.each(num)
		defer b.spill.close()
	} else {
		a.lists = recordTerms(b.recs, num)
	}
	// The bleve index's segments depend on nothing the JSON index makes:
	// they are written, and bleve.zip but for root.bolt, while it is made.
	// A JSON index that fails stops them: nothing will use them.
	bleveCtx, stopBleve := context.WithCancel(b.ctx)
	defer stopBleve()
	var archive *bleveArchive
	segments := make(chan error, 1)
	go func() {
		if b.bleve == nil {
			segments <- nil
			return
		}
		err := b.bleve.writeSegments(bleveCtx)
		if err == nil {
			archive, err = b.bleve.startArchive(bleveCtx)
		}
		segments <- err
	}()
	blocks, err := buildJSON(a, facetsOf(a.size, a.doc), pageTemplate, related, func(f jsonFile) error {
		return out.WriteRawSum(Dir+f.path, f.data, f.sum)
	})
	if err != nil {
		stopBleve()
	}
	if serr := <-segments; err == nil {
		err = serr
	}
	if err == nil {
		err = b.ctx.Err()
	}
	if err != nil {
		if archive != nil {
			archive.f.Close()
		}
		return err
	}
	if b.bleve == nil {
		return nil
	}
	return b.bleve.finishArchive(archive, internalValues(related, blocks, num))
}

// A bleveArchive is bleve.zip being written: the files of the index
// folder, root.bolt last, as it holds values that the JSON index works
// out (internalValues), and the others are added while it is made.
type bleveArchive struct {
	f  io.WriteCloser
	zw *zip.Writer
}

// startArchive writes index_meta.json to the index folder, and bleve.zip
// with it and the segments (written already, see writeSegments).
func (bb *bleveBuild) startArchive(ctx context.Context) (*bleveArchive, error) {
	if err := bb.out.WriteRaw(BleveDir+"/"+metaFile, bb.sh.meta); err != nil {
		return nil, err
	}
	files := make([]bleveFile, 0, 1+len(bb.groups))
	files = append(files, bleveFile{path: metaFile, data: bb.sh.meta})
	for g := range bb.groups {
		files = append(files, bleveFile{path: segmentPath(g)})
	}
	f, err := bb.out.Create(BleveArchive)
	if err != nil {
		return nil, err
	}
	a := &bleveArchive{f: f, zw: zip.NewWriter(f)}
	entries := bb.zipEntries(ctx, files)
	defer entries.stop()
	for i, file := range files {
		z, err := entries.next(i)
		if err == nil {
			err = addZipEntry(a.zw, "bleve/"+file.path, z)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
	}
	return a, nil
}

// finishArchive writes root.bolt, with the internal values, to the index
// folder and last to bleve.zip, which it closes.
func (bb *bleveBuild) finishArchive(a *bleveArchive, internal map[string][]byte) error {
	root, err := rootBolt(bb.sh, len(bb.groups), internal)
	if err == nil {
		err = bb.out.WriteRaw(BleveDir+"/"+rootFile, root)
	}
	var z *zipped
	if err == nil {
		z, err = bb.zipEntry(bleveFile{path: rootFile, data: root})
	}
	if err == nil {
		err = addZipEntry(a.zw, "bleve/"+rootFile, z)
	}
	if err == nil {
		err = a.zw.Close()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bleve index: %w", err)
	}
	return nil
}

// The files of the bleve index folder besides its segments.
const (
	metaFile = "index_meta.json"
	rootFile = "store/root.bolt"
)

// zipEntries makes the entries of bleve.zip, deflating the files of the
// index folder as written (a segment is read back from the output) a few
// ahead of the archive, which takes them in order (zipPipe.next): it
// never holds more than a few entries. Call stop when done.
func (bb *bleveBuild) zipEntries(ctx context.Context, files []bleveFile) *zipPipe {
	p := &zipPipe{ctx: ctx, results: make([]chan zipResult, len(files)),
		ahead: make(chan struct{}, max(2, runtime.GOMAXPROCS(0))), done: make(chan struct{})}
	for i := range p.results {
		p.results[i] = make(chan zipResult, 1)
	}
	p.running.Add(1)
	go func() {
		defer p.running.Done()
		for i, f := range files {
			select {
			case p.ahead <- struct{}{}:
			case <-p.done:
				return
			}
			p.running.Add(1)
			go func() {
				defer p.running.Done()
				z, err := bb.zipEntry(f)
				p.results[i] <- zipResult{z, err}
			}()
		}
	}()
	return p
}

// zipPipe hands out the entries of bleve.zip in order.
type zipPipe struct {
	ctx     context.Context
	results []chan zipResult // by file, each sent once
	ahead   chan struct{}    // an entry made and not yet taken
	done    chan struct{}
	running sync.WaitGroup // the goroutines making entries
}

type zipResult struct {
	z   *zipped
	err error
}

// next returns entry i, once entries 0 to i-1 were taken.
func (p *zipPipe) next(i int) (*zipped, error) {
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	r := <-p.results[i]
	<-p.ahead
	return r.z, r.err
}

// stop lets the entries not taken go, and returns when no entry is being
// made: none reads the output after the build is over.
func (p *zipPipe) stop() {
	close(p.done)
	p.running.Wait()
}

// zipEntry is the archive entry of f, a file of the index folder.
func (bb *bleveBuild) zipEntry(f bleveFile) (*zipped, error) {
	p := BleveDir + "/" + f.path
	digest, err := bb.out.Digest(p)
	if err != nil {
		return nil, err
	}
	key := "zip:" + hex.EncodeToString(digest[:])
	if z, ok := memo.Lookup[*zipped](bb.m, key); ok {
		return z, nil
	}
	var z *zipped
	if f.data != nil {
		z = deflate(f.data)
	} else {
		d := newDeflater()
		if err := bb.out.CopyFile(d, p); err != nil {
			return nil, err
		}
		z = d.zipped()
	}
	bb.m.Put(key, z)
	return z, nil
}

// bleveFormat changes whenever the segments skilldex writes do (mapping,
// document fields, zap version), so that serve never reuses an older
// skilldex's segment.
const bleveFormat = "bleve-3"

// writeSegments writes the bleve index's segments, one per group of
// documents (see chunkOf). Without a memo, the pass merged every group;
// with one, a group is taken from the memo when none of its chunks
// changed, and merged here otherwise.
func (bb *bleveBuild) writeSegments(ctx context.Context) error {
	for k := range bb.inPass {
		if err := bb.inPass[k].err; err != nil {
			ch := bb.chunks[k]
			return fmt.Errorf("the segment of skills %s to %s: %w", bb.names[ch.start], bb.names[ch.end-1], err)
		}
	}
	errs := make([]error, len(bb.groups))
	parallel.For(ctx, len(bb.groups), 0, func(g int) {
		switch {
		case bb.merged[g].merged:
		case bb.merged[g].pending.Load() != 0:
			errs[g] = fmt.Errorf("internal error: segment group %d has chunks the pass did not build", g)
		default:
			if key := bb.groupKey(g); key != "" {
				if seg, ok := memo.Lookup[*mergedSegment](bb.m, key); ok {
					errs[g] = bb.out.WriteRawSum(BleveDir+"/"+segmentPath(g), seg.data, seg.sum)
					return
				}
			}
			errs[g] = bb.merge(g)
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
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

// segmentKey is the memo key of the segment of chunk ch, whose records
// are all made: everything its documents hold, as the records' keys (the
// skills' content) and what bleve adds to them. "" when a skill has no
// key: never reused.
func (bb *bleveBuild) segmentKey(ch span) string {
	if bb.m == nil {
		return "" // nothing keeps the segment; the records may be spilled
	}
	h := sha256.New()
	b := append(make([]byte, 0, 512), bleveFormat...)
	b = append(b, 0)
	for i := ch.start; i < ch.end; i++ {
		r := bb.recs[i]
		if r.key == "" {
			return ""
		}
		b = append(append(append(b, r.key...), 0), bb.urls[i]...)
		b = append(b, 0)
		values := bb.facets.of(r.doc)
		for _, def := range facetDefs {
			for _, v := range values[def.id] {
				b = append(append(append(b, def.id...), '='), v...)
				b = append(b, 0)
			}
		}
		h.Write(b)
		b = b[:0]
	}
	return bleveFormat + ":seg:" + hex.EncodeToString(h.Sum(nil))
}

// facetNames spell a document's facet values as the facets spell them
// (the spelling most documents use): worked out for one document when its
// bleve document is made, rather than kept for every document of the
// catalog.
type facetNames map[string]map[string]string // by facet id, then lowercased value

func newFacetNames(facets []facet) facetNames {
	fn := facetNames{}
	for _, f := range facets {
		names := make(map[string]string, len(f.values))
		for _, v := range f.values {
			names[strings.ToLower(v.name)] = v.name
		}
		fn[f.id] = names
	}
	return fn
}

// of returns d's facet values by facet id, each once, in d's order. A
// value the facets do not know is spelt as d spells it: a type derived in
// the pass, after the facets were made up front, is one of the schema's,
// which have one spelling each. The order is d's own, not the facets'
// (most documents first), so that a skill added or removed elsewhere, which
// may reorder the facets, changes no other skill's bleve document (unless
// it changes which spelling of a value most documents use).
func (fn facetNames) of(d *document) map[string][]string {
	out := map[string][]string{}
	for _, def := range facetDefs {
		var names []string
		for _, v := range def.values(d) {
			name, ok := fn[def.id][strings.ToLower(v)]
			if !ok {
				name = v
			}
			if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) }) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			out[def.id] = names
		}
	}
	return out
}
