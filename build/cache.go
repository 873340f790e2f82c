package build

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/source"
)

// A Cache remembers the per-skill work of earlier loads — the summary made
// from parsing and checking the skill, and what its UASP document came to
// once derived — keyed by a hash of everything that work reads: the
// skill's files, where it was found, and the options. A later Load with
// the same Cache redoes only the skills whose key changed, which is what
// makes `skilldex serve` rebuild a large catalog quickly after an edit;
// writers reuse what they made of a skill by the same key (Writer). Checks
// across skills (shadowing, SkillBag workspaces) always run again.
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

	// stats maps what stat says of an input's files to the input's key,
	// so that an unchanged skill is not even read: a hash of the input's
	// identity and its files' stamps (see statKey) to the key. Kept like
	// entries: one load's worth.
	stats, nextStats map[[32]byte][32]byte
	// since is when the current load began: a stamp that recent may not
	// tell two versions apart (see statKey).
	since time.Time
	// reads counts the inputs the latest load read to key them.
	reads int

	// found is the discovery of the latest load that succeeded, and
	// foundKey what it depends on besides the files (discoveryKey): what
	// a load told which paths changed starts from.
	found    *source.Result
	foundKey string
}

// cached is what a Cache keeps of one skill.
type cached struct {
	// skill is the summary as Load made it, before the checks across
	// skills; a load that finds the skill again copies it.
	skill catalog.Skill
	// doc and docDiags are the derived document's summary and findings,
	// once its content was read (docKnown).
	doc      *catalog.DocInfo
	docDiags []diag.Diagnostic
	docKnown bool
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{entries: map[[32]byte]*cached{}, stats: map[[32]byte][32]byte{}, memo: memo.New()}
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

// takeDiscovery returns the discovery of the latest load when it was made
// with key, and forgets it; nil without a cache.
func (c *Cache) takeDiscovery(key string) *source.Result {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	found := c.found
	c.found = nil
	if c.foundKey != key {
		return nil
	}
	return found
}

// keepDiscovery keeps found, made with key, for the next load.
func (c *Cache) keepDiscovery(key string, found *source.Result) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.found, c.foundKey = found, key
	c.mu.Unlock()
}

func (c *Cache) begin() {
	c.mu.Lock()
	c.next = map[[32]byte]*cached{}
	c.nextStats = map[[32]byte][32]byte{}
	c.hits, c.misses, c.reads = 0, 0, 0
	c.since = time.Now()
	c.mu.Unlock()
}

// end keeps the entries this load used and drops the rest.
func (c *Cache) end() {
	c.mu.Lock()
	c.entries, c.next = c.next, nil
	c.stats, c.nextStats = c.nextStats, nil
	c.mu.Unlock()
}

// key returns the key of in, found in the source named src: from its
// files' stamps when an earlier load read the same versions of them, else
// by reading and hashing them.
func (c *Cache) key(in *source.Input, src string, opt LoadOptions) (key [32]byte, ok bool) {
	sk, trusted := statKey(in, src, opt, c.since)
	if trusted {
		c.mu.Lock()
		key, ok = c.stats[sk]
		if ok {
			c.nextStats[sk] = key
		}
		c.mu.Unlock()
		if ok {
			return key, true
		}
	}
	key, ok = inputKey(in, src, opt)
	c.mu.Lock()
	c.reads++
	if ok && trusted {
		c.nextStats[sk] = key
	}
	c.mu.Unlock()
	return key, ok
}

// settle is how old a file's last change must be for its stamp to be
// trusted: file times come from a clock that ticks every few milliseconds,
// so a file written twice within one tick (an editor saving, then a
// formatter rewriting it at the same size) keeps its stamp. Such a file is
// read again until its last change is this old, as git treats "racily
// clean" files.
var settle = 2 * time.Second

// statKey hashes what inputKey hashes with each file's stamp in place of
// its content. trusted is false when a file has no stamp (archives are
// read whole when found anyway) or changed less than settle before since.
func statKey(in *source.Input, src string, opt LoadOptions, since time.Time) (key [32]byte, trusted bool) {
	if len(in.Files) == 0 {
		return key, false
	}
	h := sha256.New()
	w := identity(h, in, src, opt)
	limit := since.Add(-settle).UnixNano()
	for _, f := range in.Files {
		st := f.Stamp
		if !st.Known() || st.Change >= limit || st.ModTime >= limit {
			return key, false
		}
		w(f.Path)
		var b [40]byte
		binary.LittleEndian.PutUint64(b[0:], uint64(st.Size))
		binary.LittleEndian.PutUint64(b[8:], uint64(st.ModTime))
		binary.LittleEndian.PutUint64(b[16:], uint64(st.Change))
		binary.LittleEndian.PutUint64(b[24:], st.Inode)
		binary.LittleEndian.PutUint64(b[32:], st.Device)
		h.Write(b[:])
	}
	h.Sum(key[:0])
	return key, true
}

// get returns the summary of the skill of key found again as in, when the
// cache has it.
func (c *Cache) get(key [32]byte, in *source.Input) (*catalog.Skill, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.next[key] = e
	c.hits++
	s := e.skill
	// The same files, found again: keep the work, but point at this
	// discovery's input, whose workspace is the one the checks across
	// skills look for.
	s.Input = in
	s.Diagnostics = slices.Clone(s.Diagnostics)
	if e.docKnown {
		s.SetDocInfo(e.doc, e.docDiags)
	}
	return &s, true
}

// put keeps s, the summary Load made of the skill of key.
func (c *Cache) put(key [32]byte, s *catalog.Skill) {
	e := &cached{skill: *s}
	e.skill.Diagnostics = slices.Clip(e.skill.Diagnostics) // appends by later stages must copy
	c.mu.Lock()
	c.next[key] = e
	c.mu.Unlock()
}

// remember keeps what s's derived document came to, its summary and its
// findings ds, for the next load of the same skill.
func (c *Cache) remember(s *catalog.Skill, ds []diag.Diagnostic) {
	if c == nil || s.Key == "" {
		return
	}
	var key [32]byte
	if _, err := hex.Decode(key[:], []byte(s.Key)); err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[key]
	if e == nil {
		e = c.next[key]
	}
	if e == nil {
		return
	}
	e.doc, e.docDiags, e.docKnown = s.Doc, slices.Clip(ds), true
}

// inputKey hashes what parsing and checking one input depend on. ok is
// false when a file cannot be read; such an input is never cached.
func inputKey(in *source.Input, src string, opt LoadOptions) (key [32]byte, ok bool) {
	h := sha256.New()
	str := identity(h, in, src, opt)
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

// identity writes to h what an input's key depends on besides its files:
// where it was found (and the name of that source, src, which the skill's
// pages and search documents show), what it is, and the options. It
// returns the function that writes a string, length first, for the
// caller's part.
func identity(h hash.Hash, in *source.Input, src string, opt LoadOptions) func(string) {
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
	str(src)
	str(in.Path)
	str(in.RepoPath)
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
	return str
}
