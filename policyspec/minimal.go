package policyspec

import "github.com/resilientgo/resilient/runtime"

// Zero means the default in the runtime's policies, so a policy needs to
// hold only what someone chose. Minimal gives that part of a resolved
// policy: what a generated client writes in its policy literal. A written
// value ([OriginSet]) is kept even when it equals the default, since its
// author asked for it and a later default must not change it; a derived or
// guessed value is kept when the runtime would not arrive at it from zero.
// What a key of the vocabulary turns off when written as zero
// (retry.maxRetries, bulkhead.maxWait, retry.minPerSecond) becomes the
// runtime's flag for it.

// Minimal returns the operation's policy as a generated client writes it:
// the values the spec, the policy file or a derivation set, every other
// field zero, which the runtime reads as its default. Given to
// [runtime.Dependency.Operation] it makes the same operation as Policy.
//
// The timeouts are kept whenever they are not zero, guesses included: the
// runtime has no default of its own for the guessed attempt and connect
// timeouts, nor for a total that covers every attempt.
func (o *Operation) Minimal() runtime.OperationPolicy {
	p, src := o.Policy, o.Sources
	m := runtime.OperationPolicy{
		Name:           p.Name,
		Idempotency:    p.Idempotency,
		IdempotencyKey: p.IdempotencyKey,
		Timeout:        stated(src["timeout"], p.Timeout, runtime.DefaultTimeout),
		AttemptTimeout: p.AttemptTimeout,
		ConnectTimeout: p.ConnectTimeout,
		Fallback:       p.Fallback,
	}
	// A zero Timeout already keeps a caller's deadline; a guessed one
	// written out must say so.
	m.KeepCallerDeadline = p.KeepCallerDeadline && m.Timeout != 0
	r := p.Retry
	switch {
	case p.Idempotency == runtime.NotIdempotent:
		// Never retried, whatever the retry block says: the runtime
		// knows. Written settings stay, saying how it would be retried.
	case r.Disabled:
		m.Retry.Disabled = true
	default:
		m.Retry.MaxRetries = stated(src["retry.maxRetries"], r.MaxRetries, runtime.DefaultMaxRetries)
	}
	m.Retry.Base = stated(src["retry.base"], r.Base, runtime.DefaultBackoffBase)
	m.Retry.Cap = stated(src["retry.cap"], r.Cap, runtime.DefaultBackoffCap)
	m.Retry.MinAttempt = r.MinAttempt
	m.Retry.DisableJitter = r.DisableJitter
	if p.Hedge.Delay > 0 {
		m.Hedge.Delay = p.Hedge.Delay
		m.Hedge.MaxHedges = stated(src["hedge.maxHedges"], p.Hedge.MaxHedges, runtime.DefaultMaxHedges)
	}
	switch p.Fallback.Kind {
	case runtime.FallbackCached:
		m.Fallback.TTL = stated(src["fallback.ttl"], p.Fallback.TTL, runtime.DefaultFallbackTTL)
	default:
		m.Fallback.TTL = 0
	}
	return m
}

// Minimal returns the dependency-wide policy as a generated client writes
// it: the values the spec, the policy file or a derivation set, every
// other field zero, which the runtime reads as its default. Given to
// [runtime.NewDependency] it makes the same dependency as Policy.
func (d *Dependency) Minimal() runtime.DependencyPolicy {
	p, src := d.Policy, d.Sources
	m := runtime.DependencyPolicy{Throttle: p.Throttle}
	b := p.Breaker
	m.Breaker = runtime.BreakerPolicy{
		FailureRate:    stated(src["breaker.failureRate"], b.FailureRate, runtime.DefaultFailureRate),
		MinimumCalls:   stated(src["breaker.minimumCalls"], b.MinimumCalls, runtime.DefaultMinimumCalls),
		Window:         stated(src["breaker.window"], b.Window, runtime.DefaultBreakerWindow),
		OpenFor:        stated(src["breaker.openFor"], b.OpenFor, runtime.DefaultOpenFor),
		HalfOpenProbes: stated(src["breaker.halfOpenProbes"], b.HalfOpenProbes, runtime.DefaultHalfOpenProbes),
		Disabled:       b.Disabled,
	}
	h := p.Bulkhead
	m.Bulkhead.MaxConcurrent = stated(src["bulkhead.maxConcurrent"], h.MaxConcurrent, runtime.DefaultMaxConcurrent)
	if h.DisableWait {
		m.Bulkhead.DisableWait = true
	} else {
		m.Bulkhead.MaxWait = stated(src["bulkhead.maxWait"], h.MaxWait, runtime.DefaultMaxWait)
	}
	g := p.Budget
	m.Budget.Ratio = stated(src["retry.budget"], g.Ratio, runtime.DefaultBudgetRatio)
	if g.DisableFloor {
		m.Budget.DisableFloor = true
	} else {
		m.Budget.MinPerSecond = stated(src["retry.minPerSecond"], g.MinPerSecond, runtime.DefaultBudgetMinPerSec)
	}
	m.Budget.MaxBalance = stated(src["retry.maxBalance"], g.MaxBalance, runtime.DefaultBudgetMaxBalance)
	m.Budget.Disabled = g.Disabled
	if d.HasFleet() {
		m.Fleet = runtime.FleetPolicy{
			Store:        p.Fleet.Store,
			Prefix:       stated(src["fleet.prefix"], p.Fleet.Prefix, runtime.DefaultFleetPrefix),
			SyncInterval: p.Fleet.SyncInterval,
			StaleAfter:   p.Fleet.StaleAfter,
		}
	}
	return m
}

// stated returns v when it was written (src is [OriginSet]) or differs from
// def, the default the runtime gives a zero field; else zero.
func stated[T comparable](src Source, v, def T) T {
	if src.Origin == OriginSet || v != def {
		return v
	}
	var zero T
	return zero
}
