package site

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"strconv"

	"github.com/skilldex/skilldex/build/output"
)

// A listKey digests everything a listing page shows (home, taxonomy and
// report pages): with it as the page's output group key, an incremental
// build renders only the listings an edit changed. Each part is written
// with its length, so that no two different pages give one key.
type listKey struct {
	h   hash.Hash
	buf []byte // what str hashes, reused: a listing hashes thousands of strings
}

func (r *renderer) newListKey(file string) *listKey {
	k := &listKey{h: sha256.New()}
	k.str("list-1", r.key, file)
	return k
}

func (k *listKey) str(parts ...string) {
	for _, p := range parts {
		k.buf = binary.LittleEndian.AppendUint64(k.buf[:0], uint64(len(p)))
		k.buf = append(k.buf, p...)
		k.h.Write(k.buf)
	}
}

func (k *listKey) int(ns ...int) {
	for _, n := range ns {
		k.str(strconv.Itoa(n))
	}
}

func (k *listKey) page(p *page) {
	k.str(p.Title, p.Description, p.Canonical, p.Alternate, p.Module, p.Section)
}

func (k *listKey) cards(cs []*card) {
	k.int(len(cs))
	for _, c := range cs {
		k.h.Write(c.key[:])
	}
}

// pager digests what a pager's links follow from (pagerOf): the site's
// settings are in every key already.
func (k *listKey) pager(p *pager) {
	k.str(p.base)
	k.int(p.Number, p.Total)
}

func (k *listKey) diags(ds []diagView) {
	k.int(len(ds))
	for _, d := range ds {
		k.str(d.Severity, d.Where, d.Code, d.Message)
	}
}

func (k *listKey) sum() string { return hex.EncodeToString(k.h.Sum(nil)) }

// writeListing renders a listing page as the output group of its site
// path, keyed by key: an incremental build keeps the page as it is when
// the key did not change.
func (r *renderer) writeListing(out *output.Writer, sitePath, file string, p *page, key *listKey) error {
	key.str(sitePath)
	key.page(p)
	g, reused, err := out.Group("list:"+sitePath, key.sum())
	if err != nil || reused {
		return err
	}
	return r.writePage(g, sitePath, file, p)
}
