package runtime

import (
	"sync"
	"time"
)

// FallbackStore keeps last-known-good answers for [FallbackCached]
// operations. Keys are made by the pipeline from the operation's name and
// the request key given to [Do]. Implementations must be safe for
// concurrent use; Store is called after every success of such an operation,
// so it should be cheap.
type FallbackStore interface {
	// Load returns the value stored under key and when it was stored.
	Load(key string) (value any, stored time.Time, ok bool)
	// Store records value under key at time at.
	Store(key string, value any, at time.Time)
}

// MemoryStore is an in-memory [FallbackStore] holding at most a fixed number
// of entries; when full it evicts the oldest. It is safe for concurrent use.
// The zero value is not usable; call [NewMemoryStore].
type MemoryStore struct {
	mu      sync.Mutex
	max     int
	entries map[string]*memoryEntry
	order   []string // keys in insertion order, for eviction
}

type memoryEntry struct {
	value any
	at    time.Time
}

// DefaultMemoryStoreSize is the number of entries [NewDependency] gives the
// default store.
const DefaultMemoryStoreSize = 4096

// NewMemoryStore returns a store holding at most max entries (at least 1).
func NewMemoryStore(max int) *MemoryStore {
	if max < 1 {
		max = 1
	}
	return &MemoryStore{max: max, entries: make(map[string]*memoryEntry)}
}

// Load returns the entry stored under key.
func (s *MemoryStore) Load(key string) (any, time.Time, bool) {
	s.mu.Lock()
	e, ok := s.entries[key]
	s.mu.Unlock()
	if !ok {
		return nil, time.Time{}, false
	}
	return e.value, e.at, true
}

// Store records value under key, evicting the oldest entry when full.
func (s *MemoryStore) Store(key string, value any, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.entries[key]; ok {
		// Replaced, not changed in place: Load reads an entry unlocked.
		s.entries[key] = &memoryEntry{value: value, at: at}
		return
	}
	for len(s.entries) >= s.max && len(s.order) > 0 {
		delete(s.entries, s.order[0])
		s.order = s.order[1:]
	}
	s.entries[key] = &memoryEntry{value: value, at: at}
	s.order = append(s.order, key)
}

// Len returns the number of entries.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}
