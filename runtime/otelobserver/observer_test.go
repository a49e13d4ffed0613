package otelobserver_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/otelobserver"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// metrics is one collection of a ManualReader.
type metrics struct {
	t  *testing.T
	rm metricdata.ResourceMetrics
}

func newObserver(t *testing.T, opts ...otelobserver.Option) (*otelobserver.Observer, *sdkmetric.ManualReader) {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { mp.Shutdown(context.Background()) })
	obs, err := otelobserver.New(mp, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return obs, reader
}

func collect(t *testing.T, r *sdkmetric.ManualReader) metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return metrics{t, rm}
}

func (m metrics) find(name string) (metricdata.Metrics, bool) {
	for _, sm := range m.rm.ScopeMetrics {
		for _, x := range sm.Metrics {
			if x.Name == name {
				return x, true
			}
		}
	}
	return metricdata.Metrics{}, false
}

// sum returns the value of counter name at attrs, zero if it has no such point.
func (m metrics) sum(name string, attrs ...attribute.KeyValue) int64 {
	m.t.Helper()
	x, ok := m.find(name)
	if !ok {
		return 0
	}
	s, ok := x.Data.(metricdata.Sum[int64])
	if !ok {
		m.t.Fatalf("%s is a %T, want a Sum[int64]", name, x.Data)
	}
	if !s.IsMonotonic {
		m.t.Errorf("%s is not monotonic", name)
	}
	want := attribute.NewSet(attrs...)
	for _, dp := range s.DataPoints {
		if dp.Attributes.Equals(&want) {
			return dp.Value
		}
	}
	return 0
}

// total returns the sum of all points of counter name.
func (m metrics) total(name string) int64 {
	m.t.Helper()
	x, ok := m.find(name)
	if !ok {
		return 0
	}
	var n int64
	for _, dp := range x.Data.(metricdata.Sum[int64]).DataPoints {
		n += dp.Value
	}
	return n
}

// hist returns the count and sum of histogram name at attrs.
func (m metrics) hist(name string, attrs ...attribute.KeyValue) (uint64, float64) {
	m.t.Helper()
	x, ok := m.find(name)
	if !ok {
		return 0, 0
	}
	h, ok := x.Data.(metricdata.Histogram[float64])
	if !ok {
		m.t.Fatalf("%s is a %T, want a Histogram[float64]", name, x.Data)
	}
	want := attribute.NewSet(attrs...)
	for _, dp := range h.DataPoints {
		if dp.Attributes.Equals(&want) {
			return dp.Count, dp.Sum
		}
	}
	return 0, 0
}

// states returns the breaker state gauge of dep as state → value.
func (m metrics) states(dep string) map[string]int64 {
	m.t.Helper()
	got := map[string]int64{}
	x, ok := m.find(otelobserver.BreakerStateName)
	if !ok {
		return got
	}
	for _, dp := range x.Data.(metricdata.Gauge[int64]).DataPoints {
		if d, _ := dp.Attributes.Value(otelobserver.DependencyKey); d.AsString() != dep {
			continue
		}
		s, _ := dp.Attributes.Value(otelobserver.StateKey)
		got[s.AsString()] = dp.Value
	}
	return got
}

var (
	depPets   = otelobserver.DependencyKey.String("pets")
	opGet     = otelobserver.OperationKey.String("GetPet")
	opCreate  = otelobserver.OperationKey.String("CreatePet")
	noHedge   = otelobserver.HedgeKey.Bool(false)
	withHedge = otelobserver.HedgeKey.Bool(true)
)

func outcomeAttr(s string) attribute.KeyValue { return otelobserver.OutcomeKey.String(s) }

func newDependency(t *testing.T, obs runtime.Observer, p runtime.DependencyPolicy) *runtime.Dependency {
	t.Helper()
	d, err := runtime.NewDependency("pets", p, runtime.WithObserver(obs), runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func newOperation(t *testing.T, d *runtime.Dependency, p runtime.OperationPolicy) *runtime.Operation {
	t.Helper()
	op, err := d.Operation(p)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func unavailable() error {
	return &runtime.RemoteError{Status: 503, Code: "Service Unavailable", Class: outcome.Transient}
}

// A call through the real pipeline: a 503, a 429 asking for one second,
// then a success that takes 20 ms.
func TestAttemptsAndRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs, reader := newObserver(t)
		dep := newDependency(t, obs, runtime.DependencyPolicy{})
		op := newOperation(t, dep, runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.Idempotent,
			Retry: runtime.RetryPolicy{Base: 10 * time.Millisecond}})
		n := 0
		v, err := runtime.Do(context.Background(), op, "", func(context.Context) (string, error) {
			switch n++; n {
			case 1:
				return "", unavailable()
			case 2:
				return "", &runtime.RemoteError{Status: 429, Class: outcome.Throttled, RetryAfter: time.Second}
			}
			time.Sleep(20 * time.Millisecond)
			return "rex", nil
		})
		if v != "rex" || err != nil {
			t.Fatalf("Do = %q, %v, want rex, <nil>", v, err)
		}

		m := collect(t, reader)
		for _, c := range []struct {
			outcome string
			want    int64
		}{{"success", 1}, {"transient", 1}, {"throttled", 1}, {"failed", 0}} {
			if got := m.sum(otelobserver.AttemptsName, depPets, opGet, outcomeAttr(c.outcome), noHedge); got != c.want {
				t.Errorf("attempts{outcome=%s} = %d, want %d", c.outcome, got, c.want)
			}
		}
		if got := m.total(otelobserver.AttemptsName); got != 3 {
			t.Errorf("attempts in all = %d, want 3", got)
		}
		count, sum := m.hist(otelobserver.AttemptDurationName, depPets, opGet, outcomeAttr("success"), noHedge)
		if count != 1 || sum != 0.02 {
			t.Errorf("attempt.duration{outcome=success} = count %d sum %v, want count 1 sum 0.02", count, sum)
		}
		if count, _ := m.hist(otelobserver.AttemptDurationName, depPets, opGet, outcomeAttr("transient"), noHedge); count != 1 {
			t.Errorf("attempt.duration{outcome=transient} count = %d, want 1", count)
		}
		for _, c := range []struct {
			retryAfter bool
			want       int64
		}{{false, 1}, {true, 1}} {
			if got := m.sum(otelobserver.RetriesName, depPets, opGet, otelobserver.RetryAfterKey.Bool(c.retryAfter)); got != c.want {
				t.Errorf("retries{retry_after=%v} = %d, want %d", c.retryAfter, got, c.want)
			}
		}
		if got := m.states("pets"); got["closed"] != 1 || got["open"] != 0 || got["half_open"] != 0 {
			t.Errorf("breaker.state = %v, want closed only", got)
		}
	})
}

// The breaker opens after two failures, refuses the next call, and closes
// again once a successful probe after the open period has ramped traffic
// back.
func TestBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs, reader := newObserver(t)
		dep := newDependency(t, obs, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{
			MinimumCalls: 2, OpenFor: time.Second, HalfOpenProbes: 1}})
		op := newOperation(t, dep, runtime.OperationPolicy{Name: "CreatePet"})
		fail := func(context.Context) (int, error) { return 0, unavailable() }
		for range 2 {
			if _, err := runtime.Do(context.Background(), op, "", fail); err == nil {
				t.Fatal("failing attempt: Do succeeded")
			}
		}
		if _, err := runtime.Do(context.Background(), op, "", fail); !errors.Is(err, runtime.ErrCircuitOpen) {
			t.Fatalf("third call: err = %v, want ErrCircuitOpen", err)
		}

		m := collect(t, reader)
		if got := m.sum(otelobserver.BreakerTransitionsName, depPets,
			otelobserver.FromKey.String("closed"), otelobserver.ToKey.String("open")); got != 1 {
			t.Errorf("breaker.transitions{closed→open} = %d, want 1", got)
		}
		if got := m.sum(otelobserver.RejectionsName, depPets, opCreate, otelobserver.ReasonKey.String("circuit_open")); got != 1 {
			t.Errorf("rejections{reason=circuit_open} = %d, want 1", got)
		}
		if got, want := m.states("pets"), map[string]int64{"closed": 0, "half_open": 0, "open": 1}; !equalMaps(got, want) {
			t.Errorf("breaker.state while open = %v, want %v", got, want)
		}

		time.Sleep(time.Second + time.Millisecond) // past the open period
		ok := func(context.Context) (int, error) { return 1, nil }
		if _, err := runtime.Do(context.Background(), op, "", ok); err != nil {
			t.Fatalf("probe: %v", err)
		}
		// The probe's success starts the ramp back, reported as half-open
		// for one open period; the first call after it closes the breaker.
		time.Sleep(time.Second + time.Millisecond)
		if _, err := runtime.Do(context.Background(), op, "", ok); err != nil {
			t.Fatalf("call after the ramp: %v", err)
		}
		m = collect(t, reader)
		for _, tr := range [][2]string{{"open", "half_open"}, {"half_open", "closed"}} {
			if got := m.sum(otelobserver.BreakerTransitionsName, depPets,
				otelobserver.FromKey.String(tr[0]), otelobserver.ToKey.String(tr[1])); got != 1 {
				t.Errorf("breaker.transitions{%s→%s} = %d, want 1", tr[0], tr[1], got)
			}
		}
		if got, want := m.states("pets"), map[string]int64{"closed": 1, "half_open": 0, "open": 0}; !equalMaps(got, want) {
			t.Errorf("breaker.state after the probe = %v, want %v", got, want)
		}
	})
}

func TestBulkheadFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs, reader := newObserver(t)
		dep := newDependency(t, obs, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}})
		op := newOperation(t, dep, runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly})
		release := make(chan struct{})
		go runtime.Do(context.Background(), op, "", func(context.Context) (int, error) {
			<-release
			return 1, nil
		})
		synctest.Wait()
		if _, err := runtime.Do(context.Background(), op, "", func(context.Context) (int, error) { return 1, nil }); !errors.Is(err, runtime.ErrBulkheadFull) {
			t.Fatalf("second call: err = %v, want ErrBulkheadFull", err)
		}
		close(release)
		synctest.Wait()

		m := collect(t, reader)
		if got := m.sum(otelobserver.RejectionsName, depPets, opGet, otelobserver.ReasonKey.String("bulkhead_full")); got != 1 {
			t.Errorf("rejections{reason=bulkhead_full} = %d, want 1", got)
		}
		if got := m.sum(otelobserver.AttemptsName, depPets, opGet, outcomeAttr("success"), noHedge); got != 1 {
			t.Errorf("attempts{outcome=success} = %d, want 1 (the rejected call sends none)", got)
		}
	})
}

func TestBudgetExhausted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs, reader := newObserver(t)
		dep := newDependency(t, obs, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{DisableFloor: true}})
		op := newOperation(t, dep, runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.Idempotent})
		_, err := runtime.Do(context.Background(), op, "", func(context.Context) (int, error) { return 0, unavailable() })
		if !errors.Is(err, runtime.ErrBudgetExhausted) {
			t.Fatalf("err = %v, want ErrBudgetExhausted", err)
		}
		m := collect(t, reader)
		if got := m.sum(otelobserver.RejectionsName, depPets, opGet, otelobserver.ReasonKey.String("budget_exhausted")); got != 1 {
			t.Errorf("rejections{reason=budget_exhausted} = %d, want 1", got)
		}
		if got := m.total(otelobserver.RetriesName); got != 0 {
			t.Errorf("retries = %d, want 0", got)
		}
	})
}

func TestDegraded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs, reader := newObserver(t)
		dep := newDependency(t, obs, runtime.DependencyPolicy{})
		op := newOperation(t, dep, runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly,
			Retry:    runtime.RetryPolicy{Disabled: true},
			Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: "unknown pet"}})
		v, err := runtime.Do(context.Background(), op, "", func(context.Context) (string, error) { return "", unavailable() })
		if v != "unknown pet" || !runtime.IsDegraded(err) {
			t.Fatalf("Do = %q, %v, want the static fallback, degraded", v, err)
		}
		m := collect(t, reader)
		if got := m.sum(otelobserver.DegradedName, depPets, opGet, otelobserver.SourceKey.String("static")); got != 1 {
			t.Errorf("degraded{source=static} = %d, want 1", got)
		}
	})
}

// The first attempt hangs; the hedge sent after 10 ms wins and the first is
// cancelled.
func TestHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs, reader := newObserver(t)
		dep := newDependency(t, obs, runtime.DependencyPolicy{})
		op := newOperation(t, dep, runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly,
			Hedge: runtime.HedgePolicy{Delay: 10 * time.Millisecond}})
		var n atomic.Int32
		v, err := runtime.Do(context.Background(), op, "", func(ctx context.Context) (int, error) {
			if n.Add(1) == 1 {
				<-ctx.Done()
				return 0, ctx.Err()
			}
			return 2, nil
		})
		if v != 2 || err != nil {
			t.Fatalf("Do = %d, %v, want 2, <nil>", v, err)
		}
		synctest.Wait() // the losing attempt reports after Do returns

		m := collect(t, reader)
		if got := m.sum(otelobserver.HedgesName, depPets, opGet); got != 1 {
			t.Errorf("hedges = %d, want 1", got)
		}
		if got := m.sum(otelobserver.AttemptsName, depPets, opGet, outcomeAttr("success"), withHedge); got != 1 {
			t.Errorf("attempts{outcome=success,hedge=true} = %d, want 1", got)
		}
		if got := m.sum(otelobserver.AttemptsName, depPets, opGet, outcomeAttr("canceled"), noHedge); got != 1 {
			t.Errorf("attempts{outcome=canceled,hedge=false} = %d, want 1", got)
		}
		if count, sum := m.hist(otelobserver.AttemptDurationName, depPets, opGet, outcomeAttr("success"), withHedge); count != 1 || sum != 0 {
			t.Errorf("attempt.duration{success,hedge} = count %d sum %v, want count 1 sum 0", count, sum)
		}
	})
}

// Events called directly: every class and reason gets its own value,
// values this package does not know are recorded as "unknown", and
// dependencies and operations are kept apart.
func TestEventsDirect(t *testing.T) {
	obs, reader := newObserver(t)
	classes := []outcome.Class{outcome.Transient, outcome.Throttled, outcome.Failed, outcome.Rejected, outcome.Permanent, outcome.Class(99)}
	for _, c := range classes {
		obs.Attempt(runtime.AttemptEvent{Dependency: "pets", Operation: "GetPet", Attempt: 1, Err: errors.New("x"), Class: c, Duration: time.Second})
	}
	obs.Attempt(runtime.AttemptEvent{Dependency: "users", Operation: "GetPet", Attempt: 1, Duration: time.Millisecond})
	obs.Attempt(runtime.AttemptEvent{Dependency: "pets", Operation: "GetPet", Err: context.Canceled})
	for _, r := range []runtime.RejectReason{runtime.RejectBulkheadFull, runtime.RejectCircuitOpen, runtime.RejectBudgetExhausted, runtime.RejectReason(9)} {
		obs.Rejected(runtime.RejectedEvent{Dependency: "pets", Operation: "GetPet", Reason: r})
	}
	obs.Degraded(runtime.DegradedEvent{Dependency: "pets", Operation: "GetPet", Source: runtime.FallbackCached, Age: time.Minute})
	obs.BreakerChange(runtime.BreakerEvent{Dependency: "users", From: runtime.BreakerClosed, To: runtime.BreakerOpen})
	obs.BreakerChange(runtime.BreakerEvent{Dependency: "users", From: runtime.BreakerOpen, To: runtime.BreakerState(7)})
	obs.AbandonedPanic(runtime.PanicEvent{Dependency: "pets", Operation: "GetPet", Attempt: 2, Hedge: true, Value: "boom"})
	obs.AbandonedPanic(runtime.PanicEvent{Dependency: "pets", Operation: "GetPet", Attempt: 1, Value: "boom"})
	obs.AbandonedPanic(runtime.PanicEvent{Dependency: "pets", Operation: "GetPet", Attempt: 3, Hedge: true, Value: "boom"})

	m := collect(t, reader)
	for _, oc := range []string{"transient", "throttled", "failed", "rejected", "permanent", "unknown", "canceled"} {
		if got := m.sum(otelobserver.AttemptsName, depPets, opGet, outcomeAttr(oc), noHedge); got != 1 {
			t.Errorf("attempts{pets,outcome=%s} = %d, want 1", oc, got)
		}
	}
	users := otelobserver.DependencyKey.String("users")
	if got := m.sum(otelobserver.AttemptsName, users, opGet, outcomeAttr("success"), noHedge); got != 1 {
		t.Errorf("attempts{users,outcome=success} = %d, want 1", got)
	}
	if count, sum := m.hist(otelobserver.AttemptDurationName, depPets, opGet, outcomeAttr("failed"), noHedge); count != 1 || sum != 1 {
		t.Errorf("attempt.duration{pets,failed} = count %d sum %v, want 1, 1", count, sum)
	}
	for _, r := range []string{"bulkhead_full", "circuit_open", "budget_exhausted", "unknown"} {
		if got := m.sum(otelobserver.RejectionsName, depPets, opGet, otelobserver.ReasonKey.String(r)); got != 1 {
			t.Errorf("rejections{reason=%s} = %d, want 1", r, got)
		}
	}
	if got := m.sum(otelobserver.DegradedName, depPets, opGet, otelobserver.SourceKey.String("cached")); got != 1 {
		t.Errorf("degraded{source=cached} = %d, want 1", got)
	}
	if got := m.sum(otelobserver.PanicsName, depPets, opGet, otelobserver.HedgeKey.Bool(true)); got != 2 {
		t.Errorf("panics{hedge=true} = %d, want 2", got)
	}
	if got := m.sum(otelobserver.PanicsName, depPets, opGet, noHedge); got != 1 {
		t.Errorf("panics{hedge=false} = %d, want 1", got)
	}
	if got := m.sum(otelobserver.BreakerTransitionsName, users,
		otelobserver.FromKey.String("open"), otelobserver.ToKey.String("unknown")); got != 1 {
		t.Errorf("breaker.transitions{open→unknown} = %d, want 1", got)
	}
	// A state this package does not know leaves no state at 1.
	if got, want := m.states("users"), map[string]int64{"closed": 0, "half_open": 0, "open": 0}; !equalMaps(got, want) {
		t.Errorf("breaker.state{users} = %v, want %v", got, want)
	}
	if got, want := m.states("pets"), map[string]int64{"closed": 1, "half_open": 0, "open": 0}; !equalMaps(got, want) {
		t.Errorf("breaker.state{pets} = %v, want %v", got, want)
	}

	if err := obs.Close(); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, reader).states("pets"); len(got) != 0 {
		t.Errorf("breaker.state after Close = %v, want no points", got)
	}
}

func TestDurationBoundaries(t *testing.T) {
	obs, reader := newObserver(t, otelobserver.WithDurationBoundaries(0.1, 1))
	obs.Attempt(runtime.AttemptEvent{Dependency: "pets", Operation: "GetPet", Duration: 500 * time.Millisecond})
	m := collect(t, reader)
	x, ok := m.find(otelobserver.AttemptDurationName)
	if !ok {
		t.Fatal("no attempt.duration")
	}
	dp := x.Data.(metricdata.Histogram[float64]).DataPoints[0]
	if len(dp.Bounds) != 2 || dp.Bounds[0] != 0.1 || dp.Bounds[1] != 1 {
		t.Errorf("bounds = %v, want [0.1 1]", dp.Bounds)
	}
	if len(dp.BucketCounts) != 3 || dp.BucketCounts[1] != 1 {
		t.Errorf("bucket counts = %v, want the 500 ms attempt in (0.1, 1]", dp.BucketCounts)
	}
}

func TestNewNilProvider(t *testing.T) {
	if _, err := otelobserver.New(nil); err == nil {
		t.Error("New(nil) succeeded, want an error")
	}
}

// Recording an event whose attribute sets are already built allocates
// nothing in the observer itself.
func TestAttemptAllocs(t *testing.T) {
	obs, _ := newObserver(t)
	ev := runtime.AttemptEvent{Dependency: "pets", Operation: "GetPet", Attempt: 1, Duration: time.Millisecond}
	obs.Attempt(ev)
	if n := testing.AllocsPerRun(100, func() { obs.Attempt(ev) }); n != 0 {
		t.Errorf("Attempt allocates %v times per event, want 0", n)
	}
}

func equalMaps(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestFleet: a fleet breaker's transitions carry scope "fleet", local ones
// keep their attributes; fleet changes are counted by scope, and the scope
// gauge says where each dependency's state lives now.
func TestFleet(t *testing.T) {
	obs, reader := newObserver(t)
	inv := otelobserver.DependencyKey.String("inventory")
	fleet, local := otelobserver.ScopeKey.String("fleet"), otelobserver.ScopeKey.String("local")
	obs.FleetChange(runtime.FleetEvent{Dependency: "inventory", Shared: true})
	obs.BreakerChange(runtime.BreakerEvent{Dependency: "inventory", From: runtime.BreakerClosed, To: runtime.BreakerOpen, Fleet: true})
	obs.FleetChange(runtime.FleetEvent{Dependency: "inventory", Shared: false, Err: errors.New("connection refused")})
	obs.BreakerChange(runtime.BreakerEvent{Dependency: "inventory", From: runtime.BreakerClosed, To: runtime.BreakerOpen})

	m := collect(t, reader)
	from, to := otelobserver.FromKey.String("closed"), otelobserver.ToKey.String("open")
	if got := m.sum(otelobserver.BreakerTransitionsName, inv, from, to, fleet); got != 1 {
		t.Errorf("breaker.transitions{closed→open, scope=fleet} = %d, want 1", got)
	}
	if got := m.sum(otelobserver.BreakerTransitionsName, inv, from, to); got != 1 {
		t.Errorf("breaker.transitions{closed→open} (local, no scope) = %d, want 1", got)
	}
	for _, sc := range []attribute.KeyValue{fleet, local} {
		if got := m.sum(otelobserver.FleetChangesName, inv, sc); got != 1 {
			t.Errorf("fleet.changes{%s} = %d, want 1", sc.Value.AsString(), got)
		}
	}
	x, ok := m.find(otelobserver.FleetScopeName)
	if !ok {
		t.Fatal("no fleet.scope gauge")
	}
	g := x.Data.(metricdata.Gauge[int64])
	want := map[string]int64{"local": 1, "fleet": 0}
	for _, dp := range g.DataPoints {
		v, _ := dp.Attributes.Value(otelobserver.ScopeKey)
		if w, ok := want[v.AsString()]; !ok || dp.Value != w {
			t.Errorf("fleet.scope{%s} = %d, want %d", v.AsString(), dp.Value, w)
		}
		delete(want, v.AsString())
	}
	if len(want) != 0 {
		t.Errorf("fleet.scope has no point for %v", want)
	}
}
