package fallbackstore

import (
	"sync"
	"time"
)

// DefaultMemorySize is the number of entries of the store the core
// runtime gives a dependency without one of its own
// ([NewMemory](DefaultMemorySize)).
const DefaultMemorySize = 4096

// Store keeps last-known-good answers for the cached fallbacks of the
// core runtime package (FallbackCached operations). Keys are made by the
// pipeline: the dependency's and the operation's names, then the SHA-256,
// in hexadecimal, of the request key given to Do (which for DoHTTP and the
// gRPC glue holds the request's credentials unless the answer is shared),
// the call's WithFallbackKey and the dependency's partition
// (WithFallbackPartition). No request data is kept in clear in a key, so
// a store may be external. Implementations must be safe for concurrent
// use; Store is called after every success of such an operation, so it
// should be cheap. Values are what the pipeline hands over: DoHTTP stores
// a record of the answer (status, header, body bytes) rather than the
// decoded value, which it decodes afresh for each caller it serves.
type Store interface {
	// Load returns the value stored under key and when it was stored.
	Load(key string) (value any, stored time.Time, ok bool)
	// Store records value under key at time at.
	Store(key string, value any, at time.Time)
}

// Memory is an in-memory [Store] holding at most a fixed number of
// entries; when full it evicts the oldest. It is safe for concurrent use.
// The zero value is not usable; call [NewMemory].
type Memory struct {
	mu      sync.Mutex
	max     int
	entries map[string]*memoryEntry
	order   []string // keys in insertion order, for eviction
}

type memoryEntry struct {
	value any
	at    time.Time
}

// NewMemory returns a store holding at most max entries (at least 1).
func NewMemory(max int) *Memory {
	if max < 1 {
		max = 1
	}
	return &Memory{max: max, entries: make(map[string]*memoryEntry)}
}

// Load returns the entry stored under key.
func (s *Memory) Load(key string) (any, time.Time, bool) {
	s.mu.Lock()
	e, ok := s.entries[key]
	s.mu.Unlock()
	if !ok {
		return nil, time.Time{}, false
	}
	return e.value, e.at, true
}

// Store records value under key, evicting the oldest entry when full.
func (s *Memory) Store(key string, value any, at time.Time) {
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
func (s *Memory) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}
