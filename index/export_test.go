package index

import (
	"bytes"
	"context"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/skilldex/skilldex/build/catalog"
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
	perDoc := facetsByDoc(computeFacets(docs), len(recs))
	chunks, _ := chunkOf(names)
	out := &Chunks{m: m}
	for _, ch := range chunks {
		var bd []*bleveDoc
		for i := ch.start; i < ch.end; i++ {
			bd = append(bd, newBleveDoc(newDocument(c.Skills[i]), perDoc[i], "skills/"+names[i]+"/"))
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
func (c *Chunks) Segments() ([][]byte, error) {
	var out [][]byte
	for k := range c.ids {
		sb, err := buildSegment(c.m, c.ids[k], c.docs[k])
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
