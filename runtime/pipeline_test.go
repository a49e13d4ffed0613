package runtime_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// script is a fake dependency: each attempt takes the next step (the last
// step repeats), sleeping its latency on the fake clock.
type script struct {
	steps    []step
	calls    atomic.Int64
	inFlight atomic.Int64
	maxSeen  atomic.Int64
	mu       sync.Mutex
	starts   []time.Time // attempt start times
}

type step struct {
	latency time.Duration
	err     error
}

func (s *script) attempt(ctx context.Context) (string, error) {
	n := int(s.calls.Add(1)) - 1
	s.mu.Lock()
	s.starts = append(s.starts, time.Now())
	s.mu.Unlock()
	cur := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxSeen.Load()
		if cur <= m || s.maxSeen.CompareAndSwap(m, cur) {
			break
		}
	}
	st := s.steps[min(n, len(s.steps)-1)]
	if st.latency > 0 {
		t := time.NewTimer(st.latency)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if st.err != nil {
		return "", st.err
	}
	return "ok", nil
}

func fail(status int, class outcome.Class) error {
	return &runtime.RemoteError{Status: status, Class: class}
}

var (
	err503 = func() error { return fail(503, outcome.Transient) }
	ok     = step{}
)

func newDep(t *testing.T, p runtime.DependencyPolicy, opts ...runtime.Option) *runtime.Dependency {
	t.Helper()
	opts = append([]runtime.Option{runtime.WithLogger(slog.New(slog.DiscardHandler))}, opts...)
	d, err := runtime.NewDependency("dep", p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func newOp(t *testing.T, d *runtime.Dependency, p runtime.OperationPolicy) *runtime.Operation {
	t.Helper()
	if p.Name == "" {
		p.Name = "Op"
	}
	op, err := d.Operation(p)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func TestAttemptCounts(t *testing.T) {
	tests := []struct {
		name         string
		idempotency  runtime.Idempotency
		retry        runtime.RetryPolicy
		steps        []step
		wantAttempts int64
		wantErr      bool
	}{
		{"success first time", runtime.ReadOnly, runtime.RetryPolicy{}, []step{ok}, 1, false},
		{"503 twice then success", runtime.ReadOnly, runtime.RetryPolicy{}, []step{{err: err503()}, {err: err503()}, ok}, 3, false},
		{"503 always, default 2 retries", runtime.Idempotent, runtime.RetryPolicy{}, []step{{err: err503()}}, 3, true},
		{"503 always, 1 retry", runtime.Idempotent, runtime.RetryPolicy{MaxRetries: 1}, []step{{err: err503()}}, 2, true},
		{"503 always, no retries", runtime.Idempotent, runtime.RetryPolicy{Disabled: true}, []step{{err: err503()}}, 1, true},
		{"non-idempotent 503 never retried", runtime.NotIdempotent, runtime.RetryPolicy{MaxRetries: 3}, []step{{err: err503()}, ok}, 1, true},
		{"404 never retried", runtime.ReadOnly, runtime.RetryPolicy{}, []step{{err: fail(404, outcome.Rejected)}, ok}, 1, true},
		{"500 never retried", runtime.ReadOnly, runtime.RetryPolicy{}, []step{{err: fail(500, outcome.Failed)}, ok}, 1, true},
		{"permanent never retried", runtime.ReadOnly, runtime.RetryPolicy{}, []step{{err: outcome.MarkPermanent(errors.New("bad json"))}, ok}, 1, true},
		{"unclassified error is transient", runtime.ReadOnly, runtime.RetryPolicy{}, []step{{err: errors.New("connection reset")}, ok}, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDep(t, runtime.DependencyPolicy{})
				op := newOp(t, d, runtime.OperationPolicy{Idempotency: tt.idempotency, Timeout: 10 * time.Second,
					Retry: tt.retry})
				s := &script{steps: tt.steps}
				_, err := runtime.Do(t.Context(), op, "", s.attempt)
				if got := s.calls.Load(); got != tt.wantAttempts {
					t.Errorf("attempts = %d, want %d (err %v)", got, tt.wantAttempts, err)
				}
				if (err != nil) != tt.wantErr {
					t.Errorf("err = %v, want error %v", err, tt.wantErr)
				}
				var re *runtime.RemoteError
				if err != nil && errors.As(err, &re) && int64(re.Attempts) != tt.wantAttempts {
					t.Errorf("RemoteError.Attempts = %d, want %d", re.Attempts, tt.wantAttempts)
				}
			})
		})
	}
}

func TestBackoffIsFullJitterAndBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Disabled: true}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Hour,
			Retry: runtime.RetryPolicy{MaxRetries: 5, Base: 100 * time.Millisecond, Cap: 300 * time.Millisecond}})
		for range 50 {
			s := &script{steps: []step{{err: err503()}}}
			runtime.Do(t.Context(), op, "", s.attempt)
			ceilings := []time.Duration{100, 200, 300, 300, 300}
			for i := 1; i < len(s.starts); i++ {
				gap := s.starts[i].Sub(s.starts[i-1])
				if gap < 0 || gap >= ceilings[i-1]*time.Millisecond {
					t.Fatalf("backoff before retry %d = %v, want in [0, %vms)", i, gap, ceilings[i-1])
				}
			}
		}
	})
}

func TestBackoffWithoutJitterIsExact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Hour,
			Retry: runtime.RetryPolicy{MaxRetries: 4, Base: 100 * time.Millisecond, Cap: 300 * time.Millisecond, DisableJitter: true}})
		s := &script{steps: []step{{err: err503()}}}
		start := time.Now()
		runtime.Do(t.Context(), op, "", s.attempt)
		want := []time.Duration{0, 100, 300, 600, 900}
		for i, w := range want {
			if got := s.starts[i].Sub(start); got != w*time.Millisecond {
				t.Errorf("attempt %d started at %v, want %vms", i+1, got, w)
			}
		}
	})
}

// TestNonIdempotentTimeoutIsOutcomeUnknown: a POST is sent once, so its
// attempt runs to the total (an attempt timeout would only make room for a
// retry that never comes); when that ends it, the outcome is unknown.
func TestNonIdempotentTimeoutIsOutcomeUnknown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent, Timeout: 2 * time.Second,
			AttemptTimeout: 500 * time.Millisecond})
		s := &script{steps: []step{{latency: time.Hour}}}
		start := time.Now()
		_, err := runtime.Do(t.Context(), op, "", s.attempt)
		if got := s.calls.Load(); got != 1 {
			t.Errorf("attempts = %d, want 1", got)
		}
		if !errors.Is(err, runtime.ErrOutcomeUnknown) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want ErrOutcomeUnknown wrapping DeadlineExceeded", err)
		}
		if el := time.Since(start); el != 2*time.Second {
			t.Errorf("returned after %v, want the total 2s", el)
		}
	})
}

func TestIdempotentAttemptTimeoutRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.Idempotent, Timeout: 2 * time.Second,
			AttemptTimeout: 300 * time.Millisecond})
		s := &script{steps: []step{{latency: time.Hour}, ok}}
		v, err := runtime.Do(t.Context(), op, "", s.attempt)
		if err != nil || v != "ok" || s.calls.Load() != 2 {
			t.Errorf("Do = %q, %v after %d attempts, want ok after 2", v, err, s.calls.Load())
		}
		// The dependency answered the retry: the timed-out attempt was slow,
		// not failed, and is counted apart from failures.
		if c := d.BreakerCounts(); c.Failures != 0 || c.Exclusions != 1 || c.Successes != 1 {
			t.Errorf("breaker counts = %+v, want 1 exclusion (the slow attempt) and 1 success", c)
		}
	})
}

func TestTotalTimeNeverExceedsDeadline(t *testing.T) {
	for _, attemptTimeout := range []time.Duration{0, 300 * time.Millisecond, 700 * time.Millisecond} {
		synctest.Test(t, func(t *testing.T) {
			d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Disabled: true}, Breaker: runtime.BreakerPolicy{Disabled: true}})
			op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second,
				AttemptTimeout: attemptTimeout, Retry: runtime.RetryPolicy{MaxRetries: 5, Base: 400 * time.Millisecond}})
			for range 100 {
				s := &script{steps: []step{{latency: 250 * time.Millisecond, err: err503()}, {latency: time.Hour}}}
				start := time.Now()
				_, err := runtime.Do(t.Context(), op, "", s.attempt)
				if el := time.Since(start); el > 2*time.Second {
					t.Fatalf("attempt timeout %v: call took %v, more than the 2s total", attemptTimeout, el)
				}
				if err == nil {
					t.Fatal("Do succeeded against a dependency that never answers")
				}
			}
		})
	}
}

func TestCallerDeadlineCapsTotal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 10 * time.Second})
		ctx, cancel := context.WithTimeout(t.Context(), 700*time.Millisecond)
		defer cancel()
		s := &script{steps: []step{{latency: time.Hour}}}
		start := time.Now()
		_, err := runtime.Do(ctx, op, "", s.attempt)
		if el := time.Since(start); el != 700*time.Millisecond {
			t.Errorf("returned after %v, want the caller's 700ms", el)
		}
		var de *runtime.DeadlineExceededError
		if !errors.As(err, &de) || de.Attempts != 1 || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want DeadlineExceededError after 1 attempt", err)
		}
		if c := d.BreakerCounts(); c.Failures != 0 {
			t.Errorf("the caller's own deadline counted as a breaker failure: %+v", c)
		}
	})
}

func TestDeadlineExpiredOnEntry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly})
		ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
		defer cancel()
		s := &script{steps: []step{ok}}
		_, err := runtime.Do(ctx, op, "", s.attempt)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want DeadlineExceeded", err)
		}
		if s.calls.Load() != 0 || d.InFlight() != 0 || d.BreakerCounts().Requests != 0 {
			t.Errorf("calls %d, in flight %d, breaker %+v: want nothing touched", s.calls.Load(), d.InFlight(), d.BreakerCounts())
		}
	})
}

func TestCancelMidBackoffReturnsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 10 * time.Second,
			Retry: runtime.RetryPolicy{Base: 100 * time.Millisecond, DisableJitter: true}})
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		s := &script{steps: []step{{err: err503()}, ok}}
		start := time.Now()
		_, err := runtime.Do(ctx, op, "", s.attempt)
		if el := time.Since(start); el != 50*time.Millisecond {
			t.Errorf("returned after %v, want 50ms (the cancel)", el)
		}
		var re *runtime.RemoteError
		if !errors.Is(err, context.Canceled) || !errors.As(err, &re) || re.Status != 503 {
			t.Errorf("err = %v, want Canceled wrapping the last 503", err)
		}
		if s.calls.Load() != 1 {
			t.Errorf("attempts = %d, want 1", s.calls.Load())
		}
		if c := d.BreakerCounts(); c.Failures != 1 || c.Exclusions != 0 {
			t.Errorf("breaker counts = %+v, want the 503 only", c)
		}
	})
}

func TestRetryAfterHonouredAndCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second})
		throttled := &runtime.RemoteError{Status: 429, Class: outcome.Throttled, RetryAfter: 2 * time.Second}
		s := &script{steps: []step{{err: throttled}, ok}}
		start := time.Now()
		v, err := runtime.Do(t.Context(), op, "", s.attempt)
		if err != nil || v != "ok" {
			t.Fatalf("Do = %q, %v", v, err)
		}
		if gap := s.starts[1].Sub(start); gap != 2*time.Second {
			t.Errorf("retry after %v, want exactly the 2s asked for", gap)
		}
		if c := d.BreakerCounts(); c.Failures != 0 {
			t.Errorf("429 counted as breaker failure: %+v", c)
		}

		// A Retry-After beyond the deadline fails fast, with the value attached.
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		s = &script{steps: []step{{err: &runtime.RemoteError{Status: 503, Class: outcome.Transient, RetryAfter: 2 * time.Second}}, ok}}
		start = time.Now()
		_, err = runtime.Do(ctx, op, "", s.attempt)
		var re *runtime.RemoteError
		if !errors.As(err, &re) || re.RetryAfter != 2*time.Second || re.Attempts != 1 {
			t.Errorf("err = %v, want the 503 with Retry-After 2s after 1 attempt", err)
		}
		if el := time.Since(start); el != 0 {
			t.Errorf("returned after %v, want at once", el)
		}
	})
}

func TestBreakerOpensAtExactlyTheRateAfterMinimum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, OpenFor: 5 * time.Second}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		call := func(err error) error {
			_, e := runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { return "", err })
			return e
		}
		// 19 failures: below the minimum number of calls, still closed.
		for i := range 19 {
			call(err503())
			if s := d.BreakerState(); s != runtime.BreakerClosed {
				t.Fatalf("state after %d failures = %v, want closed below the minimum", i+1, s)
			}
		}
		// 20th call, a failure: 20 calls, 100% failures: opens.
		call(err503())
		if s := d.BreakerState(); s != runtime.BreakerOpen {
			t.Fatalf("state after 20 failures = %v, want open", s)
		}
		err := call(nil)
		if !errors.Is(err, runtime.ErrCircuitOpen) {
			t.Errorf("call while open: %v, want ErrCircuitOpen", err)
		}

		// Exactly at the rate: 10 successes and 9 failures stay closed (47%);
		// the 10th failure (10 of 20, 50%) opens.
		d2 := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20}})
		op2 := newOp(t, d2, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		for i := range 19 {
			var e error
			if i%2 == 1 {
				e = err503()
			}
			runtime.Do(t.Context(), op2, "", func(context.Context) (string, error) { return "", e })
		}
		if s := d2.BreakerState(); s != runtime.BreakerClosed {
			t.Fatalf("state at 9/19 failures = %v, want closed", s)
		}
		runtime.Do(t.Context(), op2, "", func(context.Context) (string, error) { return "", err503() })
		if s := d2.BreakerState(); s != runtime.BreakerOpen {
			t.Fatalf("state at 10/20 failures = %v, want open", s)
		}
	})
}

func TestBreakerIgnores4xxAndCancellation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 5}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly})
		for range 50 {
			runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { return "", fail(404, outcome.Rejected) })
			runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { return "", fail(429, outcome.Throttled) })
			ctx, cancel := context.WithCancel(t.Context())
			runtime.Do(ctx, op, "", func(context.Context) (string, error) { cancel(); return "", context.Canceled })
		}
		if s := d.BreakerState(); s != runtime.BreakerClosed {
			t.Errorf("state = %v, want closed: 4xx, 429 and cancellations are not failures", s)
		}
		if c := d.BreakerCounts(); c.Failures != 0 {
			t.Errorf("counts = %+v, want no failures", c)
		}
	})
}

func TestHalfOpenLetsOnlyProbesThrough(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 4, OpenFor: 5 * time.Second, HalfOpenProbes: 3},
			Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 100}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent, Timeout: time.Minute})
		for range 4 {
			runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { return "", err503() })
		}
		if s := d.BreakerState(); s != runtime.BreakerOpen {
			t.Fatalf("state = %v, want open", s)
		}
		time.Sleep(5*time.Second + time.Millisecond) // gobreaker half-opens strictly after the period
		// 10 concurrent slow calls in half-open: only 3 reach the dependency.
		s := &script{steps: []step{{latency: time.Second}}}
		var rejected atomic.Int64
		for range 10 {
			go func() {
				if _, err := runtime.Do(t.Context(), op, "", s.attempt); errors.Is(err, runtime.ErrCircuitOpen) {
					rejected.Add(1)
				}
			}()
		}
		synctest.Wait()
		if got := s.calls.Load(); got != 3 {
			t.Errorf("probes let through = %d, want 3", got)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if rejected.Load() != 7 {
			t.Errorf("rejected = %d, want 7", rejected.Load())
		}
		// The probes succeeded: the breaker ramps traffic back over one
		// open period, half-open meanwhile, then closes.
		if st := d.BreakerState(); st != runtime.BreakerHalfOpen {
			t.Errorf("state after 3 successful probes = %v, want half-open (ramping)", st)
		}
		time.Sleep(5 * time.Second)
		if st := d.BreakerState(); st != runtime.BreakerClosed {
			t.Errorf("state an open period after 3 successful probes = %v, want closed", st)
		}
	})
}

func TestOpenBreakerEndsRetryLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 2}, Budget: runtime.BudgetPolicy{Disabled: true}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Retry: runtime.RetryPolicy{MaxRetries: 5}})
		s := &script{steps: []step{{err: err503()}}}
		_, err := runtime.Do(t.Context(), op, "", s.attempt)
		var co *runtime.CircuitOpenError
		if !errors.As(err, &co) || co.Attempts != 2 {
			t.Fatalf("err = %v, want CircuitOpenError after 2 attempts", err)
		}
		var re *runtime.RemoteError
		if !errors.As(err, &re) || re.Status != 503 {
			t.Errorf("err = %v, want the last 503 wrapped", err)
		}
		if s.calls.Load() != 2 {
			t.Errorf("attempts = %d, want 2", s.calls.Load())
		}
	})
}

func TestBudgetBoundsRequestsToFailingDependency(t *testing.T) {
	for _, calls := range []int{1000, 10000} {
		synctest.Test(t, func(t *testing.T) {
			d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{Disabled: true}})
			op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Hour,
				Retry: runtime.RetryPolicy{Base: time.Nanosecond, Cap: time.Nanosecond}})
			s := &script{steps: []step{{err: err503()}}}
			exhausted := 0
			for range calls {
				_, err := runtime.Do(t.Context(), op, "", s.attempt)
				if errors.Is(err, runtime.ErrBudgetExhausted) {
					exhausted++
				}
			}
			// Fake time barely moves, so the floor gives its burst only:
			// retries = 10% of calls + the floor's 10, within one token.
			retries := int(s.calls.Load()) - calls
			want := calls/10 + runtime.DefaultBudgetMinPerSec
			if retries < want-1 || retries > want+1 {
				t.Errorf("%d calls: retries = %d, want %d ± 1", calls, retries, want)
			}
			if float64(s.calls.Load()) > 1.1*float64(calls)+runtime.DefaultBudgetMinPerSec {
				t.Errorf("%d calls: requests = %d, more than 1.1 × calls + floor", calls, s.calls.Load())
			}
			if exhausted == 0 {
				t.Error("no call failed with ErrBudgetExhausted")
			}
		})
	}
}

func TestBudgetRefundedWhenCancelledMidBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// No floor and a ratio of 1: each call earns exactly one retry.
		d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Ratio: 1, DisableFloor: true}, Breaker: runtime.BreakerPolicy{Disabled: true}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Hour,
			Retry: runtime.RetryPolicy{MaxRetries: 1, Base: time.Second, DisableJitter: true}})
		s := &script{steps: []step{{err: err503()}}}
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(100*time.Millisecond, cancel)
		runtime.Do(ctx, op, "", s.attempt) // earns 1, withdraws 1, cancelled: refunded
		// The next call earns 1 more: two retries are affordable in a row.
		ctx2, cancel2 := context.WithTimeout(t.Context(), time.Minute)
		defer cancel2()
		op2 := op.With(runtime.WithMaxRetries(2))
		s2 := &script{steps: []step{{err: err503()}}}
		_, err := runtime.Do(ctx2, op2, "", s2.attempt)
		if s2.calls.Load() != 3 || errors.Is(err, runtime.ErrBudgetExhausted) {
			t.Errorf("attempts = %d (%v), want 3: the cancelled retry's token was not refunded", s2.calls.Load(), err)
		}
	})
}

func TestBreakerTripsAfterLongHealthyPeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{Window: 10 * time.Second}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		up := func(context.Context) (string, error) { return "ok", nil }
		down := func(context.Context) (string, error) { return "", err503() }
		for i := range 100_000 {
			runtime.Do(t.Context(), op, "", up)
			if i%10_000 == 0 {
				time.Sleep(time.Second)
			}
		}
		time.Sleep(11 * time.Second) // the healthy period slides out of the window
		for i := range 20 {
			if s := d.BreakerState(); s != runtime.BreakerClosed {
				t.Fatalf("opened after %d failures, want 20", i)
			}
			runtime.Do(t.Context(), op, "", down)
		}
		if s := d.BreakerState(); s != runtime.BreakerOpen {
			t.Errorf("state after 20 failures = %v, want open", s)
		}
	})
}

func TestBreakerFlappingHalfOpenWindows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &countingObserver{}
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 4, OpenFor: 5 * time.Second, HalfOpenProbes: 3}},
			runtime.WithObserver(obs))
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		var sent atomic.Int64
		down := func(context.Context) (string, error) { sent.Add(1); return "", err503() }
		// One call every 100ms for 30s against a dependency that is down.
		for range 300 {
			runtime.Do(t.Context(), op, "", down)
			time.Sleep(100 * time.Millisecond)
		}
		// 4 calls trip it; then every 5s (plus the 100ms tick) one probe
		// fails and reopens it: at most 6 windows in 30s.
		if got := sent.Load(); got > 4+6 {
			t.Errorf("requests reaching the dependency = %d, want at most 10", got)
		}
		obs.mu.Lock()
		defer obs.mu.Unlock()
		for i := 1; i < len(obs.transitions); i++ {
			if obs.transitions[i] == obs.transitions[i-1] {
				t.Errorf("transition %s logged twice in a row", obs.transitions[i])
			}
		}
	})
}

func TestBulkheadRejectsWithoutUnboundedWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 3, MaxWait: 10 * time.Millisecond}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Minute})
		s := &script{steps: []step{{latency: time.Second}}}
		for range 3 {
			go runtime.Do(t.Context(), op, "", s.attempt)
		}
		synctest.Wait()
		start := time.Now()
		_, err := runtime.Do(t.Context(), op, "", s.attempt)
		var bf *runtime.BulkheadFullError
		if !errors.As(err, &bf) || !errors.Is(err, runtime.ErrBulkheadFull) {
			t.Fatalf("err = %v, want BulkheadFullError", err)
		}
		if el := time.Since(start); el != 10*time.Millisecond {
			t.Errorf("rejected after %v, want the 10ms wait", el)
		}
		if s.maxSeen.Load() != 3 || d.BreakerCounts().Failures != 0 {
			t.Errorf("max in flight %d, breaker %+v: want 3 and no failure", s.maxSeen.Load(), d.BreakerCounts())
		}
		synctest.Wait()
		time.Sleep(time.Second)
		synctest.Wait()
		if d.InFlight() != 0 {
			t.Errorf("in flight after all calls = %d, want 0", d.InFlight())
		}
	})
}

func TestBulkheadNoWaitRejectsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly})
		s := &script{steps: []step{{latency: time.Second}}}
		go runtime.Do(t.Context(), op, "", s.attempt)
		synctest.Wait()
		start := time.Now()
		if _, err := runtime.Do(t.Context(), op, "", s.attempt); !errors.Is(err, runtime.ErrBulkheadFull) {
			t.Errorf("err = %v, want ErrBulkheadFull", err)
		}
		if time.Since(start) != 0 {
			t.Error("rejection waited")
		}
		time.Sleep(time.Second)
		synctest.Wait()
	})
}

func TestHedgingCancelsTheLoser(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second,
			Hedge: runtime.HedgePolicy{Delay: 50 * time.Millisecond}})
		var n atomic.Int64
		primaryCancelled := make(chan bool, 1)
		attempt := func(ctx context.Context) (string, error) {
			if n.Add(1) == 1 { // the primary is slow
				select {
				case <-time.After(time.Second):
					primaryCancelled <- false
					return "primary", nil
				case <-ctx.Done():
					time.Sleep(20 * time.Millisecond) // slow to wind down
					primaryCancelled <- true
					return "", ctx.Err()
				}
			}
			time.Sleep(10 * time.Millisecond)
			return "hedge", nil
		}
		start := time.Now()
		v, err := runtime.Do(t.Context(), op, "", attempt)
		if err != nil || v != "hedge" {
			t.Fatalf("Do = %q, %v, want the hedge's answer", v, err)
		}
		if el := time.Since(start); el != 60*time.Millisecond {
			t.Errorf("answered after %v, want 60ms (50ms delay + 10ms hedge)", el)
		}
		if got := d.InFlight(); got != 1 {
			t.Errorf("in flight while the loser winds down = %d, want 1 (its permit)", got)
		}
		if !<-primaryCancelled {
			t.Error("the losing primary was not cancelled")
		}
		synctest.Wait()
		if d.InFlight() != 0 {
			t.Errorf("in flight = %d after the race, want 0", d.InFlight())
		}
		if c := d.BreakerCounts(); c.Failures != 0 {
			t.Errorf("the cancelled loser counted as a failure: %+v", c)
		}
	})
}

func TestNoHedgeWithoutBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{DisableFloor: true}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second,
			Hedge: runtime.HedgePolicy{Delay: 50 * time.Millisecond}})
		s := &script{steps: []step{{latency: 200 * time.Millisecond}}}
		start := time.Now()
		if _, err := runtime.Do(t.Context(), op, "", s.attempt); err != nil {
			t.Fatal(err)
		}
		if s.calls.Load() != 1 || time.Since(start) != 200*time.Millisecond {
			t.Errorf("attempts %d after %v, want 1 (no budget for a hedge) after 200ms", s.calls.Load(), time.Since(start))
		}
	})
}

func TestFallbackCachedIsMarkedDegraded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &countingObserver{}
		d := newDep(t, runtime.DependencyPolicy{}, runtime.WithObserver(obs))
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Retry: runtime.RetryPolicy{Disabled: true},
			Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached, TTL: time.Minute}})
		good := func(context.Context) (string, error) { return "fresh", nil }
		down := func(context.Context) (string, error) { return "", err503() }
		if _, err := runtime.Do(t.Context(), op, "pets/1", good); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		v, err := runtime.Do(t.Context(), op, "pets/1", down)
		var de *runtime.DegradedError
		if v != "fresh" || !errors.As(err, &de) || de.Age != 10*time.Second || !runtime.IsDegraded(err) {
			t.Errorf("Do = %q, %v; want the cached value, degraded, age 10s", v, err)
		}
		var re *runtime.RemoteError
		if !errors.As(err, &re) || re.Status != 503 {
			t.Errorf("degraded error does not carry its cause: %v", err)
		}
		if obs.degraded.Load() != 1 {
			t.Errorf("degraded answers counted = %d, want 1", obs.degraded.Load())
		}
		// Another key has no cached value; an expired entry is not served.
		if _, err := runtime.Do(t.Context(), op, "pets/2", down); runtime.IsDegraded(err) {
			t.Error("served a fallback for a key never cached")
		}
		time.Sleep(time.Minute)
		if _, err := runtime.Do(t.Context(), op, "pets/1", down); runtime.IsDegraded(err) {
			t.Error("served a cached value older than its TTL")
		}
		// A 4xx passes through unchanged.
		runtime.Do(t.Context(), op, "pets/1", good)
		_, err = runtime.Do(t.Context(), op, "pets/1", func(context.Context) (string, error) { return "", fail(404, outcome.Rejected) })
		if runtime.IsDegraded(err) {
			t.Error("a 404 was replaced by a fallback")
		}
	})
}

func TestFallbackStaticOnBreakerOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 2}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Retry: runtime.RetryPolicy{Disabled: true},
			Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: "static"}})
		down := func(context.Context) (string, error) { return "", err503() }
		for range 2 {
			runtime.Do(t.Context(), op, "", down)
		}
		v, err := runtime.Do(t.Context(), op, "", down)
		if v != "static" || !errors.Is(err, runtime.ErrDegraded) || !errors.Is(err, runtime.ErrCircuitOpen) {
			t.Errorf("Do = %q, %v; want the static value, degraded, caused by the open breaker", v, err)
		}
	})
}

func TestFallbackNeverForWrites(t *testing.T) {
	d := newDep(t, runtime.DependencyPolicy{})
	for _, idem := range []runtime.Idempotency{runtime.NotIdempotent, runtime.Idempotent} {
		_, err := d.Operation(runtime.OperationPolicy{Name: "Write", Idempotency: idem,
			Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: "x"}})
		if err == nil {
			t.Errorf("%v operation accepted a fallback", idem)
		}
		_, err = d.Operation(runtime.OperationPolicy{Name: "Write", Idempotency: idem, Hedge: runtime.HedgePolicy{Delay: time.Millisecond}})
		if err == nil {
			t.Errorf("%v operation accepted hedging", idem)
		}
	}
}

func TestPolicyValidation(t *testing.T) {
	bad := []runtime.DependencyPolicy{
		{Breaker: runtime.BreakerPolicy{FailureRate: 101}},
		{Breaker: runtime.BreakerPolicy{Window: -time.Second}},
		{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: -1}},
		{Budget: runtime.BudgetPolicy{Ratio: 2}},
		// Off is a flag, never a negative value.
		{Bulkhead: runtime.BulkheadPolicy{MaxWait: -1}},
		{Budget: runtime.BudgetPolicy{MinPerSecond: -1}},
	}
	for _, p := range bad {
		if _, err := runtime.NewDependency("d", p); err == nil {
			t.Errorf("NewDependency(%+v) accepted an out-of-range policy", p)
		}
	}
	d := newDep(t, runtime.DependencyPolicy{})
	badOps := []runtime.OperationPolicy{
		{Idempotency: runtime.Idempotent, Retry: runtime.RetryPolicy{MaxRetries: -1}},
		{Idempotency: runtime.ReadOnly, Hedge: runtime.HedgePolicy{MaxHedges: 2}},
		{Idempotency: runtime.ReadOnly, Hedge: runtime.HedgePolicy{Delay: time.Millisecond, MaxHedges: -1}},
	}
	for _, p := range badOps {
		if _, err := d.Operation(p); err == nil {
			t.Errorf("Operation(%+v) accepted an out-of-range policy", p)
		}
	}
}

// TestZeroMeansDefault: every zero field of a policy resolves to its
// documented default, and what is on by default is turned off by a flag.
func TestZeroMeansDefault(t *testing.T) {
	d := newDep(t, runtime.DependencyPolicy{})
	want := runtime.DependencyPolicy{
		Breaker: runtime.BreakerPolicy{FailureRate: runtime.DefaultFailureRate, MinimumCalls: runtime.DefaultMinimumCalls,
			Window: runtime.DefaultBreakerWindow, OpenFor: runtime.DefaultOpenFor, HalfOpenProbes: runtime.DefaultHalfOpenProbes},
		Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: runtime.DefaultMaxConcurrent, MaxWait: runtime.DefaultMaxWait},
		Budget: runtime.BudgetPolicy{Ratio: runtime.DefaultBudgetRatio, MinPerSecond: runtime.DefaultBudgetMinPerSec,
			MaxBalance: runtime.DefaultBudgetMaxBalance},
		Throttle: runtime.ThrottlePolicy{Ratio: runtime.DefaultThrottleRatio, Window: runtime.DefaultThrottleWindow,
			MaxReject: runtime.DefaultThrottleMaxReject, MinRequests: runtime.DefaultThrottleMinRequests},
		Fleet: runtime.FleetPolicy{Prefix: runtime.DefaultFleetPrefix, SyncInterval: runtime.DefaultFleetSyncInterval,
			StaleAfter: runtime.DefaultFleetStaleAfter},
	}
	if got := d.Policy(); got != want {
		t.Errorf("DependencyPolicy{} resolves to\n%+v, want\n%+v", got, want)
	}
	op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached}})
	if op.MaxRetries() != runtime.DefaultMaxRetries || op.Timeout() != runtime.DefaultTimeout || op.Fallback().TTL != runtime.DefaultFallbackTTL {
		t.Errorf("zero fields resolve to %d retries, total %v, fallback TTL %v; want the defaults", op.MaxRetries(), op.Timeout(), op.Fallback().TTL)
	}
	if op.EffectiveHedgeDelay() != 0 {
		t.Errorf("zero HedgePolicy hedges after %v, want no hedging", op.EffectiveHedgeDelay())
	}

	off := newDep(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{DisableWait: true}, Budget: runtime.BudgetPolicy{DisableFloor: true}})
	if p := off.Policy(); p.Bulkhead.MaxWait != 0 || p.Budget.MinPerSecond != 0 || !p.Bulkhead.DisableWait || !p.Budget.DisableFloor {
		t.Errorf("the Disable flags resolve to %+v and %+v, want no wait and no floor", p.Bulkhead, p.Budget)
	}
	// A resolved policy given again resolves to itself.
	again := newDep(t, off.Policy())
	if again.Policy() != off.Policy() {
		t.Errorf("resolving %+v again gives %+v", off.Policy(), again.Policy())
	}
	// No floor: a dependency that has seen no calls has no retry to pay with.
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{DisableFloor: true}})
		fresh := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly})
		s := &script{steps: []step{{err: err503()}, ok}}
		_, err := runtime.Do(t.Context(), fresh, "", s.attempt)
		if !errors.Is(err, runtime.ErrBudgetExhausted) || s.calls.Load() != 1 {
			t.Errorf("without a floor, the first call's retry: err %v after %d attempts, want ErrBudgetExhausted after 1", err, s.calls.Load())
		}
	})
}

// TestAttemptTimeoutNotBelowTotal: one rule for Dependency.Operation and
// Operation.With: an attempt timeout not below the total is dropped.
func TestAttemptTimeoutNotBelowTotal(t *testing.T) {
	d := newDep(t, runtime.DependencyPolicy{})
	tests := []struct {
		name    string
		policy  runtime.OperationPolicy
		opts    []runtime.CallOption
		want    time.Duration
		wantTot time.Duration
	}{
		{"below", runtime.OperationPolicy{Timeout: 2 * time.Second, AttemptTimeout: time.Second}, nil, time.Second, 2 * time.Second},
		{"above, policy", runtime.OperationPolicy{Timeout: time.Second, AttemptTimeout: 2 * time.Second}, nil, 0, time.Second},
		{"equal, policy", runtime.OperationPolicy{Timeout: time.Second, AttemptTimeout: time.Second}, nil, 0, time.Second},
		{"above, WithTimeout", runtime.OperationPolicy{Timeout: 3 * time.Second, AttemptTimeout: time.Second},
			[]runtime.CallOption{runtime.WithTimeout(500 * time.Millisecond)}, 0, 500 * time.Millisecond},
		{"above, WithAttemptTimeout", runtime.OperationPolicy{Timeout: 3 * time.Second},
			[]runtime.CallOption{runtime.WithAttemptTimeout(4 * time.Second)}, 0, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, err := d.Operation(tt.policy)
			if err != nil {
				t.Fatalf("Operation(%+v) = %v, want it accepted", tt.policy, err)
			}
			op = op.With(tt.opts...)
			if op.AttemptTimeout() != tt.want || op.Timeout() != tt.wantTot {
				t.Errorf("attempt %v, total %v; want %v, %v", op.AttemptTimeout(), op.Timeout(), tt.want, tt.wantTot)
			}
		})
	}
}

func TestObserverSeesBreakerTransitions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &countingObserver{}
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 2, OpenFor: time.Second, HalfOpenProbes: 1}}, runtime.WithObserver(obs))
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		down := func(context.Context) (string, error) { return "", err503() }
		up := func(context.Context) (string, error) { return "ok", nil }
		runtime.Do(t.Context(), op, "", down)
		runtime.Do(t.Context(), op, "", down)
		runtime.Do(t.Context(), op, "", up) // rejected
		time.Sleep(time.Second + time.Millisecond)
		runtime.Do(t.Context(), op, "", up) // probe: the ramp begins
		time.Sleep(time.Second)
		runtime.Do(t.Context(), op, "", up) // the ramp is over: closed
		want := []string{"closed->open", "open->half-open", "half-open->closed"}
		obs.mu.Lock()
		got := obs.transitions
		obs.mu.Unlock()
		if len(got) != len(want) {
			t.Fatalf("transitions = %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("transition %d = %s, want %s", i, got[i], want[i])
			}
		}
		if obs.rejected.Load() != 1 {
			t.Errorf("rejections = %d, want 1", obs.rejected.Load())
		}
	})
}

func TestBreakerTransitionsAreLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf strings.Builder
		logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 1}}, runtime.WithLogger(logger))
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { return "", err503() })
		want := "level=INFO msg=\"circuit breaker state change\" dependency=dep from=closed to=open\n"
		if got := buf.String(); got != want {
			t.Errorf("log = %q, want %q", got, want)
		}
	})
}

func TestRetryAfterAboveCapFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: time.Hour,
			Retry: runtime.RetryPolicy{Cap: 2 * time.Second}})
		s := &script{steps: []step{{err: &runtime.RemoteError{Status: 503, Class: outcome.Transient, RetryAfter: 86400 * time.Second}}, ok}}
		start := time.Now()
		_, err := runtime.Do(t.Context(), op, "", s.attempt)
		var re *runtime.RemoteError
		if !errors.As(err, &re) || re.RetryAfter != 86400*time.Second || s.calls.Load() != 1 || time.Since(start) != 0 {
			t.Errorf("Do = %v after %d attempts and %v, want the 503 with its Retry-After at once", err, s.calls.Load(), time.Since(start))
		}
	})
}

func TestPermanentErrorsAreNotBreakerCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly})
		runtime.Do(t.Context(), op, "", func(context.Context) (string, error) {
			return "", outcome.MarkPermanent(errors.New("bad request body"))
		})
		if c := d.BreakerCounts(); c.Successes != 0 || c.Failures != 0 || c.Exclusions != 1 {
			t.Errorf("counts = %+v, want one exclusion", c)
		}
	})
}

func TestPanickingAttemptGivesBackItsPermit(t *testing.T) {
	d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{Disabled: true}})
	op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly})
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the attempt's panic did not reach the caller")
			}
		}()
		runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { panic("boom") })
	}()
	if got := d.InFlight(); got != 0 {
		t.Errorf("in flight after a panicking attempt = %d, want 0", got)
	}
}

func TestCallWithLessThanMinAttemptLeftFailsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Retry: runtime.RetryPolicy{MinAttempt: 5 * time.Millisecond}})
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Millisecond)
		defer cancel()
		s := &script{steps: []step{ok}}
		_, err := runtime.Do(ctx, op, "", s.attempt)
		var de *runtime.DeadlineExceededError
		if !errors.As(err, &de) || de.Attempts != 0 || s.calls.Load() != 0 {
			t.Errorf("Do = %v after %d attempts, want a deadline error before any attempt", err, s.calls.Load())
		}
		if c := d.BreakerCounts(); c.Requests != 0 {
			t.Errorf("breaker counts = %+v, want none", c)
		}
		ctx2, cancel2 := context.WithTimeout(t.Context(), 6*time.Millisecond)
		defer cancel2()
		if _, err := runtime.Do(ctx2, op, "", s.attempt); err != nil || s.calls.Load() != 1 {
			t.Errorf("with 6ms left: %v after %d attempts, want success", err, s.calls.Load())
		}
	})
}

// panicRecorder records the panics of abandoned hedged attempts.
type panicRecorder struct {
	runtime.NopObserver
	mu     sync.Mutex
	events []runtime.PanicEvent
}

func (r *panicRecorder) AbandonedPanic(e runtime.PanicEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// TestAbandonedHedgePanicIsReported: an attempt that its round abandoned
// (the hedge answered first) and that panics afterwards does not end the
// process: the panic is recovered, logged at error level and reported to
// a PanicObserver with its value and stack, and its permit comes back.
func TestAbandonedHedgePanicIsReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec panicRecorder
		var logged strings.Builder
		var logMu sync.Mutex
		logger := slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logged}, nil))
		d := newDep(t, runtime.DependencyPolicy{}, runtime.WithObserver(&rec), runtime.WithLogger(logger))
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Hedge: runtime.HedgePolicy{Delay: 100 * time.Millisecond}})
		var n atomic.Int64
		attempt := func(ctx context.Context) (string, error) {
			if n.Add(1) == 1 {
				time.Sleep(300 * time.Millisecond) // deaf to its cancellation
				panic("late boom")
			}
			return "hedge", nil
		}
		got, err := runtime.Do(t.Context(), op, "", attempt)
		if err != nil || got != "hedge" {
			t.Fatalf("Do = %q, %v, want the hedge's answer", got, err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if len(rec.events) != 1 {
			t.Fatalf("%d panic events, want 1: %+v", len(rec.events), rec.events)
		}
		e := rec.events[0]
		if e.Dependency != "dep" || e.Attempt != 1 || e.Hedge || e.Value != "late boom" {
			t.Errorf("PanicEvent = %+v, want dep, attempt 1, not a hedge, value \"late boom\"", e)
		}
		if !strings.Contains(string(e.Stack), "TestAbandonedHedgePanicIsReported") {
			t.Errorf("PanicEvent.Stack does not show the panicking function:\n%s", e.Stack)
		}
		logMu.Lock()
		defer logMu.Unlock()
		if out := logged.String(); !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "late boom") {
			t.Errorf("log = %q, want an error with the panic value", out)
		}
		if got := d.InFlight(); got != 0 {
			t.Errorf("InFlight() = %d after the call, want 0", got)
		}
	})
}

// lockedWriter serialises writes to a strings.Builder.
type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestMaxRetriesOneRule: a retry count means the same in the policy and in
// a per-call override: zero is the default; Disabled, WithoutRetries and a
// negative override mean none.
func TestMaxRetriesOneRule(t *testing.T) {
	d := newDep(t, runtime.DependencyPolicy{})
	off := runtime.RetryPolicy{Disabled: true}
	tests := []struct {
		name   string
		policy runtime.RetryPolicy
		opts   []runtime.CallOption
		want   int
	}{
		{"policy zero", runtime.RetryPolicy{}, nil, runtime.DefaultMaxRetries},
		{"policy Disabled", off, nil, 0},
		{"policy Disabled wins over a count", runtime.RetryPolicy{MaxRetries: 4, Disabled: true}, nil, 0},
		{"policy 4", runtime.RetryPolicy{MaxRetries: 4}, nil, 4},
		{"WithMaxRetries(0)", off, []runtime.CallOption{runtime.WithMaxRetries(0)}, runtime.DefaultMaxRetries},
		{"WithMaxRetries(-1)", runtime.RetryPolicy{MaxRetries: 4}, []runtime.CallOption{runtime.WithMaxRetries(-1)}, 0},
		{"WithMaxRetries(1)", runtime.RetryPolicy{MaxRetries: 4}, []runtime.CallOption{runtime.WithMaxRetries(1)}, 1},
		{"WithoutRetries", runtime.RetryPolicy{MaxRetries: 4}, []runtime.CallOption{runtime.WithoutRetries()}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.Idempotent, Retry: tt.policy})
			if got := op.With(tt.opts...).MaxRetries(); got != tt.want {
				t.Errorf("MaxRetries() = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestHedgedAttemptPanicReachesTheCaller: a panic in a hedged attempt is
// raised on the caller's goroutine, as an unhedged attempt's would be, and
// every bulkhead permit comes back.
func TestHedgedAttemptPanicReachesTheCaller(t *testing.T) {
	tests := []struct {
		name     string
		panicker int64 // which attempt panics, from 1
	}{
		{"the hedge panics", 2},
		{"the first attempt panics", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDep(t, runtime.DependencyPolicy{})
				op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Hedge: runtime.HedgePolicy{Delay: 100 * time.Millisecond}})
				var n atomic.Int64
				attempt := func(ctx context.Context) (string, error) {
					i := n.Add(1)
					if i == tt.panicker {
						time.Sleep(150 * time.Millisecond) // after the hedge has started
						panic("boom")
					}
					select {
					case <-time.After(time.Second):
						return "ok", nil
					case <-ctx.Done():
						return "", ctx.Err()
					}
				}
				var recovered any
				func() {
					defer func() { recovered = recover() }()
					runtime.Do(t.Context(), op, "", attempt)
				}()
				if recovered != "boom" {
					t.Errorf("recovered %v on the caller's goroutine, want boom", recovered)
				}
				synctest.Wait()
				if got := d.InFlight(); got != 0 {
					t.Errorf("InFlight() = %d after the call, want 0", got)
				}
			})
		})
	}
}
