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
//     for. No attempt is started that the deadline would cut before it
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
// A non-idempotent operation is sent once; when it times out the error is
// an [*OutcomeUnknownError], since the dependency may have applied it.
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
// Every error is typed and usable with [errors.As] and [errors.Is]:
// [*CircuitOpenError], [*BulkheadFullError], [*BudgetExhaustedError],
// [*DeadlineExceededError] (matches [context.DeadlineExceeded]),
// [*CanceledError] (matches [context.Canceled]), [*OutcomeUnknownError],
// [*RemoteError] (the dependency's answer, with status, attempts and
// Retry-After) and [*DegradedError].
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
