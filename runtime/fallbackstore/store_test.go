package fallbackstore

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestMemory: a memory store keeps at most its size, evicting the oldest
// entry; storing a key again replaces its value without evicting; a store
// made with a size below one holds one entry.
func TestMemory(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := NewMemory(2)
	s.Store("a", 1, at)
	s.Store("b", 2, at)
	s.Store("a", 3, at.Add(time.Second))
	if v, when, ok := s.Load("a"); !ok || v != 3 || !when.Equal(at.Add(time.Second)) {
		t.Errorf(`Load("a") = %v, %v, %v; want 3 stored a second later`, v, when, ok)
	}
	s.Store("c", 4, at)
	if _, _, ok := s.Load("a"); ok {
		t.Error(`"a", the oldest key, is still there after a third key`)
	}
	if v, _, ok := s.Load("c"); !ok || v != 4 || s.Len() != 2 {
		t.Errorf(`Load("c") = %v, %v with %d entries; want 4 with 2`, v, ok, s.Len())
	}
	one := NewMemory(0)
	one.Store("x", 1, at)
	one.Store("y", 2, at)
	if one.Len() != 1 {
		t.Errorf("NewMemory(0) holds %d entries, want 1", one.Len())
	}
}

// TestMemoryConcurrent: loads and stores from many goroutines keep the
// bound (run with -race).
func TestMemoryConcurrent(t *testing.T) {
	s := NewMemory(8)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				k := fmt.Sprint(g, i%10)
				s.Store(k, i, time.Time{})
				s.Load(k)
			}
		})
	}
	wg.Wait()
	if s.Len() > 8 {
		t.Errorf("%d entries, want at most 8", s.Len())
	}
}
