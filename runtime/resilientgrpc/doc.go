// Package resilientgrpc is the gRPC glue of the resilient runtime: the
// helpers that a generated NewResilient<Service>Client calls so that it
// implements the <Service>Client interface of protoc-gen-go-grpc with every
// method running through a [runtime.Operation]'s pipeline. The core runtime
// package does not import grpc; this one does.
//
// # Calls
//
//   - [Invoke] runs a unary call: each attempt is one cc.Invoke under the
//     attempt's context, so the deadline travels natively as grpc-timeout.
//   - [ServerStream] runs the establishment of a server stream (up to the
//     first message) through the pipeline, retrying an idempotent one only
//     before anything was received.
//   - [ClientStream] and [BidiStream] run the establishment through the
//     deadline, the bulkhead and the breaker, and never retry.
//
// A stream holds a bulkhead permit of its dependency only while it is being
// established ([runtime.DoStream]); an open stream holds none. Long-lived
// streams (a Pub/Sub StreamingPull, a Firestore Listen) would otherwise keep
// the permits of the dependency's unary calls for their whole life: with
// the default 32 permits, 32 open streams rejected every unary call. The
// number of open streams is bounded by the server's HTTP/2
// MAX_CONCURRENT_STREAMS and by the caller. A test keeps 100 server
// streams open beside unary traffic on loopback: every stream opens, no
// unary call is refused, and the unary calls' p99 (the median of
// alternating rounds, best of five tries) stays within 10 % of the p99
// without them.
//
// # Status codes
//
// [Classify] maps gRPC codes to the pipeline's classes: UNAVAILABLE and a
// server's DEADLINE_EXCEEDED are transient, except that an UNAVAILABLE
// the server was reached for (or sent with a pushback) is overloaded, load
// shed that the throttle answers by sending less; RESOURCE_EXHAUSTED is throttled
// only with a grpc-retry-pushback-ms trailer ≥ 0 and rejected otherwise;
// INTERNAL, UNKNOWN and DATA_LOSS are failures that are not retried; the
// caller's errors (INVALID_ARGUMENT, NOT_FOUND, …) are rejected. A pushback
// is obeyed exactly ([ParsePushback]), also above the backoff cap when the
// deadline leaves time for it (else the call fails at once with
// [runtime.ErrRetryAfterExceedsDeadline] and the server's status); a
// negative, unparsable or repeated one forbids the retry, as gRFC A6 says. A call whose server had sent
// response headers before failing is committed and never retried.
//
// # Errors
//
// Failed calls return an [*Error]. It wraps the pipeline's
// [*runtime.CallError] (dependency, method, attempts, what ended the call)
// and unwraps to its typed causes ([*runtime.RemoteError],
// [*runtime.CircuitOpenError], …), and it implements GRPCStatus, so
// status.Code(err) keeps working: [Status] maps an open breaker or a full
// bulkhead to UNAVAILABLE, a deadline to DEADLINE_EXCEEDED, a cancellation
// to CANCELED, an invalid request to INVALID_ARGUMENT and a server's
// answer to its own status.
//
// # What the caller is told
//
// Metadata that grpc-go would refuse (a key outside [0-9a-z-_.], a value
// outside printable ASCII for a key not ending in -bin), an idempotency key
// name that is no metadata key, or a request message that does not
// marshal is the caller's error: the call fails with
// [runtime.ErrInvalidRequest], never retried, never counted by the breaker
// and never answered by a fallback. For a non-idempotent method, a failure
// before the stream was open (no connection, a refusal by an interceptor)
// matches [runtime.ErrNotSent]; once it was open, a status the server
// application answered with is its answer, and DEADLINE_EXCEEDED,
// CANCELLED, UNKNOWN, INTERNAL, UNAVAILABLE or DATA_LOSS leave the outcome
// unknown ([runtime.ErrOutcomeUnknown]), whichever timer fired (grpc-go's
// own, or the client's cancellation that grpc-go reports as
// DEADLINE_EXCEEDED). This holds for client and bidi streams too, whose
// failures after the pipeline handed them over come from their receive:
// such a failure with one of those codes is a [*runtime.OutcomeUnknownError]
// that keeps grpc-go's status.
//
// # Message size
//
// grpc-go bounds what it receives itself: a message above
// grpc.MaxCallRecvMsgSize (4 MiB unless the connection's default call
// options or the call's own options say otherwise) fails the attempt with
// RESOURCE_EXHAUSTED raised by grpc-go. Without a pushback that is
// [outcome.Rejected]: never retried (the same request gets the same
// answer), not counted by the breaker and never answered by a fallback,
// as the runtime's [runtime.HTTPClient.MaxResponseBody] does for HTTP.
//
// # One retry layer
//
// grpc-go can retry on its own from a service config's retryPolicy. Its
// retries would stack with the pipeline's (attempts multiply) and bypass
// the idempotency gate, the retry budget and the breaker. Every call made
// by this package is committed so that grpc-go cannot retry it: a unary
// call once its request is sent, a stream as soon as it is open (before
// the caller's first message), whatever the connection's service config
// says. [DialOptions] also disables grpc-go's retries for the whole
// connection, and [CheckNoBuiltinRetry] reports a service config with a
// retryPolicy as far as grpc-go lets it be seen.
package resilientgrpc
