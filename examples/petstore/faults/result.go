package faults

import (
	"math"
	"slices"
	"time"
)

// Result is what one scenario run against one client measured.
type Result struct {
	Scenario  Scenario
	Plan      Plan
	Transport Transport
	Kind      Kind
	// Client is the client's own name.
	Client string
	// Policy is the resolved policy of the transport's resilient client.
	Policy Policy

	// Calls counts the calls made during the fault phase; OK the plain
	// successes, Degraded the fallback answers, FastFail the calls refused
	// by the breaker, the bulkhead or the retry budget, Errors the others.
	Calls, OK, Degraded, FastFail, Errors int
	// DegradedByOp counts degraded answers per operation.
	DegradedByOp map[Op]int
	// P50, P99 are the callers' latencies over all calls of the phase;
	// FastFailP99 over the calls refused before any attempt was sent.
	P50, P99, FastFailP99 time.Duration
	// Latencies holds every call's latency, sorted.
	Latencies []time.Duration
	// ErrorSamples counts the errors by message (first 80 bytes).
	ErrorSamples map[string]int

	// WarmupCalls counts the healthy calls before the phase.
	WarmupCalls int
	// Elapsed is the measured phase's length.
	Elapsed time.Duration
	// Requests counts requests reaching the store during the phase (the
	// shed ones included); MaxInFlight is the store's peak of requests
	// being handled at once; Shed the requests its shedder refused.
	Requests, MaxInFlight, Shed int64
	// CreatesSent, CreatesOK count CreatePet calls and successes;
	// KeysApplied the idempotency keys applied by the store, MaxApplied
	// the most applies of one key, KeylessCreates creates without a key.
	CreatesSent, CreatesOK int
	KeysApplied            int
	MaxApplied             int64
	KeylessCreates         int64
	// AdoptsSent counts AdoptPet calls; AdoptRequests the adopt requests
	// reaching the store; AdoptsApplied the adopts it applied.
	AdoptsSent                   int
	AdoptRequests, AdoptsApplied int64
	// Breaker is the breaker's state at the end; BreakerSeen the states it
	// went through during the phase, in order, repeats collapsed.
	Breaker     string
	BreakerSeen []string
	// Goroutines and Sockets of the process before the stack started and
	// after it was torn down; ServerConns the server's open connections
	// at the end of the phase, before the client was closed.
	GoroutinesBefore, GoroutinesAfter int
	SocketsBefore, SocketsAfter       int
	ServerConns                       int64
	// Err is set when the run itself failed.
	Err error
}

// Share returns n/Calls.
func (r *Result) Share(n int) float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(n) / float64(r.Calls)
}

// ErrorRate returns the share of calls that failed, fast failures included.
func (r *Result) ErrorRate() float64 { return r.Share(r.Errors + r.FastFail) }

// PerCall returns the requests reaching the store per call.
func (r *Result) PerCall() float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(r.Requests) / float64(r.Calls)
}

// percentile returns the q-quantile (0..1) of sorted samples, nearest rank.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func sortedCopy(d []time.Duration) []time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s
}
