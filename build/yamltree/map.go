// Package yamltree decodes YAML into an ordered tree of plain values, typed
// the way PyYAML's safe_load types them (YAML 1.1: yes/no are booleans, 017
// is octal, 1:30 is sexagesimal), and encodes such trees as JSON: once in
// the byte-exact form of Python's json.dumps, for content hashes, and once
// in document order, for files people and agents read.
//
// A tree holds only these types: nil, bool, string, int64, *big.Int,
// float64, Timestamp, []any and *Map.
package yamltree

import (
	"iter"
	"slices"
)

// Map is a mapping that keeps the order of its keys. Keys are strings: a
// YAML key that is not a string is stored as json.dumps would write it
// (true, null, 12, 1.5).
type Map struct {
	keys   []string
	values []any
	// numeric marks keys that were numbers in YAML: Python sorts a mapping
	// whose keys are all numbers by value, not as text.
	numeric []float64
	isNum   []bool
	index   map[string]int
}

// NewMap returns an empty map.
func NewMap() *Map { return &Map{} }

// Len returns the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys)
}

func (m *Map) find(key string) int {
	if m == nil {
		return -1
	}
	if m.index != nil {
		if i, ok := m.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range m.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Get returns the value for key.
func (m *Map) Get(key string) (any, bool) {
	i := m.find(key)
	if i < 0 {
		return nil, false
	}
	return m.values[i], true
}

// Has reports whether key is present.
func (m *Map) Has(key string) bool { return m.find(key) >= 0 }

// Set sets key to v. A new key goes last; an existing key keeps its place,
// as a Python dict does.
func (m *Map) Set(key string, v any) {
	m.set(key, v, false, 0)
}

func (m *Map) set(key string, v any, isNum bool, num float64) {
	if i := m.find(key); i >= 0 {
		m.values[i] = v
		return
	}
	m.keys = append(m.keys, key)
	m.values = append(m.values, v)
	m.isNum = append(m.isNum, isNum)
	m.numeric = append(m.numeric, num)
	if m.index != nil {
		m.index[key] = len(m.keys) - 1
	} else if len(m.keys) > 16 {
		m.index = make(map[string]int, len(m.keys))
		for i, k := range m.keys {
			m.index[k] = i
		}
	}
}

// Delete removes key if present.
func (m *Map) Delete(key string) {
	i := m.find(key)
	if i < 0 {
		return
	}
	m.keys = slices.Delete(m.keys, i, i+1)
	m.values = slices.Delete(m.values, i, i+1)
	m.isNum = slices.Delete(m.isNum, i, i+1)
	m.numeric = slices.Delete(m.numeric, i, i+1)
	if m.index != nil {
		m.index = make(map[string]int, len(m.keys))
		for i, k := range m.keys {
			m.index[k] = i
		}
	}
}

// Keys returns the keys in document order.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	return slices.Clone(m.keys)
}

// All iterates over the entries in document order.
func (m *Map) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if m == nil {
			return
		}
		for i, k := range m.keys {
			if !yield(k, m.values[i]) {
				return
			}
		}
	}
}

// sortedKeys returns the keys in the order Python's sort_keys=True gives:
// numerically when every key was a number, else by code point.
func (m *Map) sortedKeys() []string {
	idx := make([]int, len(m.keys))
	for i := range idx {
		idx[i] = i
	}
	allNum := len(m.keys) > 0
	for _, n := range m.isNum {
		allNum = allNum && n
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if allNum {
			switch {
			case m.numeric[a] < m.numeric[b]:
				return -1
			case m.numeric[a] > m.numeric[b]:
				return 1
			}
			return 0
		}
		switch {
		case m.keys[a] < m.keys[b]: // byte order of UTF-8 is code point order
			return -1
		case m.keys[a] > m.keys[b]:
			return 1
		}
		return 0
	})
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = m.keys[j]
	}
	return out
}

// Clone returns a deep copy of v.
func Clone(v any) any {
	switch x := v.(type) {
	case *Map:
		if x == nil {
			return (*Map)(nil)
		}
		c := &Map{
			keys:    slices.Clone(x.keys),
			values:  make([]any, len(x.values)),
			isNum:   slices.Clone(x.isNum),
			numeric: slices.Clone(x.numeric),
		}
		for i, v := range x.values {
			c.values[i] = Clone(v)
		}
		if x.index != nil {
			c.index = make(map[string]int, len(x.index))
			for k, i := range x.index {
				c.index[k] = i
			}
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, v := range x {
			c[i] = Clone(v)
		}
		return c
	}
	return v
}
