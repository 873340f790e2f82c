package output

import "unsafe"

// The writer remembers every file of the site (its path and entry) until
// the site is committed, and a large build writes over a million. Kept as
// separate small objects (a path string made by the writer that wrote the
// file, an entry of its own), every one of them is another object for the
// garbage collector to visit on each cycle of the build. Copied into a few
// large blocks instead, they cost the collector a few objects.
// BenchmarkCollectWithFiles measures a collection with the files of a
// large build remembered.

// pathBlockSize is the size of a block of pathArena: large enough that a
// build's paths take few blocks, small enough that the last one's unused
// tail does not matter.
const pathBlockSize = 64 << 10

// pathArena copies strings into large blocks. The blocks are never
// written again where a string was copied, so the strings it returns stay
// as immutable as any Go string.
type pathArena struct {
	block []byte
}

// copy returns a string equal to s, in the arena.
func (a *pathArena) copy(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > pathBlockSize/8 {
		return string([]byte(s)) // a path this long gets a block of its own
	}
	if len(a.block)+len(s) > cap(a.block) {
		a.block = make([]byte, 0, pathBlockSize)
	}
	start := len(a.block)
	a.block = append(a.block, s...)
	return unsafe.String(&a.block[start], len(s))
}

// entrySlabSize is the number of entries of a slab of entrySlab.
const entrySlabSize = 1024

// entrySlab hands out entries from arrays of entrySlabSize: an entry has no
// pointers, so a slab is one object the collector does not scan.
type entrySlab struct {
	free []entry
}

// new returns a pointer to a new entry equal to e.
func (s *entrySlab) new(e entry) *entry {
	if len(s.free) == 0 {
		s.free = make([]entry, entrySlabSize)
	}
	p := &s.free[0]
	*p = e
	s.free = s.free[1:]
	return p
}
