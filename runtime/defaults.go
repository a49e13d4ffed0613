package runtime

import "time"

// The defaults, the bounds and the version mark of the package, in one
// place. A zero field of a policy takes its default, once, when
// [NewDependency] or [Dependency.Operation] resolves the policy (see
// "Policies: zero means the default" above).
const (
	// Defaults applied by [NewDependency] and [Dependency.Operation] to zero
	// fields. They are the values of the resilience-patterns table: two retries
	// with full-jitter backoff from 100 ms capped at 2 s, a 10 % retry budget,
	// a breaker that opens at 50 % failures over at least 20 calls and stays open
	// for 30 s, and a bounded bulkhead.
	DefaultTimeout          = 10 * time.Second
	DefaultMaxRetries       = 2
	DefaultBackoffBase      = 100 * time.Millisecond
	DefaultBackoffCap       = 2 * time.Second
	DefaultBudgetRatio      = 0.10
	DefaultBudgetMinPerSec  = 10
	DefaultBudgetMaxBalance = 100
	DefaultFailureRate      = 50
	DefaultMinimumCalls     = 20
	DefaultBreakerWindow    = 10 * time.Second
	DefaultBreakerBucket    = time.Second
	DefaultOpenFor          = 30 * time.Second
	DefaultHalfOpenProbes   = 5
	DefaultMaxConcurrent    = 32
	DefaultMaxWait          = 10 * time.Millisecond
	DefaultMaxHedges        = 1
	DefaultFallbackTTL      = 5 * time.Minute

	// Defaults of [FleetPolicy]: a dependency with a fleet store synchronises
	// every 200 ms, and goes back to its local breaker and budget when it has
	// not synchronised for a second.
	DefaultFleetPrefix       = "resilient:"
	DefaultFleetSyncInterval = 200 * time.Millisecond
	DefaultFleetStaleAfter   = time.Second

	// DefaultDeadlineHeader is the request header that carries the remaining
	// time budget of a call, in integer milliseconds, from [DoHTTP] to the
	// server and, on the server, into server.DeadlineMiddleware.
	DefaultDeadlineHeader = "X-Request-Deadline"

	// DefaultDeadlineMargin is subtracted from the remaining budget before it
	// is sent: it covers the request's transit and the server's writing of the
	// response, so that the server gives up slightly before the caller does.
	DefaultDeadlineMargin = 10 * time.Millisecond

	// MaxErrorBody is the number of bytes of a non-2xx response body kept in
	// [RemoteError.Body]; the rest is discarded.
	MaxErrorBody = 64 << 10

	// DefaultMaxResponseBody is the most bytes of a success (2xx) body that
	// decode may read when [HTTPClient.MaxResponseBody] is zero: 32 MiB.
	DefaultMaxResponseBody = 32 << 20

	// DefaultConnectTimeout is the dial timeout of [NewTransport] when none is
	// given: the upper end of the 100 ms to 1 s range usual inside a region.
	DefaultConnectTimeout = time.Second

	// MaxRedirects is the number of redirects [CheckRedirect] follows in one
	// attempt, as net/http does by default.
	MaxRedirects = 10

	// DefaultThrottleRatio is the K of the SRE book's adaptive throttle
	// (which suggests 2), the default of [ThrottlePolicy.Ratio]: the
	// dependency sees about three times what it accepts.
	DefaultThrottleRatio = 3.0
	// DefaultThrottleWindow is the span over which requests and accepts
	// are counted.
	DefaultThrottleWindow = 250 * time.Millisecond
	// DefaultThrottleMaxReject leaves at least one attempt in five
	// reaching a dependency that sheds everything.
	DefaultThrottleMaxReject = 0.8
	// DefaultThrottleMinRequests is the breaker's default minimum of calls.
	DefaultThrottleMinRequests = 20

	// AdaptiveHeadroom multiplies the observed latency of an operation's
	// successful attempts, its p99 for the attempt timeout and its p90 for the
	// hedge delay, when that is longer than the policy's value: the same
	// headroom the policy derivation puts over the measured p99.9. It keeps
	// the bulk of a dependency that slowed down as a whole below both, so that
	// neither timeouts nor hedges fire on answers that are merely slow.
	AdaptiveHeadroom = 1.2

	// MaxOpenForFactor bounds the growing open period: the breaker's n-th
	// consecutive opening lasts n × [BreakerPolicy.OpenFor], at most this many
	// times it (see the package documentation, "Circuit breaker: open periods
	// that grow, traffic that ramps back").
	MaxOpenForFactor = 10

	// SupportPackageIsVersion1 is referenced by generated clients so that code
	// generated for a newer runtime fails to compile against an older one,
	// with an error naming this constant, instead of misbehaving at run time.
	// A generated file that refers to a version this package does not define
	// needs a newer github.com/resilientgo/resilient module:
	//
	//	go get github.com/resilientgo/resilient@latest
	//
	// Versions are only ever added, never removed while generated code may
	// still use them.
	SupportPackageIsVersion1 = true
)
