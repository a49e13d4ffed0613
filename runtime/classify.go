package runtime

import (
	"errors"
	"time"
)

// Class says how the pipeline treats an attempt's error: whether it may be
// retried and whether the breaker counts it as a failure.
type Class uint8

const (
	// Transient failures (connect errors, resets, attempt timeouts, 408,
	// 502, 504, gRPC UNAVAILABLE before the server was reached) are retried
	// when the operation allows it and count as breaker failures. It is the
	// class of an error that does not say otherwise.
	Transient Class = iota
	// Throttled answers (429, gRPC RESOURCE_EXHAUSTED with pushback) are
	// retried when the operation allows it, after the delay the dependency
	// asked for, but are not breaker failures: the dependency is healthy
	// and is only pacing this caller.
	Throttled
	// Failed answers (500, 501, gRPC INTERNAL) count as breaker failures
	// but are not retried.
	Failed
	// Rejected answers (400, 401, 403, 404, 409, 422, gRPC INVALID_ARGUMENT,
	// NOT_FOUND…) are the caller's to fix: neither retried nor counted by
	// the breaker, and never replaced by a fallback.
	Rejected
	// Permanent errors raised by the caller's own code (an invalid request,
	// an undecodable success body) are neither retried nor counted.
	Permanent
	// Overloaded answers (503, gRPC UNAVAILABLE from a server the attempt
	// reached) say that the dependency has no capacity for this request
	// now. They are retried when the operation allows it, are not breaker
	// failures, and, with [Throttled] answers, make the client send less
	// (see "Overload" in the package documentation).
	Overloaded
)

// String returns the class name in lower case.
func (c Class) String() string {
	switch c {
	case Transient:
		return "transient"
	case Throttled:
		return "throttled"
	case Failed:
		return "failed"
	case Rejected:
		return "rejected"
	case Permanent:
		return "permanent"
	case Overloaded:
		return "overloaded"
	default:
		return "unknown"
	}
}

// retryable reports whether the class allows a retry of an eligible call.
func (c Class) retryable() bool { return c == Transient || c == Throttled || c == Overloaded }

// shed reports whether the class is a dependency's refusal for lack of
// capacity ([Throttled], [Overloaded]): a sign to send less.
func (c Class) shed() bool { return c == Throttled || c == Overloaded }

// breakerFailure reports whether the breaker counts the class as a failure.
func (c Class) breakerFailure() bool { return c == Transient || c == Failed }

// Classifier is implemented by errors that know their [Class], such as
// [*RemoteError]. The pipeline finds it with [errors.As].
type Classifier interface {
	Classify() Class
}

// RetryAfterHinter is implemented by errors that carry a delay asked for by
// the dependency, such as [*RemoteError].
type RetryAfterHinter interface {
	RetryAfterHint() (time.Duration, bool)
}

// permanentError marks an error as [Permanent].
type permanentError struct{ err error }

func (e permanentError) Error() string   { return e.err.Error() }
func (e permanentError) Unwrap() error   { return e.err }
func (e permanentError) Classify() Class { return Permanent }

// MarkPermanent marks err as not worth retrying and not a sign of an unhealthy
// dependency, for attempt functions that fail on their own side (building
// the request, decoding a success body). It returns nil for nil.
func MarkPermanent(err error) error {
	if err == nil {
		return nil
	}
	return permanentError{err}
}

// classify returns the class of an attempt's error. Attempt-timeout
// classification (which needs the contexts) is done by the caller.
func classify(err error) Class {
	if c, ok := err.(Classifier); ok {
		return c.Classify()
	}
	var c Classifier
	if errors.As(err, &c) {
		return c.Classify()
	}
	return Transient
}

// retryAfter returns the delay asked for by the dependency, if err carries one.
func retryAfter(err error) (time.Duration, bool) {
	var h RetryAfterHinter
	if errors.As(err, &h) {
		return h.RetryAfterHint()
	}
	return 0, false
}
