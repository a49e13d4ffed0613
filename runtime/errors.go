package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
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
	// ErrOutcomeUnknown: a non-idempotent call failed after its request may
	// have reached the dependency, without an answer that says what became
	// of it: the dependency may have applied it.
	ErrOutcomeUnknown = errors.New("resilient: outcome unknown")
	// ErrNotSent: nothing of the call reached the dependency, so it was
	// certainly not applied and may be sent again, whatever its
	// idempotency. See [CallError.NotSent].
	ErrNotSent = errors.New("resilient: not sent")
	// ErrInvalidRequest: the request was refused locally before anything
	// was sent; the caller's to fix. See [InvalidRequestError].
	ErrInvalidRequest = errors.New("resilient: invalid request")
	// ErrRetryAfterExceedsDeadline: the dependency asked for a delay before
	// the retry (Retry-After, gRPC pushback) that the deadline does not
	// leave. See [RetryAfterExceedsDeadlineError].
	ErrRetryAfterExceedsDeadline = errors.New("resilient: retry delay asked for exceeds the deadline")
	// ErrThrottled: the dependency is shedding load and the client's
	// adaptive throttle refused the attempt locally, so it was not sent.
	// See [ThrottlePolicy].
	ErrThrottled = errors.New("resilient: throttled locally while the dependency sheds load")
	// ErrDegraded: the answer comes from a fallback, not from the dependency.
	ErrDegraded = errors.New("resilient: degraded answer")
	// ErrMissingCredential is matched by a [*MissingCredentialError].
	ErrMissingCredential = errors.New("resilient: missing credential")
	// ErrResponseTruncated is matched by a [*ResponseTruncatedError].
	ErrResponseTruncated = errors.New("resilient: response truncated")
	// ErrResponseTooLarge is matched by a [*ResponseTooLargeError].
	ErrResponseTooLarge = errors.New("resilient: response too large")
)

// End says what ended a failed call; see [CallError].
type End uint8

const (
	// EndAttempt: the last attempt's own failure ended the call, because
	// it may not be retried (an error answer such as a 404 or a 500, a body
	// that could not be decoded or was too large, a non-idempotent
	// operation) or because no retry was left (the maximum was reached, or
	// the deadline leaves no time for another attempt). The cause is that
	// attempt's error: a [*RemoteError], or an error wrapping one, when the
	// dependency answered; a transport error such as a [*url.Error]
	// otherwise.
	EndAttempt End = iota
	// EndInvalidRequest: the request was refused locally before anything
	// was sent; the cause is an [*InvalidRequestError].
	EndInvalidRequest
	// EndBulkheadFull: no bulkhead permit was free; the cause is a
	// [*BulkheadFullError].
	EndBulkheadFull
	// EndCircuitOpen: the breaker refused an attempt; the cause is a
	// [*CircuitOpenError].
	EndCircuitOpen
	// EndBudgetExhausted: a retry was due and the retry budget was spent;
	// the cause is a [*BudgetExhaustedError].
	EndBudgetExhausted
	// EndRetryAfter: the dependency asked for a delay before the retry that
	// the deadline does not leave; the cause is a
	// [*RetryAfterExceedsDeadlineError].
	EndRetryAfter
	// EndDeadline: the caller's deadline or the total timeout passed, or
	// left less than an attempt needs; the cause is a
	// [*DeadlineExceededError].
	EndDeadline
	// EndCanceled: the caller cancelled the call; the cause is a
	// [*CanceledError].
	EndCanceled
	// EndOutcomeUnknown: a non-idempotent call failed after its request may
	// have reached the dependency, with no answer that says what became of
	// it; the cause is an [*OutcomeUnknownError].
	EndOutcomeUnknown
	// EndThrottled: the dependency was shedding load and the adaptive
	// throttle refused an attempt; the cause is a [*ThrottledError].
	EndThrottled
)

// String returns the end's name in lower case, such as "circuit open".
func (e End) String() string {
	switch e {
	case EndAttempt:
		return "attempt failed"
	case EndInvalidRequest:
		return "invalid request"
	case EndBulkheadFull:
		return "bulkhead full"
	case EndCircuitOpen:
		return "circuit open"
	case EndBudgetExhausted:
		return "budget exhausted"
	case EndRetryAfter:
		return "retry delay exceeds deadline"
	case EndDeadline:
		return "deadline exceeded"
	case EndCanceled:
		return "canceled"
	case EndOutcomeUnknown:
		return "outcome unknown"
	case EndThrottled:
		return "throttled"
	default:
		return "unknown end " + strconv.Itoa(int(e))
	}
}

// CallError is the error of every failed call of the pipeline ([Do],
// [DoHeld], [DoHTTP], and the gRPC glue, whose error wraps it), whatever
// ended it: it names the dependency and the operation, counts the attempts
// sent and says what ended the call (End) and why (Err). Unwrap gives the
// cause, so [errors.As] and [errors.Is] still reach the typed error of the
// end ([*CircuitOpenError], [*DeadlineExceededError], …), the dependency's
// answer ([*RemoteError], a generated typed error), a transport error (a
// [*url.Error]) and [context.DeadlineExceeded] or [context.Canceled].
//
// A call answered from a fallback returns a [*DegradedError] instead,
// whose Cause is the CallError the fallback replaced.
type CallError struct {
	// Dependency and Operation name the call.
	Dependency string
	Operation  string
	// Attempts is the number of attempts sent, hedges included; zero when
	// the call was refused before any.
	Attempts int
	// End says what ended the call.
	End End
	// NotSent reports that nothing of the call reached the dependency: it
	// was refused before any attempt, or its attempts all failed before
	// their request was written (no connection, a local refusal). Such a
	// call was certainly not applied, so even a non-idempotent one may be
	// sent again. It is decided from what was actually sent; for an
	// idempotent operation, whose attempts are not traced, a transport
	// failure counts as sent. errors.Is(err, [ErrNotSent]) reports it.
	NotSent bool
	// Err is the cause: the typed error of End, or, for [EndAttempt], the
	// last attempt's error.
	Err error
}

// Error describes the failure.
func (e *CallError) Error() string {
	if e.End != EndAttempt {
		// The cause is one of this package's errors, which names the call.
		return e.Err.Error()
	}
	what := "failed after " + strconv.Itoa(e.Attempts) + " attempts"
	switch {
	case e.NotSent:
		what = "not sent"
	case e.Attempts == 1:
		what = "failed after 1 attempt"
	}
	return "resilient: " + e.Dependency + " " + e.Operation + ": " + what + ": " + strings.TrimPrefix(e.Err.Error(), "resilient: ")
}

// Unwrap returns the cause.
func (e *CallError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrNotSent] and the call was not sent.
func (e *CallError) Is(target error) bool { return target == ErrNotSent && e.NotSent }

// InvalidRequestError reports a request refused locally before anything was
// sent; the caller's to fix: a header or cookie value net/http would refuse
// (a CR or LF in it), an invalid gRPC metadata key or value, a body that
// does not marshal, a request that cannot be built. Such a call is returned
// at once: it takes no bulkhead permit, is never retried, never counted by
// the breaker or the retry budget and never answered by a fallback. It
// matches [ErrInvalidRequest] and [ErrNotSent]; Unwrap gives the reason.
type InvalidRequestError struct {
	Dependency string
	Operation  string
	// Err says what is wrong with the request.
	Err error
}

// Error describes the failure.
func (e *InvalidRequestError) Error() string {
	// The reason may name the call itself (a *MissingCredentialError
	// does): say it once.
	why := strings.TrimPrefix(e.Err.Error(), "resilient: ")
	why = strings.TrimPrefix(why, e.Dependency+" "+e.Operation+": ")
	return "resilient: " + e.Dependency + " " + e.Operation + ": invalid request, not sent: " + why
}

// Is reports whether target is [ErrInvalidRequest] or [ErrNotSent].
func (e *InvalidRequestError) Is(target error) bool {
	return target == ErrInvalidRequest || target == ErrNotSent
}

// Unwrap returns the reason.
func (e *InvalidRequestError) Unwrap() error { return e.Err }

// Classify returns [outcome.Permanent]: the same request fails the same way.
func (e *InvalidRequestError) Classify() outcome.Class { return outcome.Permanent }

// Delivery returns [outcome.NotDelivered].
func (e *InvalidRequestError) Delivery() outcome.Delivery { return outcome.NotDelivered }

// InvalidRequest returns the error of a call of op refused before it was
// sent because its request could not be built or is invalid (err says
// why): a [*CallError] ending with [EndInvalidRequest] whose cause is an
// [*InvalidRequestError]. Generated clients return it when their request
// builder fails. It returns nil for a nil err.
func (o *Operation) InvalidRequest(err error) error {
	if err == nil {
		return nil
	}
	var ie *InvalidRequestError
	if !errors.As(err, &ie) {
		ie = &InvalidRequestError{Dependency: o.dep.name, Operation: o.name, Err: err}
	}
	return &CallError{Dependency: o.dep.name, Operation: o.name, End: EndInvalidRequest, NotSent: true, Err: ie}
}

// notSentError marks an attempt's error as [outcome.NotDelivered].
type notSentError struct{ err error }

func (e notSentError) Error() string              { return e.err.Error() }
func (e notSentError) Unwrap() error              { return e.err }
func (e notSentError) Delivery() outcome.Delivery { return outcome.NotDelivered }
func (e notSentError) Is(target error) bool       { return target == ErrNotSent }

// MarkNotSent marks err, an attempt's error, as one that left nothing at
// the dependency: the request was refused locally or failed before any of
// it was written. The pipeline then reports a failed non-idempotent call as
// not sent ([ErrNotSent]) rather than with its outcome unknown. err keeps
// its class (see [outcome.Classifier]). It returns nil for nil.
func MarkNotSent(err error) error {
	if err == nil {
		return nil
	}
	return notSentError{err}
}

// deliveryOf returns the delivery an attempt's error reports.
func deliveryOf(err error) outcome.Delivery {
	var r outcome.DeliveryReporter
	if errors.As(err, &r) {
		return r.Delivery()
	}
	return outcome.MaybeDelivered
}

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

// ThrottledError reports an attempt refused by the dependency's adaptive
// throttle while the dependency sheds load ([ThrottlePolicy]). It matches
// [ErrThrottled]; Unwrap gives the last attempt's error, if an earlier
// attempt was made.
type ThrottledError struct {
	Dependency string
	Operation  string
	// Attempts is the number of attempts sent before the throttle refused.
	Attempts int
	// Reject is the probability with which the throttle was refusing
	// attempts.
	Reject float64
	// Last is the error of the last attempt sent, or nil.
	Last error
}

// Error describes the failure.
func (e *ThrottledError) Error() string {
	return withLast(fmt.Sprintf("resilient: %s %s: throttled locally (%.0f%% of attempts refused while the dependency sheds load) after %d attempts",
		e.Dependency, e.Operation, 100*e.Reject, e.Attempts), e.Last)
}

// Is reports whether target is [ErrThrottled].
func (e *ThrottledError) Is(target error) bool { return target == ErrThrottled }

// Unwrap returns the last attempt's error.
func (e *ThrottledError) Unwrap() error { return e.Last }

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

// OutcomeUnknownError reports a non-idempotent call that failed after its
// request may have reached the dependency, without an answer that says what
// became of it: a timeout, a cancellation or a lost connection after the
// request was written, or (gRPC) a DEADLINE_EXCEEDED, CANCELLED, UNKNOWN,
// INTERNAL, UNAVAILABLE or DATA_LOSS status once the stream was open. The
// dependency may or may not have applied it, and it was not retried. It is
// decided from what was actually sent, never from which timer fired: a
// call whose request was not written is [ErrNotSent] instead. It matches
// [ErrOutcomeUnknown]; Unwrap gives the underlying error (a
// [*DeadlineExceededError], a [*CanceledError] or the attempt's error).
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

// RetryAfterExceedsDeadlineError reports a call that was not retried
// because the dependency asked for a delay before the retry (Retry-After,
// gRPC grpc-retry-pushback-ms) longer than the time left before the
// deadline: waiting could only end in a deadline error. A delay that fits
// is honoured, even above the backoff cap. It matches
// [ErrRetryAfterExceedsDeadline]; Unwrap gives the last attempt's error,
// the answer that asked for the delay.
type RetryAfterExceedsDeadlineError struct {
	Dependency string
	Operation  string
	Attempts   int
	// Asked is the delay the dependency asked for.
	Asked time.Duration
	// Left is the time that was left before the deadline.
	Left time.Duration
	// Last is the last attempt's error.
	Last error
}

// Error describes the failure.
func (e *RetryAfterExceedsDeadlineError) Error() string {
	return withLast(fmt.Sprintf("resilient: %s %s: not retried after %d attempts: the dependency asked to wait %v, %v left before the deadline",
		e.Dependency, e.Operation, e.Attempts, e.Asked, e.Left), e.Last)
}

// Is reports whether target is [ErrRetryAfterExceedsDeadline].
func (e *RetryAfterExceedsDeadlineError) Is(target error) bool {
	return target == ErrRetryAfterExceedsDeadline
}

// Unwrap returns the last attempt's error.
func (e *RetryAfterExceedsDeadlineError) Unwrap() error { return e.Last }

// RemoteError is an answer of the dependency that is not a success: an HTTP
// status outside 2xx or a gRPC status other than OK.
type RemoteError struct {
	// Status is the HTTP status code, or the gRPC code for gRPC.
	Status int
	// Code is the gRPC code name ("UNAVAILABLE") or the HTTP status text.
	Code string
	// Message is the gRPC status message or a short excerpt of the body
	// (its first line, at most 200 bytes), without control or formatting
	// characters: it comes from the dependency and may end up in logs.
	Message string
	// Attempts is the number of attempts made when the call ended.
	Attempts int
	// RetryAfter is the delay the dependency asked for (HTTP Retry-After,
	// gRPC grpc-retry-pushback-ms); zero if none.
	RetryAfter time.Duration
	// Class says how the pipeline treated the answer.
	Class outcome.Class
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
	if e.RetryAfter > 0 {
		msg += " (retry after " + e.RetryAfter.String() + ")"
	}
	return msg
}

// Classify returns e.Class, so the pipeline treats the answer as the glue
// classified it.
func (e *RemoteError) Classify() outcome.Class { return e.Class }

// RetryAfterHint returns the delay the dependency asked for.
func (e *RemoteError) RetryAfterHint() (time.Duration, bool) {
	return e.RetryAfter, e.RetryAfter > 0
}

// Delivery returns [outcome.Answered]: the error is the dependency's answer.
func (e *RemoteError) Delivery() outcome.Delivery { return outcome.Answered }

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
