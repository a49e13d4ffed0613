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
// ends write, hold every field that is not zero, the switches that are
// off by default included, and nothing else: a plain operation is one
// line, a policy of defaults "runtime.DependencyPolicy{}".
func TestPolicyLiterals(t *testing.T) {
	tests := []struct {
		name string
		code fmt.GoStringer
		want string
	}{
		{"a dependency of defaults", golang.DependencyPolicyLiteral(runtime.DependencyPolicy{}), "runtime.DependencyPolicy{}"},
		{"a dependency with the breaker and budget off and no wait",
			golang.DependencyPolicyLiteral(runtime.DependencyPolicy{
				Breaker:  runtime.BreakerPolicy{OpenFor: 90 * time.Second, Disabled: true},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 8, DisableWait: true},
				Budget:   runtime.BudgetPolicy{Ratio: 0.2, DisableFloor: true, Disabled: true},
			}), `runtime.DependencyPolicy{
	Breaker:  runtime.BreakerPolicy{OpenFor: 90 * time.Second, Disabled: true},
	Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 8, DisableWait: true},
	Budget:   runtime.BudgetPolicy{Ratio: 0.2, DisableFloor: true, Disabled: true},
}`},
		{"a dependency with every breaker field and a throttle",
			golang.DependencyPolicyLiteral(runtime.DependencyPolicy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 40, MinimumCalls: 10, Window: 20 * time.Second, OpenFor: 15 * time.Second, HalfOpenProbes: 3},
				Throttle: runtime.ThrottlePolicy{Ratio: 2, Window: time.Second, MaxReject: 0.5, MinRequests: 10},
			}), `runtime.DependencyPolicy{
	Breaker:  runtime.BreakerPolicy{FailureRate: 40.0, MinimumCalls: 10, Window: 20 * time.Second, OpenFor: 15 * time.Second, HalfOpenProbes: 3},
	Throttle: runtime.ThrottlePolicy{Ratio: 2.0, Window: time.Second, MaxReject: 0.5, MinRequests: 10},
}`},
		{"a dependency sharing its breaker and budget with the fleet",
			golang.DependencyPolicyLiteral(runtime.DependencyPolicy{
				Fleet: runtime.FleetPolicy{Store: "sessions-redis", Prefix: "checkout:"},
			}), `runtime.DependencyPolicy{
	Fleet: runtime.FleetPolicy{Store: "sessions-redis", Prefix: "checkout:"},
}`},
		{"a fleet with its synchronisation tuned",
			golang.DependencyPolicyLiteral(runtime.DependencyPolicy{
				Fleet: runtime.FleetPolicy{SyncInterval: 100 * time.Millisecond, StaleAfter: 2 * time.Second},
			}), `runtime.DependencyPolicy{
	Fleet: runtime.FleetPolicy{SyncInterval: 100 * time.Millisecond, StaleAfter: 2 * time.Second},
}`},
		{"an operation of defaults", golang.OperationPolicyLiteral(runtime.OperationPolicy{Name: "AddPet"}, ""),
			`runtime.OperationPolicy{Name: "AddPet"}`},
		{"a read with its timeouts, on one line",
			golang.OperationPolicyLiteral(runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second, ConnectTimeout: time.Second}, ""),
			`runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second, ConnectTimeout: time.Second}`},
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
	Retry:          runtime.RetryPolicy{MaxRetries: 2, Base: 100 * time.Millisecond, Cap: 2 * time.Second, DisableJitter: true},
	Hedge:          runtime.HedgePolicy{Delay: 90 * time.Millisecond, MaxHedges: 1},
	Fallback:       runtime.FallbackPolicy{Kind: runtime.FallbackCached, TTL: time.Minute, Shared: true},
}`},
		{"an idempotent operation sent once with a static fallback",
			golang.OperationPolicyLiteral(runtime.OperationPolicy{
				Name: "PutPet", Idempotency: runtime.Idempotent, Timeout: 2 * time.Second,
				Retry:    runtime.RetryPolicy{Disabled: true},
				Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic},
			}, `{"id":1}`), "runtime.OperationPolicy{\n\tName:        \"PutPet\",\n\tIdempotency: runtime.Idempotent,\n\tTimeout:     2 * time.Second,\n\tRetry:       runtime.RetryPolicy{Disabled: true},\n\tFallback:    runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: json.RawMessage(`{\"id\":1}`)},\n}"},
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
