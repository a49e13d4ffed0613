// Package runtime is the small library every generated resilient client
// calls. A [Dependency] stands for one remote dependency (an HTTP host or a
// gRPC service) and owns what its calls share: a bulkhead, a circuit
// breaker (github.com/sony/gobreaker/v2), a retry budget, a fallback store
// and an [Observer]. An [Operation] is one of its operations with a resolved
// [OperationPolicy]; [Do] runs one call of it through the pipeline.
//
// # Order of the pipeline
//
// Outermost first, for every call:
//
//  1. Overall deadline: the caller's context deadline, capped by the
//     operation's total timeout. It caps everything below, backoff sleeps
//     included. A context that is already done returns at once: no permit,
//     no budget token, no attempt.
//  2. Bulkhead: a per-dependency semaphore. When it is full the call waits
//     at most [BulkheadPolicy.MaxWait], then fails with [ErrBulkheadFull].
//     There is no unbounded queue.
//  3. Retry loop, for [Idempotent] and [ReadOnly] operations only. Retry n
//     (from 0) sleeps a random time in [0, min(cap, base·2^n)) (full
//     jitter), or exactly the Retry-After / pushback the dependency asked
//     for, even above the backoff cap; when the deadline does not leave
//     that long, the call fails at once with
//     [ErrRetryAfterExceedsDeadline] rather than waiting for a deadline
//     error. No attempt is started that the deadline would cut before it
//     begins, and every retry is paid from the dependency's retry budget;
//     when the budget is spent the call fails with [ErrBudgetExhausted]
//     instead of retrying.
//  4. Circuit breaker, consulted by each attempt and told each attempt's
//     outcome, so it sees every failure. An open breaker ends the loop at
//     once with [ErrCircuitOpen]. Timeouts and [Transient] or [Failed]
//     errors (5xx, UNAVAILABLE) are failures; [Rejected] answers (4xx) count
//     as successes; [Throttled] answers (429) and the caller's cancellation
//     are not counted.
//  5. Per-attempt timeout: each attempt's context ends at the attempt
//     timeout or the overall deadline, whichever comes first, which cancels
//     the attempt's work.
//
// Around the loop, read-only operations may hedge (a second attempt after
// the hedge delay, paid from the retry budget and taking a spare bulkhead
// permit; the first success wins, the others are cancelled) and may answer
// from a fallback when the call fails (a cached last-known-good value or a
// static one), always together with a [*DegradedError] so the caller knows.
// A non-idempotent operation is sent once; when it fails after its request
// may have reached the dependency, without an answer, the error is an
// [*OutcomeUnknownError], since the dependency may have applied it.
//
// # Cached answers never cross callers
//
// A cached fallback answer is served only to a call whose request key is
// the one it was stored under (see [Do]): for [DoHTTP], the method, host,
// path and query parameters (in any order) and, unless the policy declares
// the answer the same for everyone ([FallbackPolicy.Shared]), every header
// but the volatile ones, credentials and cookies included; for gRPC, the
// method, the request message and, unless shared, the outgoing metadata.
// [WithFallbackKey] (per call) and [WithFallbackPartition] (per dependency,
// from the call's context) partition the cache further, for credentials a
// request key cannot see. Keys are SHA-256 digests: no credential is kept
// in clear in a [FallbackStore], which may be external. An operation
// without a cached fallback computes no key at all.
//
// # What an HTTP request carries, and to whom
//
// [DoHTTP] refuses, before the pipeline, a request that net/http would
// refuse (see [ErrInvalidRequest]); [AddCookie] refuses a cookie value
// that net/http would silently cut. The default client of a generated
// client, [NewHTTPClient], follows a redirect only on the first request's
// origin and only for GET and HEAD ([CheckRedirect]): a body, header
// parameters such as an API key, the idempotency key and the deadline
// header never go to another host. A success body is bounded
// ([HTTPClient.MaxResponseBody], [DefaultMaxResponseBody]); an error body
// by [MaxErrorBody], and its excerpt in [RemoteError.Message] is stripped
// of control characters. The deadline header can be renamed or turned off
// per client ([HTTPClient.DeadlineHeader],
// [HTTPClient.DisableDeadlineHeader]); [DeadlineMiddleware], its inbound
// half, caps what a caller may ask for at [DefaultMaxDeadline].
//
// # Retrying against RFC 9110
//
// RFC 9110 §9.2.2 says a client SHOULD NOT automatically retry a failed
// automatic retry. Allowing up to two retries is a deliberate deviation,
// made only for idempotent operations, bounded by the retry budget and the
// overall deadline.
//
// # Errors
//
// Every failed call returns a [*CallError], whatever ended it. It names the
// dependency and the operation, counts the attempts sent (Attempts, zero
// when the call was refused before any), says what ended the call (End)
// and whether nothing of it reached the dependency (NotSent, matched by
// [ErrNotSent]), and unwraps to the cause, so that [errors.As] and
// [errors.Is] reach it:
//
//	End                   cause (Err)                        matches
//	EndInvalidRequest     *InvalidRequestError               ErrInvalidRequest, ErrNotSent
//	EndBulkheadFull       *BulkheadFullError                 ErrBulkheadFull, ErrNotSent
//	EndCircuitOpen        *CircuitOpenError (last attempt)   ErrCircuitOpen
//	EndBudgetExhausted    *BudgetExhaustedError (last)       ErrBudgetExhausted
//	EndRetryAfter         *RetryAfterExceedsDeadlineError    ErrRetryAfterExceedsDeadline
//	EndDeadline           *DeadlineExceededError (last)      context.DeadlineExceeded
//	EndCanceled           *CanceledError (last)              context.Canceled
//	EndOutcomeUnknown     *OutcomeUnknownError               ErrOutcomeUnknown
//	EndAttempt            the last attempt's error
//
// EndAttempt is a call ended by its last attempt's own failure, not
// retryable or with no retry left: the dependency's answer (a
// [*RemoteError] with status, attempts and Retry-After, or the typed error
// an [ErrorDecoder] made of it), or a failure to get one (a transport error
// such as a [*url.Error], a [*ResponseTruncatedError], a
// [*ResponseTooLargeError]; an attempt that timed out matches
// [context.DeadlineExceeded]). The errors carried as "last" unwrap to the
// last attempt's error too.
//
// The four ways a call can end, as the caller must tell them apart:
//
//   - refused locally before anything was sent, the caller's to fix
//     ([ErrInvalidRequest]): never retried, never counted by the breaker
//     or the retry budget, never answered by a fallback, and taking no
//     bulkhead permit;
//   - refused by the pipeline: bulkhead full, breaker open, budget spent,
//     deadline already spent ([ErrBulkheadFull], [ErrCircuitOpen],
//     [ErrBudgetExhausted], [EndDeadline] with no attempt);
//   - answered with an error by the dependency ([*RemoteError]);
//   - ended with the outcome unknown ([ErrOutcomeUnknown]): a
//     non-idempotent request that may have been applied. This is decided
//     from what was actually sent (see [DeliveryReporter]), never from
//     which timer fired: a non-idempotent call whose request never left
//     (no connection, a local refusal) matches [ErrNotSent] instead, and
//     may safely be sent again.
//
// A fallback answer comes with a [*DegradedError] (matching [ErrDegraded],
// tested with [IsDegraded]) whose Cause is the CallError it replaced. The
// gRPC glue wraps the CallError in a resilientgrpc.Error whose GRPCStatus
// follows End.
//
// # Fleet state
//
// A service runs as many replicas, and each keeps its own breaker and
// budget: each needs its own minimum calls before opening, and a 10 %
// budget is 10 % per replica. [WithFleet] shares both with the other
// replicas through a [FleetStore] (Redis or Valkey: the redisfleet
// sub-package), as [Policy.Fleet] configures. Nothing of it is on a
// call's path: calls count in memory and one goroutine per dependency
// synchronises in the background, so a successful call costs what it
// costs without a fleet. The fleet opens together, one prober's probes
// speak for it, and retries are paid from tokens leased from the fleet's
// budget; a transition reaches every replica within
// [FleetPolicy.SyncInterval] plus one round trip, usually one round trip
// (the store announces it). When the store is unreachable, slow or
// answers nonsense for [FleetPolicy.StaleAfter], the replica uses its
// local breaker and budget, which kept counting, and rejoins when the
// store answers; no call fails because of the store. [Dependency.Fleet]
// tells where the state lives; a [FleetObserver] hears the changes, and
// [BreakerEvent].Fleet marks the fleet breaker's transitions.
//
// # Time
//
// The package reads time only through the standard library, so tests run it
// under testing/synctest, whose fake clock also drives gobreaker's.
//
// # Request paths
//
// A generated request builder passes the escaped path it assembles to
// [CheckPath], which refuses a "." or ".." segment formed by path values
// with a [*DotSegmentError] (matching [ErrDotSegment]) before anything is
// sent: servers resolve such segments to another resource.
package runtime
