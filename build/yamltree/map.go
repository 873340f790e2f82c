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
//
// A document holds many small maps, so a Map is one slice of entries and
// a pointer to what few maps have: numeric keys and the index of a large
// map.
type Map struct {
	entries []entry
	rare    *mapRare // nil in most maps
}

// mapRare is what few maps have.
type mapRare struct {
	// numeric is nil unless a key was a number in YAML: Python sorts a
	// mapping whose keys are all numbers by value, not as text. Its items
	// match entries.
	numeric []numericKey
	index   map[string]int // for maps of more than 16 keys
}

// rareOf returns m.rare, made if need be.
func (m *Map) rareOf() *mapRare {
	if m.rare == nil {
		m.rare = &mapRare{}
	}
	return m.rare
}

type entry struct {
	key   string
	value any
}

type numericKey struct {
	isNum bool
	value float64
}

// NewMap returns an empty map.
func NewMap() *Map { return &Map{} }

// Len returns the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.entries)
}

func (m *Map) find(key string) int {
	if m == nil {
		return -1
	}
	if m.rare != nil && m.rare.index != nil {
		if i, ok := m.rare.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range m.entries {
		if m.entries[i].key == key {
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
	return m.entries[i].value, true
}

// GetAs returns the value for key when it is a T: a key that is missing,
// or holds another type, gives T's zero value and false.
func GetAs[T any](m *Map, key string) (T, bool) {
	v, _ := m.Get(key)
	t, ok := v.(T)
	return t, ok
}

// Has reports whether key is present.
func (m *Map) Has(key string) bool { return m.find(key) >= 0 }

// Set sets key to v. A new key goes last; an existing key keeps its place,
// as a Python dict does.
func (m *Map) Set(key string, v any) {
	m.set(key, v, numericKey{})
}

func (m *Map) set(key string, v any, num numericKey) {
	if i := m.find(key); i >= 0 {
		m.entries[i].value = v
		return
	}
	m.entries = append(m.entries, entry{key, v})
	if num.isNum && (m.rare == nil || m.rare.numeric == nil) {
		m.rareOf().numeric = make([]numericKey, len(m.entries)-1, cap(m.entries))
	}
	r := m.rare
	if r != nil && r.numeric != nil {
		r.numeric = append(r.numeric, num)
	}
	if r != nil && r.index != nil {
		r.index[key] = len(m.entries) - 1
	} else if len(m.entries) > 16 {
		r = m.rareOf()
		r.index = make(map[string]int, len(m.entries))
		for i, e := range m.entries {
			r.index[e.key] = i
		}
	}
}

// numericAt returns what is known of the i-th key as a number.
func (m *Map) numericAt(i int) numericKey {
	if m.rare == nil || m.rare.numeric == nil {
		return numericKey{}
	}
	return m.rare.numeric[i]
}

// Delete removes key if present.
func (m *Map) Delete(key string) {
	i := m.find(key)
	if i < 0 {
		return
	}
	m.entries = slices.Delete(m.entries, i, i+1)
	if r := m.rare; r != nil && r.numeric != nil {
		r.numeric = slices.Delete(r.numeric, i, i+1)
	}
	if r := m.rare; r != nil && r.index != nil {
		r.index = make(map[string]int, len(m.entries))
		for i, e := range m.entries {
			r.index[e.key] = i
		}
	}
}

// Keys returns the keys in document order.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	keys := make([]string, len(m.entries))
	for i, e := range m.entries {
		keys[i] = e.key
	}
	return keys
}

// keyAt and valueAt return the i-th entry's key and value.
func (m *Map) keyAt(i int) string { return m.entries[i].key }
func (m *Map) valueAt(i int) any  { return m.entries[i].value }

// All iterates over the entries in document order.
func (m *Map) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if m == nil {
			return
		}
		for _, e := range m.entries {
			if !yield(e.key, e.value) {
				return
			}
		}
	}
}

// sortedKeys returns the keys in the order Python's sort_keys=True gives:
// numerically when every key was a number, else by code point.
func (m *Map) sortedKeys() []string {
	idx := make([]int, len(m.entries))
	for i := range idx {
		idx[i] = i
	}
	allNum := len(m.entries) > 0
	for i := range m.entries {
		allNum = allNum && m.numericAt(i).isNum
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if allNum {
			switch na, nb := m.rare.numeric[a].value, m.rare.numeric[b].value; {
			case na < nb:
				return -1
			case na > nb:
				return 1
			}
			return 0
		}
		switch ka, kb := m.entries[a].key, m.entries[b].key; {
		case ka < kb: // byte order of UTF-8 is code point order
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = m.entries[j].key
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
		c := &Map{entries: make([]entry, len(x.entries))}
		for i, e := range x.entries {
			c.entries[i] = entry{e.key, Clone(e.value)}
		}
		if r := x.rare; r != nil {
			c.rare = &mapRare{numeric: slices.Clone(r.numeric)}
			if r.index != nil {
				c.rare.index = make(map[string]int, len(r.index))
				for k, i := range r.index {
					c.rare.index[k] = i
				}
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
