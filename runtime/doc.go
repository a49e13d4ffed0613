// Package runtime is the small library every generated resilient client
// calls. A [Dependency] stands for one remote dependency (an HTTP host or a
// gRPC service) and owns what its calls share: a bulkhead, a circuit
// breaker (github.com/sony/gobreaker/v2), a retry budget, a fallback store
// and an [Observer]. An [Operation] is one of its operations with a resolved
// [OperationPolicy]; [Do] runs one call of it through the pipeline.
//
// # Where to start
//
// A generated client makes its dependency and operations itself; a caller
// meets this package through what it passes in and what it gets back:
//
//   - [Dependency], made once per remote service by [NewDependency] from a
//     [DependencyPolicy] (its [BulkheadPolicy], [BreakerPolicy], [BudgetPolicy],
//     [ThrottlePolicy] and [FleetPolicy]) and [Option] values:
//     [WithObserver], [WithTracer], [WithLogger], [WithFallbackStore],
//     [WithFallbackPartition], [WithFleet]. Zero fields take the package
//     defaults (see "Policies: zero means the default" below).
//   - [Operation], made by [Dependency.Operation] from an
//     [OperationPolicy] (its [RetryPolicy], [HedgePolicy] and
//     [FallbackPolicy]), tuned per call by [CallOption] values:
//     [WithTimeout], [WithAttemptTimeout], [WithMaxRetries],
//     [WithoutRetries], [WithoutHedging], [WithoutFallback],
//     [WithFallbackKey], [WithRequestEditor], [WithCredentials],
//     [WithResponseInfo], [AcceptStatus].
//   - The calls: [Do], [Run], [DoHeld] and [DoStream] for any attempt
//     function; [DoHTTP] and [DoHTTPStream] with an [HTTPClient]; a
//     [Stream] for a streamed answer.
//   - The errors: every failed call returns a [*CallError] (see "Errors"
//     below), which wraps a typed cause found with errors.As
//     ([*RemoteError], [*CircuitOpenError], [*BulkheadFullError],
//     [*BudgetExhaustedError], [*DeadlineExceededError],
//     [*InvalidRequestError] and the others) and matches a sentinel with
//     errors.Is ([ErrCircuitOpen], [ErrBulkheadFull], [ErrNotSent] and the
//     others); a fallback answer comes with a [*DegradedError].
//   - Watching it run: an [Observer] hears attempts, retries, hedges,
//     breaker transitions and rejections; a [Tracer] opens spans (the
//     otelobserver and oteltrace sub-packages give both on OpenTelemetry).
//
// The other sub-packages hold what a caller does not program against:
// codec, the encoding helpers generated clients call (with the model
// types codec.Nullable, codec.Date and codec.File); server, the deadline
// middleware and load shedder of a service that is called; fleetstore,
// the protocol of a store shared by the replicas of a service, which
// redisfleet implements on Redis; resilientgrpc, the gRPC glue.
//
// # Policies: zero means the default
//
// [DependencyPolicy] (what a dependency's operations share) and
// [OperationPolicy] (one operation) are plain structs whose zero value is usable: every zero
// field takes the default its documentation names (a Default… constant),
// once, when [NewDependency] or [Dependency.Operation] resolves the
// policy; the per-call path reads only resolved values. What is on by
// default is turned off by a flag named for it, never by a zero or a
// negative value: Disabled for a whole part (retries, breaker, budget,
// throttle), Disable… for one of its features ([BulkheadPolicy.DisableWait],
// [BudgetPolicy.DisableFloor], [RetryPolicy.DisableJitter]). What is off
// by default is turned on by setting it: hedging by a
// [HedgePolicy.Delay], a fallback by its [FallbackPolicy.Kind], an
// idempotency key by its header's name, the fleet by [WithFleet]. A
// negative value is an error. A generated client's policy literal
// therefore writes only what its spec, its policy file or a derivation
// from measured latency set; a default changed here reaches every client
// without regenerating it.
//
// # Order of the pipeline
//
// Outermost first, for every call:
//
//  1. Overall deadline: the caller's context deadline, capped by the
//     operation's total timeout; a total nobody declared (zero, or a
//     guess: [OperationPolicy.KeepCallerDeadline]) bounds only the calls
//     that arrive without a deadline and never cuts a caller's deadline
//     short; with a guessed total, the attempt timeout is a guess too and
//     cuts no attempt of a call that came with a deadline. It caps
//     everything below, backoff sleeps included. A context that is already done returns at once: no permit,
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
//  4. Adaptive throttle, then circuit breaker, consulted by each attempt
//     and told each attempt's outcome. The throttle refuses an attempt
//     locally with [ErrThrottled] while the dependency sheds load (see
//     "Overload" below); an open breaker ends the loop at once with
//     [ErrCircuitOpen]. Unanswered timeouts and [outcome.Transient] or [outcome.Failed]
//     errors (connection refused or reset, 500, 502, 504, UNAVAILABLE
//     before the server was reached) are breaker failures; [outcome.Rejected]
//     answers (4xx) count as successes; shed answers ([outcome.Overloaded]: 503,
//     UNAVAILABLE from a reached server; [outcome.Throttled]: 429,
//     RESOURCE_EXHAUSTED with pushback), the caller's cancellation and
//     attempts that were only slow are not counted (see below).
//  5. Per-attempt timeout: an attempt that a retry could still follow ends
//     at the attempt timeout in force or the overall deadline, whichever
//     comes first; the call's last attempt runs to the deadline. Either
//     ending cancels the attempt's work.
//
// Each stage keeps its state in a file of its own: the overall deadline
// and the bulkhead permit in call.go (the semaphore in bulkhead.go), the
// retry loop in retry.go (the budget in budget.go), the breaker in
// breaker.go, hedged rounds in hedge.go, one attempt under its timeout in
// attempt.go (the adaptive timeouts' state in adaptive.go), and the
// fallback answer with its store in fallback.go.
//
// Around the loop, read-only operations may hedge (a second attempt after
// the hedge delay, paid from the retry budget and only with spare
// capacity: a bulkhead permit that leaves half the bulkhead free;
// the first success wins, the others are cancelled) and may answer
// from a fallback when the call fails (a cached last-known-good value or a
// static one), always together with a [*DegradedError] so the caller knows.
// A non-idempotent operation is sent once; when it fails after its request
// may have reached the dependency, without an answer, the error is an
// [*OutcomeUnknownError], since the dependency may have applied it.
//
// # Overload: send what the dependency can take
//
// A dependency that answers 503 or 429 (or, over gRPC, UNAVAILABLE once
// the request reached it, or RESOURCE_EXHAUSTED) is telling its callers to
// send less, not to stop: it is answering, and the share it accepts is
// the goodput its callers can have. Opening the breaker on such answers
// would refuse every call for a whole open period, leaving that capacity
// unused and filling the gap with stale fallbacks, and after the
// dependency recovered the client would go on refusing until the period
// ended. So shed answers are not breaker failures; they drive the
// dependency's adaptive throttle instead ([ThrottlePolicy], after the
// client-side throttling of the Google SRE book, "Handling Overload").
// Over a short sliding window ([DefaultThrottleWindow], 250 ms) it counts
// the attempts the callers wanted to send and those the dependency
// accepted (answered with anything but a shed answer), and refuses each
// new attempt locally with probability
//
//	max(0, (requests − K·accepts) / (requests + 1))
//
// with K = [DefaultThrottleRatio] (3), at most [DefaultThrottleMaxReject]
// (0.8). A dependency that can serve a third of the demand therefore
// still receives about K times what it accepts: it stays busy, its
// callers get every fresh answer it can give (a refused read may still be
// answered from its fallback, marked degraded), and the excess, which it
// would have refused anyway, costs it nothing. Retries are attempts too:
// during overload they are refused with the rest, so they never deepen
// it. A dependency that sheds everything still receives at least a fifth
// of the attempts, and when it recovers, a few accepted attempts in a row
// with no shed answer for a third of the window end the throttle at once:
// fresh answers come back within a fraction of the window, not after an
// open period. The throttle counts nothing until a shed answer arrives,
// and refuses nothing while the window holds fewer than
// [DefaultThrottleMinRequests] attempts, so a healthy or quiet dependency
// pays one atomic load per attempt.
//
// Hard failures are the breaker's: connections refused or reset, attempts
// the dependency never answered, 500s and gateway errors open it after
// [BreakerPolicy.MinimumCalls] as before, since a dependency that cannot
// answer at all gains nothing from a fifth of the traffic. Its half-open
// probes, after an open period that grows while they fail, and a ramp
// bring it back (see "Circuit breaker" below).
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
// request key cannot see. The credentials of [WithCredentials], applied
// per attempt, are part of an HTTP request's key: a secured operation's
// cached answer goes only to a call with the same credential. Keys are
// SHA-256 digests: no credential is kept
// in clear in a [FallbackStore], which may be external. An operation
// without a cached fallback computes no key at all.
//
// # What an HTTP request carries, and to whom
//
// Credentials ([WithCredentials]: the first alternative of an operation's
// security requirement whose credentials are all configured, helpers
// codec.BearerToken, codec.BasicAuth, codec.APIKeyHeader, codec.APIKeyQuery,
// codec.APIKeyCookie, codec.AuthorizationHeader) and request editors
// ([HTTPClient.RequestEditors], [WithRequestEditor]) edit every attempt's
// own copy of the request, so a token is read afresh for each retry; a
// missing credential ([MissingCredentialError]) or a failing editor is
// the caller's error, refused with nothing sent. Errors name the scheme,
// never the credential.
//
// A generated client's base URL goes through [ParseBaseURL], which
// refuses one with a query, a fragment or userinfo: appending the
// operations' paths would mangle the first two, and the last would send
// credentials nobody sees in the code. [DoHTTP] refuses, before the
// pipeline, a request that net/http would refuse (see
// [ErrInvalidRequest]); codec.AddCookie refuses a cookie value that net/http
// would silently cut. The default client of a generated
// client, [NewHTTPClient], follows a redirect only on the first request's
// origin and only for GET and HEAD ([CheckRedirect]): a body, header
// parameters such as an API key, the idempotency key and the deadline
// header never go to another host. A success body is bounded
// ([HTTPClient.MaxResponseBody], [DefaultMaxResponseBody]); an error body
// by [MaxErrorBody], and its excerpt in [RemoteError.Message] is stripped
// of control characters. The deadline header can be renamed or turned off
// per client ([HTTPClient.DeadlineHeader],
// [HTTPClient.DisableDeadlineHeader]); DeadlineMiddleware of the server
// package, its inbound half, caps what a caller may ask for.
//
// # Timeouts that do not manufacture outages
//
// A per-attempt timeout exists to leave room for another attempt. Cut too
// early, it turns a dependency that is slow but answering into errors, its
// retries time out too, and the breaker opens on a dependency that works:
// the outage the timeout was meant to prevent. Four rules keep it from
// doing so.
//
// The last attempt runs to the deadline. An attempt is cut by the attempt
// timeout only when a retry could still follow it: the operation may retry
// and has retries left; after the attempt timeout and the longest backoff
// there is as much time left as the attempt had (and at least
// [RetryPolicy.MinAttempt]), so that the retry is a real second chance;
// and the retry budget pays for that retry when the attempt starts (the
// retry is reserved, and given back if it is not made). Otherwise cutting
// the attempt would gain nothing and lose the answer, so it runs until the
// call's deadline. An operation sent once (not idempotent, or without
// retries) is never cut before its total.
//
// The attempt timeout follows the latency. [OperationPolicy.AttemptTimeout]
// is a floor: the timeout in force is [AdaptiveHeadroom] times the
// observed p99 of the operation's successful attempts when that is longer,
// never past the deadline ([Operation.EffectiveAttemptTimeout]). The p99
// (and the p90, for hedging) is a streaming estimate, one atomic integer
// moved by a small step per answer, which settles where a hundredth of the
// answers are above it; an answer that arrives after the attempt timeout in
// force, which only a last attempt can give, lifts both estimates to it at
// once, and tells the whole dependency: every operation's timeout grows by
// the same ratio to its floor until answers within the timeouts wear the
// ratio down, so that a dependency that slows down as a whole is learnt
// from its first late answer, whichever operation gave it. Within a call, each attempt cut by its timeout doubles the next
// attempt's, as TCP backs off its retransmission timer, so that the retry
// after a timeout is likely to see the slow answer. So a dependency that
// slows down as a whole costs a few retries, not an outage, and the
// timeout comes back down as answers speed up.
//
// Hedging, not retry on timeout, for reads. A hedged read is not cut by
// its attempt timeout: its hedge is the second chance a retry after a
// timeout would give, started sooner and without throwing away the first
// attempt, which may still answer. The hedge delay in force is the policy's
// or [AdaptiveHeadroom] times the observed p90, whichever is longer
// ([Operation.EffectiveHedgeDelay]), so that a dependency that slows down
// as a whole is not sent every read twice while the tail is still hedged.
// It follows the p90, not the p95: a twentieth of slow answers, the tail
// hedging exists for, would put a p95 estimate at its edge and the delay
// above the tail.
//
// The bulkhead follows an answering dependency. Sized by Little's law for
// the dependency's measured latency, a bulkhead turns calls away when the
// dependency merely slows down: the same traffic then needs more calls in
// flight. The slowdown a late answer reveals widens the bulkhead by the
// same ratio, up to twice its policy's size ([BulkheadPolicy.MaxConcurrent]),
// and it narrows again as answers speed up. Only answers widen it: a
// dependency that answers nothing keeps the bulkhead at its size, which is
// what isolates the caller from it.
//
// Slow calls are counted apart from failures. An attempt cut by its attempt
// timeout says only that the dependency is slower than that timeout; the
// breaker is told about it when the call ends. If a later attempt of the
// call was answered (a success, a rejection or a throttling), the cut
// attempt was slow, and the breaker counts it as an exclusion, like the
// slow-call count of resilience4j kept apart from the failure rate; if no
// attempt was answered, it was a failure. A last attempt ended by the
// caller's own deadline is a failure when it had at least the attempt
// timeout (a healthy dependency answers within it), and is not counted
// when the caller gave it less. Slowness alone never opens the breaker:
// failing fast would only take answers away from callers whose deadline
// allowed them, while the bulkhead already bounds what a slow dependency
// ties up and the rules above stop the retries it would provoke.
//
// The failure rate is taken over the attempts of the window whose outcome
// is known, and [BreakerPolicy.MinimumCalls] attempts in a row that ended
// at their deadline without any reaction from the dependency open the
// breaker whatever the rate: against a dependency that answers nothing,
// failures come only as deadlines pass, and neither the attempts still in
// flight nor the successes of a long healthy stretch may hide them. A
// burst of fast failures (a reset connection failing the calls it carried)
// is left to the rate.
//
// A deadline is a verdict on the dependency only when the process noticed
// it in time. A process that runs notices a deadline within microseconds;
// one whose goroutines wait for a core (a starved machine, a spent CPU
// quota, a long pause) notices every deadline that passed meanwhile at
// once, while the answers may be waiting unread in its sockets. An attempt
// whose deadline (its attempt timeout's, or the caller's) had passed by
// more than a quarter of the attempt timeout in force when the attempt
// ended is therefore counted as an exclusion and does not extend the run
// of unanswered attempts: a stall of the caller does not open the breaker
// on a dependency that answered. A connect timeout of [NewTransport]'s
// dialer noticed more than a quarter of that timeout late is excluded
// alike. Against a dependency that answers nothing the attempts whose
// deadlines are noticed in time still open it.
//
// # Circuit breaker: open periods that grow, traffic that ramps back
//
// The first opening is short: the breaker stays open for
// [BreakerPolicy.OpenFor], then lets [BreakerPolicy.HalfOpenProbes] real
// calls through. A failed probe opens it again, and each opening in a row
// stays open one period longer than the last (the n-th lasts n ×
// OpenFor, at most [MaxOpenForFactor] × OpenFor), as Envoy's outlier
// detection lengthens a host's ejection time: a dependency that fails
// again at every probe sees fewer and fewer of them, while a brief outage
// costs one short period. The streak ends when the breaker has stayed
// closed a whole [BreakerPolicy.Window]; the next opening is short again.
//
// When the probes succeed the breaker does not let every call through at
// once, which would hand a dependency just back on its feet the whole
// load, and the backlog of callers, at the instant it recovered. It ramps
// instead: over one more OpenFor it admits each attempt with a probability
// that grows from a tenth to all of them, refusing the rest as an open
// breaker does (a fallback answers them when the operation has one), and
// it reports itself half-open meanwhile. A failure during the ramp opens
// it again, as a failed probe does; at the ramp's end it reports closed.
// When an outage ends, fresh answers come back after the open period in
// force and the probes, and all of them one OpenFor later. A healthy
// breaker pays one atomic load per attempt for this; the growth and the
// ramp are the replica's own: with [WithFleet], the fleet's shared
// breaker keeps a fixed open period and one round of probes, since its
// protocol carries neither.
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
//	EndThrottled          *ThrottledError (last attempt)     ErrThrottled
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
//   - refused by the pipeline: bulkhead full, breaker open, throttled
//     while the dependency sheds load, budget spent, deadline already
//     spent ([ErrBulkheadFull], [ErrCircuitOpen], [ErrThrottled],
//     [ErrBudgetExhausted], [EndDeadline] with no attempt);
//   - answered with an error by the dependency ([*RemoteError]);
//   - ended with the outcome unknown ([ErrOutcomeUnknown]): a
//     non-idempotent request that may have been applied. This is decided
//     from what was actually sent (see [outcome.DeliveryReporter]), never from
//     which timer fired: a non-idempotent call whose request never left
//     (no connection, a local refusal) matches [ErrNotSent] instead, and
//     may safely be sent again.
//
// A fallback answer comes with a [*DegradedError] (matching [ErrDegraded],
// tested with [IsDegraded]) whose Cause is the CallError it replaced. The
// gRPC glue wraps the CallError in a resilientgrpc.Error whose GRPCStatus
// follows End.
//
// # Panics
//
// A panic in an attempt is the caller's bug and is not turned into an
// error: it goes on in the caller's goroutine, as if the attempt had been
// called directly, also when the attempt ran on a goroutine of its own (a
// hedged round raises it in the caller's goroutine). The one exception is
// a hedged attempt that its round had already abandoned (another attempt
// answered, or the call was over) and that panics afterwards: the caller
// it could reach is gone,
// and re-raising the panic on the attempt's own goroutine would end the
// whole process for an answer nobody awaits. It is recovered, logged at
// error level with its stack, and reported to an observer that implements
// [PanicObserver]; it is not re-raised.
//
// # Fleet state
//
// A service runs as many replicas, and each keeps its own breaker and
// budget: each needs its own minimum calls before opening, and a 10 %
// budget is 10 % per replica. [WithFleet] shares both with the other
// replicas through a [fleetstore.Store] (Redis or Valkey: the redisfleet
// sub-package), as [DependencyPolicy.Fleet] configures. Nothing of it is on a
// call's path: calls count in memory and one goroutine per dependency
// synchronises in the background, so a successful call costs what it
// costs without a fleet. The fleet opens together, one prober's probes
// speak for it, and retries are paid from tokens leased from the fleet's
// budget; a transition reaches every replica within
// [FleetPolicy.SyncInterval] plus one round trip, usually one round trip
// (the store announces it). When the store is unreachable, slow or
// answers nonsense for [FleetPolicy.StaleAfter], the replica uses its
// local breaker and budget, which kept counting, and rejoins when the
// store answers, without sending what it counted meanwhile; no call fails
// because of the store. A retry after a failure waits about one round
// trip, until the fleet has counted that failure. [Dependency.Fleet]
// tells where the state lives; a [FleetObserver] hears the changes, and
// [BreakerEvent].Fleet marks the fleet breaker's transitions.
//
// # Time
//
// The package reads time only through the standard library, so tests run it
// under testing/synctest, whose fake clock also drives gobreaker's.
//
// # Streams
//
// [DoHTTPStream] runs a call whose answer is read after the call returns
// (server-sent events, JSON Lines, JSON text sequences, downloads): its
// attempt ends when the response header arrives, so the attempt and total
// timeouts bound only that wait; the body is bound by the caller's
// context; the call is retried only before a header arrives, never once
// its stream was handed over; and it holds a bulkhead permit until the
// body is closed, read to its end, or the context is done ([DoHeld]).
// [DoStream] is for streams that live long (gRPC streams): it holds the
// permit only while the stream is being established, so that open streams
// never starve the dependency's other calls; package resilientgrpc uses
// it. The stream sub-package (NewEvents, NewJSONLines, NewJSONSeq) reads
// such a body as a Stream of typed items, each delivered as soon as it is
// complete.
//
// # Traces
//
// A [Tracer] set with [WithTracer] starts a span for every call and every
// attempt, and the attempts run under their span's context, so what they
// send is traced below them. The OpenTelemetry tracer is in the oteltrace
// sub-package; without a tracer the pipeline does no tracing work at all.
//
// # The route-table transport
//
// The route sub-package gives the pipeline to an HTTP client this package
// did not generate: its Transport matches each request to a route by
// method and path template and runs it through that route's [Operation],
// with [HTTPClient.Relay]. oapi-resilient generates the route table
// (Routes) and the transport's constructor (NewRouteTransport) beside each
// client, from the same spec and policy.
package runtime
