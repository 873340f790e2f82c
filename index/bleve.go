package index

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	butil "github.com/blevesearch/bleve/v2/util"
	bindex "github.com/blevesearch/bleve_index_api"
	zap "github.com/blevesearch/zapx/v15"
	"github.com/klauspost/compress/flate"
	bolt "go.etcd.io/bbolt"
)

// The bleve index is built offline into one zap segment and written so
// that the same catalog always gives the same bytes (see writeBleve).

// analyzerName is the text analyzer of the bleve index: bleve's "en"
// (Unicode word boundaries, English possessives dropped, lowercase,
// English stop words, Porter stemming), which any bleve program has
// without importing more than bleve itself.
const analyzerName = en.AnalyzerName

// allField is the index's default field, which bleve's query-string and
// match queries search when they name no field: it holds the terms of the
// ranking model (the terms of the JSON index), each with its weight in the
// skill (see allFrequency), so that bleve's own scoring of a query on it
// ranks as the model does.
const allField = "_all"

// Facet fields of the bleve index: keyword-analysed, stored, with doc
// values, named f_<facet>.
func facetField(id string) string { return "f_" + id }

// bleveDoc is the document bleve maps; field names are the json tags.
type bleveDoc struct {
	Name         string   `json:"name"`
	NameExact    string   `json:"name_exact"`
	Description  string   `json:"description"`
	Triggers     string   `json:"triggers"`
	Tags         []string `json:"tags"`
	Capabilities []string `json:"capabilities"`
	Category     []string `json:"category"`
	Type         string   `json:"type"`
	Keywords     []string `json:"keywords"`
	Intents      []string `json:"intents"`
	Headings     string   `json:"headings"`
	Body         string   `json:"body"`
	Plugin       string   `json:"plugin"`

	FType         []string `json:"f_type"`
	FCategory     []string `json:"f_category"`
	FTags         []string `json:"f_tags"`
	FCapabilities []string `json:"f_capabilities"`
	FLicense      []string `json:"f_license"`
	FStatus       []string `json:"f_status"`
	FFormat       []string `json:"f_format"`
	FSource       []string `json:"f_source"`
	FPlugin       []string `json:"f_plugin"`

	URL string `json:"url"`

	// all are the document's model terms with their weights, for
	// allField; bleve's mapping does not see them.
	all []weighedTerm
}

// NewMapping returns the index mapping: every searchable field analysed
// with bleve's "en" analyzer (name, description, triggers, tags,
// capabilities, category, keywords and intents stored with term vectors,
// for highlights; type, headings and the body indexed only), the exact
// name as a keyword, the facets as keywords with doc values, the page URL
// stored only, and the default field _all, which skilldex writes itself
// (allField). Scoring is BM25. Everything it names is registered by
// bleve's own package, so a program that imports only
// github.com/blevesearch/bleve/v2 opens the index.
func NewMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = bindex.BM25Scoring
	im.DefaultAnalyzer = analyzerName
	im.DefaultField = allField
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false

	dm := bleve.NewDocumentStaticMapping()
	text := func(name string, store bool) {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzerName
		f.Store = store
		f.IncludeTermVectors = store
		f.IncludeInAll = false
		f.DocValues = false
		dm.AddFieldMappingsAt(name, f)
	}
	text("name", true)
	text("description", true)
	text("triggers", true)
	text("tags", true)
	text("capabilities", true)
	text("category", true)
	text("type", false)
	text("keywords", true)
	text("intents", true)
	text("headings", false)
	text("body", false)
	text("plugin", true)

	kw := func(name string, docValues bool) {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = docValues
		f.DocValues = docValues
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		dm.AddFieldMappingsAt(name, f)
	}
	kw("name_exact", false)
	for _, def := range facetDefs {
		kw(facetField(def.id), true)
	}
	url := bleve.NewTextFieldMapping()
	url.Index = false
	url.Store = true
	url.IncludeInAll = false
	url.IncludeTermVectors = false
	url.DocValues = false
	dm.AddFieldMappingsAt("url", url)
	// bleve composes no _all of its own: docBuilder writes it.
	dm.AddSubDocumentMapping(allField, bleve.NewDocumentDisabledMapping())

	im.DefaultMapping = dm
	return im, nil
}

// exactName is the name_exact term of a skill name or a query: folded,
// words joined by single hyphens ("Code Review" and "code-review" alike).
func exactName(s string) string {
	return strings.Join(Words(Fold(s)), "-")
}

// newBleveDoc returns the bleve document of d, with all its weighed terms
// (weighTerms(d) when nil).
func newBleveDoc(d *document, perDoc map[string][]string, url string, all []weighedTerm) *bleveDoc {
	if all == nil {
		all = weighTerms(d)
	}
	return &bleveDoc{
		Name:          d.Name,
		NameExact:     exactName(d.Name),
		Description:   d.Description,
		Triggers:      d.Triggers,
		Tags:          d.Tags,
		Capabilities:  d.Capabilities,
		Category:      d.Categories,
		Type:          d.Type,
		Keywords:      d.Keywords,
		Intents:       d.Intents,
		Headings:      d.Headings,
		Body:          d.Body,
		Plugin:        d.PluginAbout,
		FType:         perDoc["type"],
		FCategory:     perDoc["category"],
		FTags:         perDoc["tags"],
		FCapabilities: perDoc["capabilities"],
		FLicense:      perDoc["license"],
		FStatus:       perDoc["status"],
		FFormat:       perDoc["format"],
		FSource:       perDoc["source"],
		FPlugin:       perDoc["plugin"],
		URL:           url,
		all:           all,
	}
}

// The bleve index is built in two levels, so that an edit to one skill
// costs little and the memory a build takes stays small whatever the
// catalog's size. Documents are analysed a chunk at a time (about 64
// documents: an analysed document is held until its segment is built),
// each chunk into a zap segment; the chunks of a group (about n/20
// documents) are merged into one of the index's segments. Chunk and group
// boundaries are content-defined: a document ends a chunk when the hash of
// its name is a multiple of the chunk target, and a group when it is a
// multiple of the group target (a multiple of the chunk target, so every
// group end is a chunk end). Adding or removing a skill moves no boundary
// but its own, and a merged segment depends only on its documents, so
// `skilldex serve` rebuilds one chunk and re-merges one group after an
// edit (see bleveFiles). A scorch index holds any number of segments and
// searches them as one.

const (
	chunkTarget = 64
	// maxChunk bounds a chunk whatever the names: past it, a chunk ends
	// anyway.
	maxChunk = 8 * chunkTarget
)

// groupTarget is the average number of documents of a merged segment for
// a catalog of n: about n/20, a power of two from 512 to 8,192. Fewer,
// larger segments make a smaller index (each segment has its own term
// dictionary); more, smaller ones make an edit cheaper to merge.
func groupTarget(n int) uint64 {
	t := uint64(512)
	for t < 8192 && int(t)*2 <= n/20 {
		t *= 2
	}
	return t
}

// nameHash places a document: for the chunk and group boundaries, the
// related terms' sample and the document numbers (docnum.go).
func nameHash(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// span is a run [start, end) of documents, by position.
type span struct{ start, end int }

// chunkOf splits names (sorted) into chunks, and the chunks into groups:
// groups[g] is a run of chunk numbers.
func chunkOf(names []string) (chunks []span, groups []span) {
	gt := groupTarget(len(names))
	start, groupStart := 0, 0
	for i, name := range names {
		h := nameHash(name)
		if h%chunkTarget != 0 && i+1-start < maxChunk {
			continue
		}
		chunks = append(chunks, span{start, i + 1})
		start = i + 1
		if h%gt == 0 {
			groups = append(groups, span{groupStart, len(chunks)})
			groupStart = len(chunks)
		}
	}
	if start < len(names) {
		chunks = append(chunks, span{start, len(names)})
	}
	if groupStart < len(chunks) {
		groups = append(groups, span{groupStart, len(chunks)})
	}
	return chunks, groups
}

// fixedTime replaces the one timestamp scorch writes into root.bolt.
var fixedTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func init() {
	// zap sizes a new segment's buffer for the documents given plus 100,
	// at the bytes per document of the last segment it made: meant for
	// scorch's batches, it gives a chunk of 64 documents a buffer many
	// times what it fills, held until the chunk's group is merged. Sized
	// for the documents alone, a buffer grows at most once.
	zap.NewSegmentBufferNumResultsBump = 0
}

// buildSegment analyses docs (ids are the skill names) and returns their
// zap segment, whose bytes depend only on the documents, in order. zap v15
// is used because its output depends only on its input (v16 writes its
// per-field section table from a map). The documents are made and
// analysed by a docBuilder, which gives what bleve's MapDocument and
// analyzers give (TestSegmentsAsBleveBuildsThem) at a fraction of the
// cost.
func buildSegment(m *mapping.IndexMappingImpl, ids []string, docs []*bleveDoc) (*zap.SegmentBase, error) {
	segmentsBuilt.Add(1)
	analysed, err := analyseDocuments(m, ids, docs)
	if err != nil {
		return nil, err
	}
	return newSegment(analysed)
}

// newSegment makes the zap segment of analysed documents.
func newSegment(analysed []bindex.Document) (*zap.SegmentBase, error) {
	seg, _, err := (&zap.ZapPlugin{}).New(analysed)
	if err != nil {
		return nil, fmt.Errorf("bleve segment: %w", err)
	}
	return seg.(*zap.SegmentBase), nil
}

// analyseDocuments returns the bleve documents of docs, with ids, their
// indexed fields analysed.
func analyseDocuments(m *mapping.IndexMappingImpl, ids []string, docs []*bleveDoc) ([]bindex.Document, error) {
	b, err := getDocBuilder(m)
	if err != nil {
		return nil, err
	}
	defer putDocBuilder(b)
	analysed := make([]bindex.Document, len(docs))
	for i, d := range docs {
		doc := b.document(ids[i], d)
		doc.VisitFields(func(f bindex.Field) {
			if f.Options().IsIndexed() {
				f.Analyze()
			}
		})
		analysed[i] = doc
	}
	return analysed, nil
}

// mergeSegments merges segments, in order, into one and writes it to w,
// as scorch's merger writes it to a file. One segment is written as it
// is: a group of one chunk is not merged, in every build alike. The
// merged segment streams to w: held whole until written, the largest
// group's would sit in memory beside the chunks it is made of.
func mergeSegments(segs []*zap.SegmentBase, w io.Writer) error {
	if len(segs) == 1 {
		_, err := segs[0].WriteTo(w)
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cr := zap.NewCountHashWriter(bw)
	_, numDocs, storedIndexOffset, fieldsIndexOffset, docValueOffset, _, _, _, err :=
		zap.MergeToWriter(segs, make([]*roaring.Bitmap, len(segs)), zap.DefaultChunkMode, cr, nil)
	if err != nil {
		return fmt.Errorf("bleve merge: %w", err)
	}
	if err := writeFooter(cr, numDocs, storedIndexOffset, fieldsIndexOffset, docValueOffset, zap.DefaultChunkMode); err != nil {
		return err
	}
	return bw.Flush()
}

// writeFooter ends a zap segment whose body went through cr with the
// footer zap writes after it (zapx's persistFooter, unexported): the
// number of documents, the offsets of the stored fields' index, of the
// fields' index and of the doc values, big-endian 64-bit; the chunk mode
// and zap's version, 32-bit; then the CRC-32 of everything before it.
// TestMergeSegmentsAsZap compares the result with a segment zap merges
// itself.
func writeFooter(cr *zap.CountHashWriter, numDocs, storedIndexOffset, fieldsIndexOffset, docValueOffset uint64, chunkMode uint32) error {
	var f [zap.FooterSize]byte
	binary.BigEndian.PutUint64(f[0:], numDocs)
	binary.BigEndian.PutUint64(f[8:], storedIndexOffset)
	binary.BigEndian.PutUint64(f[16:], fieldsIndexOffset)
	binary.BigEndian.PutUint64(f[24:], docValueOffset)
	binary.BigEndian.PutUint32(f[32:], chunkMode)
	binary.BigEndian.PutUint32(f[36:], zap.Version)
	binary.BigEndian.PutUint32(f[40:], crc32.Update(cr.Sum32(), crc32.IEEETable, f[:40]))
	_, err := cr.Write(f[:])
	return err
}

// segmentsBuilt counts calls of buildSegment, for tests of segment reuse.
var segmentsBuilt atomic.Int64

// segmentFile names segment i in the index's store folder, as scorch names
// the segments it writes.
func segmentFile(i int) string { return fmt.Sprintf("%012x.zap", i) }

// segmentPath is segment i's path in the index folder.
func segmentPath(i int) string { return "store/" + segmentFile(i) }

// bleveFile is a file of the bleve index: its path in the index folder,
// and its bytes, unless it is written already (a segment merged in the
// pass).
type bleveFile struct {
	path string
	data []byte
}

// indexShell is what every skilldex bleve index has around its segments:
// index_meta.json, and the root.bolt that bleve's offline builder writes
// for one segment. It depends only on the mapping, so it is made once.
var indexShell = sync.OnceValues(func() (*shell, error) {
	tmp, err := os.MkdirTemp("", "skilldex-bleve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	m, err := NewMapping()
	if err != nil {
		return nil, err
	}
	placeholder := filepath.Join(tmp, "placeholder")
	b, err := bleve.NewBuilder(placeholder, m, map[string]any{
		"forceSegmentType":    zap.Type,
		"forceSegmentVersion": int(zap.Version),
		"buildPathPrefix":     tmp,
	})
	if err != nil {
		return nil, err
	}
	if err := b.Index("placeholder", &bleveDoc{}); err != nil {
		return nil, err
	}
	if err := b.Close(); err != nil {
		return nil, err
	}
	meta, err := os.ReadFile(filepath.Join(placeholder, "index_meta.json"))
	if err != nil {
		return nil, err
	}
	root, err := readBolt(filepath.Join(placeholder, "store", "root.bolt"))
	if err != nil {
		return nil, err
	}
	return &shell{meta: meta, root: root, mapping: m}, nil
})

type shell struct {
	meta    []byte // index_meta.json
	root    *boltBucket
	mapping *mapping.IndexMappingImpl
}

// boltBucket is a bolt bucket read into memory: its values and buckets by
// key, in key order.
type boltBucket struct {
	keys    [][]byte
	values  [][]byte // nil for a bucket
	buckets []*boltBucket
}

// readBolt reads a bolt file into memory.
func readBolt(path string) (*boltBucket, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	root := &boltBucket{}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			root.keys = append(root.keys, slices.Clone(name))
			root.values = append(root.values, nil)
			root.buckets = append(root.buckets, readBucket(b))
			return nil
		})
	})
	return root, err
}

func readBucket(b *bolt.Bucket) *boltBucket {
	out := &boltBucket{}
	b.ForEach(func(k, v []byte) error {
		out.keys = append(out.keys, slices.Clone(k))
		if v == nil {
			out.values = append(out.values, nil)
			out.buckets = append(out.buckets, readBucket(b.Bucket(k)))
		} else {
			out.values = append(out.values, slices.Clone(v))
			out.buckets = append(out.buckets, nil)
		}
		return nil
	})
	return out
}

// writeRoot writes the root.bolt of an index of n segments to path: the
// placeholder's, with the timestamp fixed, its one segment entry repeated
// for segments 0 to n-1, and the internal values (what bleve's
// Index.GetInternal reads) of internal. A fresh bolt file written in one
// transaction with a fixed page size has the same bytes for the same
// content.
func writeRoot(path string, template *boltBucket, n int, internal map[string][]byte) error {
	db, err := bolt.Open(path, 0o644, &bolt.Options{PageSize: 4096, Timeout: time.Second})
	if err != nil {
		return err
	}
	ts, _ := fixedTime.MarshalText()
	err = db.Update(func(tx *bolt.Tx) error {
		for i, name := range template.keys {
			b, err := tx.CreateBucket(name)
			if err != nil {
				return err
			}
			if err := fillBucket(b, template.buckets[i], ts, n, 0, internal); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// fillBucket copies the template bucket t into b. At depth 1 (a snapshot)
// the template's segment entry, the bucket that is neither metadata nor
// internal values, becomes n entries, one per segment, and the internal
// values are added.
func fillBucket(b *bolt.Bucket, t *boltBucket, timestamp []byte, n, depth int, internal map[string][]byte) error {
	if depth == 1 && len(internal) > 0 {
		ib, err := b.CreateBucketIfNotExists(butil.BoltInternalKey)
		if err != nil {
			return err
		}
		for _, k := range slices.Sorted(maps.Keys(internal)) {
			if err := ib.Put([]byte(k), internal[k]); err != nil {
				return err
			}
		}
	}
	for i, k := range t.keys {
		if v := t.values[i]; v != nil {
			if string(k) == string(butil.BoltMetaDataTimeStamp) {
				v = timestamp
			}
			if err := b.Put(k, v); err != nil {
				return err
			}
			continue
		}
		isSegment := depth == 1 && k[0] != butil.BoltMetaDataKey[0] && k[0] != butil.BoltInternalKey[0]
		if !isSegment {
			nb, err := b.CreateBucketIfNotExists(k)
			if err != nil {
				return err
			}
			if err := fillBucket(nb, t.buckets[i], timestamp, n, depth+1, internal); err != nil {
				return err
			}
			continue
		}
		for seg := range n {
			nb, err := b.CreateBucket(segmentKey(seg))
			if err != nil {
				return err
			}
			if err := nb.Put(butil.BoltPathKey, []byte(segmentFile(seg))); err != nil {
				return err
			}
		}
	}
	return nil
}

// segmentKey is scorch's key for segment id: its order-preserving unsigned
// varint (encodeUvarintAscending in scorch, after CockroachDB), which
// scorch decodes back to the id.
func segmentKey(id int) []byte {
	const intZero, intSmall, intMax = 136, 109, 0xfd
	v := uint64(id)
	switch {
	case v <= intSmall:
		return []byte{intZero + byte(v)}
	case v <= 0xff:
		return []byte{intMax - 7, byte(v)}
	case v <= 0xffff:
		return []byte{intMax - 6, byte(v >> 8), byte(v)}
	}
	return []byte{intMax - 5, byte(v >> 16), byte(v >> 8), byte(v)}
}

// zipEpoch is the modification time of every archive entry.
var zipEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// zipped is a file deflated for the archive, with what its header needs.
type zipped struct {
	crc        uint32
	size       uint64
	compressed []byte
}

// deflate compresses data with klauspost/compress's flate at level 2: the
// archive is a convenience copy. On segments it is faster than the
// standard library's fastest level, for fewer bytes, and the default
// level is much slower than either.
func deflate(data []byte) *zipped {
	d := newDeflater()
	d.Write(data)
	return d.zipped()
}

// A deflater deflates what is written to it as deflate does, holding
// only the compressed bytes: a segment read back from the output goes
// through it a buffer at a time.
type deflater struct {
	crc        hash.Hash32
	size       uint64
	compressed bytes.Buffer
	fw         *flate.Writer
}

func newDeflater() *deflater {
	d := &deflater{crc: crc32.NewIEEE()}
	d.fw, _ = flate.NewWriter(&d.compressed, 2) // a valid level: cannot fail
	return d
}

// Write never fails: the compressed bytes go to memory.
func (d *deflater) Write(p []byte) (int, error) {
	d.crc.Write(p)
	d.size += uint64(len(p))
	return d.fw.Write(p)
}

// zipped is the entry of what was written.
func (d *deflater) zipped() *zipped {
	d.fw.Close()
	return &zipped{crc: d.crc.Sum32(), size: d.size, compressed: d.compressed.Bytes()}
}

// addZipEntry adds the deflated file z to zw under name, with a fixed
// time and mode.
func addZipEntry(zw *zip.Writer, name string, z *zipped) error {
	h := &zip.FileHeader{
		Name: name, Method: zip.Deflate, Modified: zipEpoch,
		CRC32: z.crc, UncompressedSize64: z.size, CompressedSize64: uint64(len(z.compressed)),
	}
	h.SetMode(0o644)
	fw, err := zw.CreateRaw(h)
	if err != nil {
		return err
	}
	_, err = fw.Write(z.compressed)
	return err
}
