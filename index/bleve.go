package index

import (
	"archive/zip"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	bdocument "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v15"
	"github.com/skilldex/skilldex/internal/parallel"
	bolt "go.etcd.io/bbolt"
)

// The bleve index is built offline into one zap segment and written so
// that the same catalog always gives the same bytes (see writeBleve).

// analyzerName is the text analyzer of the bleve index: Unicode word
// boundaries, English possessives dropped, lowercase, English stop words,
// Porter stemming. Built from bleve's own components, so that any bleve
// program can open the index.
const analyzerName = "skilldex_en"

// Facet fields of the bleve index: keyword-analysed, stored, with doc
// values, named f_<facet>.
func facetField(id string) string { return "f_" + id }

// bleveDoc is the document bleve maps; field names are the json tags.
type bleveDoc struct {
	Name         string   `json:"name"`
	NameExact    string   `json:"name_exact"`
	Description  string   `json:"description"`
	Tags         []string `json:"tags"`
	Capabilities []string `json:"capabilities"`
	Category     []string `json:"category"`
	Type         string   `json:"type"`
	Keywords     []string `json:"keywords"`
	Intents      []string `json:"intents"`
	Body         string   `json:"body"`

	FType         []string `json:"f_type"`
	FCategory     []string `json:"f_category"`
	FTags         []string `json:"f_tags"`
	FCapabilities []string `json:"f_capabilities"`
	FLicense      []string `json:"f_license"`
	FStatus       []string `json:"f_status"`
	FFormat       []string `json:"f_format"`

	URL string `json:"url"`
}

// NewMapping returns the index mapping: every searchable field analysed
// with analyzerName (name, description, tags, capabilities and category
// stored with term vectors, for highlights; the body indexed only), the
// exact name as a keyword, the facets as keywords with doc values, the
// page URL stored only. Scoring is BM25; the weights are query boosts.
func NewMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = bindex.BM25Scoring
	err := im.AddCustomAnalyzer(analyzerName, map[string]any{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []any{en.PossessiveName, lowercase.Name, en.StopName, porter.Name},
	})
	if err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = analyzerName
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
	text("tags", true)
	text("capabilities", true)
	text("category", true)
	text("type", false)
	text("keywords", true)
	text("intents", true)
	text("body", false)

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

	im.DefaultMapping = dm
	return im, nil
}

// exactName is the name_exact term of a skill name or a query: folded,
// words joined by single hyphens ("Code Review" and "code-review" alike).
func exactName(s string) string {
	words := Words(Fold(s))
	out := ""
	for i, w := range words {
		if i > 0 {
			out += "-"
		}
		out += w
	}
	return out
}

func newBleveDoc(d *document, perDoc map[string][]string, url string) *bleveDoc {
	return &bleveDoc{
		Name:          d.Name,
		NameExact:     exactName(d.Name),
		Description:   d.Description,
		Tags:          d.Tags,
		Capabilities:  d.Capabilities,
		Category:      d.Categories,
		Type:          d.Type,
		Keywords:      d.Keywords,
		Intents:       d.Intents,
		Body:          d.Body,
		FType:         perDoc["type"],
		FCategory:     perDoc["category"],
		FTags:         perDoc["tags"],
		FCapabilities: perDoc["capabilities"],
		FLicense:      perDoc["license"],
		FStatus:       perDoc["status"],
		FFormat:       perDoc["format"],
		URL:           url,
	}
}

// segmentDocs is how many documents go into one segment before the merge:
// it bounds the memory analysed documents take (about 180 KB each while
// their segment is built; at 2,000 the search stage was the peak of a
// 10,000-skill build). A merged index has the same bytes however the
// documents were split, but differs from an unmerged one, so an index of
// up to singleSegment documents is still built as one segment, as it
// always was.
const (
	segmentDocs   = 500
	singleSegment = 2000
)

// fixedTime replaces the one timestamp scorch writes into root.bolt.
var fixedTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// writeBleve builds the bleve index of docs (ids are the skill names) in
// the empty or missing folder dir, byte for byte the same for the same
// documents. bleve's own offline builder is not deterministic: it batches
// documents in a map (so their numbering follows map order), zap v16
// writes its per-field section table from a map, and root.bolt holds the
// time of writing. So the segment is built here from the documents in
// order with zap v15 (whose output depends only on its input), and
// root.bolt, written by bleve's builder around a placeholder segment
// (root.bolt names the segment file, not its content), is copied key by
// key into a fresh bolt file with the timestamp fixed.
func writeBleve(dir string, ids []string, docs []*bleveDoc, tmp string) error {
	m, err := NewMapping()
	if err != nil {
		return err
	}
	plugin := &zap.ZapPlugin{}
	var segPaths []string
	per := segmentDocs
	if len(docs) <= singleSegment {
		per = singleSegment
	}
	for start := 0; start < len(docs); start += per {
		end := min(start+per, len(docs))
		analysed := make([]bindex.Document, end-start)
		errs := make([]error, end-start)
		parallel.For(context.Background(), end-start, 0, func(i int) {
			doc := bdocument.NewDocument(ids[start+i])
			if err := m.MapDocument(doc, docs[start+i]); err != nil {
				errs[i] = err
				return
			}
			doc.AddIDField()
			doc.VisitFields(func(f bindex.Field) {
				if f.Options().IsIndexed() {
					f.Analyze()
				}
			})
			analysed[i] = doc
		})
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		seg, _, err := plugin.New(analysed)
		if err != nil {
			return fmt.Errorf("bleve segment: %w", err)
		}
		p := filepath.Join(tmp, "seg-"+strconv.Itoa(len(segPaths))+".zap")
		if err := seg.(segment.UnpersistedSegment).Persist(p); err != nil {
			return err
		}
		segPaths = append(segPaths, p)
	}

	// The index around the segment: index_meta.json and root.bolt.
	placeholder := filepath.Join(tmp, "placeholder")
	b, err := bleve.NewBuilder(placeholder, m, map[string]any{
		"forceSegmentType":    zap.Type,
		"forceSegmentVersion": int(zap.Version),
		"buildPathPrefix":     tmp,
	})
	if err != nil {
		return err
	}
	if err := b.Index("placeholder", &bleveDoc{}); err != nil {
		return err
	}
	if err := b.Close(); err != nil {
		return err
	}

	if err := os.MkdirAll(filepath.Join(dir, "store"), 0o755); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(placeholder, "index_meta.json"), filepath.Join(dir, "index_meta.json")); err != nil {
		return err
	}
	if err := copyBolt(filepath.Join(placeholder, "store", "root.bolt"), filepath.Join(dir, "store", "root.bolt")); err != nil {
		return err
	}
	final := filepath.Join(dir, "store", "000000000002.zap")
	switch len(segPaths) {
	case 0:
		// No documents: an empty segment.
		seg, _, err := plugin.New(nil)
		if err != nil {
			return err
		}
		if err := seg.(segment.UnpersistedSegment).Persist(final); err != nil {
			return err
		}
	case 1:
		if err := os.Rename(segPaths[0], final); err != nil {
			return err
		}
	default:
		segs := make([]segment.Segment, len(segPaths))
		for i, p := range segPaths {
			s, err := plugin.Open(p)
			if err != nil {
				return err
			}
			defer s.Close()
			segs[i] = s
		}
		if _, _, err := plugin.Merge(segs, make([]*roaring.Bitmap, len(segs)), final, nil, nil); err != nil {
			return fmt.Errorf("bleve merge: %w", err)
		}
	}
	return os.Chmod(final, 0o644)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// copyBolt copies every bucket and key of the bolt file from into a new
// bolt file to, in one transaction, with the snapshot timestamp fixed.
// A fresh file written in one transaction with a fixed page size has the
// same bytes for the same content.
func copyBolt(from, to string) error {
	src, err := bolt.Open(from, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := bolt.Open(to, 0o644, &bolt.Options{PageSize: 4096, Timeout: time.Second})
	if err != nil {
		return err
	}
	ts, _ := fixedTime.MarshalText()
	err = src.View(func(stx *bolt.Tx) error {
		return dst.Update(func(dtx *bolt.Tx) error {
			return stx.ForEach(func(name []byte, sb *bolt.Bucket) error {
				db, err := dtx.CreateBucket(name)
				if err != nil {
					return err
				}
				return copyBucket(sb, db, ts)
			})
		})
	})
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

func copyBucket(from, to *bolt.Bucket, timestamp []byte) error {
	return from.ForEach(func(k, v []byte) error {
		if v == nil {
			nb, err := to.CreateBucket(k)
			if err != nil {
				return err
			}
			return copyBucket(from.Bucket(k), nb, timestamp)
		}
		if string(k) == "timeStamp" {
			v = timestamp
		}
		return to.Put(slices.Clone(k), slices.Clone(v))
	})
}

// zipEpoch is the modification time of every archive entry.
var zipEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// writeZip writes the files under dir into w as a ZIP archive whose
// entries sit under prefix/, in sorted order, with fixed times and modes.
func writeZip(w io.Writer, dir, prefix string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		paths = append(paths, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		return err
	}
	slices.Sort(paths)
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	for _, p := range paths {
		h := &zip.FileHeader{Name: prefix + "/" + p, Method: zip.Deflate, Modified: zipEpoch}
		h.SetMode(0o644)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		_, err = io.Copy(fw, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return zw.Close()
}
