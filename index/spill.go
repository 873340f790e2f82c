package index

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync"
)

// A spill holds the JSON index's share of each skill's record, its terms
// with their impacts, in a temporary file (in the build folder) from the
// pass until the index is inverted, so that a build's memory does not grow by a record a skill. A
// build without a memo spills: nothing keeps its records for the next.
// serve keeps them in its memo instead, and does not spill.
//
// An entry is the number of terms, then each term's number in the dict,
// as uvarints, then each term's impact, a byte each.
type spill struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	end int64   // bytes written
	at  []int64 // skill -> its entry's offset; -1 when not written
	n   []int32 // skill -> its entry's length
	buf []byte
	err error
	// removed is set when the file was removed while open (it goes with
	// its last descriptor); otherwise close removes it.
	removed bool
}

// newSpill creates the spill of n skills' entries in dir: the build
// folder, which is on the disk the site goes to (the system's temporary
// folder may be memory), and goes with a build that fails.
func newSpill(dir string, n int) (*spill, error) {
	f, err := os.CreateTemp(dir, ".search-*.spill")
	if err != nil {
		return nil, fmt.Errorf("the search index's temporary file: %w", err)
	}
	s := &spill{f: f, w: bufio.NewWriterSize(f, 256<<10), at: make([]int64, n), n: make([]int32, n)}
	for i := range s.at {
		s.at[i] = -1
	}
	// Where a file can go while open (not on Windows), it goes now, so
	// that a build that fails or is cancelled leaves nothing behind.
	s.removed = os.Remove(f.Name()) == nil
	return s, nil
}

// put writes skill i's entry: its terms (numbers in the dict) and their
// impacts.
func (s *spill) put(i int, terms []uint32, q []uint8) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := binary.AppendUvarint(s.buf[:0], uint64(len(terms)))
	for _, t := range terms {
		b = binary.AppendUvarint(b, uint64(t))
	}
	b = append(b, q...)
	s.buf = b
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = fmt.Errorf("the search index's temporary file: %w", err)
		return
	}
	s.at[i], s.n[i] = s.end, int32(len(b))
	s.end += int64(len(b))
}

// each returns the term lists of the skills, whose documents are
// numbered num: a call hands fn every skill's document number, terms and
// impacts, in the order of the numbers; the slices are valid only during
// the call.
func (s *spill) each(num docNumbers) termLists {
	return func(fn func(d int, terms []uint32, q []uint8)) error {
		return s.eachOf(num, fn)
	}
}

func (s *spill) eachOf(num docNumbers, fn func(d int, terms []uint32, q []uint8)) error {
	if s.err != nil {
		return s.err
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("the search index's temporary file: %w", err)
	}
	if len(num.of) != len(s.at) {
		return fmt.Errorf("internal error: %d document numbers for %d skills", len(num.of), len(s.at))
	}
	var buf []byte
	var terms []uint32
	for d, i := range num.at {
		if i < 0 {
			continue
		}
		at := s.at[i]
		if at < 0 {
			return fmt.Errorf("internal error: skill %d has no search record", i)
		}
		buf = slices.Grow(buf[:0], int(s.n[i]))[:s.n[i]]
		if n, err := s.f.ReadAt(buf, at); n < len(buf) {
			return fmt.Errorf("the search index's temporary file: %w", err)
		}
		count, k := binary.Uvarint(buf)
		terms = terms[:0]
		for range count {
			t, w := binary.Uvarint(buf[k:])
			if w <= 0 {
				return fmt.Errorf("internal error: skill %d's search record is cut short", i)
			}
			terms = append(terms, uint32(t))
			k += w
		}
		q := buf[k:]
		if len(q) != len(terms) {
			return fmt.Errorf("internal error: skill %d's search record has %d impacts for %d terms", i, len(q), len(terms))
		}
		fn(d, terms, q)
	}
	return nil
}

// close closes the file and removes it.
func (s *spill) close() error {
	err := s.f.Close()
	if !s.removed {
		if rerr := os.Remove(s.f.Name()); err == nil {
			err = rerr
		}
	}
	return err
}
