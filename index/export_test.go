package index

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	bdocument "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
	seg "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v15"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/internal/parallel"
)

// SegmentsBuilt counts the bleve segments built, for tests of reuse.
var SegmentsBuilt = &segmentsBuilt

// ChunkEnds returns the positions where chunkOf ends the chunks and the
// groups of names.
func ChunkEnds(names []string) (chunkEnds, groupEnds []int) {
	chunks, groups := chunkOf(names)
	for _, c := range chunks {
		chunkEnds = append(chunkEnds, c.end)
	}
	for _, g := range groups {
		groupEnds = append(groupEnds, chunks[g.end-1].end)
	}
	return chunkEnds, groupEnds
}

// Chunks are the bleve documents of a catalog's skills cut into chunks as
// bleveFiles cuts them, ready for buildSegment: benchmarks and tests of
// segment building start from them, not from the skills.
type Chunks struct {
	m    *mapping.IndexMappingImpl
	ids  [][]string
	docs [][]*bleveDoc
}

// NewChunks makes the chunks of c's skills, each page at skills/NAME/.
func NewChunks(c *catalog.Catalog) (*Chunks, error) {
	m, err := NewMapping()
	if err != nil {
		return nil, err
	}
	recs := records(context.Background(), c, nil)
	docs := make([]*document, len(recs))
	names := make([]string, len(recs))
	for i, r := range recs {
		docs[i], names[i] = r.doc, r.doc.Name
	}
	facets := newFacetNames(computeFacets(docs))
	chunks, _ := chunkOf(names)
	out := &Chunks{m: m}
	for _, ch := range chunks {
		var bd []*bleveDoc
		for i := ch.start; i < ch.end; i++ {
			k, err := c.Content(c.Skills[i])
			if err != nil {
				return nil, err
			}
			d := newDocument(c.Skills[i], k)
			bd = append(bd, newBleveDoc(d, facets.of(d), "skills/"+names[i]+"/", nil))
		}
		out.ids = append(out.ids, names[ch.start:ch.end])
		out.docs = append(out.docs, bd)
	}
	return out, nil
}

// Len is the number of documents.
func (c *Chunks) Len() int {
	n := 0
	for _, ids := range c.ids {
		n += len(ids)
	}
	return n
}

// Segments builds the segment of every chunk with buildSegment and
// returns their bytes.
func (c *Chunks) Segments() ([][]byte, error) { return c.segments(buildSegment) }

// BleveSegments builds the segment of every chunk as bleve would, with
// MapDocument and bleve's analyzers, and returns their bytes.
func (c *Chunks) BleveSegments() ([][]byte, error) { return c.segments(buildSegmentBleve) }

// ID returns the id of document i of chunk k.
func (c *Chunks) ID(k, i int) string { return c.ids[k][i] }

func (c *Chunks) segments(build func(*mapping.IndexMappingImpl, []string, []*bleveDoc) (*zap.SegmentBase, error)) ([][]byte, error) {
	var out [][]byte
	for k := range c.ids {
		sb, err := build(c.m, c.ids[k], c.docs[k])
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if _, err := sb.WriteTo(&b); err != nil {
			return nil, err
		}
		out = append(out, b.Bytes())
	}
	return out, nil
}

// buildSegmentBleve is buildSegment as bleve's own components do it: the
// documents mapped by MapDocument, their fields analysed by their own
// analyzers.
func buildSegmentBleve(m *mapping.IndexMappingImpl, ids []string, docs []*bleveDoc) (*zap.SegmentBase, error) {
	analysed, err := analyseDocumentsBleve(m, ids, docs)
	if err != nil {
		return nil, err
	}
	return newSegment(analysed)
}

// analyseDocumentsBleve is analyseDocuments with MapDocument and bleve's
// analyzers.
func analyseDocumentsBleve(m *mapping.IndexMappingImpl, ids []string, docs []*bleveDoc) ([]bindex.Document, error) {
	analysed := make([]bindex.Document, len(docs))
	for i, d := range docs {
		doc := bdocument.NewDocument(ids[i])
		if err := m.MapDocument(doc, d); err != nil {
			return nil, err
		}
		doc.AddField(newAllField(d.all)) // skilldex's own field, which bleve cannot make
		doc.AddIDField()
		doc.VisitFields(func(f bindex.Field) {
			if f.Options().IsIndexed() {
				f.Analyze()
			}
		})
		analysed[i] = doc
	}
	return analysed, nil
}

// Analyse makes and analyses the documents of every chunk as
// buildSegment does, and builds no segment.
func (c *Chunks) Analyse() error { return c.analyse(analyseDocuments) }

// BleveAnalyse is Analyse with MapDocument and bleve's analyzers.
func (c *Chunks) BleveAnalyse() error { return c.analyse(analyseDocumentsBleve) }

func (c *Chunks) analyse(analyse func(*mapping.IndexMappingImpl, []string, []*bleveDoc) ([]bindex.Document, error)) error {
	for k := range c.ids {
		if _, err := analyse(c.m, c.ids[k], c.docs[k]); err != nil {
			return err
		}
	}
	return nil
}

// records returns the record of every published skill, in catalog order,
// as a build's pass makes them: from m when the skill is unchanged since
// the build that analysed it, else analysed now (in parallel).
func records(ctx context.Context, c *catalog.Catalog, m *memo.Memo) []*record {
	b, _ := newBuilder(ctx, c, nil, m) // no site, no bleve index: no error
	parallel.For(ctx, len(b.recs), 0, func(i int) { b.skill(i, pass.Of(c, i)) })
	return b.recs
}

// Merged merges the segments of the first n chunks twice: with
// mergeSegments, and with zap's own merge into a file in dir. It returns
// both segments' bytes.
func (c *Chunks) Merged(n int, dir string) (ours, zaps []byte, err error) {
	parts, err := c.chunkSegments(n)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	if err := mergeSegments(parts, &b); err != nil {
		return nil, nil, err
	}
	in := make([]seg.Segment, n)
	for k, p := range parts {
		in[k] = p
	}
	path := filepath.Join(dir, "merged.zap")
	if _, _, err := (&zap.ZapPlugin{}).Merge(in, make([]*roaring.Bitmap, n), path, nil, nil); err != nil {
		return nil, nil, err
	}
	zaps, err = os.ReadFile(path)
	return b.Bytes(), zaps, err
}

// Chunks returns the number of chunks.
func (c *Chunks) Chunks() int { return len(c.ids) }

// MergeBench builds the segment of every chunk, then measures merging
// them all into one, written to io.Discard.
func (c *Chunks) MergeBench(b *testing.B) {
	parts, err := c.chunkSegments(len(c.ids))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := mergeSegments(parts, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// chunkSegments builds the segments of the first n chunks.
func (c *Chunks) chunkSegments(n int) ([]*zap.SegmentBase, error) {
	parts := make([]*zap.SegmentBase, n)
	for k := range n {
		var err error
		if parts[k], err = buildSegment(c.m, c.ids[k], c.docs[k]); err != nil {
			return nil, err
		}
	}
	return parts, nil
}
