package otelobserver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// ScopeName is the instrumentation scope of the meter the observer creates.
const ScopeName = "github.com/resilientgo/resilient/runtime/otelobserver"

// Names of the instruments.
const (
	AttemptsName           = "resilient.attempts"
	AttemptDurationName    = "resilient.attempt.duration"
	RetriesName            = "resilient.retries"
	HedgesName             = "resilient.hedges"
	RejectionsName         = "resilient.rejections"
	DegradedName           = "resilient.degraded"
	BreakerTransitionsName = "resilient.breaker.transitions"
	BreakerStateName       = "resilient.breaker.state"
	FleetChangesName       = "resilient.fleet.changes"
	FleetScopeName         = "resilient.fleet.scope"
	PanicsName             = "resilient.panics"
)

// Attribute keys of the measurements.
const (
	// DependencyKey names the dependency ([runtime.Dependency.Name]).
	DependencyKey = attribute.Key("resilient.dependency")
	// OperationKey names the operation ([runtime.Operation.Name]).
	OperationKey = attribute.Key("resilient.operation")
	// OutcomeKey is "success"; "canceled" for an attempt ended by the
	// caller's cancellation or by losing a hedge race (its error matches
	// [context.Canceled]); else the attempt error's [outcome.Class]:
	// "transient", "throttled", "failed", "rejected" or "permanent".
	OutcomeKey = attribute.Key("resilient.outcome")
	// HedgeKey is true for a hedged attempt.
	HedgeKey = attribute.Key("resilient.hedge")
	// RetryAfterKey is true when the retry's delay was asked for by the
	// dependency (Retry-After, gRPC pushback).
	RetryAfterKey = attribute.Key("resilient.retry_after")
	// ReasonKey says why a call or retry failed fast: "bulkhead_full",
	// "circuit_open" or "budget_exhausted".
	ReasonKey = attribute.Key("resilient.reason")
	// SourceKey is the fallback that answered: "cached" or "static".
	SourceKey = attribute.Key("resilient.source")
	// FromKey and ToKey are the states of a breaker transition, and StateKey
	// the state of a [BreakerStateName] point: "closed", "half_open" or
	// "open".
	FromKey  = attribute.Key("resilient.breaker.from")
	ToKey    = attribute.Key("resilient.breaker.to")
	StateKey = attribute.Key("resilient.breaker.state")
	// ScopeKey says where a dependency's breaker and budget state lives:
	// "fleet" (shared through a fleet store, [runtime.WithFleet]) or
	// "local". It marks fleet changes, the points of the fleet scope gauge
	// and, as "fleet", the transitions of a breaker shared with the fleet.
	ScopeKey = attribute.Key("resilient.scope")
)

// DefaultDurationBoundaries are the bucket boundaries, in seconds, of the
// attempt duration histogram: 1 ms to 10 s.
var DefaultDurationBoundaries = []float64{
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1,
	0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
}

// Option configures an [Observer].
type Option interface {
	apply(*config)
}

type config struct {
	boundaries []float64
	meterOpts  []metric.MeterOption
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithDurationBoundaries overrides the bucket boundaries, in seconds, of the
// attempt duration histogram. The default is [DefaultDurationBoundaries].
func WithDurationBoundaries(bounds ...float64) Option {
	b := append([]float64(nil), bounds...)
	return optionFunc(func(c *config) { c.boundaries = b })
}

// WithMeterOptions adds options to the meter the observer gets from the
// provider, such as [metric.WithInstrumentationVersion]. The default is
// none.
func WithMeterOptions(opts ...metric.MeterOption) Option {
	o := append([]metric.MeterOption(nil), opts...)
	return optionFunc(func(c *config) { c.meterOpts = append(c.meterOpts, o...) })
}

// Observer is a [runtime.Observer] that records the pipeline's events as
// OpenTelemetry metrics. It is safe for concurrent use. Attribute sets are
// built once per dependency and operation and reused, so recording an event
// costs a map lookup and the instrument's own work.
//
// Pass it to the dependencies it observes with [runtime.WithObserver]; one
// Observer may serve any number of them.
type Observer struct {
	ctx context.Context // for measurements of events without a context

	attempts    metric.Int64Counter
	duration    metric.Float64Histogram
	retries     metric.Int64Counter
	hedges      metric.Int64Counter
	rejections  metric.Int64Counter
	degraded    metric.Int64Counter
	transitions metric.Int64Counter
	state       metric.Int64ObservableGauge
	fleetChg    metric.Int64Counter
	fleetScope  metric.Int64ObservableGauge
	panics      metric.Int64Counter
	reg         metric.Registration

	ops  sync.Map // opKey → *opSets
	deps sync.Map // dependency name → *depSets
}

var (
	_ runtime.Observer      = (*Observer)(nil)
	_ runtime.FleetObserver = (*Observer)(nil)
	_ runtime.PanicObserver = (*Observer)(nil)
)

// New returns an observer recording on a meter of mp named [ScopeName].
// Its instruments are:
//
//   - resilient.attempts (counter, {attempt}): every attempt, hedges
//     included, by dependency, operation, outcome and hedge.
//   - resilient.attempt.duration (histogram, s): their wall time, with the
//     same attributes.
//   - resilient.retries (counter, {retry}): retries about to happen, by
//     dependency, operation and retry_after.
//   - resilient.hedges (counter, {hedge}): hedged attempts started, by
//     dependency and operation.
//   - resilient.rejections (counter, {rejection}): fast failures, by
//     dependency, operation and reason.
//   - resilient.degraded (counter, {answer}): fallback answers, by
//     dependency, operation and source.
//   - resilient.breaker.transitions (counter, {transition}): breaker state
//     changes, by dependency, from and to; a transition of the breaker
//     shared with the fleet ([runtime.WithFleet]) also carries scope
//     "fleet".
//   - resilient.breaker.state (gauge, 1): for every dependency the observer
//     has seen, one point per state, 1 for the breaker's current state and 0
//     for the others. The current state is the one of the last transition
//     reported, closed before any.
//   - resilient.fleet.changes (counter, {change}): a dependency's state
//     going local (scope "local": the fleet store is unreachable, slow or
//     unreadable, or the dependency was closed) or shared again ("fleet"),
//     by dependency and scope.
//   - resilient.fleet.scope (gauge, 1): for every dependency with a fleet
//     store that the observer has seen, one point per scope, 1 for where
//     its state lives now and 0 for the other.
//   - resilient.panics (counter, {panic}): panics of hedged attempts
//     whose round had already ended without them, which the runtime
//     recovered and logged ([runtime.PanicObserver]), by dependency,
//     operation and hedge.
//
// It fails when the meter refuses an instrument.
func New(mp metric.MeterProvider, opts ...Option) (*Observer, error) {
	if mp == nil {
		return nil, errors.New("otelobserver: nil meter provider")
	}
	c := config{boundaries: DefaultDurationBoundaries}
	for _, opt := range opts {
		opt.apply(&c)
	}
	m := mp.Meter(ScopeName, c.meterOpts...)
	o := &Observer{ctx: context.Background()}
	var errs []error
	counter := func(name, unit, desc string) metric.Int64Counter {
		ctr, err := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		errs = append(errs, err)
		return ctr
	}
	o.attempts = counter(AttemptsName, "{attempt}", "Attempts sent to a dependency, hedges included.")
	o.retries = counter(RetriesName, "{retry}", "Retries about to happen after a failed attempt.")
	o.hedges = counter(HedgesName, "{hedge}", "Hedged attempts started.")
	o.rejections = counter(RejectionsName, "{rejection}", "Calls or retries that failed fast: bulkhead full, circuit open or retry budget exhausted.")
	o.degraded = counter(DegradedName, "{answer}", "Answers given by a fallback instead of the dependency.")
	o.transitions = counter(BreakerTransitionsName, "{transition}", "Circuit breaker state changes.")
	o.panics = counter(PanicsName, "{panic}", "Panics of abandoned hedged attempts, recovered and logged by the runtime.")
	o.fleetChg = counter(FleetChangesName, "{change}", "A dependency's breaker and budget state going local or shared with the fleet again.")
	var err error
	o.duration, err = m.Float64Histogram(AttemptDurationName, metric.WithUnit("s"),
		metric.WithDescription("Wall time of attempts, hedges included."),
		metric.WithExplicitBucketBoundaries(c.boundaries...))
	errs = append(errs, err)
	o.state, err = m.Int64ObservableGauge(BreakerStateName, metric.WithUnit("1"),
		metric.WithDescription("Circuit breaker state: 1 for the current state, 0 for the others."))
	errs = append(errs, err)
	o.fleetScope, err = m.Int64ObservableGauge(FleetScopeName, metric.WithUnit("1"),
		metric.WithDescription("Where a dependency's breaker and budget state lives: 1 for the current scope (fleet or local), 0 for the other."))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("otelobserver: %w", err)
	}
	o.reg, err = m.RegisterCallback(o.observeStates, o.state, o.fleetScope)
	if err != nil {
		return nil, fmt.Errorf("otelobserver: %w", err)
	}
	return o, nil
}

// Close stops reporting the breaker state gauge. The counters and the
// histogram keep working; Close is only needed when the observer is
// dropped before its meter provider.
func (o *Observer) Close() error { return o.reg.Unregister() }

// context returns the context to record a measurement with: the event's,
// which carries the span of a traced call so that the SDK can keep an
// exemplar linking the measurement to the trace, else a background one.
func (o *Observer) context(ctx context.Context) context.Context {
	if ctx != nil {
		return ctx
	}
	return o.ctx
}

// Attempt records one attempt and its duration.
func (o *Observer) Attempt(ev runtime.AttemptEvent) {
	s := o.op(ev.Dependency, ev.Operation)
	i := outcomeSuccess
	switch {
	case ev.Err == nil:
	case errors.Is(ev.Err, context.Canceled):
		i = outcomeCanceled
	default:
		i = classIndex(ev.Class)
	}
	h := 0
	if ev.Hedge {
		h = 1
	}
	opts := s.attempt[i][h]
	ctx := o.context(ev.Context)
	o.attempts.Add(ctx, 1, opts.add...)
	o.duration.Record(ctx, ev.Duration.Seconds(), opts.record...)
}

// Retry records one retry.
func (o *Observer) Retry(ev runtime.RetryEvent) {
	i := 0
	if ev.RetryAfter {
		i = 1
	}
	o.retries.Add(o.context(ev.Context), 1, o.op(ev.Dependency, ev.Operation).retry[i]...)
}

// Hedge records one hedged attempt started.
func (o *Observer) Hedge(ev runtime.HedgeEvent) {
	o.hedges.Add(o.ctx, 1, o.op(ev.Dependency, ev.Operation).hedge...)
}

// Rejected records one fast failure.
func (o *Observer) Rejected(ev runtime.RejectedEvent) {
	i := int(ev.Reason)
	if i >= len(reasons) {
		i = len(reasons) - 1
	}
	o.rejections.Add(o.ctx, 1, o.op(ev.Dependency, ev.Operation).rejected[i]...)
}

// Degraded records one fallback answer.
func (o *Observer) Degraded(ev runtime.DegradedEvent) {
	i := int(ev.Source)
	if i >= len(sources) {
		i = len(sources) - 1
	}
	o.degraded.Add(o.context(ev.Context), 1, o.op(ev.Dependency, ev.Operation).degraded[i]...)
}

// AbandonedPanic records one panic of an attempt whose round had ended
// without it.
func (o *Observer) AbandonedPanic(ev runtime.PanicEvent) {
	h := 0
	if ev.Hedge {
		h = 1
	}
	o.panics.Add(o.ctx, 1, o.op(ev.Dependency, ev.Operation).panic[h]...)
}

// BreakerChange records one breaker transition and remembers the new state
// for the state gauge.
func (o *Observer) BreakerChange(ev runtime.BreakerEvent) {
	s := o.dep(ev.Dependency)
	s.state.Store(uint32(stateIndex(ev.To)))
	o.transitions.Add(o.ctx, 1, s.transition[scopeIndex(ev.Fleet)][stateIndex(ev.From)][stateIndex(ev.To)]...)
}

// FleetChange records a dependency's state going local or shared again,
// and remembers where it lives for the fleet scope gauge.
func (o *Observer) FleetChange(ev runtime.FleetEvent) {
	s := o.dep(ev.Dependency)
	i := scopeIndex(ev.Shared)
	s.scope.Store(uint32(i) + 1)
	o.fleetChg.Add(o.ctx, 1, s.fleetChange[i]...)
}

// scopeIndex is 0 for "local", 1 for "fleet".
func scopeIndex(fleet bool) int {
	if fleet {
		return 1
	}
	return 0
}

// observeStates reports the last known state of every dependency seen.
func (o *Observer) observeStates(_ context.Context, obs metric.Observer) error {
	o.deps.Range(func(_, v any) bool {
		s := v.(*depSets)
		cur := int(s.state.Load())
		for i := range s.states {
			var n int64
			if i == cur {
				n = 1
			}
			obs.ObserveInt64(o.state, n, s.states[i]...)
		}
		if sc := int(s.scope.Load()); sc > 0 {
			for i := range s.scopes {
				var n int64
				if i == sc-1 {
					n = 1
				}
				obs.ObserveInt64(o.fleetScope, n, s.scopes[i]...)
			}
		}
		return true
	})
	return nil
}

// Attribute values, in the order of the runtime's enums, each followed by
// the value used for an enum value this package does not know.
var (
	outcomes = [...]string{"transient", "throttled", "failed", "rejected", "permanent", "unknown", "canceled", "success"}
	reasons  = [...]string{"bulkhead_full", "circuit_open", "budget_exhausted", "unknown"}
	sources  = [...]string{"none", "cached", "static", "unknown"}
	states   = [...]string{"closed", "half_open", "open", "unknown"}
	scopes   = [...]string{"local", "fleet"}
)

const (
	outcomeUnknown  = len(outcomes) - 3
	outcomeCanceled = len(outcomes) - 2
	outcomeSuccess  = len(outcomes) - 1
)

func classIndex(c outcome.Class) int {
	if int(c) >= outcomeUnknown {
		return outcomeUnknown
	}
	return int(c)
}

func stateIndex(s runtime.BreakerState) int {
	switch s {
	case runtime.BreakerClosed:
		return 0
	case runtime.BreakerHalfOpen:
		return 1
	case runtime.BreakerOpen:
		return 2
	default:
		return len(states) - 1
	}
}

// measureOpts holds one attribute set as ready-made option slices, so that
// recording neither builds a set nor allocates a slice.
type measureOpts struct {
	add    []metric.AddOption
	record []metric.RecordOption
}

func newMeasureOpts(kvs ...attribute.KeyValue) measureOpts {
	o := metric.WithAttributeSet(attribute.NewSet(kvs...))
	return measureOpts{add: []metric.AddOption{o}, record: []metric.RecordOption{o}}
}

func addOpts(kvs ...attribute.KeyValue) []metric.AddOption {
	return []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(kvs...))}
}

type opKey struct{ dep, op string }

// opSets are the precomputed attribute sets of one operation.
type opSets struct {
	attempt  [len(outcomes)][2]measureOpts // by outcome, then hedge
	retry    [2][]metric.AddOption         // by retry_after
	hedge    []metric.AddOption
	rejected [len(reasons)][]metric.AddOption
	degraded [len(sources)][]metric.AddOption
	panic    [2][]metric.AddOption // by hedge
}

// op returns the sets of an operation, building them on first use. It also
// registers the dependency for the state gauge.
func (o *Observer) op(dep, op string) *opSets {
	k := opKey{dep, op}
	if v, ok := o.ops.Load(k); ok {
		return v.(*opSets)
	}
	o.dep(dep)
	d, n := DependencyKey.String(dep), OperationKey.String(op)
	s := &opSets{hedge: addOpts(d, n)}
	for i, oc := range outcomes {
		for h := range 2 {
			s.attempt[i][h] = newMeasureOpts(d, n, OutcomeKey.String(oc), HedgeKey.Bool(h == 1))
		}
	}
	for i := range 2 {
		s.retry[i] = addOpts(d, n, RetryAfterKey.Bool(i == 1))
		s.panic[i] = addOpts(d, n, HedgeKey.Bool(i == 1))
	}
	for i, r := range reasons {
		s.rejected[i] = addOpts(d, n, ReasonKey.String(r))
	}
	for i, src := range sources {
		s.degraded[i] = addOpts(d, n, SourceKey.String(src))
	}
	v, _ := o.ops.LoadOrStore(k, s)
	return v.(*opSets)
}

// depSets are the precomputed attribute sets and the last known breaker
// state of one dependency.
type depSets struct {
	state       atomic.Uint32 // index in states
	transition  [len(scopes)][len(states)][len(states)][]metric.AddOption
	states      [len(states) - 1][]metric.ObserveOption // the known states only
	scope       atomic.Uint32                           // 0: no fleet event seen; else index in scopes + 1
	fleetChange [len(scopes)][]metric.AddOption
	scopes      [len(scopes)][]metric.ObserveOption
}

// dep returns the sets of a dependency, building them on first use.
func (o *Observer) dep(name string) *depSets {
	if v, ok := o.deps.Load(name); ok {
		return v.(*depSets)
	}
	d := DependencyKey.String(name)
	s := &depSets{}
	for k, scope := range scopes {
		for i, from := range states {
			for j, to := range states {
				kvs := []attribute.KeyValue{d, FromKey.String(from), ToKey.String(to)}
				if scope == "fleet" {
					// Local transitions keep the attributes they had
					// before fleets existed.
					kvs = append(kvs, ScopeKey.String(scope))
				}
				s.transition[k][i][j] = addOpts(kvs...)
			}
		}
		s.fleetChange[k] = addOpts(d, ScopeKey.String(scope))
		s.scopes[k] = []metric.ObserveOption{metric.WithAttributeSet(attribute.NewSet(d, ScopeKey.String(scope)))}
	}
	for i := range s.states {
		s.states[i] = []metric.ObserveOption{metric.WithAttributeSet(attribute.NewSet(d, StateKey.String(states[i])))}
	}
	v, _ := o.deps.LoadOrStore(name, s)
	return v.(*depSets)
}
