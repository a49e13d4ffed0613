package petstore

import (
	"context"
	"sync"
	"sync/atomic"
)

// Client is one way of calling the pet store, as the fault harness drives it.
//
// A degraded answer (a read served from the fallback cache while the store
// is failing) is returned as Answer{Degraded: true} with a nil error, so
// callers count it as served, degraded.
type Client interface {
	// Name says which client this is, such as "resilient HTTP" or
	// "naive gRPC".
	Name() string
	// ListPets lists every pet.
	ListPets(ctx context.Context) (Answer, error)
	// GetPet reads one pet.
	GetPet(ctx context.Context, id string) (Answer, error)
	// CreatePet adds a pet; it sends one idempotency key per logical call,
	// the same on every attempt.
	CreatePet(ctx context.Context, name string) (Answer, error)
	// UpdatePet renames a pet.
	UpdatePet(ctx context.Context, id, name string) (Answer, error)
	// DeletePet removes a pet.
	DeletePet(ctx context.Context, id string) (Answer, error)
	// AdoptPet adopts a pet; it is not idempotent and never retried.
	AdoptPet(ctx context.Context, id string) (Answer, error)
	// Breaker returns the dependency's breaker state ("closed", "open",
	// "half-open"; "none" for naive clients).
	Breaker() string
	// InFlight returns the calls holding a bulkhead permit (0 for naive
	// clients).
	InFlight() int
	// Close releases what the client opened: idle connections, gRPC
	// connections.
	Close() error
}

// Answer is what a call returned besides its error.
type Answer struct {
	// Degraded is set when the answer came from a fallback rather than the
	// store.
	Degraded bool
}

// Faults are the server-side switches for application faults; the zero
// value is a healthy server. Both servers consult the same Faults on every
// request (the health check excepted). Safe for concurrent use: every
// field is an atomic, set and read through the methods in faults.go.
type Faults struct {
	latency        atomic.Int64  // ns added to every request
	status         atomic.Int64  // HTTP status answered to every request; 0 = none
	retryAfter     atomic.Int64  // ns sent as Retry-After / pushback with status
	tailFraction   atomic.Uint64 // math.Float64bits of the share of slow calls
	tailFactor     atomic.Uint64 // math.Float64bits of the slow calls' factor
	hang           atomic.Bool   // never answer until the request's context ends
	tailCounter    atomic.Uint64 // requests seen, for the deterministic tail
	lose           atomic.Uint64 // math.Float64bits of the share of answers lost
	loseCounter    atomic.Uint64 // requests applied, for the deterministic loss
	loadCap        atomic.Int64  // requests served at full speed; 0 = no load model
	loadTimeout    atomic.Int64  // ns the store works on a request before answering 503
	loadNotice     atomic.Int64  // ns an abandoned request still costs the store
	loadContention atomic.Uint64 // float64 bits: extra work per unit of overload
	wip            atomic.Int64  // work in progress under the load model, abandoned work included
}

// Counters are what the servers count, for duplicate detection and
// amplification. Safe for concurrent use; read them with Snapshot and
// clear them with Reset (counters.go).
type Counters struct {
	requests    atomic.Int64
	inFlight    atomic.Int64
	maxInFlight atomic.Int64
	shed        atomic.Int64
	slowWaited  atomic.Int64
	slowCut     atomic.Int64

	mu           sync.Mutex
	perOp        map[string]int64 // operation id → requests reaching the handler
	applied      map[string]int64 // idempotency key → creates applied
	adopts       map[string]int64 // pet id → adopts applied
	adoptsByCall map[string]int64 // call id → adopts applied
}

// CountersSnapshot is a copy of [Counters] at one moment.
type CountersSnapshot struct {
	// Requests counts all requests reaching the handlers (after the
	// shedder; the health check excluded).
	Requests int64
	// PerOperation counts requests per operation id ("listPets", "getPet",
	// "createPet", "updatePet", "deletePet", "adoptPet", "watchPets").
	PerOperation map[string]int64
	// Applied counts creates applied per idempotency key; a value above 1
	// is a duplicate. Creates without a key are counted under "".
	Applied map[string]int64
	// Adopts counts adopts applied per pet id.
	Adopts map[string]int64
	// AdoptsByCall counts adopts applied per call id ([CallIDHeader]);
	// adopts sent without one are counted under "".
	AdoptsByCall map[string]int64
	// InFlight is the number of requests being handled now.
	InFlight int64
	// MaxInFlight is the highest InFlight seen since the last Reset.
	MaxInFlight int64
	// Shed counts requests rejected by the shedder.
	Shed int64
	// SlowWaited counts the requests the tail fault made slow that ran
	// their whole delay; SlowCut those whose context ended first because
	// the caller stopped waiting (a hedge answered, the deadline passed).
	SlowWaited, SlowCut int64
}
