package runtime

import "time"

// Idempotency says what repeating an operation does, and so which of the
// pipeline's repeats it may take part in. The zero value, [NotIdempotent], is
// the safe one: such an operation is sent exactly once.
type Idempotency uint8

const (
	// NotIdempotent operations (a plain POST or PATCH, a proto method without
	// idempotency_level) are never retried, hedged or answered from a
	// fallback. When one fails after its request may have reached the
	// dependency, without an answer, its outcome is unknown
	// ([ErrOutcomeUnknown]); when its request never left, it was not sent
	// ([ErrNotSent]).
	NotIdempotent Idempotency = iota
	// Idempotent operations (PUT, DELETE, a POST carrying an idempotency key
	// that is the same on every attempt, proto IDEMPOTENT) may be retried.
	Idempotent
	// ReadOnly operations (GET, HEAD, OPTIONS, proto NO_SIDE_EFFECTS) may be
	// retried, hedged and answered from a fallback.
	ReadOnly
)

// String returns "not idempotent", "idempotent" or "read-only".
func (i Idempotency) String() string {
	switch i {
	case Idempotent:
		return "idempotent"
	case ReadOnly:
		return "read-only"
	default:
		return "not idempotent"
	}
}

// DependencyPolicy is the resolved, dependency-wide part of a policy:
// what one remote dependency (a host or a gRPC service) shares across all
// its operations, as [OperationPolicy] is one operation's part. The zero
// value is usable: every zero field takes its documented default.
type DependencyPolicy struct {
	// Breaker configures the dependency's circuit breaker.
	Breaker BreakerPolicy
	// Bulkhead bounds concurrent calls to the dependency.
	Bulkhead BulkheadPolicy
	// Budget bounds retries and hedges as a share of requests.
	Budget BudgetPolicy
	// Throttle makes the client send less while the dependency sheds
	// load.
	Throttle ThrottlePolicy
	// Fleet configures the sharing of the breaker and the budget with the
	// service's other replicas. It takes effect only for a dependency given
	// a store with [WithFleet]; without one the state is local whatever it
	// says.
	Fleet FleetPolicy
}

// FleetPolicy configures how a dependency shares its breaker and retry
// budget with the other replicas of the service through a [fleetstore.Store]
// (see [WithFleet]). The zero value takes every default.
type FleetPolicy struct {
	// Store names the shared store (such as "sessions-redis"), as the
	// policy file writes it, in logs, events and the review. It selects
	// nothing: the application gives the store itself with [WithFleet].
	// Empty is allowed.
	Store string
	// Prefix starts the names of the keys the state is kept under; the
	// dependency's name follows it. Zero means [DefaultFleetPrefix].
	Prefix string
	// SyncInterval is how often the replica pushes its counts and reads
	// the fleet's state when nothing urges it; a failed attempt, a probe
	// verdict, an empty retry lease or a transition announced by the
	// store synchronises sooner (at most every SyncInterval/10). Zero
	// means [DefaultFleetSyncInterval].
	SyncInterval time.Duration
	// StaleAfter is how long the replica trusts the fleet's state without
	// a successful synchronisation: past it, it uses its local breaker and
	// budget until the store answers again. It must be above
	// SyncInterval. Zero means [DefaultFleetStaleAfter].
	StaleAfter time.Duration
}

// BreakerPolicy configures the per-dependency circuit breaker (gobreaker).
// Every attempt is counted, not every call. Zero fields take defaults.
type BreakerPolicy struct {
	// FailureRate is the percentage of failed attempts, among the attempts
	// of the window whose outcome is known, at which the breaker opens, in
	// (0, 100]. Zero means [DefaultFailureRate].
	FailureRate float64
	// MinimumCalls is the number of attempts with a known outcome in the
	// window below which the failure rate does not open the breaker. That
	// many attempts in a row ended at their deadline without any reaction
	// from the dependency open it whatever the rate. Zero means
	// [DefaultMinimumCalls].
	MinimumCalls uint32
	// Window is the rolling window over which attempts are counted, in
	// steps of one second. Zero means [DefaultBreakerWindow].
	Window time.Duration
	// OpenFor is how long the breaker stays open before it lets probes
	// through; each consecutive opening stays open one OpenFor longer, up
	// to [MaxOpenForFactor] × OpenFor, and once the probes succeed the
	// breaker ramps traffic back over one OpenFor. Zero means
	// [DefaultOpenFor].
	OpenFor time.Duration
	// HalfOpenProbes is how many attempts are let through while half-open;
	// that many consecutive successes start the ramp that closes the
	// breaker, one failure opens it again. Zero means [DefaultHalfOpenProbes].
	HalfOpenProbes uint32
	// Disabled turns the breaker off: every attempt is allowed.
	Disabled bool
}

// BulkheadPolicy configures the per-dependency concurrency limit. There is
// no unbounded queue: a call waits at most MaxWait for a permit.
type BulkheadPolicy struct {
	// MaxConcurrent is the number of calls (hedges included) in flight at
	// once. While the dependency answers later than its operations'
	// attempt timeouts allow for, the bulkhead admits proportionally more,
	// up to twice this (see the package documentation, "Timeouts that do
	// not manufacture outages"); a dependency that answers nothing never
	// widens it. Zero means [DefaultMaxConcurrent].
	MaxConcurrent int
	// MaxWait is how long a call waits for a permit before it is rejected
	// with [ErrBulkheadFull]; a call that notices the end of its wait late
	// (its process was stalled) waits MaxWait once more, up to its
	// deadline. Zero means [DefaultMaxWait].
	MaxWait time.Duration
	// DisableWait makes a full bulkhead reject a call at once instead of
	// letting it wait MaxWait for a permit.
	DisableWait bool
}

// BudgetPolicy configures the per-dependency retry budget: a token bucket
// that every call fills by Ratio and every retry or hedge drains by one, with
// a floor of MinPerSecond for low-traffic dependencies.
type BudgetPolicy struct {
	// Ratio is the share of calls that may be retried, in (0, 1]. Zero
	// means [DefaultBudgetRatio].
	Ratio float64
	// MinPerSecond is the number of retries per second allowed whatever the
	// traffic (the floor), also the size of its burst. Zero means
	// [DefaultBudgetMinPerSec].
	MinPerSecond float64
	// MaxBalance bounds how many retries a long healthy period can bank.
	// Zero means [DefaultBudgetMaxBalance].
	MaxBalance float64
	// DisableFloor removes the floor: retries are then paid for by
	// traffic alone, and a dependency called rarely is hardly ever retried.
	DisableFloor bool
	// Disabled removes the budget: retries are then bounded only by
	// [RetryPolicy.MaxRetries].
	Disabled bool
}

// OperationPolicy is the resolved policy of one operation. The zero value is
// usable and safe: a non-idempotent operation, no fallback, and a
// [DefaultTimeout] total for the calls that arrive without a deadline.
type OperationPolicy struct {
	// Name names the operation in errors, logs and observer events, as
	// "GetPet" or "/petstore.v1.Pets/GetPet".
	Name string
	// Idempotency gates retries, hedging and fallback.
	Idempotency Idempotency
	// IdempotencyKey names the header (HTTP) or metadata key (gRPC) that
	// carries the operation's idempotency key: one key per logical call,
	// the same on every attempt, so that the dependency recognises a retry
	// of a request it already applied. [DoHTTP] and the gRPC glue send the
	// caller's key when the request or the outgoing metadata already
	// carries one, else a new key (codec.NewIdempotencyKey); it is left
	// out of a cached fallback's request key. Empty, the zero value, sends none.
	IdempotencyKey string
	// Timeout is the total time one call may take, retries and backoff
	// included. A caller's deadline that comes earlier wins; one that comes
	// later is cut to Timeout, unless KeepCallerDeadline is set. Zero means
	// not declared: [DefaultTimeout] bounds the calls that arrive without a
	// deadline, and a caller's deadline is kept, as with
	// KeepCallerDeadline.
	Timeout time.Duration
	// KeepCallerDeadline makes Timeout bound only the calls that arrive
	// without a deadline: a caller's deadline is kept as it is, also when
	// it is later than Timeout. Generated clients set it for a total
	// timeout nobody declared (a guess, made without latency data), so
	// that a guess never cuts a caller short; a declared or derived
	// timeout leaves it unset, and caps every call. The attempt timeout of
	// such a policy is a guess too (a declared one would have made the
	// total derived), so a call with a caller's deadline runs every
	// attempt to that deadline: only a call without one has its attempts
	// cut by AttemptTimeout.
	KeepCallerDeadline bool
	// AttemptTimeout bounds each attempt that a retry could still follow;
	// its expiry cancels the attempt's work. The call's last attempt, and
	// every attempt of a hedged read, runs to the deadline instead, so an
	// operation sent once is never cut before its total. It is a floor:
	// the timeout in force grows with the observed p99 latency (see
	// [Operation.EffectiveAttemptTimeout]). A last attempt that the
	// caller's deadline ends after at least this long counts as a breaker
	// failure. Zero means attempts are bounded only by the total; one not
	// below the total is dropped ([OperationPolicy.AttemptTimeoutFits]).
	AttemptTimeout time.Duration
	// ConnectTimeout bounds connection set-up, where the transport allows
	// it. Zero leaves the transport's own setting.
	ConnectTimeout time.Duration
	// Retry says how to retry; whether is decided by Idempotency.
	Retry RetryPolicy
	// Hedge configures hedged attempts for ReadOnly operations.
	Hedge HedgePolicy
	// Fallback configures the answer given when a ReadOnly call fails.
	Fallback FallbackPolicy
}

// RetryPolicy says how an eligible operation is retried. Zero fields take
// defaults; Disabled turns retries off.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt. Zero
	// means [DefaultMaxRetries].
	MaxRetries int
	// Base is the backoff base: retry n (from 0) sleeps a random time in
	// [0, min(Cap, Base·2^n)). Zero means [DefaultBackoffBase].
	Base time.Duration
	// Cap bounds the backoff. Zero means [DefaultBackoffCap].
	Cap time.Duration
	// MinAttempt is the least time that must remain before the deadline
	// for an attempt to start: a call entering with less fails at once
	// with a deadline error, and a retry whose backoff would leave less is
	// not made. Typically the dependency's median latency. Zero, the
	// default, asks for no more than some time left.
	MinAttempt time.Duration
	// DisableJitter sleeps the full min(Cap, Base·2^n) instead of a random
	// share of it. Meant for tests and for tools that show the schedule.
	DisableJitter bool
	// Disabled turns retries off: every call makes one attempt (and its
	// hedges, for a hedged read).
	Disabled bool
}

// HedgePolicy configures hedging: when an attempt of a ReadOnly operation
// has not answered after Delay, another one is started; the first success
// wins and the others are cancelled. Hedges are paid from the retry budget
// and need spare capacity: a bulkhead permit that leaves half the
// bulkhead free. Hedging is asked for, never a default: the zero
// HedgePolicy hedges nothing, and a Delay turns hedging on.
type HedgePolicy struct {
	// Delay is how long to wait before hedging, usually the dependency's
	// p95 latency. It is a floor: the delay in force grows with the
	// observed p90 (see [Operation.EffectiveHedgeDelay]). Zero, the
	// default, sends no hedge; MaxHedges then must be zero too.
	Delay time.Duration
	// MaxHedges is the number of hedges per attempt of a hedged operation.
	// Zero means [DefaultMaxHedges].
	MaxHedges int
}

// FallbackKind selects what a failed ReadOnly call answers with.
type FallbackKind uint8

const (
	// FallbackNone returns the error. It is the zero value.
	FallbackNone FallbackKind = iota
	// FallbackCached answers with the last good value for the same request
	// key, if it is younger than the TTL.
	FallbackCached
	// FallbackStatic answers with a fixed value.
	FallbackStatic
)

// String returns "none", "cached" or "static".
func (k FallbackKind) String() string {
	switch k {
	case FallbackCached:
		return "cached"
	case FallbackStatic:
		return "static"
	default:
		return "none"
	}
}

// FallbackPolicy configures the degraded answer of a ReadOnly operation. A
// fallback answer always comes with a [*DegradedError]; it is never given for
// an operation that is not ReadOnly, nor for a rejection by the dependency
// itself (a 4xx is the caller's to see).
type FallbackPolicy struct {
	// Kind selects the fallback.
	Kind FallbackKind
	// TTL is how long a cached value may be served. Zero means
	// [DefaultFallbackTTL].
	TTL time.Duration
	// Static is the value served by [FallbackStatic]. It must have the
	// operation's result type.
	Static any
	// Shared declares that every caller receives the same answer for the
	// same method, path and query, so that a cached answer may be served to
	// any caller. When false (the zero value) a cached answer is only served
	// to a request identical in everything that can change the answer: all
	// parameters, the credentials and metadata it carries, the fallback key
	// given with the call ([WithFallbackKey]) and the dependency's partition
	// ([WithFallbackPartition]); the last two apply to shared answers too.
	Shared bool
}
