package runtime

import (
	"context"
	"errors"
	"time"
)

// FleetStore is where the replicas of a service share the circuit breaker
// and the retry budget of a dependency: every replica's [Dependency] of the
// same name, given a store with [WithFleet], pushes its counts to the store
// and reads the fleet's state back in the background, never on a call's
// path. The runtime package defines the seam; the redisfleet sub-package
// implements it on Redis or Valkey (github.com/redis/go-redis/v9).
//
// The store owns the shared state machine, which it runs atomically for
// each [FleetStore.Sync] (in Redis, one Lua script):
//
//   - Breaker counts. The successes and failures a replica reports for a
//     closed generation are added to rolling buckets of
//     [FleetBreakerRequest.Bucket] over the breaker's window, timed by the
//     store's own clock. When the fleet's counts reach the minimum calls and
//     the failure rate, the breaker opens for the whole fleet: a new
//     generation, open for [BreakerPolicy.OpenFor].
//   - Open to half-open. The first Sync after the open period turns the
//     breaker half-open (a new generation). One replica that asks for it
//     ([FleetBreakerRequest.WantProbe]) becomes the prober for
//     [FleetBreakerRequest.ProbeLease]: it alone lets probes through, and
//     its verdict ([FleetBreakerRequest.Verdict]) closes the breaker or
//     opens it again, for every replica.
//   - Retry budget. The calls a replica reports earn the fleet's balance
//     [BudgetPolicy.Ratio] each, up to [BudgetPolicy.MaxBalance]; a replica
//     asks for retry tokens ([FleetBudgetRequest.Want]), taken from the
//     balance first and from the fleet-wide floor of
//     [BudgetPolicy.MinPerSecond] (a GCRA token bucket) second.
//
// Every transition bumps the generation and is announced to the watchers
// of the dependency ([FleetStore.Watch]).
//
// Implementations must be safe for concurrent use. ctx always has a
// deadline: the dependency stops waiting for Sync then (it gives the
// synchronisation up, and drops the counts it carried), so a request that
// reaches the store after it must change nothing there. A store that
// cannot be reached, answers slowly or answers something it cannot read
// returns an error, and the dependency then keeps its state locally (see
// [WithFleet]).
type FleetStore interface {
	// Sync pushes what one replica has to say and returns the fleet's
	// state, in one round trip. It is called by one goroutine per
	// dependency.
	Sync(ctx context.Context, req *FleetRequest) (FleetReply, error)
	// Watch calls notify, on a goroutine of the store's, soon after any
	// replica changes the breaker state of the dependency named dependency
	// under prefix, and whenever the store may have missed such a change
	// (after it reconnects). notify must return quickly. A store that
	// cannot watch returns a stop that does nothing: replicas then learn
	// transitions by polling every [FleetPolicy.SyncInterval]. stop ends
	// the watch; calling it again does nothing.
	Watch(prefix, dependency string, notify func()) (stop func())
}

// ErrFleetClosed is returned by a [FleetStore] whose underlying client was
// closed: the dependency stops synchronising and keeps its state locally.
var ErrFleetClosed = errors.New("resilient: fleet store closed")

// FleetRequest is what one replica pushes to the [FleetStore] and asks of
// it in one [FleetStore.Sync].
type FleetRequest struct {
	// Prefix is the key prefix ([FleetPolicy.Prefix]) and Dependency the
	// dependency's name: together they name the shared state.
	Prefix, Dependency string
	// Replica identifies the replica's [Dependency] value: random, made
	// once by [NewDependency].
	Replica string
	// Breaker is the breaker part of the request.
	Breaker FleetBreakerRequest
	// Budget is the retry budget part of the request.
	Budget FleetBudgetRequest
}

// FleetVerdict is a prober's verdict on a half-open round.
type FleetVerdict uint8

const (
	// VerdictNone: no verdict yet.
	VerdictNone FleetVerdict = iota
	// VerdictClose: every probe succeeded; the fleet's breaker closes.
	VerdictClose
	// VerdictReopen: a probe failed; the fleet's breaker opens again.
	VerdictReopen
)

// FleetBreakerRequest is the breaker part of a [FleetRequest].
type FleetBreakerRequest struct {
	// Generation is the fleet generation the counts and the verdict
	// belong to, as the replica last learnt it (zero before it learnt
	// any). Counts and verdicts of another generation are dropped.
	Generation uint64
	// Successes and Failures are the attempt outcomes the replica saw
	// since its last Sync, while sharing the fleet's state (outcomes
	// counted while it was local are never sent).
	Successes, Failures uint64
	// WantProbe asks to become the prober when the breaker is half-open
	// and has none (or the prober's lease ran out): the replica has calls
	// waiting.
	WantProbe bool
	// Verdict is the prober's verdict on its probes, for Generation.
	Verdict FleetVerdict
	// Policy is the breaker's policy, defaults filled in. Replicas of one
	// dependency should share it; each Sync applies the one it carries.
	Policy BreakerPolicy
	// Bucket is the length of one bucket of the rolling window.
	Bucket time.Duration
	// ProbeLease is how long a prober keeps its role without a verdict.
	ProbeLease time.Duration
}

// FleetBudgetRequest is the retry budget part of a [FleetRequest].
type FleetBudgetRequest struct {
	// Calls is the number of calls admitted since the last Sync, while
	// sharing the fleet's state: each earns the fleet's balance Policy.Ratio of a retry.
	Calls uint64
	// Want is the number of retry tokens the replica asks for, taken from
	// the balance first; at most WantFloor of them may come from the
	// fleet's floor (tokens the replica has an immediate use for).
	Want, WantFloor int64
	// Policy is the budget's policy, defaults filled in.
	Policy BudgetPolicy
}

// FleetReply is the fleet's state as a [FleetStore.Sync] returns it.
type FleetReply struct {
	// Generation counts the fleet breaker's transitions.
	Generation uint64
	// State is the fleet breaker's state.
	State BreakerState
	// OpenLeft is how long the breaker stays open, measured by the
	// store's clock; zero unless State is [BreakerOpen].
	OpenLeft time.Duration
	// Prober is true when the replica is the half-open round's prober.
	Prober bool
	// Requests and Failures are the fleet's counted attempts and failures
	// in the current window (closed state).
	Requests, Failures uint64
	// Granted is the number of retry tokens granted to the replica.
	Granted int64
}

// FleetEvent describes a change of where a dependency keeps its breaker
// and budget state: shared with the fleet, or local to the replica.
type FleetEvent struct {
	Dependency string
	// Store is the store's name from the policy ([FleetPolicy.Store]).
	Store string
	// Shared is true when the state is now the fleet's, false when the
	// replica went back to its local breaker and budget.
	Shared bool
	// Err is why the state went local: the store's last error (nil when
	// the dependency was closed).
	Err error
	At  time.Time
}

// FleetObserver is an [Observer] that also wants to know when a
// dependency's state goes from fleet to local and back. [NewDependency]
// looks for it on the observer given with [WithObserver].
type FleetObserver interface {
	// FleetChange is called once for every change, from the dependency's
	// background goroutine.
	FleetChange(FleetEvent)
}

// FleetChange does nothing.
func (NopObserver) FleetChange(FleetEvent) {}

// FleetStatus is a dependency's view of its fleet state, from
// [Dependency.Fleet].
type FleetStatus struct {
	// Enabled is true when the dependency was given a store.
	Enabled bool
	// Shared is true while the breaker and budget are the fleet's; false
	// while the replica uses its local ones (no store, or the store is
	// unreachable, slow or unreadable).
	Shared bool
	// State is the fleet breaker's state as last synchronised.
	State BreakerState
	// Generation is the fleet breaker's generation as last synchronised.
	Generation uint64
	// Requests and Failures are the fleet's counts in its window as last
	// synchronised.
	Requests, Failures uint64
	// Tokens is the number of retry tokens the replica holds from the
	// fleet's budget.
	Tokens int64
	// LastSync is when the last successful synchronisation ended; zero
	// before any.
	LastSync time.Time
	// Err is the last synchronisation's error, nil when it succeeded.
	Err error
}
