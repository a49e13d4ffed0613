package policyspec

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/runtime"
)

// TestMinimal: the minimal policies hold what was written or derived and
// nothing else, and the runtime makes of them the dependency and the
// operations it makes of the explicit ones: policyspec and the runtime
// agree on what zero means.
func TestMinimal(t *testing.T) {
	tests := []struct {
		name string
		dep  []Layer
		op   []Layer
		// wantDep and wantRead are the minimal policies, the latter for
		// a read named "Get".
		wantDep  runtime.DependencyPolicy
		wantRead runtime.OperationPolicy
	}{
		{
			name: "nothing written",
			wantRead: runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly,
				Timeout: 6300 * time.Millisecond, KeepCallerDeadline: true, AttemptTimeout: GuessAttemptTimeout, ConnectTimeout: GuessConnectTimeout},
		},
		{
			name: "values written equal to the defaults are kept",
			dep: []Layer{
				layer(t, LayerFileDefaults, "retry: {maxRetries: 2, base: 100ms, budget: 10%}\nbreaker: {failureRate: 50}"),
			},
			wantDep: runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{FailureRate: 50}, Budget: runtime.BudgetPolicy{Ratio: 0.1}},
			wantRead: runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly,
				Timeout: 6300 * time.Millisecond, KeepCallerDeadline: true, AttemptTimeout: GuessAttemptTimeout, ConnectTimeout: GuessConnectTimeout,
				Retry: runtime.RetryPolicy{MaxRetries: 2, Base: 100 * time.Millisecond}},
		},
		{
			name: "zero written turns off",
			dep: []Layer{
				layer(t, LayerFileDependency, "retry: {maxRetries: 0, minPerSecond: 0}\nbulkhead: {maxWait: 0s}"),
			},
			wantDep: runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{DisableWait: true}, Budget: runtime.BudgetPolicy{DisableFloor: true}},
			wantRead: runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly,
				Timeout: GuessAttemptTimeout, KeepCallerDeadline: true, ConnectTimeout: GuessConnectTimeout,
				Retry: runtime.RetryPolicy{Disabled: true}},
		},
		{
			name: "derived from latency",
			dep: []Layer{
				layer(t, LayerFileDependency, "latency: {p50: 20ms, p95: 90ms, p99: 180ms, p999: 350ms, rps: 200}\nhedge: {maxHedges: 1}\nfallback: {kind: cached}"),
			},
			op:      []Layer{layer(t, LayerFileOperation, "connectTimeout: 300ms")},
			wantDep: runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 108, MaxWait: 90 * time.Millisecond}},
			wantRead: runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly,
				Timeout: 1700 * time.Millisecond, AttemptTimeout: 420 * time.Millisecond, ConnectTimeout: 300 * time.Millisecond,
				Retry:    runtime.RetryPolicy{MinAttempt: 20 * time.Millisecond},
				Hedge:    runtime.HedgePolicy{Delay: 90 * time.Millisecond, MaxHedges: 1},
				Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached}},
		},
		{
			name: "every dependency-wide key, and the fleet",
			dep: []Layer{
				layer(t, LayerFileDependency, "breaker: {failureRate: 25, minimumCalls: 10, window: 20s, openFor: 1m, halfOpenProbes: 2}\n"+
					"bulkhead: {maxConcurrent: 8, maxWait: 5ms}\nretry: {budget: 20%, minPerSecond: 3}\nfleet: {store: sessions-redis}\n"+
					"fallback: {kind: cached, ttl: 5m, shared: true}"),
			},
			op: []Layer{layer(t, LayerFileOperation, "timeout: 3s")},
			wantDep: runtime.DependencyPolicy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 25, MinimumCalls: 10, Window: 20 * time.Second, OpenFor: time.Minute, HalfOpenProbes: 2},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 8, MaxWait: 5 * time.Millisecond},
				Budget:   runtime.BudgetPolicy{Ratio: 0.2, MinPerSecond: 3},
				Fleet:    runtime.FleetPolicy{Store: "sessions-redis"},
			},
			wantRead: runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly,
				Timeout: 3 * time.Second, AttemptTimeout: 900 * time.Millisecond, ConnectTimeout: GuessConnectTimeout,
				Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached, TTL: 5 * time.Minute, Shared: true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ResolveDependency("inventory", tt.dep...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantDep, d.Minimal()); diff != "" {
				t.Errorf("Dependency.Minimal mismatch (-want +got):\n%s", diff)
			}
			explicit, err := runtime.NewDependency("inventory", d.Policy)
			if err != nil {
				t.Fatalf("the explicit policy: %v", err)
			}
			minimal, err := runtime.NewDependency("inventory", d.Minimal())
			if err != nil {
				t.Fatalf("the minimal policy: %v", err)
			}
			if diff := cmp.Diff(explicit.Policy(), minimal.Policy()); diff != "" {
				t.Errorf("the runtime resolves the minimal dependency policy otherwise (-explicit +minimal):\n%s", diff)
			}
			for _, idem := range []runtime.Idempotency{runtime.NotIdempotent, runtime.Idempotent, runtime.ReadOnly} {
				op, err := d.ResolveOperation("Get", idem, tt.op...)
				if err != nil {
					t.Fatalf("%v: %v", idem, err)
				}
				if idem == runtime.ReadOnly {
					if diff := cmp.Diff(tt.wantRead, op.Minimal()); diff != "" {
						t.Errorf("Operation.Minimal mismatch (-want +got):\n%s", diff)
					}
				}
				sameOperation(t, explicit, op.Policy, op.Minimal())
			}
		})
	}
}

// sameOperation fails t unless the runtime makes the same operation of
// the explicit and the minimal policy: the same values where the
// operation shows them, the same defaults filled in where it does not.
func sameOperation(t *testing.T, d *runtime.Dependency, explicit, minimal runtime.OperationPolicy) {
	t.Helper()
	a, err := d.Operation(explicit)
	if err != nil {
		t.Fatalf("%s, explicit: %v", explicit.Idempotency, err)
	}
	b, err := d.Operation(minimal)
	if err != nil {
		t.Fatalf("%s, minimal: %v", minimal.Idempotency, err)
	}
	type shown struct {
		Idempotency                      runtime.Idempotency
		Key                              string
		Timeout, Attempt, Connect, Hedge time.Duration
		MaxRetries                       int
		Fallback                         runtime.FallbackPolicy
		Retry                            runtime.RetryPolicy
		MaxHedges                        int
	}
	show := func(o *runtime.Operation, p runtime.OperationPolicy) shown {
		s := shown{o.Idempotency(), o.IdempotencyKey(), o.Timeout(), o.AttemptTimeout(), o.ConnectTimeout(), o.EffectiveHedgeDelay(),
			o.MaxRetries(), o.Fallback(), p.Retry, p.Hedge.MaxHedges}
		// What the operation does not show, filled as the runtime
		// documents it: zero is the default.
		s.Retry.MaxRetries, s.Retry.Disabled = 0, false // shown as MaxRetries
		if s.Retry.Base == 0 {
			s.Retry.Base = runtime.DefaultBackoffBase
		}
		if s.Retry.Cap == 0 {
			s.Retry.Cap = runtime.DefaultBackoffCap
		}
		if s.Fallback.Kind == runtime.FallbackNone {
			s.Fallback.TTL = 0 // unused
		}
		if s.MaxHedges == 0 || s.Hedge == 0 {
			s.MaxHedges = runtime.DefaultMaxHedges
		}
		return s
	}
	if diff := cmp.Diff(show(a, explicit), show(b, minimal)); diff != "" {
		t.Errorf("%s: the runtime makes another operation of the minimal policy (-explicit +minimal):\n%s", explicit.Idempotency, diff)
	}
}
