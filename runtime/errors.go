package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Sentinels matched through [errors.Is] by the typed errors of this package.
var (
	// ErrCircuitOpen: the dependency's breaker is open (or half-open with
	// all probes taken), so the attempt was not sent.
	ErrCircuitOpen = errors.New("resilient: circuit breaker open")
	// ErrBulkheadFull: no permit became free within the bulkhead's wait.
	ErrBulkheadFull = errors.New("resilient: bulkhead full")
	// ErrBudgetExhausted: a retry was due but the dependency's retry budget
	// was spent, so the call failed fast.
	ErrBudgetExhausted = errors.New("resilient: retry budget exhausted")
	// ErrOutcomeUnknown: a non-idempotent call failed in a way that does not
	// tell whether the dependency applied it (typically a timeout).
	ErrOutcomeUnknown = errors.New("resilient: outcome unknown")
	// ErrDegraded: the answer comes from a fallback, not from the dependency.
	ErrDegraded = errors.New("resilient: degraded answer")
)

// CircuitOpenError reports an attempt refused by the dependency's breaker.
// It matches [ErrCircuitOpen]; Unwrap gives the last attempt's error, if an
// earlier attempt was made.
type CircuitOpenError struct {
	Dependency string
	Operation  string
	// Attempts is the number of attempts sent before the breaker refused.
	Attempts int
	// Last is the error of the last attempt sent, or nil.
	Last error
}

// Error describes the failure.
func (e *CircuitOpenError) Error() string {
	return withLast(fmt.Sprintf("resilient: %s %s: circuit breaker open after %d attempts", e.Dependency, e.Operation, e.Attempts), e.Last)
}

// Is reports whether target is [ErrCircuitOpen].
func (e *CircuitOpenError) Is(target error) bool { return target == ErrCircuitOpen }

// Unwrap returns the last attempt's error.
func (e *CircuitOpenError) Unwrap() error { return e.Last }

// BulkheadFullError reports a call rejected by the dependency's bulkhead. It
// matches [ErrBulkheadFull]. A rejected call is never retried and never
// counted by the breaker.
type BulkheadFullError struct {
	Dependency string
	Operation  string
	// MaxConcurrent is the bulkhead's size.
	MaxConcurrent int
	// Waited is how long the call waited for a permit.
	Waited time.Duration
}

// Error describes the failure.
func (e *BulkheadFullError) Error() string {
	return fmt.Sprintf("resilient: %s %s: bulkhead full (%d in flight, waited %v)", e.Dependency, e.Operation, e.MaxConcurrent, e.Waited)
}

// Is reports whether target is [ErrBulkheadFull].
func (e *BulkheadFullError) Is(target error) bool { return target == ErrBulkheadFull }

// BudgetExhaustedError reports a retry (or hedge) that the dependency's
// retry budget did not allow. It matches [ErrBudgetExhausted]; Unwrap gives
// the error of the last attempt.
type BudgetExhaustedError struct {
	Dependency string
	Operation  string
	Attempts   int
	Last       error
}

// Error describes the failure.
func (e *BudgetExhaustedError) Error() string {
	return withLast(fmt.Sprintf("resilient: %s %s: retry budget exhausted after %d attempts", e.Dependency, e.Operation, e.Attempts), e.Last)
}

// Is reports whether target is [ErrBudgetExhausted].
func (e *BudgetExhaustedError) Is(target error) bool { return target == ErrBudgetExhausted }

// Unwrap returns the last attempt's error.
func (e *BudgetExhaustedError) Unwrap() error { return e.Last }

// DeadlineExceededError reports a call that ran out of time: the caller's
// deadline or the operation's total timeout passed, during an attempt or
// during a backoff. It matches [context.DeadlineExceeded]; Unwrap also gives
// the last attempt's error.
type DeadlineExceededError struct {
	Dependency string
	Operation  string
	// Attempts is the number of attempts sent.
	Attempts int
	// Last is the error of the last attempt, or nil if none was sent.
	Last error
}

// Error describes the failure.
func (e *DeadlineExceededError) Error() string {
	return withLast(fmt.Sprintf("resilient: %s %s: deadline exceeded after %d attempts", e.Dependency, e.Operation, e.Attempts), e.Last)
}

// Unwrap returns [context.DeadlineExceeded] and the last attempt's error.
func (e *DeadlineExceededError) Unwrap() []error {
	if e.Last == nil {
		return []error{context.DeadlineExceeded}
	}
	return []error{context.DeadlineExceeded, e.Last}
}

// CanceledError reports a call whose caller cancelled it. It matches
// [context.Canceled] (or the context's cause); Unwrap also gives the last
// attempt's error.
type CanceledError struct {
	Dependency string
	Operation  string
	Attempts   int
	// Cause is the context's error or cause.
	Cause error
	Last  error
}

// Error describes the failure.
func (e *CanceledError) Error() string {
	return withLast(fmt.Sprintf("resilient: %s %s: %v after %d attempts", e.Dependency, e.Operation, e.Cause, e.Attempts), e.Last)
}

// Unwrap returns the cause and the last attempt's error.
func (e *CanceledError) Unwrap() []error {
	if e.Last == nil {
		return []error{e.Cause}
	}
	return []error{e.Cause, e.Last}
}

// OutcomeUnknownError reports a non-idempotent call that failed after it may
// have reached the dependency, typically by timing out: the dependency may or
// may not have applied it, and it was not retried. It matches
// [ErrOutcomeUnknown]; Unwrap gives the underlying error (which may itself
// match [context.DeadlineExceeded]).
type OutcomeUnknownError struct {
	Dependency string
	Operation  string
	Err        error
}

// Error describes the failure.
func (e *OutcomeUnknownError) Error() string {
	return fmt.Sprintf("resilient: %s %s: outcome unknown, the call may have been applied: %v", e.Dependency, e.Operation, e.Err)
}

// Is reports whether target is [ErrOutcomeUnknown].
func (e *OutcomeUnknownError) Is(target error) bool { return target == ErrOutcomeUnknown }

// Unwrap returns the underlying error.
func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// RemoteError is an answer of the dependency that is not a success: an HTTP
// status outside 2xx or a gRPC status other than OK.
type RemoteError struct {
	// Status is the HTTP status code, or the gRPC code for gRPC.
	Status int
	// Code is the gRPC code name ("UNAVAILABLE") or the HTTP status text.
	Code string
	// Message is the gRPC status message or a short excerpt of the body.
	Message string
	// Attempts is the number of attempts made when the call ended.
	Attempts int
	// RetryAfter is the delay the dependency asked for (HTTP Retry-After,
	// gRPC grpc-retry-pushback-ms); zero if none.
	RetryAfter time.Duration
	// Class says how the pipeline treated the answer.
	Class Class
	// Body holds up to the first 64 KiB of an HTTP error body.
	Body []byte
	// Header holds the HTTP response header.
	Header http.Header
}

// Error describes the failure.
func (e *RemoteError) Error() string {
	msg := "resilient: remote error " + strconv.Itoa(e.Status)
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Attempts > 0 {
		msg += " (attempts " + strconv.Itoa(e.Attempts)
		if e.RetryAfter > 0 {
			msg += ", retry after " + e.RetryAfter.String()
		}
		msg += ")"
	}
	return msg
}

// Classify returns e.Class, so the pipeline treats the answer as the glue
// classified it.
func (e *RemoteError) Classify() Class { return e.Class }

// RetryAfterHint returns the delay the dependency asked for.
func (e *RemoteError) RetryAfterHint() (time.Duration, bool) {
	return e.RetryAfter, e.RetryAfter > 0
}

// DegradedError comes with a fallback answer: the call returned a value, but
// it is not the dependency's answer. It matches [ErrDegraded] and unwraps to
// the error that triggered the fallback. Callers that accept degraded data
// test for it with [IsDegraded] and use the value.
type DegradedError struct {
	Dependency string
	Operation  string
	// Source is the fallback that answered.
	Source FallbackKind
	// Age is the age of a cached value, zero for a static one.
	Age time.Duration
	// Cause is the error that the fallback replaced.
	Cause error
}

// Error describes the failure.
func (e *DegradedError) Error() string {
	s := fmt.Sprintf("resilient: %s %s: degraded answer from %s fallback", e.Dependency, e.Operation, e.Source)
	if e.Source == FallbackCached {
		s += fmt.Sprintf(" (age %v)", e.Age)
	}
	return withLast(s, e.Cause)
}

// Is reports whether target is [ErrDegraded].
func (e *DegradedError) Is(target error) bool { return target == ErrDegraded }

// Unwrap returns the error that the fallback replaced.
func (e *DegradedError) Unwrap() error { return e.Cause }

// IsDegraded reports whether err marks a fallback answer, in which case the
// value returned with it is usable but stale or static.
func IsDegraded(err error) bool {
	var d *DegradedError
	return errors.As(err, &d)
}

func withLast(msg string, last error) string {
	if last == nil {
		return msg
	}
	return msg + ": " + last.Error()
}
