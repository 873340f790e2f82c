// Package arena copies many small values that live long into a few large
// blocks. The garbage collector visits every object on each cycle; a
// build that keeps a million small strings or structs alive (a site's file
// paths, an analyzer's vocabulary) pays for each of them on every cycle,
// while a block of them is one object, and one that holds no pointers is
// not even scanned.
//
// A block lives as long as anything copied into it does: use an arena for
// values that live and die together, not for a few long-lived values among
// many short-lived ones.
package arena

import "unsafe"

// blockSize is the size of a block of Strings: large enough that a large
// build's strings take few blocks, small enough that a block's unused tail
// does not matter.
const blockSize = 64 << 10

// Strings copies strings and byte slices into blocks. Where something was
// copied, its block is never written again, so the strings it returns are
// as immutable as any Go string. The zero value is ready to use; it is not
// safe for concurrent use.
type Strings struct {
	block []byte
}

// alloc returns n bytes of a block, to be written once.
func (a *Strings) alloc(n int) []byte {
	if n > blockSize/8 {
		return make([]byte, n) // a long one gets a block of its own
	}
	if len(a.block)+n > cap(a.block) {
		a.block = make([]byte, 0, blockSize)
	}
	start := len(a.block)
	a.block = a.block[:start+n]
	return a.block[start : start+n : start+n]
}

// String returns a copy of s.
func (a *Strings) String(s string) string {
	if s == "" {
		return ""
	}
	b := a.alloc(len(s))
	copy(b, s)
	return unsafe.String(&b[0], len(b))
}

// StringOf returns b as a string.
func (a *Strings) StringOf(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	c := a.alloc(len(b))
	copy(c, b)
	return unsafe.String(&c[0], len(c))
}

// Bytes returns a copy of s as a byte slice whose capacity is its length,
// so that appending to it copies it out of the block.
func (a *Strings) Bytes(s string) []byte {
	b := a.alloc(len(s))
	copy(b, s)
	return b
}

// slabSize is the number of values of a block of a Slab.
const slabSize = 1024

// A Slab hands out pointers to new values of T from arrays of them. The
// zero value is ready to use; it is not safe for concurrent use.
type Slab[T any] struct {
	free []T
}

// New returns a pointer to a new value equal to v.
func (s *Slab[T]) New(v T) *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabSize)
	}
	p := &s.free[0]
	*p = v
	s.free = s.free[1:]
	return p
}
