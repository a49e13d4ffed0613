package petstore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// BaseLatency is the service time of every request of a healthy store,
// slept with the request's context; [Faults] add to it. policy.yaml's
// measured latency (p50 5ms … p99.9 50ms) describes a store at this speed.
const BaseLatency = 5 * time.Millisecond

// Operation ids, as counted in [CountersSnapshot.PerOperation]: the
// OpenAPI operationIds, and the same names for the rpcs.
const (
	OpListPets  = "listPets"
	OpGetPet    = "getPet"
	OpCreatePet = "createPet"
	OpUpdatePet = "updatePet"
	OpDeletePet = "deletePet"
	OpAdoptPet  = "adoptPet"
	OpWatchPets = "watchPets"
)

// SeedPets are the ids of the pets a new [Store] holds: "1" (Rex), "2"
// (Tom) and "3" (Kiki).
var SeedPets = []string{"1", "2", "3"}

// Pet is a pet of the store.
type Pet struct {
	ID        string
	Name      string
	Adoptions int64
}

// ErrNotFound is returned for an id no pet has; the servers answer 404 /
// NOT_FOUND.
var ErrNotFound = errors.New("petstore: no pet has this id")

// FaultError is the answer a [Faults] status switch forces: the servers
// write Status (HTTP) or its gRPC code, with RetryAfter as Retry-After or
// grpc-retry-pushback-ms when positive.
type FaultError struct {
	Status     int
	RetryAfter time.Duration
}

// Error describes the failure.
func (e *FaultError) Error() string {
	return fmt.Sprintf("petstore: injected fault: %d %s", e.Status, http.StatusText(e.Status))
}

// Store is the in-memory pet store both servers serve. Every request goes
// through [Store.begin], which counts it and applies the faults; the
// operations then count their side effects: creates applied per
// idempotency key (a repeated key returns the first answer without
// applying again) and adopts per pet and per call id. A Store is safe for concurrent use.
type Store struct {
	faults   *Faults
	counters *Counters

	mu       sync.Mutex
	pets     map[string]Pet
	next     int
	created  map[string]Pet // idempotency key → the create's answer
	watchers map[chan Pet]struct{}
}

// NewStore returns a store holding the [SeedPets], applying faults and
// counting into counters. Nil faults or counters get fresh ones.
func NewStore(faults *Faults, counters *Counters) *Store {
	if faults == nil {
		faults = new(Faults)
	}
	if counters == nil {
		counters = new(Counters)
	}
	s := &Store{
		faults:   faults,
		counters: counters,
		pets:     map[string]Pet{},
		created:  map[string]Pet{},
		watchers: map[chan Pet]struct{}{},
	}
	for _, name := range []string{"Rex", "Tom", "Kiki"} {
		s.add(name)
	}
	return s
}

// Faults returns the store's fault switches.
func (s *Store) Faults() *Faults { return s.faults }

// Counters returns the store's counters.
func (s *Store) Counters() *Counters { return s.counters }

// begin counts a request for op and serves its faults: a hang waits for
// ctx to end; the latency (base, added, tail) is slept with ctx; a status
// fault is returned as a *FaultError. The caller must call done when the
// request is answered, whatever err is. Under a load model
// ([Faults.SetLoad]) the service time grows with the work in progress and
// abandoned requests keep costing until the store notices.
func (s *Store) begin(ctx context.Context, op string) (done func(), err error) {
	done = s.counters.enter(op)
	if s.faults.Hang() {
		<-ctx.Done()
		return done, ctx.Err()
	}
	d, slow := s.faults.delay(BaseLatency)
	if m := s.faults.Load(); m.Capacity > 0 {
		if err := s.faults.serveLoaded(ctx, d, m); err != nil {
			return done, err
		}
		if st, ra := s.faults.Status(); st != 0 {
			return done, &FaultError{Status: st, RetryAfter: ra}
		}
		return done, nil
	}
	waited := sleep(ctx, d)
	if slow {
		s.counters.countSlow(waited)
	}
	if !waited {
		return done, ctx.Err()
	}
	if st, ra := s.faults.Status(); st != 0 {
		return done, &FaultError{Status: st, RetryAfter: ra}
	}
	return done, nil
}

// List returns every pet, ordered by id.
func (s *Store) List() []Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Pet, 0, len(s.pets))
	for _, p := range s.pets {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Pet) int { return cmpID(a.ID, b.ID) })
	return out
}

// Get returns the pet with id.
func (s *Store) Get(id string) (Pet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pets[id]
	if !ok {
		return Pet{}, ErrNotFound
	}
	return p, nil
}

// Create adds a pet named name, once per non-empty idempotency key: a
// repeated key returns the first answer and applies nothing. Each create
// applied is counted under its key ("" for none).
func (s *Store) Create(key, name string) Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	if key != "" {
		if p, ok := s.created[key]; ok {
			return p
		}
	}
	p := s.add(name)
	if key != "" {
		s.created[key] = p
	}
	s.counters.countApplied(key)
	return p
}

// Update renames the pet with id.
func (s *Store) Update(id, name string) (Pet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pets[id]
	if !ok {
		return Pet{}, ErrNotFound
	}
	p.Name = name
	s.put(p)
	return p, nil
}

// Delete removes the pet with id; removing a removed pet succeeds.
func (s *Store) Delete(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pets, id)
}

// Adopt records one adoption of the pet with id, every time it is called
// (it is not idempotent), and counts it per pet and per call id (the
// caller's [CallIDHeader], "" when absent).
func (s *Store) Adopt(id, callID string) (Pet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pets[id]
	if !ok {
		return Pet{}, ErrNotFound
	}
	p.Adoptions++
	s.put(p)
	s.counters.countAdopt(id, callID)
	return p, nil
}

// watch returns every pet and a channel of later changes, until stop is
// called. Changes are dropped for a watcher that does not keep up.
func (s *Store) watch() (pets []Pet, changes <-chan Pet, stop func()) {
	pets = s.List()
	ch := make(chan Pet, 16)
	s.mu.Lock()
	s.watchers[ch] = struct{}{}
	s.mu.Unlock()
	return pets, ch, func() {
		s.mu.Lock()
		delete(s.watchers, ch)
		s.mu.Unlock()
	}
}

// add stores a new pet; s.mu is held.
func (s *Store) add(name string) Pet {
	s.next++
	p := Pet{ID: strconv.Itoa(s.next), Name: name}
	s.put(p)
	return p
}

// put stores p and tells the watchers; s.mu is held.
func (s *Store) put(p Pet) {
	s.pets[p.ID] = p
	for ch := range s.watchers {
		select {
		case ch <- p:
		default:
		}
	}
}

// cmpID orders numeric ids by value, then others by text.
func cmpID(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
