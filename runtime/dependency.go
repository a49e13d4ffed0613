package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/runtime/fallbackstore"
	"github.com/resilientgo/resilient/runtime/fleetstore"
)

// Dependency is one remote dependency (an HTTP host or a gRPC service) as
// seen by its callers: it owns the bulkhead, the circuit breaker, the retry
// budget, the fallback store and the observer that all calls of all its
// operations share. It is safe for concurrent use. Create one per
// dependency and keep it for the life of the process.
type Dependency struct {
	name     string
	policy   DependencyPolicy
	bulkhead *bulkhead
	breaker  *breaker
	throttle *throttle // nil when disabled
	budget   *budget
	store    fallbackstore.Store
	observer Observer
	observed bool // observer is not the no-op one
	tracer   Tracer
	traced   bool // tracer is set
	logger   *slog.Logger
	// partition partitions cached answers by the call's context.
	partition func(context.Context) string
	// slowdown is how much slower than its policies the dependency last
	// answered, in thousandths (adaptive.go); at most 1000 means not.
	slowdown atomic.Int64
	// fleetStore and fleet share the breaker and budget ([WithFleet]).
	fleetStore fleetstore.Store
	fleet      *fleet
}

// NewDependency returns the dependency called name with policy p, whose
// zero fields take the package defaults and whose Disabled (or Disable…)
// flags turn off what they name. It fails when a value is out of range (a
// negative duration, size or rate, a failure rate above 100).
func NewDependency(name string, p DependencyPolicy, opts ...Option) (*Dependency, error) {
	p, err := p.resolve()
	if err != nil {
		return nil, fmt.Errorf("resilient: dependency %q: %w", name, err)
	}
	d := &Dependency{
		name:     name,
		policy:   p,
		bulkhead: newBulkhead(p.Bulkhead),
		budget:   newBudget(p.Budget),
		observer: NopObserver{},
		logger:   slog.Default(),
	}
	d.breaker = newBreaker(name, p.Breaker)
	d.throttle = newThrottle(p.Throttle)
	for _, o := range opts {
		o.applyDependency(d)
	}
	if d.store == nil {
		d.store = fallbackstore.NewMemory(fallbackstore.DefaultMemorySize)
	}
	if d.fleetStore != nil {
		d.fleet = newFleet(d, d.fleetStore)
		d.breaker.fleet = d.fleet
		d.budget.fleet = d.fleet
		d.fleet.start(d)
	}
	return d, nil
}

// Name returns the dependency's name.
func (d *Dependency) Name() string { return d.name }

// Policy returns the dependency's policy with defaults filled in; a value
// that a Disable flag turns off ([BulkheadPolicy.MaxWait] for
// [BulkheadPolicy.DisableWait], [BudgetPolicy.MinPerSecond] for
// [BudgetPolicy.DisableFloor]) is zero, the flag still set.
func (d *Dependency) Policy() DependencyPolicy { return d.policy }

// BreakerState returns the breaker's current state.
func (d *Dependency) BreakerState() BreakerState {
	s := d.breaker.state()
	d.report()
	return s
}

// BreakerCounts returns the breaker's counts in its current window.
func (d *Dependency) BreakerCounts() BreakerCounts { return d.breaker.counts() }

// refusal says why an attempt was not let through.
type refusal uint8

const (
	admitted refusal = iota
	refusedOpen
	refusedThrottle
)

// admit asks the throttle, then the breaker, for one attempt. When both let
// it through it returns the function that reports the attempt's outcome to
// the breaker (nil when the breaker is disabled).
func (d *Dependency) admit() (func(error), refusal) {
	if !d.throttle.admit() {
		return nil, refusedThrottle
	}
	done, ok := d.breaker.allow()
	if !ok {
		return nil, refusedOpen
	}
	return done, admitted
}

// ThrottleRejecting returns the probability with which the dependency's
// adaptive throttle refuses an attempt now: zero while the dependency
// sheds nothing (see [ThrottlePolicy]).
func (d *Dependency) ThrottleRejecting() float64 { return d.throttle.rejecting() }

// RetryBudget returns the retries the dependency's local retry budget
// holds now (its balance, fractions included), not counting the floor of
// [BudgetPolicy.MinPerSecond] nor, with [WithFleet], the fleet's tokens.
// Every call the pipeline admits adds [BudgetPolicy.Ratio], every retry
// or hedge takes one; a call refused before the pipeline, such as an
// invalid request, changes nothing.
func (d *Dependency) RetryBudget() float64 {
	return float64(d.budget.balance.Load()) / milli
}

// InFlight returns the number of calls and hedges holding a bulkhead permit.
func (d *Dependency) InFlight() int { return d.bulkhead.inFlight() }

// report hands queued breaker transitions to the log and the observer.
func (d *Dependency) report() {
	for _, t := range d.breaker.takePending() {
		attrs := []any{slog.String("dependency", d.name), slog.String("from", t.from.String()), slog.String("to", t.to.String())}
		if d.fleet != nil {
			attrs = append(attrs, slog.String("scope", "local"))
		}
		d.logger.Info("circuit breaker state change", attrs...)
		if d.observed {
			d.observer.BreakerChange(BreakerEvent{Dependency: d.name, From: t.from, To: t.to, At: t.at})
		}
	}
}

// resolve fills defaults and checks ranges.
func (p DependencyPolicy) resolve() (DependencyPolicy, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	p.Breaker.resolve(bad)
	p.Bulkhead.resolve(bad)
	p.Budget.resolve(bad)
	p.Throttle.resolve(bad)
	p.Fleet.resolve(bad)
	return p, errors.Join(errs...)
}

// resolve fills the breaker's defaults and reports its values out of range to bad.
func (b *BreakerPolicy) resolve(bad func(string, ...any)) {
	switch {
	case b.FailureRate == 0:
		b.FailureRate = DefaultFailureRate
	case b.FailureRate < 0 || b.FailureRate > 100:
		bad("breaker failure rate %v%% is outside (0, 100]", b.FailureRate)
	}
	if b.MinimumCalls == 0 {
		b.MinimumCalls = DefaultMinimumCalls
	}
	b.Window = durationOr(b.Window, DefaultBreakerWindow, "breaker window", bad)
	b.OpenFor = durationOr(b.OpenFor, DefaultOpenFor, "breaker open period", bad)
	if b.HalfOpenProbes == 0 {
		b.HalfOpenProbes = DefaultHalfOpenProbes
	}
}

// resolve fills the bulkhead's defaults and reports its values out of range to bad.
func (h *BulkheadPolicy) resolve(bad func(string, ...any)) {
	switch {
	case h.MaxConcurrent == 0:
		h.MaxConcurrent = DefaultMaxConcurrent
	case h.MaxConcurrent < 0:
		bad("bulkhead size %d is negative", h.MaxConcurrent)
	}
	h.MaxWait = durationOr(h.MaxWait, DefaultMaxWait, "bulkhead wait", bad)
	if h.DisableWait {
		h.MaxWait = 0
	}
}

// resolve fills the retry budget's defaults and reports its values out of range to bad.
func (g *BudgetPolicy) resolve(bad func(string, ...any)) {
	switch {
	case g.Ratio == 0:
		g.Ratio = DefaultBudgetRatio
	case g.Ratio < 0 || g.Ratio > 1:
		bad("retry budget ratio %v is outside (0, 1]", g.Ratio)
	}
	switch {
	case g.DisableFloor:
		g.MinPerSecond = 0
	case g.MinPerSecond == 0:
		g.MinPerSecond = DefaultBudgetMinPerSec
	case g.MinPerSecond < 0:
		bad("retry budget floor %v per second is negative", g.MinPerSecond)
	}
	switch {
	case g.MaxBalance == 0:
		g.MaxBalance = DefaultBudgetMaxBalance
	case g.MaxBalance < 0:
		bad("retry budget balance %v is negative", g.MaxBalance)
	}
}

// resolve fills the throttle's defaults and reports its values out of range to bad.
func (th *ThrottlePolicy) resolve(bad func(string, ...any)) {
	switch {
	case th.Ratio == 0:
		th.Ratio = DefaultThrottleRatio
	case th.Ratio < 1:
		bad("throttle ratio %v is below 1: the dependency would never see more than it accepts", th.Ratio)
	}
	th.Window = durationOr(th.Window, DefaultThrottleWindow, "throttle window", bad)
	if th.Window > 0 && th.Window < throttleBuckets*time.Millisecond {
		bad("throttle window %v is below %v", th.Window, throttleBuckets*time.Millisecond)
	}
	switch {
	case th.MinRequests == 0:
		th.MinRequests = DefaultThrottleMinRequests
	case th.MinRequests < 0:
		bad("throttle minimum of requests %d is negative", th.MinRequests)
	}
	switch {
	case th.MaxReject == 0:
		th.MaxReject = DefaultThrottleMaxReject
	case th.MaxReject < 0 || th.MaxReject >= 1:
		bad("throttle maximum rejection %v is outside (0, 1)", th.MaxReject)
	}
}

// resolve fills the fleet sharing's defaults and reports its values out of range to bad.
func (f *FleetPolicy) resolve(bad func(string, ...any)) {
	if f.Prefix == "" {
		f.Prefix = DefaultFleetPrefix
	}
	f.SyncInterval = durationOr(f.SyncInterval, DefaultFleetSyncInterval, "fleet sync interval", bad)
	f.StaleAfter = durationOr(f.StaleAfter, DefaultFleetStaleAfter, "fleet staleness bound", bad)
	if f.SyncInterval > 0 && f.StaleAfter > 0 && f.StaleAfter <= f.SyncInterval {
		bad("fleet staleness bound %v is not above the sync interval %v", f.StaleAfter, f.SyncInterval)
	}
}

// durationOr returns def for a zero d and reports a negative d, named what, to bad.
func durationOr(d, def time.Duration, what string, bad func(string, ...any)) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		bad("%s %v is negative", what, d)
	}
	return d
}
