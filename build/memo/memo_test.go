package memo

import (
	"sync"
	"testing"
)

func TestMemoKeepsOneBuild(t *testing.T) {
	m := New()
	m.Put("a", 1)
	m.Put("b", 2)
	m.Sweep() // build 1 made a and b
	if v, ok := Lookup[int](m, "a"); !ok || v != 1 {
		t.Fatalf("a = %v, %v after one build", v, ok)
	}
	m.Sweep() // build 2 used only a
	if _, ok := m.Get("b"); ok {
		t.Error("b survived a build that did not use it")
	}
	if _, ok := m.Get("a"); !ok {
		t.Error("a was forgotten although build 2 used it")
	}
	if _, ok := Lookup[string](m, "a"); ok {
		t.Error("Lookup found an int as a string")
	}
}

func TestMemoFailedBuildKeepsBoth(t *testing.T) {
	m := New()
	m.Put("old", 1)
	m.Sweep()
	m.Put("new", 2) // a build that fails: no Sweep
	for _, k := range []string{"old", "new"} {
		if _, ok := m.Get(k); !ok {
			t.Errorf("%s lost after a failed build", k)
		}
	}
}

func TestNilMemo(t *testing.T) {
	var m *Memo
	m.Put("a", 1)
	m.Sweep()
	if _, ok := m.Get("a"); ok || m.Len() != 0 {
		t.Error("a nil Memo remembered something")
	}
}

func TestMemoConcurrent(t *testing.T) {
	m := New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				k := string(rune('a' + (i+j)%26))
				m.Put(k, j)
				m.Get(k)
			}
		}()
	}
	wg.Wait()
	if m.Len() != 26 {
		t.Errorf("%d keys, want 26", m.Len())
	}
}
