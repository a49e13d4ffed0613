package outcome

import (
	"net/http"
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
	// (see "Overload" in the runtime package documentation).
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

// Classifier is implemented by errors that know their [Class], such as
// the runtime's *RemoteError. The pipeline finds it with [errors.As].
type Classifier interface {
	Classify() Class
}

// RetryAfterHinter is implemented by errors that carry a delay asked for by
// the dependency, such as the runtime's *RemoteError.
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

// StatusClass returns the [Class] of an HTTP status outside 2xx: 429 is
// [Throttled]; 503 is [Overloaded]; 408, 502 and 504 are [Transient];
// other 5xx are [Failed]; anything else (400, 401, 403, 404, 409, 422, an unfollowed
// redirect) is [Rejected].
func StatusClass(status int) Class {
	switch {
	case status == http.StatusTooManyRequests:
		return Throttled
	case status == http.StatusServiceUnavailable:
		return Overloaded
	case status == http.StatusRequestTimeout, status == http.StatusBadGateway,
		status == http.StatusGatewayTimeout:
		return Transient
	case status >= 500 && status <= 599:
		return Failed
	default:
		return Rejected
	}
}

// Delivery says how far an attempt's request got, as far as the attempt
// can tell. The pipeline reads it from the attempt's error (see
// [DeliveryReporter]) to tell the caller of a failed non-idempotent call
// whether its request may have been applied (the runtime's
// ErrOutcomeUnknown), was answered, or never reached the dependency (its
// ErrNotSent).
type Delivery uint8

const (
	// MaybeDelivered: the request may have reached the dependency, and no
	// answer says what became of it (a timeout or a connection lost after
	// the request was written). It is the zero value and the delivery of
	// an error that does not say.
	MaybeDelivered Delivery = iota
	// NotDelivered: nothing of the request reached the dependency (it was
	// refused locally, no connection could be made, the request was not
	// written), so it was not applied.
	NotDelivered
	// Answered: the dependency answered; the error is its answer.
	Answered
)

// String returns "maybe delivered", "not delivered" or "answered".
func (d Delivery) String() string {
	switch d {
	case NotDelivered:
		return "not delivered"
	case Answered:
		return "answered"
	default:
		return "maybe delivered"
	}
}

// DeliveryReporter is implemented by attempt errors that know their
// [Delivery], such as the runtime's *RemoteError ([Answered]) and the
// errors of its MarkNotSent. The pipeline finds it with [errors.As]; an
// error without one is [MaybeDelivered].
type DeliveryReporter interface {
	Delivery() Delivery
}
