package resilientgrpc

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/resilientgo/resilient/runtime"
)

// Error is the error the helpers of this package return for a failed call.
// It keeps the pipeline's error chain intact, so [errors.As] finds
// [*runtime.RemoteError] (the server's code, message, attempts and
// pushback), [*runtime.CircuitOpenError] and the other typed errors, and
// [errors.Is] matches [runtime.ErrCircuitOpen], [context.DeadlineExceeded]
// and the like; and it implements GRPCStatus, so status.FromError,
// status.Code and status.Convert give the status described by [Status].
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
// so that code written for plain gRPC clients keeps working:
//
//   - a server's answer, even after retries or behind
//     [*runtime.BudgetExhaustedError]: the server's own status, code,
//     message and details unchanged;
//   - [*runtime.CircuitOpenError] and [*runtime.BulkheadFullError]:
//     UNAVAILABLE (the dependency is, for this caller, unavailable; neither
//     was sent);
//   - [*runtime.DeadlineExceededError] and anything matching
//     [context.DeadlineExceeded]: DEADLINE_EXCEEDED;
//   - [*runtime.CanceledError] and anything matching [context.Canceled]:
//     CANCELED;
//   - [*runtime.OutcomeUnknownError]: the status of the error it wraps
//     (usually DEADLINE_EXCEEDED);
//   - [*runtime.DegradedError]: the status of the failure the fallback
//     replaced; callers that accept degraded values test
//     [runtime.IsDegraded] first;
//   - any other error carrying a status (GRPCStatus): that status;
//     anything else: UNKNOWN.
//
// Except for a server's answer, the message is err's message. Status
// returns nil for a nil error.
func Status(err error) *status.Status {
	if err == nil {
		return nil
	}
	switch e := err.(type) {
	case *Error:
		return e.st
	case *remoteError:
		return e.st
	case *runtime.DegradedError:
		return Status(e.Cause)
	case *runtime.OutcomeUnknownError:
		return status.New(Status(e.Err).Code(), err.Error())
	case *runtime.BudgetExhaustedError:
		var re *remoteError
		if errors.As(e.Last, &re) {
			return re.st
		}
		return status.New(codes.Unavailable, err.Error())
	case *runtime.CircuitOpenError, *runtime.BulkheadFullError:
		return status.New(codes.Unavailable, err.Error())
	case *runtime.DeadlineExceededError:
		return status.New(codes.DeadlineExceeded, err.Error())
	case *runtime.CanceledError:
		return status.New(codes.Canceled, err.Error())
	}
	var re *remoteError
	if errors.As(err, &re) && re.st.Code() != codes.OK {
		return re.st
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return status.New(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.New(codes.Canceled, err.Error())
	}
	if st, ok := status.FromError(err); ok {
		return st
	}
	return status.New(codes.Unknown, err.Error())
}

// remoteError is an attempt's failure as the pipeline sees it: a
// [*runtime.RemoteError] (classified, with the pushback as its
// Retry-After), plus the original status for GRPCStatus.
type remoteError struct {
	re *runtime.RemoteError
	st *status.Status
	// hinted is true when the server asked for a delay, zero included.
	hinted bool
}

func (e *remoteError) Error() string              { return e.re.Error() }
func (e *remoteError) Unwrap() error              { return e.re }
func (e *remoteError) GRPCStatus() *status.Status { return e.st }
func (e *remoteError) Classify() runtime.Class    { return e.re.Class }

// RetryAfterHint returns the pushback, a zero one included: gRFC A6 asks
// for the retry after exactly the delay given.
func (e *remoteError) RetryAfterHint() (time.Duration, bool) { return e.re.RetryAfter, e.hinted }

// attemptError turns the error of one attempt into a classified
// [*remoteError]. trailer is the attempt's trailer, committed whether the
// server had sent headers (or a message) before failing.
func attemptError(err error, trailer metadata.MD, committed bool) error {
	st, ok := status.FromError(err)
	if !ok {
		st = status.New(codes.Unknown, err.Error())
	}
	delay, pb := ParsePushback(trailer)
	class := Classify(st.Code(), pb, committed)
	hinted := pb == PushbackDelay && (class == runtime.Transient || class == runtime.Throttled)
	if !hinted {
		delay = 0
	}
	return &remoteError{
		re: &runtime.RemoteError{
			Status:     int(st.Code()),
			Code:       codeName(st.Code()),
			Message:    st.Message(),
			Attempts:   1,
			RetryAfter: delay,
			Class:      class,
		},
		st:     st,
		hinted: hinted,
	}
}

// codeName returns the canonical upper-case name of c, "UNAVAILABLE".
func codeName(c codes.Code) string {
	switch c {
	case codes.OK:
		return "OK"
	case codes.Canceled:
		return "CANCELLED"
	case codes.Unknown:
		return "UNKNOWN"
	case codes.InvalidArgument:
		return "INVALID_ARGUMENT"
	case codes.DeadlineExceeded:
		return "DEADLINE_EXCEEDED"
	case codes.NotFound:
		return "NOT_FOUND"
	case codes.AlreadyExists:
		return "ALREADY_EXISTS"
	case codes.PermissionDenied:
		return "PERMISSION_DENIED"
	case codes.ResourceExhausted:
		return "RESOURCE_EXHAUSTED"
	case codes.FailedPrecondition:
		return "FAILED_PRECONDITION"
	case codes.Aborted:
		return "ABORTED"
	case codes.OutOfRange:
		return "OUT_OF_RANGE"
	case codes.Unimplemented:
		return "UNIMPLEMENTED"
	case codes.Internal:
		return "INTERNAL"
	case codes.Unavailable:
		return "UNAVAILABLE"
	case codes.DataLoss:
		return "DATA_LOSS"
	case codes.Unauthenticated:
		return "UNAUTHENTICATED"
	}
	return c.String()
}
