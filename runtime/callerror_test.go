package runtime_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// TestEveryFailureIsACallError: whatever ended a call, its error is a
// *CallError naming the dependency and the operation, counting the
// attempts and saying what ended it, and errors.As and errors.Is still
// reach the cause.
func TestEveryFailureIsACallError(t *testing.T) {
	errReset := errors.New("connection reset by peer")
	tests := []struct {
		name         string
		dep          runtime.DependencyPolicy
		op           runtime.OperationPolicy
		steps        []step
		setup        func(t *testing.T, d *runtime.Dependency, op *runtime.Operation) // before the call
		ctx          func(context.Context) (context.Context, context.CancelFunc)
		wantEnd      runtime.End
		wantAttempts int
		wantNotSent  bool
		cause        func(error) bool
	}{
		{
			name: "retries exhausted", op: runtime.OperationPolicy{Idempotency: runtime.Idempotent},
			steps: []step{{err: err503()}}, wantEnd: runtime.EndAttempt, wantAttempts: 3,
			cause: func(err error) bool {
				var re *runtime.RemoteError
				return errors.As(err, &re) && re.Status == 503 && re.Attempts == 3
			},
		},
		{
			name: "answer not retryable", op: runtime.OperationPolicy{Idempotency: runtime.ReadOnly},
			steps: []step{{err: fail(404, outcome.Rejected)}}, wantEnd: runtime.EndAttempt, wantAttempts: 1,
			cause: func(err error) bool {
				var re *runtime.RemoteError
				return errors.As(err, &re) && re.Status == 404
			},
		},
		{
			name: "transport error, retries exhausted", op: runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Retry: runtime.RetryPolicy{MaxRetries: 1}},
			steps: []step{{err: errReset}}, wantEnd: runtime.EndAttempt, wantAttempts: 2,
			cause: func(err error) bool { return errors.Is(err, errReset) },
		},
		{
			name: "transport error, not idempotent", op: runtime.OperationPolicy{Idempotency: runtime.NotIdempotent},
			steps: []step{{err: errReset}}, wantEnd: runtime.EndOutcomeUnknown, wantAttempts: 1,
			cause: func(err error) bool { return errors.Is(err, errReset) && errors.Is(err, runtime.ErrOutcomeUnknown) },
		},
		{
			name: "not sent, not idempotent", op: runtime.OperationPolicy{Idempotency: runtime.NotIdempotent},
			steps: []step{{err: runtime.MarkNotSent(errReset)}}, wantEnd: runtime.EndAttempt, wantAttempts: 1, wantNotSent: true,
			cause: func(err error) bool { return errors.Is(err, errReset) && !errors.Is(err, runtime.ErrOutcomeUnknown) },
		},
		{
			name:  "budget spent",
			dep:   runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Ratio: 0.01, DisableFloor: true}},
			op:    runtime.OperationPolicy{Idempotency: runtime.Idempotent},
			steps: []step{{err: err503()}}, wantEnd: runtime.EndBudgetExhausted, wantAttempts: 1,
			cause: func(err error) bool {
				var re *runtime.RemoteError
				return errors.Is(err, runtime.ErrBudgetExhausted) && errors.As(err, &re)
			},
		},
		{
			name: "breaker open",
			dep:  runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 1}},
			op:   runtime.OperationPolicy{Idempotency: runtime.Idempotent},
			setup: func(t *testing.T, d *runtime.Dependency, op *runtime.Operation) {
				runtime.Do(t.Context(), op, "", (&script{steps: []step{{err: err503()}}}).attempt)
			},
			steps: []step{ok}, wantEnd: runtime.EndCircuitOpen, wantAttempts: 0, wantNotSent: true,
			cause: func(err error) bool { return errors.Is(err, runtime.ErrCircuitOpen) },
		},
		{
			name: "bulkhead full",
			dep:  runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}},
			op:   runtime.OperationPolicy{Idempotency: runtime.ReadOnly},
			setup: func(t *testing.T, d *runtime.Dependency, op *runtime.Operation) {
				_, release, _ := runtime.DoHeld(t.Context(), op, "", (&script{steps: []step{ok}}).attempt)
				t.Cleanup(release)
			},
			steps: []step{ok}, wantEnd: runtime.EndBulkheadFull, wantAttempts: 0, wantNotSent: true,
			cause: func(err error) bool { return errors.Is(err, runtime.ErrBulkheadFull) },
		},
		{
			name: "deadline", op: runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Second},
			steps: []step{{latency: 5 * time.Second}}, wantEnd: runtime.EndDeadline, wantAttempts: 1,
			cause: func(err error) bool { return errors.Is(err, context.DeadlineExceeded) },
		},
		{
			name: "canceled", op: runtime.OperationPolicy{Idempotency: runtime.ReadOnly},
			ctx: func(ctx context.Context) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(ctx)
				time.AfterFunc(time.Second, cancel)
				return ctx, cancel
			},
			steps: []step{{latency: 5 * time.Second}}, wantEnd: runtime.EndCanceled, wantAttempts: 1,
			cause: func(err error) bool { return errors.Is(err, context.Canceled) },
		},
		{
			name: "outcome unknown", op: runtime.OperationPolicy{Idempotency: runtime.NotIdempotent, Timeout: time.Second},
			steps: []step{{latency: 5 * time.Second}}, wantEnd: runtime.EndOutcomeUnknown, wantAttempts: 1,
			cause: func(err error) bool {
				return errors.Is(err, runtime.ErrOutcomeUnknown) && errors.Is(err, context.DeadlineExceeded)
			},
		},
		{
			name: "invalid request found by the attempt", op: runtime.OperationPolicy{Idempotency: runtime.ReadOnly},
			steps: []step{{err: &runtime.InvalidRequestError{Err: errors.New("bad message")}}}, wantEnd: runtime.EndInvalidRequest, wantAttempts: 1, wantNotSent: true,
			cause: func(err error) bool { return errors.Is(err, runtime.ErrInvalidRequest) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDep(t, tt.dep)
				p := tt.op
				p.Name = "GetPet"
				op := newOp(t, d, p)
				if tt.setup != nil {
					tt.setup(t, d, op)
				}
				ctx := t.Context()
				if tt.ctx != nil {
					var cancel context.CancelFunc
					ctx, cancel = tt.ctx(ctx)
					defer cancel()
				}
				_, err := runtime.Do(ctx, op, "", (&script{steps: tt.steps}).attempt)
				var ce *runtime.CallError
				if !errors.As(err, &ce) {
					t.Fatalf("Do error = %v (%T), want a *runtime.CallError", err, err)
				}
				if ce.Dependency != "dep" || ce.Operation != "GetPet" || ce.End != tt.wantEnd || ce.Attempts != tt.wantAttempts || ce.NotSent != tt.wantNotSent {
					t.Errorf("CallError{%s %s, End %v, Attempts %d, NotSent %v}, want {dep GetPet, End %v, Attempts %d, NotSent %v}",
						ce.Dependency, ce.Operation, ce.End, ce.Attempts, ce.NotSent, tt.wantEnd, tt.wantAttempts, tt.wantNotSent)
				}
				if errors.Is(err, runtime.ErrNotSent) != tt.wantNotSent {
					t.Errorf("errors.Is(%v, ErrNotSent) = %v, want %v", err, !tt.wantNotSent, tt.wantNotSent)
				}
				if !tt.cause(err) {
					t.Errorf("error %v does not reach its cause", err)
				}
			})
		})
	}
}

// TestCallErrorSaysTheCountOnce: a call failed by the dependency's answer
// says how many attempts it made once, in the call's words, not again in
// the answer's.
func TestCallErrorSaysTheCountOnce(t *testing.T) {
	for _, tc := range []struct {
		attempts int
		want     string
	}{
		{1, "resilient: pets GetPet: failed after 1 attempt: remote error 503 Service Unavailable: busy (retry after 1s)"},
		{3, "resilient: pets GetPet: failed after 3 attempts: remote error 503 Service Unavailable: busy (retry after 1s)"},
	} {
		re := &runtime.RemoteError{Status: 503, Code: "Service Unavailable", Message: "busy", Attempts: tc.attempts, RetryAfter: time.Second, Class: outcome.Overloaded}
		err := &runtime.CallError{Dependency: "pets", Operation: "GetPet", Attempts: tc.attempts, End: runtime.EndAttempt, Err: re}
		if got := err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
