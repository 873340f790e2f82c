// Package memo keeps what one build worked out for the next build in the
// same process, such as a skill's analysed search terms, keyed by a hash of
// everything the value depends on. `skilldex serve` keeps one Memo across
// its rebuilds, so that a rebuild after an edit redoes only what the edit
// touched; a one-off build has none (a nil *Memo remembers nothing).
package memo

import "sync"

// A Memo holds values by key for the build under way and the one before.
// It is safe for concurrent use.
type Memo struct {
	mu   sync.Mutex
	prev map[string]any // what the last completed build used
	cur  map[string]any // what this build used or made
}

// New returns an empty Memo.
func New() *Memo {
	return &Memo{prev: map[string]any{}, cur: map[string]any{}}
}

// Get returns the value stored under key by this build or the previous
// one, and keeps it for the next.
func (m *Memo) Get(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.cur[key]; ok {
		return v, true
	}
	v, ok := m.prev[key]
	if ok {
		m.cur[key] = v
	}
	return v, ok
}

// Put stores v under key for this build and the next.
func (m *Memo) Put(key string, v any) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.cur[key] = v
	m.mu.Unlock()
}

// Sweep ends a build: what it did not use is forgotten, so that the memo
// holds one build's worth of values however many edits come and go. Call
// it after a build succeeded; after a failed one, the next build still
// finds the values of both.
func (m *Memo) Sweep() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.prev, m.cur = m.cur, map[string]any{}
	m.mu.Unlock()
}

// Len returns how many values the memo holds for the build under way.
func (m *Memo) Len() int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.cur)
}

// Lookup is Get with the value's type: a value of another type counts as
// missing.
func Lookup[T any](m *Memo, key string) (T, bool) {
	v, ok := m.Get(key)
	t, isT := v.(T)
	return t, ok && isT
}
