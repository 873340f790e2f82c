package yamltree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
)

// The binary form of a tree is a compact encoding that ReadBinary turns
// back into the same tree: the same types (int and int64, []string and
// []any, nil slices and maps), the same key order, the same numeric keys.
// A build holds the UASP documents of thousands of skills between loading
// them and writing their pages; held this way a document takes about a
// third of the memory its tree does. It is an encoding of this process's
// trees, not a file format: nothing stores it.
//
// Each value is a tag byte, then:
//
//	string, Timestamp, *big.Int   uvarint length, bytes (*big.Int in decimal)
//	int, int64                    varint
//	float64                       8 bytes, little-endian IEEE 754
//	[]string                      uvarint count, strings as above
//	[]any                         uvarint count, values
//	*Map                          uvarint count, then per key: the key as
//	                              a string, with binNumericMap an isNum
//	                              byte and 8 bytes of its value, then the
//	                              value
const (
	binNil byte = iota
	binFalse
	binTrue
	binString
	binTimestamp
	binInt
	binInt64
	binBigInt
	binFloat
	binStrings
	binNilStrings
	binList
	binNilList
	binMap
	binNumericMap
	binNilMap
)

// maxBinaryDepth bounds the nesting ReadBinary follows.
const maxBinaryDepth = 10_000

// AppendBinary appends the binary form of tree v to dst. It fails on a
// value of a type a tree does not hold.
func AppendBinary(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, binNil), nil
	case bool:
		if x {
			return append(dst, binTrue), nil
		}
		return append(dst, binFalse), nil
	case string:
		return appendBinaryString(append(dst, binString), x), nil
	case Timestamp:
		return appendBinaryString(append(dst, binTimestamp), string(x)), nil
	case int:
		return binary.AppendVarint(append(dst, binInt), int64(x)), nil
	case int64:
		return binary.AppendVarint(append(dst, binInt64), x), nil
	case *big.Int:
		if x == nil {
			return nil, errors.New("yamltree: nil *big.Int in a tree")
		}
		return appendBinaryString(append(dst, binBigInt), x.String()), nil
	case float64:
		return binary.LittleEndian.AppendUint64(append(dst, binFloat), math.Float64bits(x)), nil
	case []string:
		if x == nil {
			return append(dst, binNilStrings), nil
		}
		dst = binary.AppendUvarint(append(dst, binStrings), uint64(len(x)))
		for _, s := range x {
			dst = appendBinaryString(dst, s)
		}
		return dst, nil
	case []any:
		if x == nil {
			return append(dst, binNilList), nil
		}
		dst = binary.AppendUvarint(append(dst, binList), uint64(len(x)))
		var err error
		for _, item := range x {
			if dst, err = AppendBinary(dst, item); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case *Map:
		if x == nil {
			return append(dst, binNilMap), nil
		}
		numeric := x.rare != nil && x.rare.numeric != nil
		tag := binMap
		if numeric {
			tag = binNumericMap
		}
		dst = binary.AppendUvarint(append(dst, tag), uint64(len(x.entries)))
		var err error
		for i, e := range x.entries {
			dst = appendBinaryString(dst, e.key)
			if numeric {
				n := x.rare.numeric[i]
				if n.isNum {
					dst = binary.LittleEndian.AppendUint64(append(dst, 1), math.Float64bits(n.value))
				} else {
					dst = append(dst, 0)
				}
			}
			if dst, err = AppendBinary(dst, e.value); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	return nil, fmt.Errorf("yamltree: a tree cannot hold a %T", v)
}

func appendBinaryString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

// ReadBinary returns the tree whose binary form is b (AppendBinary). Each
// string of the tree is a copy of its own: one shared copy of b would be
// held whole by any string a reader keeps.
func ReadBinary(b []byte) (any, error) {
	r := binaryReader{text: b}
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	if r.pos != len(r.text) {
		return nil, errBinary
	}
	return v, nil
}

var errBinary = errors.New("yamltree: not the binary form of a tree")

type binaryReader struct {
	text []byte
	pos  int
}

func (r *binaryReader) byte() (byte, error) {
	if r.pos >= len(r.text) {
		return 0, errBinary
	}
	c := r.text[r.pos]
	r.pos++
	return c, nil
}

func (r *binaryReader) uvarint() (uint64, error) {
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, errBinary
			}
			return x | uint64(c)<<s, nil
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, errBinary
}

func (r *binaryReader) varint() (int64, error) {
	ux, err := r.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x, err
}

// presize is the capacity to make for n items still to be read: n, up
// to a bound. Every level of a nested list may claim all the bytes left,
// and each level's slice is held while the next is read; sized for the
// claim, corrupt input of k bytes would make k/4 levels of k/4 items.
func presize(n int) int { return min(n, 8) }

// count reads a length of items that take at least one byte each: more
// than the bytes left is corrupt input, not a reason to allocate.
func (r *binaryReader) count() (int, error) {
	n, err := r.uvarint()
	if err != nil || n > uint64(len(r.text)-r.pos) {
		return 0, errBinary
	}
	return int(n), nil
}

func (r *binaryReader) string() (string, error) {
	n, err := r.count()
	if err != nil {
		return "", err
	}
	s := string(r.text[r.pos : r.pos+n])
	r.pos += n
	return s, nil
}

func (r *binaryReader) float() (float64, error) {
	if len(r.text)-r.pos < 8 {
		return 0, errBinary
	}
	var bits uint64
	for i := 7; i >= 0; i-- {
		bits = bits<<8 | uint64(r.text[r.pos+i])
	}
	r.pos += 8
	return math.Float64frombits(bits), nil
}

func (r *binaryReader) value(depth int) (any, error) {
	if depth > maxBinaryDepth {
		return nil, errBinary
	}
	tag, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case binNil:
		return nil, nil
	case binFalse:
		return false, nil
	case binTrue:
		return true, nil
	case binString:
		return r.string()
	case binTimestamp:
		s, err := r.string()
		return Timestamp(s), err
	case binInt:
		x, err := r.varint()
		return int(x), err
	case binInt64:
		return r.varint()
	case binBigInt:
		s, err := r.string()
		if err != nil {
			return nil, err
		}
		x, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, errBinary
		}
		return x, nil
	case binFloat:
		return r.float()
	case binNilStrings:
		return []string(nil), nil
	case binStrings:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, presize(n))
		for range n {
			s, err := r.string()
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	case binNilList:
		return []any(nil), nil
	case binList:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, presize(n))
		for range n {
			v, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case binNilMap:
		return (*Map)(nil), nil
	case binMap, binNumericMap:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		m := &Map{entries: make([]entry, 0, presize(n))}
		for range n {
			key, err := r.string()
			if err != nil {
				return nil, err
			}
			var num numericKey
			if tag == binNumericMap {
				isNum, err := r.byte()
				if err != nil || isNum > 1 {
					return nil, errBinary
				}
				if isNum == 1 {
					num.isNum = true
					if num.value, err = r.float(); err != nil {
						return nil, err
					}
				}
			}
			v, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if m.Has(key) {
				return nil, errBinary
			}
			m.set(key, v, num)
		}
		if tag == binNumericMap && (m.rare == nil || m.rare.numeric == nil) {
			// Every key was a string: the map had numeric keys once.
			m.rareOf().numeric = make([]numericKey, len(m.entries))
		}
		return m, nil
	}
	return nil, errBinary
}
