package golang_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/runtime"
)

// TestPolicyLiterals: the literals of the policy table, which both back
// ends write, keep every field that is set, the switches that are off by
// default included.
func TestPolicyLiterals(t *testing.T) {
	tests := []struct {
		name string
		code fmt.GoStringer
		want string
	}{
		{"a dependency with the breaker and budget off and no wait",
			golang.DependencyPolicyLiteral(runtime.Policy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, Window: 10 * time.Second, OpenFor: 90 * time.Second, HalfOpenProbes: 5, Disabled: true},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 8, MaxWait: runtime.NoWait},
				Budget:   runtime.BudgetPolicy{Ratio: 0.1, MinPerSecond: 10, MaxBalance: 100, Disabled: true},
			}), `runtime.Policy{
	Breaker: runtime.BreakerPolicy{
		FailureRate:    50.0,
		MinimumCalls:   20,
		Window:         10 * time.Second,
		OpenFor:        90 * time.Second,
		HalfOpenProbes: 5,
		Disabled:       true,
	},
	Bulkhead: runtime.BulkheadPolicy{
		MaxConcurrent: 8,
		MaxWait:       runtime.NoWait,
	},
	Budget: runtime.BudgetPolicy{
		Ratio:        0.1,
		MinPerSecond: 10.0,
		MaxBalance:   100.0,
		Disabled:     true,
	},
}`},
		{"a dependency sharing its breaker and budget with the fleet",
			golang.DependencyPolicyLiteral(runtime.Policy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, Window: 10 * time.Second, OpenFor: 30 * time.Second, HalfOpenProbes: 5},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 32, MaxWait: 10 * time.Millisecond},
				Budget:   runtime.BudgetPolicy{Ratio: 0.1, MinPerSecond: 10, MaxBalance: 100},
				Fleet:    runtime.FleetPolicy{Store: "sessions-redis", Prefix: "checkout:"},
			}), `runtime.Policy{
	Breaker: runtime.BreakerPolicy{
		FailureRate:    50.0,
		MinimumCalls:   20,
		Window:         10 * time.Second,
		OpenFor:        30 * time.Second,
		HalfOpenProbes: 5,
	},
	Bulkhead: runtime.BulkheadPolicy{
		MaxConcurrent: 32,
		MaxWait:       10 * time.Millisecond,
	},
	Budget: runtime.BudgetPolicy{
		Ratio:        0.1,
		MinPerSecond: 10.0,
		MaxBalance:   100.0,
	},
	Fleet: runtime.FleetPolicy{
		Store:  "sessions-redis",
		Prefix: "checkout:",
	},
}`},
		{"a fleet with its synchronisation tuned",
			golang.DependencyPolicyLiteral(runtime.Policy{
				Fleet: runtime.FleetPolicy{Prefix: "resilient:", SyncInterval: 100 * time.Millisecond, StaleAfter: 2 * time.Second},
			}), `runtime.Policy{
	Breaker: runtime.BreakerPolicy{
		FailureRate:    0.0,
		MinimumCalls:   0,
		Window:         0,
		OpenFor:        0,
		HalfOpenProbes: 0,
	},
	Bulkhead: runtime.BulkheadPolicy{
		MaxConcurrent: 0,
		MaxWait:       0,
	},
	Budget: runtime.BudgetPolicy{
		Ratio:        0.0,
		MinPerSecond: 0.0,
		MaxBalance:   0.0,
	},
	Fleet: runtime.FleetPolicy{
		Store:        "",
		Prefix:       "resilient:",
		SyncInterval: 100 * time.Millisecond,
		StaleAfter:   2 * time.Second,
	},
}`},
		{"an operation without jitter, with a key and a shared cache",
			golang.OperationPolicyLiteral(runtime.OperationPolicy{
				Name: "GetPet", Idempotency: runtime.ReadOnly, IdempotencyKey: "idempotency-key",
				Timeout: 1500 * time.Millisecond, AttemptTimeout: 400 * time.Millisecond,
				Retry:    runtime.RetryPolicy{MaxRetries: 2, Base: 100 * time.Millisecond, Cap: 2 * time.Second, DisableJitter: true},
				Hedge:    runtime.HedgePolicy{Delay: 90 * time.Millisecond, MaxHedges: 1},
				Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached, TTL: time.Minute, Shared: true},
			}, ""), `runtime.OperationPolicy{
	Name:           "GetPet",
	Idempotency:    runtime.ReadOnly,
	IdempotencyKey: "idempotency-key",
	Timeout:        1500 * time.Millisecond,
	AttemptTimeout: 400 * time.Millisecond,
	ConnectTimeout: 0,
	Retry: runtime.RetryPolicy{
		MaxRetries:    2,
		Base:          100 * time.Millisecond,
		Cap:           2 * time.Second,
		MinAttempt:    0,
		DisableJitter: true,
	},
	Hedge:    runtime.HedgePolicy{Delay: 90 * time.Millisecond, MaxHedges: 1},
	Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached, TTL: time.Minute, Shared: true},
}`},
		{"a write sent once with a static fallback",
			golang.OperationPolicyLiteral(runtime.OperationPolicy{
				Name: "AddPet", Timeout: 2 * time.Second,
				Retry:    runtime.RetryPolicy{MaxRetries: runtime.NoRetries},
				Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic},
			}, `{"id":1}`), "runtime.OperationPolicy{\n\tName:           \"AddPet\",\n\tIdempotency:    runtime.NotIdempotent,\n\tTimeout:        2 * time.Second,\n\tAttemptTimeout: 0,\n\tConnectTimeout: 0,\n\tRetry: runtime.RetryPolicy{\n\t\tMaxRetries: runtime.NoRetries,\n\t\tBase:       0,\n\t\tCap:        0,\n\t\tMinAttempt: 0,\n\t},\n\tHedge:    runtime.HedgePolicy{Delay: 0, MaxHedges: 0},\n\tFallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: json.RawMessage(`{\"id\":1}`)},\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, strings.TrimSpace(tt.code.GoString())); diff != "" {
				t.Errorf("literal mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDurationLiteral(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"}, {time.Second, "time.Second"}, {800 * time.Millisecond, "800 * time.Millisecond"},
		{90 * time.Minute, "90 * time.Minute"}, {2 * time.Hour, "2 * time.Hour"}, {1500 * time.Microsecond, "1500 * time.Microsecond"}, {7, "7 * time.Nanosecond"},
	} {
		if got := golang.DurationLiteral(tt.d).GoString(); got != tt.want {
			t.Errorf("DurationLiteral(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
