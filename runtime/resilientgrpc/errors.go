package resilientgrpc

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// Error is the error the helpers of this package return for a failed call.
// It wraps the pipeline's [*runtime.CallError] (dependency, method, attempts,
// what ended the call) and keeps its chain intact, so [errors.As] finds the
// CallError, [*runtime.RemoteError] (the server's code, message, attempts
// and pushback), [*runtime.CircuitOpenError] and the other typed errors,
// and [errors.Is] matches [runtime.ErrCircuitOpen], [runtime.ErrNotSent],
// [context.DeadlineExceeded] and the like; and it implements GRPCStatus, so
// status.FromError, status.Code and status.Convert give the status
// described by [Status].
type Error struct {
	// Err is the pipeline's error.
	Err error
	st  *status.Status
}

// Error returns the pipeline error's message.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the pipeline's error.
func (e *Error) Unwrap() error { return e.Err }

// GRPCStatus returns the status that stands for the error (see [Status]).
func (e *Error) GRPCStatus() *status.Status { return e.st }

// wrap returns err as an [*Error], nil for nil.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Err: err, st: Status(err)}
}

// Status returns the gRPC status that stands for an error of the pipeline,
// so that code written for plain gRPC clients keeps working. For a
// [*runtime.CallError] it follows End:
//
//   - [runtime.EndAttempt], a server's answer, even after retries: the
//     server's own status, code, message and details unchanged; an attempt
//     that timed out, DEADLINE_EXCEEDED; another failure, its status or
//     UNKNOWN;
//   - [runtime.EndInvalidRequest]: INVALID_ARGUMENT (refused before it was
//     sent; [runtime.ErrInvalidRequest] tells it from a server's);
//   - [runtime.EndCircuitOpen], [runtime.EndBulkheadFull] and
//     [runtime.EndThrottled]: UNAVAILABLE
//     (the dependency is, for this caller, unavailable; neither was sent);
//   - [runtime.EndBudgetExhausted] and [runtime.EndRetryAfter]: the last
//     answer's status, UNAVAILABLE if there was none;
//   - [runtime.EndDeadline]: DEADLINE_EXCEEDED;
//   - [runtime.EndCanceled]: CANCELED;
//   - [runtime.EndOutcomeUnknown]: the server's status when the server
//     sent one (an INTERNAL, say), else the code of the failure it wraps
//     (usually DEADLINE_EXCEEDED or UNAVAILABLE) with the error's message.
//
// A [*runtime.DegradedError] gives the status of the failure the fallback
// replaced; callers that accept degraded values test [runtime.IsDegraded]
// first. Any other error carrying a status (GRPCStatus) gives that status;
// anything else UNKNOWN. Except for a server's answer, the message is
// err's message. Status returns nil for a nil error.
func Status(err error) *status.Status {
	if err == nil {
		return nil
	}
	if st, ok := pipelineStatus(err); ok {
		return st
	}
	return carriedStatus(err)
}

// pipelineStatus is [Status] of an error of this package or of the
// runtime's pipeline, told by its type; ok is false for any other error.
func pipelineStatus(err error) (st *status.Status, ok bool) {
	switch e := err.(type) {
	case *Error:
		return e.st, true
	case *remoteError:
		return e.st, true
	case *runtime.CallError:
		return callStatus(e), true
	case *runtime.DegradedError:
		return Status(e.Cause), true
	case *runtime.OutcomeUnknownError:
		if re, ok := e.Err.(*remoteError); ok {
			return re.st, true // the server's status, as it sent it
		}
		return status.New(Status(e.Err).Code(), err.Error()), true
	case *runtime.InvalidRequestError:
		return status.New(codes.InvalidArgument, err.Error()), true
	case *runtime.BudgetExhaustedError, *runtime.RetryAfterExceedsDeadlineError:
		if re := lastAnswer(err); re != nil {
			return re.st, true
		}
		return status.New(codes.Unavailable, err.Error()), true
	case *runtime.CircuitOpenError, *runtime.BulkheadFullError, *runtime.ThrottledError:
		return status.New(codes.Unavailable, err.Error()), true
	case *runtime.DeadlineExceededError:
		return status.New(codes.DeadlineExceeded, err.Error()), true
	case *runtime.CanceledError:
		return status.New(codes.Canceled, err.Error()), true
	}
	return nil, false
}

// carriedStatus is [Status] of any other error: the status of the last
// answer it wraps, unless a deadline ended it and that answer's is not
// DEADLINE_EXCEEDED; else that of the context's end it wraps; else the
// status it carries (GRPCStatus); else UNKNOWN.
func carriedStatus(err error) *status.Status {
	timedOut := errors.Is(err, context.DeadlineExceeded)
	if re := lastAnswer(err); re != nil && (!timedOut || re.st.Code() == codes.DeadlineExceeded) {
		return re.st
	}
	switch {
	case timedOut:
		return status.New(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.New(codes.Canceled, err.Error())
	}
	if st, ok := status.FromError(err); ok {
		return st
	}
	return status.New(codes.Unknown, err.Error())
}

// callStatus is [Status] of a call's error.
func callStatus(e *runtime.CallError) *status.Status {
	switch e.End {
	case runtime.EndAttempt:
		st := Status(e.Err)
		if st.Code() != codes.OK && lastAnswer(e.Err) != nil && st == lastAnswer(e.Err).st {
			return st // the server's answer, unchanged
		}
		return status.New(st.Code(), e.Error())
	case runtime.EndInvalidRequest:
		return status.New(codes.InvalidArgument, e.Error())
	case runtime.EndCircuitOpen, runtime.EndBulkheadFull, runtime.EndThrottled:
		return status.New(codes.Unavailable, e.Error())
	case runtime.EndBudgetExhausted, runtime.EndRetryAfter:
		if re := lastAnswer(e.Err); re != nil {
			return re.st
		}
		return status.New(codes.Unavailable, e.Error())
	case runtime.EndDeadline:
		return status.New(codes.DeadlineExceeded, e.Error())
	case runtime.EndCanceled:
		return status.New(codes.Canceled, e.Error())
	}
	if ou, ok := e.Err.(*runtime.OutcomeUnknownError); ok {
		if re, ok := ou.Err.(*remoteError); ok {
			return re.st // the server's status, as it sent it
		}
	}
	return status.New(Status(e.Err).Code(), e.Error())
}

// lastAnswer returns the server's answer in err's chain, if any.
func lastAnswer(err error) *remoteError {
	var re *remoteError
	if errors.As(err, &re) && re.st.Code() != codes.OK {
		return re
	}
	return nil
}

// remoteError is an attempt's failure as the pipeline sees it: a
// [*runtime.RemoteError] (classified, with the pushback as its
// Retry-After), plus the original status for GRPCStatus.
type remoteError struct {
	re *runtime.RemoteError
	st *status.Status
	// hinted is true when the server asked for a delay, zero included.
	hinted bool
	// delivery says whether the status is the server's answer.
	delivery outcome.Delivery
}

func (e *remoteError) Error() string              { return e.re.Error() }
func (e *remoteError) Unwrap() error              { return e.re }
func (e *remoteError) GRPCStatus() *status.Status { return e.st }
func (e *remoteError) Classify() outcome.Class    { return e.re.Class }
func (e *remoteError) Delivery() outcome.Delivery { return e.delivery }

// RetryAfterHint returns the pushback, a zero one included: gRFC A6 asks
// for the retry after exactly the delay given.
func (e *remoteError) RetryAfterHint() (time.Duration, bool) { return e.re.RetryAfter, e.hinted }

// stream says whether an attempt had opened its stream to the server, as
// far as it can tell.
type stream uint8

const (
	// streamMaybe: not known (grpc-go was not asked, or cc is not a
	// *grpc.ClientConn that answers).
	streamMaybe stream = iota
	// streamNone: no stream was opened: nothing was sent.
	streamNone
	// streamOpen: the stream was opened, so its request may have reached
	// the server.
	streamOpen
)

// delivery returns what became of an attempt's request that ended with
// code, given whether its stream was opened. A status once the stream was
// open is the server's answer unless its code also stands for a failure on
// the way (DEADLINE_EXCEEDED, CANCELLED, UNKNOWN, INTERNAL, UNAVAILABLE,
// DATA_LOSS), which leaves the outcome unknown.
func delivery(code codes.Code, s stream) outcome.Delivery {
	if s == streamNone {
		return outcome.NotDelivered
	}
	switch code {
	case codes.DeadlineExceeded, codes.Canceled, codes.Unknown, codes.Internal, codes.Unavailable, codes.DataLoss:
		return outcome.MaybeDelivered
	}
	return outcome.Answered
}

// attemptError turns the error of one attempt into a classified
// [*remoteError]. trailer is the attempt's trailer, committed whether the
// server had sent headers (or a message) before failing, s whether the
// attempt's stream had been opened.
func attemptError(err error, trailer metadata.MD, committed bool, s stream) error {
	st, ok := status.FromError(err)
	if !ok {
		st = status.New(codes.Unknown, err.Error())
	}
	delay, pb := ParsePushback(trailer)
	class := Classify(st.Code(), pb, committed)
	if class == outcome.Transient && st.Code() == codes.Unavailable && (s == streamOpen || pb == PushbackDelay) {
		// The server (or a proxy in front of it) was reached and said it
		// cannot serve the request now: a sign to send less, not a failure
		// that should open the breaker.
		class = outcome.Overloaded
	}
	hinted := pb == PushbackDelay && (class == outcome.Transient || class == outcome.Throttled || class == outcome.Overloaded)
	if !hinted {
		delay = 0
	}
	return &remoteError{
		re: &runtime.RemoteError{
			Status:     int(st.Code()),
			Code:       codeName(st.Code()),
			Message:    printable(st.Message()),
			Attempts:   1,
			RetryAfter: delay,
			Class:      class,
		},
		st:       st,
		hinted:   hinted,
		delivery: delivery(st.Code(), s),
	}
}

// codeName returns the canonical upper-case name of c, "UNAVAILABLE".
func codeName(c codes.Code) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return c.String()
}

// codeNames are the canonical upper-case names of the codes, by code.
var codeNames = [...]string{
	codes.OK:                 "OK",
	codes.Canceled:           "CANCELLED",
	codes.Unknown:            "UNKNOWN",
	codes.InvalidArgument:    "INVALID_ARGUMENT",
	codes.DeadlineExceeded:   "DEADLINE_EXCEEDED",
	codes.NotFound:           "NOT_FOUND",
	codes.AlreadyExists:      "ALREADY_EXISTS",
	codes.PermissionDenied:   "PERMISSION_DENIED",
	codes.ResourceExhausted:  "RESOURCE_EXHAUSTED",
	codes.FailedPrecondition: "FAILED_PRECONDITION",
	codes.Aborted:            "ABORTED",
	codes.OutOfRange:         "OUT_OF_RANGE",
	codes.Unimplemented:      "UNIMPLEMENTED",
	codes.Internal:           "INTERNAL",
	codes.Unavailable:        "UNAVAILABLE",
	codes.DataLoss:           "DATA_LOSS",
	codes.Unauthenticated:    "UNAUTHENTICATED",
}

// printable returns s without control characters (C0, DEL, C1) and
// formatting characters (bidirectional overrides, zero-width ones), which
// a hostile server could use to forge log lines; a tab becomes a space.
// The status itself (GRPCStatus) keeps the server's message as sent.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
}
