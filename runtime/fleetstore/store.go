// Package fleetstore is the protocol between a dependency of the runtime
// package and the store its replicas share their circuit breaker and
// retry budget through: the [Store] interface and the [Request] and
// [Reply] of one synchronisation.
//
// Users do not call it: they give a store to runtime.WithFleet (for
// Redis or Valkey, redisfleet.New) and read its state with
// runtime.Dependency.Fleet. It is for those who write a store, and for
// the runtime package itself, which imports it.
package fleetstore

import (
	"context"
	"errors"
	"time"
)

// Store is where the replicas of a service share the circuit breaker and
// the retry budget of a dependency: every replica's runtime.Dependency of
// the same name, given a store with runtime.WithFleet, pushes its counts
// to the store and reads the fleet's state back in the background, never
// on a call's path. This package defines the seam; the redisfleet package
// implements it on Redis or Valkey (github.com/redis/go-redis/v9).
//
// The store owns the shared state machine, which it runs atomically for
// each [Store.Sync] (in Redis, one Lua script):
//
//   - Breaker counts. The successes and failures a replica reports for a
//     closed generation are added to rolling buckets of
//     [BreakerRequest.Bucket] over [BreakerRequest.Window], timed by the
//     store's own clock. When the fleet's counts reach the minimum calls
//     and the failure rate, the breaker opens for the whole fleet: a new
//     generation, open for [BreakerRequest.OpenFor].
//   - Open to half-open. The first Sync after the open period turns the
//     breaker half-open (a new generation). One replica that asks for it
//     ([BreakerRequest.WantProbe]) becomes the prober for
//     [BreakerRequest.ProbeLease]: it alone lets probes through, and its
//     verdict ([BreakerRequest.Verdict]) closes the breaker or opens it
//     again, for every replica.
//   - Retry budget. The calls a replica reports earn the fleet's balance
//     [BudgetRequest.Ratio] each, up to [BudgetRequest.MaxBalance]; a
//     replica asks for retry tokens ([BudgetRequest.Want]), taken from the
//     balance first and from the fleet-wide floor of
//     [BudgetRequest.MinPerSecond] (a GCRA token bucket) second.
//
// Every transition bumps the generation and is announced to the watchers
// of the dependency ([Store.Watch]).
//
// Implementations must be safe for concurrent use. ctx always has a
// deadline: the dependency stops waiting for Sync then (it gives the
// synchronisation up, and drops the counts it carried), so a request that
// reaches the store after it must change nothing there. A store that
// cannot be reached, answers slowly or answers something it cannot read
// returns an error, and the dependency then keeps its state locally (see
// runtime.WithFleet).
type Store interface {
	// Sync pushes what one replica has to say and returns the fleet's
	// state, in one round trip. It is called by one goroutine per
	// dependency.
	Sync(ctx context.Context, req *Request) (Reply, error)
	// Watch calls notify, on a goroutine of the store's, soon after any
	// replica changes the breaker state of the dependency named dependency
	// under prefix, and whenever the store may have missed such a change
	// (after it reconnects). notify must return quickly. A store that
	// cannot watch returns a stop that does nothing: replicas then learn
	// transitions by polling every runtime.FleetPolicy.SyncInterval. stop
	// ends the watch; calling it again does nothing.
	Watch(prefix, dependency string, notify func()) (stop func())
}

// ErrClosed is returned by a [Store] whose underlying client was closed:
// the dependency stops synchronising and keeps its state locally.
var ErrClosed = errors.New("resilient: fleet store closed")

// Request is what one replica pushes to the [Store] and asks of it in one
// [Store.Sync].
type Request struct {
	// Prefix is the key prefix (runtime.FleetPolicy.Prefix) and Dependency
	// the dependency's name: together they name the shared state.
	Prefix, Dependency string
	// Replica identifies the replica's runtime.Dependency value: random,
	// made once by runtime.NewDependency.
	Replica string
	// Breaker is the breaker part of the request.
	Breaker BreakerRequest
	// Budget is the retry budget part of the request.
	Budget BudgetRequest
}

// Verdict is a prober's verdict on a half-open round.
type Verdict uint8

const (
	// VerdictNone: no verdict yet.
	VerdictNone Verdict = iota
	// VerdictClose: every probe succeeded; the fleet's breaker closes.
	VerdictClose
	// VerdictReopen: a probe failed; the fleet's breaker opens again.
	VerdictReopen
)

// BreakerRequest is the breaker part of a [Request]. Its policy fields are
// the breaker policy of the dependency (runtime.BreakerPolicy), defaults
// filled in: replicas of one dependency should share it; each Sync
// applies the one it carries.
type BreakerRequest struct {
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
	Verdict Verdict
	// FailureRate is the percentage of failed attempts, in (0, 100], at
	// which the breaker opens once MinimumCalls attempts were counted in
	// Window.
	FailureRate float64
	// MinimumCalls is the number of attempts in the window below which
	// the breaker does not open.
	MinimumCalls uint32
	// Window is the length of the rolling window the counts are kept over.
	Window time.Duration
	// OpenFor is how long the breaker stays open before it turns
	// half-open.
	OpenFor time.Duration
	// Bucket is the length of one bucket of the rolling window.
	Bucket time.Duration
	// ProbeLease is how long a prober keeps its role without a verdict.
	ProbeLease time.Duration
}

// BudgetRequest is the retry budget part of a [Request]. Its policy fields
// are the budget policy of the dependency (runtime.BudgetPolicy), defaults
// filled in.
type BudgetRequest struct {
	// Calls is the number of calls admitted since the last Sync, while
	// sharing the fleet's state: each earns the fleet's balance Ratio of a
	// retry.
	Calls uint64
	// Want is the number of retry tokens the replica asks for, taken from
	// the balance first; at most WantFloor of them may come from the
	// fleet's floor (tokens the replica has an immediate use for).
	Want, WantFloor int64
	// Disabled is true when the dependency has no retry budget: the store
	// grants nothing and keeps no balance.
	Disabled bool
	// Ratio is the share of calls that may be retried, in (0, 1].
	Ratio float64
	// MinPerSecond is the fleet-wide floor of retries per second, also the
	// size of its burst; negative means no floor.
	MinPerSecond float64
	// MaxBalance bounds how many retries the fleet's balance can bank.
	MaxBalance float64
}

// State is the state of the fleet's breaker, as a [Reply] carries it.
type State uint8

const (
	// Closed: attempts go through and are counted.
	Closed State = iota
	// HalfOpen: the prober's probes go through, other attempts are
	// refused.
	HalfOpen
	// Open: every attempt is refused until the open period ends.
	Open
)

// Reply is the fleet's state as a [Store.Sync] returns it.
type Reply struct {
	// Generation counts the fleet breaker's transitions.
	Generation uint64
	// State is the fleet breaker's state.
	State State
	// OpenLeft is how long the breaker stays open, measured by the
	// store's clock; zero unless State is [Open].
	OpenLeft time.Duration
	// Prober is true when the replica is the half-open round's prober.
	Prober bool
	// Requests and Failures are the fleet's counted attempts and failures
	// in the current window (closed state).
	Requests, Failures uint64
	// Granted is the number of retry tokens granted to the replica.
	Granted int64
}
