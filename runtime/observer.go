package runtime

import (
	"context"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// Observer sees what the pipeline does, for metrics and traces. Methods are
// called synchronously on the calling goroutine, never with a lock held;
// they must be safe for concurrent use and should return quickly. Embed
// [NopObserver] to implement only some of them. The OpenTelemetry adapter
// lives in the otelobserver sub-package.
type Observer interface {
	// Attempt is called after every attempt, hedges included.
	Attempt(AttemptEvent)
	// Retry is called before the backoff that precedes a retry.
	Retry(RetryEvent)
	// Hedge is called when a hedged attempt is started.
	Hedge(HedgeEvent)
	// BreakerChange is called for every state change of a breaker; for
	// the fleet's breaker ([BreakerEvent].Fleet), from the dependency's
	// synchronising goroutine.
	BreakerChange(BreakerEvent)
	// Rejected is called when a call or retry fails fast: bulkhead full,
	// breaker open, or retry budget exhausted.
	Rejected(RejectedEvent)
	// Degraded is called when a fallback answers instead of the dependency.
	Degraded(DegradedEvent)
}

// NopObserver does nothing; embed it to implement part of [Observer].
type NopObserver struct{}

// Attempt does nothing.
func (NopObserver) Attempt(AttemptEvent) {}

// Retry does nothing.
func (NopObserver) Retry(RetryEvent) {}

// Hedge does nothing.
func (NopObserver) Hedge(HedgeEvent) {}

// BreakerChange does nothing.
func (NopObserver) BreakerChange(BreakerEvent) {}

// Rejected does nothing.
func (NopObserver) Rejected(RejectedEvent) {}

// Degraded does nothing.
func (NopObserver) Degraded(DegradedEvent) {}

// AttemptEvent describes one finished attempt.
type AttemptEvent struct {
	Dependency, Operation string
	// Attempt counts from 1 within the call.
	Attempt int
	// Hedge is true for a hedged attempt.
	Hedge bool
	// Duration is the attempt's wall time.
	Duration time.Duration
	// Err is the attempt's error, nil on success.
	Err error
	// Class is the error's class; meaningless when Err is nil.
	Class outcome.Class
	// Context is the attempt's context: it carries the attempt's span
	// when the dependency has a [Tracer], so that a metric recorded with
	// it links to the trace (an exemplar). Never nil when set by the
	// pipeline; do not keep it.
	Context context.Context
}

// RetryEvent describes a retry about to happen.
type RetryEvent struct {
	Dependency, Operation string
	// Attempt is the number of the attempt that failed.
	Attempt int
	// Delay is the backoff before the next attempt.
	Delay time.Duration
	// RetryAfter is true when Delay was asked for by the dependency.
	RetryAfter bool
	// Err is the failed attempt's error.
	Err error
	// Context is the call's context, carrying its span when traced; do
	// not keep it.
	Context context.Context
}

// HedgeEvent describes a hedged attempt being started.
type HedgeEvent struct {
	Dependency, Operation string
	// Attempt is the number given to the hedged attempt.
	Attempt int
	// After is the time since the round's first attempt started.
	After time.Duration
}

// BreakerEvent describes a breaker state change.
type BreakerEvent struct {
	Dependency string
	From, To   BreakerState
	At         time.Time
	// Fleet is true for a transition of the breaker the dependency shares
	// with its fleet ([WithFleet]), false for one of its local breaker.
	Fleet bool
}

// RejectReason says why a call or retry failed fast.
type RejectReason uint8

const (
	// RejectBulkheadFull: no bulkhead permit within the wait.
	RejectBulkheadFull RejectReason = iota
	// RejectCircuitOpen: the breaker refused the attempt.
	RejectCircuitOpen
	// RejectBudgetExhausted: the retry budget refused a retry.
	RejectBudgetExhausted
	// RejectThrottled: the adaptive throttle refused the attempt.
	RejectThrottled
)

// String returns "bulkhead full", "circuit open", "budget exhausted" or
// "throttled".
func (r RejectReason) String() string {
	switch r {
	case RejectCircuitOpen:
		return "circuit open"
	case RejectBudgetExhausted:
		return "budget exhausted"
	case RejectThrottled:
		return "throttled"
	default:
		return "bulkhead full"
	}
}

// RejectedEvent describes a fast failure.
type RejectedEvent struct {
	Dependency, Operation string
	Reason                RejectReason
	// Attempts is the number of attempts already sent in the call.
	Attempts int
}

// DegradedEvent describes a fallback answer.
type DegradedEvent struct {
	Dependency, Operation string
	Source                FallbackKind
	// Age is the cached value's age; zero for a static one.
	Age time.Duration
	// Cause is the error the fallback replaced.
	Cause error
	// Context is the call's context, carrying its span when traced; do
	// not keep it.
	Context context.Context
}

// PanicObserver is an [Observer] that also wants to know when a hedged
// attempt panicked after its round had ended without it (another attempt
// answered first, or the call was over): such a panic has no caller left
// to reach, so it is recovered, logged at error level and reported here
// instead of ending the process. A panic that happens while the round
// still waits is raised on the caller's goroutine and is not reported.
// [NewDependency] looks for it on the observer given with [WithObserver].
type PanicObserver interface {
	// AbandonedPanic is called once per such panic, from the attempt's
	// goroutine.
	AbandonedPanic(PanicEvent)
}

// AbandonedPanic does nothing.
func (NopObserver) AbandonedPanic(PanicEvent) {}

// PanicEvent describes the panic of an abandoned hedged attempt.
type PanicEvent struct {
	Dependency, Operation string
	// Attempt is the number of the attempt within its call, from 1.
	Attempt int
	// Hedge is true for a hedge, false for the round's first attempt.
	Hedge bool
	// Value is what the attempt panicked with.
	Value any
	// Stack is the attempt goroutine's stack at the panic, as
	// [runtime/debug.Stack] formats it.
	Stack []byte
}
