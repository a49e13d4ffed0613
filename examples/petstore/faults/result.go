package faults

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// Row is one scenario over one transport, with the result of each arm.
type Row struct {
	Scenario  Scenario
	Transport Transport
	Plan      Plan
	// Policy is the resolved policy of the transport's resilient client.
	Policy Policy
	// Deadline is the reference deadline of the run (the longest operation
	// timeout): a failure in under a tenth of it is a fast one.
	Deadline time.Duration
	// Arms holds the result of each arm that ran.
	Arms map[Arm]*Result
	// Goroutines and sockets of the process before the row's stacks
	// started and after all of them were torn down.
	GoroutinesBefore, GoroutinesAfter int
	SocketsBefore, SocketsAfter       int
	// Runs counts the times the row was run (see Options.MaxStall); Stall
	// is the latest start of a call after its planned time in the kept
	// run, SchedP99 the p99 of the process's goroutines' waits for a core
	// during its fault phase, and Stalled reports that either exceeded the
	// limit even so.
	Runs     int
	Stall    time.Duration
	SchedP99 time.Duration
	Stalled  bool
}

// Result is what one arm measured in one row.
type Result struct {
	Arm Arm
	// Client is the client's own name ("resilient HTTP").
	Client string

	// Calls counts the calls started during the fault phase, split by what
	// their caller got: OK a fresh answer, Degraded a fallback answer
	// (marked), FailedFast an error in under a tenth of the reference
	// deadline, FailedSlow a later error.
	Calls, OK, Degraded, FailedFast, FailedSlow int
	// Refused counts the failed calls the pipeline refused before sending
	// anything (breaker open, bulkhead full, deadline already spent), and
	// RefusedP50, RefusedP99 are their median and p99 latency in process
	// time: each refusal's latency less the stall the process went through
	// meanwhile, as the calls' dispatcher saw it (see stalledDuring);
	// RefusedWallP50 is their median latency in wall time.
	Refused                int
	RefusedP50, RefusedP99 time.Duration
	RefusedWallP50         time.Duration
	// P50 and P99 are the callers' latencies over all calls; Latencies
	// holds every call's latency, sorted.
	P50, P99  time.Duration
	Latencies []time.Duration
	// Errors counts the errors by message (first 100 bytes).
	Errors map[string]int

	// WarmupCalls counts the healthy calls before the phase; Elapsed is
	// the phase's measured length; MaxLate the latest start of a call after
	// its planned time.
	WarmupCalls int
	Elapsed     time.Duration
	MaxLate     time.Duration
	// Requests counts requests reaching the store during the phase, those
	// its shedder refused included; Shed those; MaxInFlight the store's
	// peak of requests handled at once.
	Requests, Shed, MaxInFlight int64
	// SlowWaited counts the requests the tail fault made slow that the
	// store served to the end, SlowCut those the caller stopped waiting
	// for first (petstore.CountersSnapshot).
	SlowWaited, SlowCut int64
	// Duplicates counts side effects applied more than once for one call
	// (petstore.CountersSnapshot.DuplicateEffects); KeylessCreates the
	// creates that reached the store without an idempotency key.
	Duplicates, KeylessCreates int64
	// Breaker is the resilient client's breaker state at the end of the
	// phase ("none" for the other arms); Transitions its state changes
	// during the phase, with their time since the phase began.
	Breaker     string
	Transitions []Transition
	// Timeline holds what the calls started in each 100 ms of the phase
	// got ([BucketWidth]); PreFaultOK is the ok share of the warm-up's
	// calls, against the healthy store: the arm's pre-fault level.
	Timeline   []Bucket
	PreFaultOK float64
	// Err is set when the run itself failed.
	Err error
}

// Transition is a breaker state change at a time since the phase began.
type Transition struct {
	At       time.Duration
	From, To runtime.BreakerState
}

// Answered returns the calls that got an answer, fresh or degraded.
func (r *Result) Answered() int { return r.OK + r.Degraded }

// Share returns n/Calls.
func (r *Result) Share(n int) float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(n) / float64(r.Calls)
}

// PerCall returns the requests reaching the store per call.
func (r *Result) PerCall() float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(r.Requests) / float64(r.Calls)
}

// Opened reports whether the breaker opened during the phase.
func (r *Result) Opened() bool {
	return slices.ContainsFunc(r.Transitions, func(t Transition) bool { return t.To == runtime.BreakerOpen })
}

// ClosedAfter returns when the breaker last went to closed during the
// phase, and whether it did.
func (r *Result) ClosedAfter() (time.Duration, bool) {
	for i := len(r.Transitions) - 1; i >= 0; i-- {
		if r.Transitions[i].To == runtime.BreakerClosed {
			return r.Transitions[i].At, true
		}
	}
	return 0, false
}

// TopErrors returns the n most frequent error messages of r with their
// counts, most frequent first, as "count× message; …".
func TopErrors(r *Result, n int) string {
	type e struct {
		msg   string
		count int
	}
	var es []e
	for m, c := range r.Errors {
		es = append(es, e{m, c})
	}
	slices.SortFunc(es, func(a, b e) int {
		if a.count != b.count {
			return b.count - a.count
		}
		return strings.Compare(a.msg, b.msg)
	})
	var parts []string
	for _, x := range es[:min(n, len(es))] {
		parts = append(parts, fmt.Sprintf("%d× %s", x.count, x.msg))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// percentile returns the q-quantile (0..1) of sorted samples, nearest rank.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// shareAbove returns the share of sorted samples longer than d.
func shareAbove(sorted []time.Duration, d time.Duration) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i, _ := slices.BinarySearch(sorted, d+1)
	return float64(len(sorted)-i) / float64(len(sorted))
}
