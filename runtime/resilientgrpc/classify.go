package resilientgrpc

import (
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// PushbackKey is the trailer in which a server asks for a retry delay, in
// milliseconds (gRFC A6).
const PushbackKey = "grpc-retry-pushback-ms"

// Pushback is what a server said about retrying through the
// grpc-retry-pushback-ms trailer.
type Pushback uint8

const (
	// PushbackAbsent: the trailer is missing; the client's own backoff
	// applies.
	PushbackAbsent Pushback = iota
	// PushbackDelay: one valid value ≥ 0 asks for a retry after exactly that
	// delay.
	PushbackDelay
	// PushbackStop: a negative or unparsable value, or more than one value,
	// asks the client not to retry.
	PushbackStop
)

// String returns "absent", "delay" or "stop".
func (p Pushback) String() string {
	switch p {
	case PushbackDelay:
		return "delay"
	case PushbackStop:
		return "stop"
	default:
		return "absent"
	}
}

// ParsePushback reads the grpc-retry-pushback-ms trailer from md as gRFC A6
// and grpc-go read it: a single ASCII decimal int32 of milliseconds ≥ 0 is a
// delay (returned exactly); a negative or unparsable value, or more than one
// value, means do not retry. The delay is zero unless the result is
// [PushbackDelay].
func ParsePushback(md metadata.MD) (time.Duration, Pushback) {
	vs := md.Get(PushbackKey)
	switch len(vs) {
	case 0:
		return 0, PushbackAbsent
	case 1:
	default:
		return 0, PushbackStop
	}
	ms, err := strconv.ParseInt(vs[0], 10, 32)
	if err != nil || ms < 0 {
		return 0, PushbackStop
	}
	return time.Duration(ms) * time.Millisecond, PushbackDelay
}

// Classify returns how the pipeline treats a gRPC status code received from
// the server, given the pushback the server sent and whether the call was
// committed (the server had sent response headers, or a streaming call had
// delivered a message, before failing):
//
//   - UNAVAILABLE and DEADLINE_EXCEEDED (sent by the server; an attempt
//     timeout on the client is classified by the pipeline itself):
//     [outcome.Transient], retried when the operation is idempotent and
//     counted as breaker failures. The glue then makes an UNAVAILABLE
//     [outcome.Overloaded] (load shed: retried, not a breaker failure, a
//     sign to send less) when the attempt's stream was open, so the
//     server or a proxy in front of it answered, or when it came with a
//     pushback; one that never left the client stays transient.
//   - RESOURCE_EXHAUSTED with a valid pushback: [outcome.Throttled], retried
//     after exactly the pushback and not counted by the breaker. Without
//     pushback it is [outcome.Rejected]: the code also stands for per-caller
//     quotas and for messages over the size limit (which grpc-go raises on
//     the client), neither of which a retry or an open breaker would help.
//   - INTERNAL, UNKNOWN, DATA_LOSS and codes this package does not know:
//     [outcome.Failed], counted by the breaker, never retried.
//   - INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED,
//     UNAUTHENTICATED, FAILED_PRECONDITION, OUT_OF_RANGE, UNIMPLEMENTED and
//     ABORTED (a conflict, retried at the transaction level if at all):
//     [outcome.Rejected].
//   - CANCELED from the server while the caller's context is still live:
//     [outcome.Permanent], treated like the caller's cancellation (neither
//     retried nor counted). A cancellation by the caller itself never
//     reaches the classifier.
//
// A pushback that says stop turns a retryable code into a non-retryable one
// (UNAVAILABLE and DEADLINE_EXCEEDED become [outcome.Failed],
// RESOURCE_EXHAUSTED stays [outcome.Rejected]). A committed call is never
// retried (gRFC A6): retryable codes become [outcome.Failed], or
// [outcome.Rejected] for RESOURCE_EXHAUSTED.
func Classify(code codes.Code, pushback Pushback, committed bool) outcome.Class {
	c := baseClass(code)
	if code == codes.ResourceExhausted && pushback == PushbackDelay {
		c = outcome.Throttled
	}
	if c == outcome.Transient || c == outcome.Throttled {
		if committed || pushback == PushbackStop {
			if c == outcome.Throttled {
				return outcome.Rejected
			}
			return outcome.Failed
		}
	}
	return c
}

func baseClass(code codes.Code) outcome.Class {
	switch code {
	case codes.Unavailable, codes.DeadlineExceeded:
		return outcome.Transient
	case codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.PermissionDenied,
		codes.Unauthenticated, codes.FailedPrecondition, codes.OutOfRange, codes.Unimplemented,
		codes.Aborted, codes.ResourceExhausted:
		return outcome.Rejected
	case codes.Canceled, codes.OK:
		return outcome.Permanent
	default: // Internal, Unknown, DataLoss, and codes above 16.
		return outcome.Failed
	}
}
