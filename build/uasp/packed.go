package uasp

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/skilldex/skilldex/build/yamltree"
)

// Packed is a Document held compactly until it is read again: its tree in
// binary form (yamltree.AppendBinary), about a third of the tree's
// memory. A build packs the documents of the skills it has not written
// yet, and unpacks each when it writes the skill's files.
type Packed struct {
	doc  Document // without Root and Origins
	root []byte
}

// Pack returns d held compactly. The lines that derived items came from
// (Origins) are not kept: they serve the document's diagnostics, made
// with it. It fails only when the tree holds a value no tree should.
func (d *Document) Pack() (*Packed, error) {
	buf := packBuffers.Get().(*[]byte)
	defer packBuffers.Put(buf)
	b, err := yamltree.AppendBinary((*buf)[:0], d.Root)
	if err != nil {
		return nil, err
	}
	*buf = b
	// A copy of the exact size: what is held is what was written.
	p := &Packed{doc: *d, root: bytes.Clone(b)}
	p.doc.Root, p.doc.Origins = nil, nil
	return p, nil
}

// packBuffers hold the encodings being written.
var packBuffers = sync.Pool{New: func() any { return new([]byte) }}

// Unpack returns the document p holds, as it was packed but for Origins.
func (p *Packed) Unpack() (*Document, error) {
	v, err := yamltree.ReadBinary(p.root)
	if err != nil {
		return nil, err
	}
	root, ok := v.(*yamltree.Map)
	if !ok {
		return nil, fmt.Errorf("uasp: a packed document reads back as %T, not a mapping", v)
	}
	d := p.doc
	d.Root = root
	return &d, nil
}
