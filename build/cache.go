package build

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"sync"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/uasp"
)

// A Cache remembers the per-skill work of earlier loads — parsing, the
// rules, the UASP document — keyed by a hash of everything that work reads:
// the skill's files, where it was found, and the options. A later Load with
// the same Cache redoes only the skills whose key changed, which is what
// makes `skilldex serve` rebuild a large catalog quickly after an edit.
// Checks across skills (shadowing, SkillBag workspaces) always run again.
//
// A Cache is safe for concurrent use. It keeps only the entries the latest
// Load used, so it does not grow as files are edited.
type Cache struct {
	// memo is what the site's writers keep between builds (see Writer).
	memo *memo.Memo

	mu      sync.Mutex
	entries map[[32]byte]*cached
	next    map[[32]byte]*cached
	hits    int
	misses  int
}

type cached struct {
	skill *skill.Skill
	diags []diag.Diagnostic
	doc   *uasp.Document
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{entries: map[[32]byte]*cached{}, memo: memo.New()}
}

// writers returns the writers' memo; nil (remember nothing) without a
// cache.
func (c *Cache) writers() *memo.Memo {
	if c == nil {
		return nil
	}
	return c.memo
}

// Stats returns how many skills the latest Load took from the cache and how
// many it worked out afresh.
func (c *Cache) Stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

func (c *Cache) begin() {
	c.mu.Lock()
	c.next = map[[32]byte]*cached{}
	c.hits, c.misses = 0, 0
	c.mu.Unlock()
}

// end keeps the entries this load used and drops the rest.
func (c *Cache) end() {
	c.mu.Lock()
	c.entries, c.next = c.next, nil
	c.mu.Unlock()
}

func (c *Cache) get(key [32]byte) (*cached, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if ok {
		c.next[key] = e
		c.hits++
	} else {
		c.misses++
	}
	return e, ok
}

func (c *Cache) put(key [32]byte, e *cached) {
	e.diags = slices.Clip(e.diags) // appends by later stages must copy
	c.mu.Lock()
	c.next[key] = e
	c.mu.Unlock()
}

// inputKey hashes what parsing and checking one input depend on. ok is
// false when a file cannot be read; such an input is never cached.
func inputKey(in *source.Input, opt LoadOptions) (key [32]byte, ok bool) {
	h := sha256.New()
	str := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	str("skilldex-load-v1")
	str(strconv.FormatBool(opt.Strict))
	str(strconv.FormatBool(opt.NoDerive))
	str(in.Root)
	str(strconv.Itoa(in.RootIndex))
	str(in.Path)
	str(string(in.Packaging))
	str(in.DirName)
	str(in.RelPath)
	str(in.SkillFile)
	str(in.UASPFile)
	if in.Workspace != nil {
		str("workspace:" + in.Workspace.Path)
	}
	for _, d := range in.Diagnostics {
		str(d.String())
	}
	for _, f := range in.Files {
		str(f.Path)
		data, err := fs.ReadFile(in.FS, f.Path)
		if err != nil {
			return key, false
		}
		str(string(data))
	}
	h.Sum(key[:0])
	return key, true
}
