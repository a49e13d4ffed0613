package runtime

import (
	"errors"
	"fmt"
	"time"
)

// Operation is one operation of a [Dependency] with its resolved policy,
// ready to run calls through [Do]. It is immutable and safe for concurrent
// use; create it once (generated clients do so in their constructor) and
// derive per-call variants with [Operation.With].
type Operation struct {
	dep            *Dependency
	name           string
	idempotency    Idempotency
	idempotencyKey string
	timeout        time.Duration
	attemptTimeout time.Duration
	connectTimeout time.Duration
	maxRetries     int
	base, cap      time.Duration
	minAttempt     time.Duration
	jitter         bool
	hedgeDelay     time.Duration
	maxHedges      int
	fallback       FallbackPolicy
	// fallbackKey partitions cached answers for the calls of this
	// operation value ([WithFallbackKey]).
	fallbackKey string
	// credentials are applied to every attempt of an HTTP call, missing
	// refuses every call ([WithCredentials]); editors run after them
	// ([WithRequestEditor]).
	credentials []Credential
	missing     *MissingCredentialError
	editors     []RequestEditor
	// latency follows the answered attempts' latency (adaptive.go); shared
	// with the copies With makes.
	latency *latencyTracker
	// accept are statuses outside 2xx that are results ([AcceptStatus]).
	accept []int
	// respInfo receives the answer's status and header
	// ([WithResponseInfo]).
	respInfo *ResponseInfo

	// keepCallerDeadline: timeout bounds only the calls without a
	// deadline ([OperationPolicy.KeepCallerDeadline]).
	keepCallerDeadline bool
	// guessedAttempts: the attempt timeout is a guess, which cuts no
	// attempt of a call with a caller's deadline (set with
	// [OperationPolicy.KeepCallerDeadline], not by a zero Timeout).
	guessedAttempts bool
}

// Operation returns the operation of d described by p, whose zero fields
// take the package defaults and whose Disabled flags turn off what they
// name. It fails on values out of range and on policies that would be
// unsafe: hedging or a fallback on an operation that is not [ReadOnly].
// Retry settings on a non-idempotent operation are not an error: they only
// say how to retry, and such an operation is never retried.
//
// An attempt timeout that is not below the total timeout is dropped, the
// same rule as [Operation.With] applies ([OperationPolicy.AttemptTimeoutFits]):
// every attempt is bounded by the total anyway, so such a value could only
// mislead. (The generator reports one written in a spec as E-TIMEOUT-ORDER,
// with where it was written, by the same rule.)
func (d *Dependency) Operation(p OperationPolicy) (*Operation, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	o := &Operation{
		dep:            d,
		name:           p.Name,
		idempotency:    p.Idempotency,
		idempotencyKey: p.IdempotencyKey,
		timeout:        durationOr(p.Timeout, DefaultTimeout, "timeout", bad),
		attemptTimeout: p.AttemptTimeout,
		connectTimeout: p.ConnectTimeout,
		base:           durationOr(p.Retry.Base, DefaultBackoffBase, "backoff base", bad),
		cap:            durationOr(p.Retry.Cap, DefaultBackoffCap, "backoff cap", bad),
		minAttempt:     p.Retry.MinAttempt,
		jitter:         !p.Retry.DisableJitter,
		hedgeDelay:     p.Hedge.Delay,
		maxHedges:      p.Hedge.MaxHedges,
		fallback:       p.Fallback,
		latency:        new(latencyTracker),
		// An undeclared total is the default guess: it never cuts a
		// caller's deadline.
		keepCallerDeadline: p.KeepCallerDeadline || p.Timeout == 0,
		guessedAttempts:    p.KeepCallerDeadline,
	}
	if p.Idempotency > ReadOnly {
		bad("idempotency %d is unknown", p.Idempotency)
	}
	if o.attemptTimeout < 0 || o.connectTimeout < 0 || o.minAttempt < 0 || o.hedgeDelay < 0 {
		bad("timeouts and delays must not be negative")
	}
	if !attemptFits(o.attemptTimeout, o.timeout) {
		o.attemptTimeout = 0
	}
	o.maxRetries = maxRetriesOf(p.Retry, bad)
	if o.idempotency == NotIdempotent {
		o.maxRetries = 0
	}
	resolveHedge(o, bad)
	resolveFallback(&o.fallback, o.idempotency, bad)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("resilient: %s %s: %w", d.name, p.Name, err)
	}
	return o, nil
}

// maxRetriesOf returns the number of retries r stands for: none when
// Disabled, the default for a zero MaxRetries; a negative MaxRetries goes
// to bad.
func maxRetriesOf(r RetryPolicy, bad func(string, ...any)) int {
	switch n := r.MaxRetries; {
	case n < 0:
		bad("max retries %d is negative; set Disabled to turn retries off", n)
		return 0
	case r.Disabled:
		return 0
	case n == 0:
		return DefaultMaxRetries
	default:
		return n
	}
}

// resolveHedge gives a hedged operation its default number of hedges and
// sends what is wrong with its hedging to bad: a number of hedges without
// the delay that turns hedging on, or hedging on an operation that is not
// read-only.
func resolveHedge(o *Operation, bad func(string, ...any)) {
	switch {
	case o.maxHedges < 0:
		bad("max hedges %d is negative", o.maxHedges)
	case o.hedgeDelay == 0 && o.maxHedges > 0:
		bad("%d hedges without a hedge delay: set the delay to hedge, or leave both zero", o.maxHedges)
	case o.maxHedges == 0:
		o.maxHedges = DefaultMaxHedges
	}
	if o.hedgeDelay > 0 && o.idempotency != ReadOnly {
		bad("hedging needs a read-only operation, this one is %v", o.idempotency)
	}
}

// resolveFallback gives a cached fallback its default TTL and sends what
// is wrong with f, on an operation of idempotency idem, to bad.
func resolveFallback(f *FallbackPolicy, idem Idempotency, bad func(string, ...any)) {
	if f.Kind != FallbackNone && idem != ReadOnly {
		bad("a fallback needs a read-only operation, this one is %v", idem)
	}
	if f.Kind == FallbackCached && f.TTL == 0 {
		f.TTL = DefaultFallbackTTL
	}
	if f.TTL < 0 {
		bad("fallback TTL %v is negative", f.TTL)
	}
	if f.Kind == FallbackStatic && f.Static == nil {
		bad("a static fallback needs a value")
	}
}

// With returns a copy of o with opts applied, for calls that need another
// timeout, fewer retries or no fallback. It allocates; keep the result if
// the same overrides serve many calls.
//
// The rule of [Dependency.Operation] holds: an attempt timeout that is not
// below the total timeout is dropped, so that shortening the total with
// [WithTimeout] leaves one attempt bounded by the new total.
func (o *Operation) With(opts ...CallOption) *Operation {
	if len(opts) == 0 {
		return o
	}
	c := *o
	for _, opt := range opts {
		opt.applyCall(&c)
	}
	if c.idempotency == NotIdempotent {
		c.maxRetries = 0
	}
	if !attemptFits(c.attemptTimeout, c.timeout) {
		c.attemptTimeout = 0
	}
	return &c
}

// AttemptTimeoutFits reports whether p's attempt timeout bounds attempts:
// it is positive and below the total timeout (Timeout, [DefaultTimeout]
// when zero). [Dependency.Operation] and [Operation.With] drop one that
// does not fit, since the total bounds every attempt anyway; the
// generator refuses one written in a spec (E-TIMEOUT-ORDER) by this same
// rule.
func (p OperationPolicy) AttemptTimeoutFits() bool {
	total := p.Timeout
	if total == 0 {
		total = DefaultTimeout
	}
	return attemptFits(p.AttemptTimeout, total)
}

// attemptFits is the rule of [OperationPolicy.AttemptTimeoutFits] for an
// attempt timeout and the total it is under.
func attemptFits(attempt, total time.Duration) bool { return attempt > 0 && attempt < total }

// Name returns the operation's name.
func (o *Operation) Name() string { return o.name }

// Dependency returns the dependency the operation belongs to.
func (o *Operation) Dependency() *Dependency { return o.dep }

// Idempotency returns the operation's idempotency.
func (o *Operation) Idempotency() Idempotency { return o.idempotency }

// IdempotencyKey returns the name of the header or metadata key that
// carries the operation's idempotency key, empty if none.
func (o *Operation) IdempotencyKey() string { return o.idempotencyKey }

// Timeout returns the total timeout.
func (o *Operation) Timeout() time.Duration { return o.timeout }

// KeepsCallerDeadline reports whether the total timeout bounds only the
// calls that arrive without a deadline, a caller's deadline being kept as
// it is ([OperationPolicy.KeepCallerDeadline]).
func (o *Operation) KeepsCallerDeadline() bool { return o.keepCallerDeadline }

// AttemptTimeout returns the per-attempt timeout, zero if none.
func (o *Operation) AttemptTimeout() time.Duration { return o.attemptTimeout }

// ConnectTimeout returns the connect timeout, zero if none.
func (o *Operation) ConnectTimeout() time.Duration { return o.connectTimeout }

// MaxRetries returns the number of retries, zero for a non-idempotent one.
func (o *Operation) MaxRetries() int { return o.maxRetries }

// CachesFallback reports whether successful answers are kept for a cached
// fallback, so that callers compute a request key only when it is used.
func (o *Operation) CachesFallback() bool { return o.fallback.Kind == FallbackCached }

// Fallback returns the operation's fallback policy, with defaults filled
// in.
func (o *Operation) Fallback() FallbackPolicy { return o.fallback }

// FallbackPartitioned reports whether cached answers are partitioned
// beyond the request key: by a [WithFallbackKey] given to the call, or by
// the dependency's [WithFallbackPartition]. The gRPC glue, which cannot
// see per-RPC credentials given as call options, keeps no cache for such
// calls unless the answer is shared or partitioned.
func (o *Operation) FallbackPartitioned() bool {
	return o.fallbackKey != "" || o.dep.partition != nil
}

// backoff returns the sleep before retry n (from 0): full jitter,
// random in [0, min(cap, base·2^n)).
func (o *Operation) backoff(n int) time.Duration {
	ceil := o.backoffCeiling(n)
	if !o.jitter || ceil <= 0 {
		return ceil
	}
	return randDuration(ceil)
}
