package runtime_test

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// latencyDep is a fake dependency whose every answer takes the latency
// it is set to, on the fake clock; zero latency with hang set never
// answers. It counts the attempts it sees.
type latencyDep struct {
	latency atomic.Int64
	hang    atomic.Bool
	calls   atomic.Int64
}

func (l *latencyDep) attempt(ctx context.Context) (string, error) {
	l.calls.Add(1)
	if l.hang.Load() {
		<-ctx.Done()
		return "", ctx.Err()
	}
	t := time.NewTimer(time.Duration(l.latency.Load()))
	defer t.Stop()
	select {
	case <-t.C:
		return "ok", nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// drive runs callers goroutines, each making calls one after the other,
// one every period, for d; it returns the calls made and the errors.
func drive(op *runtime.Operation, callers int, period, d time.Duration, deadline time.Duration, attempt runtime.Attempt[string]) (calls, errs int, worst time.Duration) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for range callers {
		wg.Go(func() {
			for time.Now().Before(end) {
				next := time.Now().Add(period)
				ctx, cancel := context.WithTimeout(context.Background(), deadline)
				start := time.Now()
				_, err := runtime.Do(ctx, op, "", attempt)
				el := time.Since(start)
				cancel()
				mu.Lock()
				calls++
				if err != nil {
					errs++
				}
				worst = max(worst, el)
				mu.Unlock()
				time.Sleep(time.Until(next))
			}
		})
	}
	wg.Wait()
	return calls, errs, worst
}

// slowPolicy is the pet store's: attempt timeout 60ms (its p99.9 50ms ×
// 1.2), total 500ms, two retries from 100ms, minimum attempt 5ms (its p50).
func slowPolicy() runtime.OperationPolicy {
	return runtime.OperationPolicy{Name: "Update", Idempotency: runtime.Idempotent, Timeout: 500 * time.Millisecond,
		AttemptTimeout: 60 * time.Millisecond, Retry: runtime.RetryPolicy{MinAttempt: 5 * time.Millisecond}}
}

// TestSlowDependencyIsNotAnOutage is the resilience-patterns gotcha: the
// dependency answers every request in 65ms, just above the 60ms attempt
// timeout, well within the callers' 500ms deadline. Every call must be
// answered, the breaker must stay closed, and the attempt timeout must
// follow the latency so that retries stop.
func TestSlowDependencyIsNotAnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{OpenFor: time.Second}})
		op := newOp(t, d, slowPolicy())
		dep := &latencyDep{}
		dep.latency.Store(int64(5 * time.Millisecond))
		drive(op, 8, 20*time.Millisecond, time.Second, 500*time.Millisecond, dep.attempt) // healthy warm-up
		dep.latency.Store(int64(65 * time.Millisecond))
		before := dep.calls.Load()
		calls, errs, worst := drive(op, 8, 20*time.Millisecond, 3*time.Second, 500*time.Millisecond, dep.attempt)
		if errs != 0 {
			t.Errorf("%d of %d calls failed against a dependency answering in 65ms", errs, calls)
		}
		if worst > 500*time.Millisecond {
			t.Errorf("slowest call took %v, more than the 500ms deadline", worst)
		}
		if s := d.BreakerState(); s != runtime.BreakerClosed {
			t.Errorf("breaker %v, want closed: the dependency answers", s)
		}
		if c := d.BreakerCounts(); c.Failures != 0 {
			t.Errorf("breaker counts %+v, want no failures", c)
		}
		if perCall := float64(dep.calls.Load()-before) / float64(calls); perCall > 1.05 {
			t.Errorf("%.3f requests per call, want at most 1.05: the attempt timeout should follow the latency", perCall)
		}
		if at := op.EffectiveAttemptTimeout(); at < 65*time.Millisecond || at > 100*time.Millisecond {
			t.Errorf("EffectiveAttemptTimeout() = %v, want above the 65ms latency and near 1.2 × it", at)
		}
	})
}

// TestAttemptTimeoutFollowsLatencyBackDown: once the dependency is fast
// again the attempt timeout returns to the policy's, its floor.
func TestAttemptTimeoutFollowsLatencyBackDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		op := newOp(t, d, slowPolicy())
		if got := op.EffectiveAttemptTimeout(); got != 60*time.Millisecond {
			t.Fatalf("EffectiveAttemptTimeout() before any answer = %v, want the policy's 60ms", got)
		}
		dep := &latencyDep{}
		dep.latency.Store(int64(200 * time.Millisecond))
		if calls, errs, _ := drive(op, 4, 10*time.Millisecond, time.Second, 500*time.Millisecond, dep.attempt); errs != 0 {
			t.Errorf("%d of %d calls failed against a dependency answering in 200ms within a 500ms deadline", errs, calls)
		}
		if got := op.EffectiveAttemptTimeout(); got < 200*time.Millisecond {
			t.Fatalf("EffectiveAttemptTimeout() after answers in 200ms = %v, want above 200ms", got)
		}
		dep.latency.Store(int64(5 * time.Millisecond))
		drive(op, 4, 5*time.Millisecond, 3*time.Second, 500*time.Millisecond, dep.attempt)
		if got := op.EffectiveAttemptTimeout(); got != 60*time.Millisecond {
			t.Errorf("EffectiveAttemptTimeout() after 2400 answers in 5ms = %v, want back to the policy's 60ms", got)
		}
	})
}

// TestLastAttemptRunsToDeadline: an attempt is cut by its attempt timeout
// only when a retry could follow it; otherwise it runs to the deadline and
// a slow answer is an answer.
func TestLastAttemptRunsToDeadline(t *testing.T) {
	tests := []struct {
		name         string
		policy       func(*runtime.OperationPolicy)
		dep          runtime.DependencyPolicy
		latency      time.Duration // 70ms if zero
		wantAttempts int64
		wantElapsed  time.Duration
	}{
		// 0: cut at 60; 160: the last (after a 120ms timeout and the
		// 200ms backoff, less than 120ms would be left), answered at 230.
		{"retries left: cut at 60ms, the retry is the last and is answered",
			func(*runtime.OperationPolicy) {}, runtime.DependencyPolicy{}, 0,
			2, 60 + 100 + 70},
		// 0: cut at 60; 160: cut at 280 (twice the timeout, and 840ms
		// left: room for the 200ms backoff and 120ms more); 480: the last,
		// answered at 730.
		{"retries left: cut at 60ms and 120ms, the last answers",
			func(p *runtime.OperationPolicy) { p.Timeout = time.Second }, runtime.DependencyPolicy{}, 250 * time.Millisecond,
			3, 60 + 100 + 120 + 200 + 250},
		{"no retries: the only attempt answers",
			func(p *runtime.OperationPolicy) { p.Retry.Disabled = true }, runtime.DependencyPolicy{}, 0,
			1, 70},
		{"not idempotent: the only attempt answers",
			func(p *runtime.OperationPolicy) { p.Idempotency = runtime.NotIdempotent }, runtime.DependencyPolicy{}, 0,
			1, 70},
		{"budget spent: the attempt is the last",
			func(*runtime.OperationPolicy) {}, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Ratio: 0.01, DisableFloor: true}}, 0,
			1, 70},
		// 150ms - 60ms leaves 90ms, less than the 100ms backoff.
		{"no time for a backoff and another attempt: the attempt is the last",
			func(p *runtime.OperationPolicy) { p.Timeout = 150 * time.Millisecond }, runtime.DependencyPolicy{}, 0,
			1, 70},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDep(t, tt.dep)
				p := slowPolicy()
				p.Retry.DisableJitter = true
				p.Retry.MinAttempt = 0
				tt.policy(&p)
				op := newOp(t, d, p)
				dep := &latencyDep{}
				dep.latency.Store(int64(cmp.Or(tt.latency, 70*time.Millisecond)))
				start := time.Now()
				v, err := runtime.Do(t.Context(), op, "", dep.attempt)
				if err != nil || v != "ok" {
					t.Fatalf("Do = %q, %v, want the slow answer", v, err)
				}
				if got := dep.calls.Load(); got != tt.wantAttempts {
					t.Errorf("attempts = %d, want %d", got, tt.wantAttempts)
				}
				if el, want := time.Since(start), tt.wantElapsed*time.Millisecond; el != want {
					t.Errorf("answered after %v, want %v", el, want)
				}
				if c := d.BreakerCounts(); c.Failures != 0 {
					t.Errorf("breaker counts %+v, want no failure: every cut attempt's call was answered", c)
				}
			})
		})
	}
}

// TestUnansweredTimeoutsAreFailures: against a dependency that never
// answers, the attempts cut by their timeout are failures once the call
// ends unanswered, and so is the last attempt, whether the operation's
// total or the caller's deadline ends it; the breaker opens after
// MinimumCalls attempts.
func TestUnansweredTimeoutsAreFailures(t *testing.T) {
	for _, callerDeadline := range []time.Duration{0, 300 * time.Millisecond} {
		synctest.Test(t, func(t *testing.T) {
			const minCalls = 9
			d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: minCalls}})
			op := newOp(t, d, slowPolicy())
			dep := &latencyDep{}
			dep.hang.Store(true)
			for d.BreakerState() == runtime.BreakerClosed && dep.calls.Load() < 2*minCalls {
				ctx := t.Context()
				if callerDeadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, callerDeadline)
					defer cancel()
				}
				_, err := runtime.Do(ctx, op, "", dep.attempt)
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%v, want a deadline error", err)
				}
				if c := d.BreakerCounts(); d.BreakerState() == runtime.BreakerClosed && (c.Failures != uint32(dep.calls.Load()) || c.Exclusions != 0) {
					t.Errorf("caller deadline %v, after %d attempts: counts %+v, want every attempt a failure", callerDeadline, dep.calls.Load(), c)
				}
			}
			if n := dep.calls.Load(); d.BreakerState() != runtime.BreakerOpen || n < minCalls || n > minCalls+2 {
				t.Errorf("caller deadline %v: breaker %v after %d unanswered attempts, want open after %d to %d", callerDeadline, d.BreakerState(), n, minCalls, minCalls+2)
			}
		})
	}
}

// TestDeadlineNoticedLateIsNotAFailure: a process that waits for a core
// (a starved machine) notices the deadlines that passed meanwhile late,
// all at once, while the answers may be waiting unread. An attempt whose
// deadline was noticed more than a quarter of the attempt timeout late is
// excluded from the breaker's counts and does not extend the run of
// unanswered attempts; noticed in time, the same silence opens the
// breaker.
func TestDeadlineNoticedLateIsNotAFailure(t *testing.T) {
	for _, tc := range []struct {
		late     time.Duration
		wantOpen bool
	}{
		{late: 30 * time.Millisecond, wantOpen: false}, // half the 60ms attempt timeout
		{late: 5 * time.Millisecond, wantOpen: true},   // within a quarter of it
	} {
		for _, callerDeadline := range []time.Duration{0, 300 * time.Millisecond} {
			synctest.Test(t, func(t *testing.T) {
				const minCalls = 9
				d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: minCalls}})
				op := newOp(t, d, slowPolicy())
				var attempts atomic.Int64
				stalled := func(ctx context.Context) (string, error) {
					attempts.Add(1)
					<-ctx.Done()
					time.Sleep(tc.late) // the goroutine runs again only now
					return "", ctx.Err()
				}
				for range 3 * minCalls {
					ctx, cancel := t.Context(), context.CancelFunc(func() {})
					if callerDeadline > 0 {
						ctx, cancel = context.WithTimeout(ctx, callerDeadline)
					}
					runtime.Do(ctx, op, "", stalled)
					cancel()
				}
				c := d.BreakerCounts()
				if open := d.BreakerState() != runtime.BreakerClosed; open != tc.wantOpen {
					t.Fatalf("noticed %v late, caller deadline %v: breaker %v after %d attempts, counts %+v; want open %v",
						tc.late, callerDeadline, d.BreakerState(), attempts.Load(), c, tc.wantOpen)
				}
				if !tc.wantOpen && (c.Failures != 0 || c.Exclusions == 0) {
					t.Errorf("noticed %v late: counts %+v, want every attempt excluded", tc.late, c)
				}
			})
		}
	}
}

// TestShortCallerDeadlineIsNotAFailure: a caller whose deadline is shorter
// than the attempt timeout ends the attempt before a healthy dependency
// would have answered; that says nothing of the dependency.
func TestShortCallerDeadlineIsNotAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 5}})
		op := newOp(t, d, slowPolicy())
		dep := &latencyDep{}
		dep.latency.Store(int64(40 * time.Millisecond))
		for range 20 {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
			runtime.Do(ctx, op, "", dep.attempt)
			cancel()
		}
		if c := d.BreakerCounts(); c.Failures != 0 || d.BreakerState() != runtime.BreakerClosed {
			t.Errorf("breaker %v, counts %+v; want closed without failures", d.BreakerState(), c)
		}
	})
}

// TestHeldVerdictsBeyondTheArray: more attempts cut short in one call than
// are held are reported at once as failures, the rest when the call ends.
func TestHeldVerdictsBeyondTheArray(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Disabled: true}, Breaker: runtime.BreakerPolicy{MinimumCalls: 100}})
		p := slowPolicy()
		p.Timeout = 10 * time.Second
		p.Retry = runtime.RetryPolicy{MaxRetries: 6, Base: time.Millisecond, Cap: time.Millisecond}
		op := newOp(t, d, p)
		dep := &latencyDep{}
		dep.latency.Store(int64(5 * time.Second))
		if _, err := runtime.Do(t.Context(), op, "", dep.attempt); err != nil {
			t.Fatal(err)
		}
		// Seven attempts: six cut at 60ms, 120ms … 1.92s, the last answers.
		// Four held and reported as slow, two beyond reported as failures.
		if c := d.BreakerCounts(); dep.calls.Load() != 7 || c.Failures != 2 || c.Exclusions != 4 || c.Successes != 1 {
			t.Errorf("%d attempts, counts %+v; want 7 attempts, 2 failures, 4 exclusions, 1 success", dep.calls.Load(), c)
		}
	})
}

// TestHedgedReadRunsToDeadline: a hedged read is not cut by its attempt
// timeout; its hedge is its second chance. Against a dependency that never
// answers, the primary and the hedge run to the deadline and both count as
// failures.
func TestHedgedReadRunsToDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		p := slowPolicy()
		p.Idempotency = runtime.ReadOnly
		p.Hedge = runtime.HedgePolicy{Delay: 15 * time.Millisecond}
		op := newOp(t, d, p)
		dep := &latencyDep{}
		dep.hang.Store(true)
		start := time.Now()
		_, err := runtime.Do(t.Context(), op, "", dep.attempt)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 500*time.Millisecond {
			t.Errorf("Do = %v after %v, want a deadline error after 500ms", err, time.Since(start))
		}
		if dep.calls.Load() != 2 {
			t.Errorf("attempts = %d, want 2 (the primary and its hedge)", dep.calls.Load())
		}
		if c := d.BreakerCounts(); c.Failures != 2 {
			t.Errorf("breaker counts %+v, want 2 failures", c)
		}
	})
}

// TestHedgeDelayFollowsTheLatency: when every answer slows down, the hedge
// delay follows so that hedges stay rare instead of doubling the load; a
// 5 % tail of slow answers above a spread-out bulk leaves it at the
// policy's, and hedging answers that tail.
func TestHedgeDelayFollowsTheLatency(t *testing.T) {
	tests := []struct {
		name       string
		latency    func(n int64) time.Duration
		maxPerCall float64
		wantDelay  func(time.Duration) bool
	}{
		{"every answer 65ms", func(int64) time.Duration { return 65 * time.Millisecond }, 1.1,
			func(d time.Duration) bool { return d >= 60*time.Millisecond }},
		{"one answer in twenty 50ms", func(n int64) time.Duration {
			if n%20 == 0 {
				return 50 * time.Millisecond
			}
			return 5 * time.Millisecond
		}, 1.1, func(d time.Duration) bool { return d == 15*time.Millisecond }},
		// The delay follows the bulk's p90 a little above 15ms, well
		// below the tail it hedges.
		{"one answer in twenty 50ms, the others 4 to 12ms", func(n int64) time.Duration {
			if n%20 == 0 {
				return 50 * time.Millisecond
			}
			return time.Duration(4+n*7%9) * time.Millisecond
		}, 1.1, func(d time.Duration) bool { return d >= 15*time.Millisecond && d < 25*time.Millisecond }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDep(t, runtime.DependencyPolicy{})
				p := slowPolicy()
				p.Idempotency = runtime.ReadOnly
				p.Hedge = runtime.HedgePolicy{Delay: 15 * time.Millisecond}
				op := newOp(t, d, p)
				var n atomic.Int64
				attempt := func(ctx context.Context) (string, error) {
					l := tt.latency(n.Add(1))
					select {
					case <-time.After(l):
						return "ok", nil
					case <-ctx.Done():
						return "", ctx.Err()
					}
				}
				calls, errs, _ := drive(op, 8, 20*time.Millisecond, 3*time.Second, 500*time.Millisecond, attempt)
				if errs != 0 {
					t.Errorf("%d of %d calls failed", errs, calls)
				}
				if perCall := float64(n.Load()) / float64(calls); perCall > tt.maxPerCall {
					t.Errorf("%.3f requests per call, want at most %.2f", perCall, tt.maxPerCall)
				}
				if got := op.EffectiveHedgeDelay(); !tt.wantDelay(got) {
					t.Errorf("EffectiveHedgeDelay() = %v", got)
				}
			})
		})
	}
}

// TestBreakerGrowsOpenPeriodAndRampsBack: the dependency fails for 1.5
// open periods, then recovers. The breaker opens for one open period, a
// probe meets the outage and opens it again for two (the second opening
// in a row), then its probes succeed and it ramps traffic back over one
// open period, half-open meanwhile, answering a growing share of the
// calls, before it reports itself closed; from then on every call is
// answered.
func TestBreakerGrowsOpenPeriodAndRampsBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const openFor = time.Second
		obs := &timelineObserver{}
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{OpenFor: openFor, HalfOpenProbes: 5}}, runtime.WithObserver(obs))
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 500 * time.Millisecond})
		start := time.Now()
		window := openFor * 3 / 2
		attempt := func(context.Context) (string, error) {
			time.Sleep(5 * time.Millisecond)
			if time.Since(start) < window {
				return "", err503()
			}
			return "ok", nil
		}
		const period = 10 * time.Millisecond
		var mu sync.Mutex
		var answered []time.Duration // when each call was answered, from start
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				time.Sleep(time.Duration(i) * period / 4)
				for time.Since(start) < 6*time.Second {
					if _, err := runtime.Do(t.Context(), op, "", attempt); err == nil {
						mu.Lock()
						answered = append(answered, time.Since(start))
						mu.Unlock()
					}
					time.Sleep(period)
				}
			})
		}
		wg.Wait()
		ev := obs.all()
		var opens, halfOpens []time.Duration
		for _, e := range ev {
			switch e.To {
			case runtime.BreakerOpen:
				opens = append(opens, e.At.Sub(start))
			case runtime.BreakerHalfOpen:
				halfOpens = append(halfOpens, e.At.Sub(start))
			}
		}
		closedAt, ok := obs.lastClose()
		if !ok || len(opens) != 2 || len(halfOpens) != 2 {
			t.Fatalf("transitions %v: want open, half-open, open again, half-open, closed", ev)
		}
		if got := halfOpens[0] - opens[0]; got < openFor || got > openFor+2*period {
			t.Errorf("first open period %v, want %v", got, openFor)
		}
		if got := halfOpens[1] - opens[1]; got < 2*openFor || got > 2*openFor+2*period {
			t.Errorf("second open period in a row %v, want twice the first, %v", got, 2*openFor)
		}
		// The ramp: one open period after the probe round, a growing
		// share of the calls answered.
		ramp := closedAt.Sub(start) - halfOpens[1]
		if ramp < openFor || ramp > openFor+3*period {
			t.Errorf("closed %v after the second half-open, want the ramp of one open period and a probe round", ramp)
		}
		inRamp := func(from, to float64) (n int) {
			a, b := halfOpens[1]+time.Duration(from*float64(ramp)), halfOpens[1]+time.Duration(to*float64(ramp))
			for _, at := range answered {
				if at >= a && at < b {
					n++
				}
			}
			return n
		}
		// 4 callers every ~15ms: about 130 calls per half of the ramp.
		if first, second := inRamp(0, 0.5), inRamp(0.5, 1); first < 10 || 2*second < 3*first || second > 140 {
			t.Errorf("calls answered in the ramp's first half %d, second half %d: want a share that grows", first, second)
		}
		if n := 6*time.Second - closedAt.Sub(start); inRamp(1, 1+float64(n)/float64(ramp)) < int(n/(15*time.Millisecond)) {
			t.Errorf("after the close, %d calls answered in %v: want every call", inRamp(1, 1+float64(n)/float64(ramp)), n)
		}
	})
}

// TestBreakerOpenPeriodResetsAfterSustainedClose: an opening soon after
// the breaker closed again is the next of a streak and lasts longer; once
// the breaker has stayed closed a whole window the streak starts over at
// one open period. The period never exceeds MaxOpenForFactor open periods.
func TestBreakerOpenPeriodResetsAfterSustainedClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const openFor, window = time.Second, 5 * time.Second
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 2, OpenFor: openFor, HalfOpenProbes: 1, Window: window}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent})
		down := func(context.Context) (string, error) { return "", err503() }
		up := func(context.Context) (string, error) { return "ok", nil }
		// openPeriod opens the breaker and returns how long it refuses.
		openPeriod := func() time.Duration {
			t.Helper()
			for range 2 {
				runtime.Do(t.Context(), op, "", down)
			}
			if s := d.BreakerState(); s != runtime.BreakerOpen {
				t.Fatalf("state %v after two failures, want open", s)
			}
			start := time.Now()
			for d.BreakerState() == runtime.BreakerOpen {
				time.Sleep(10 * time.Millisecond)
			}
			return time.Since(start).Truncate(100 * time.Millisecond)
		}
		// closeAgain lets a probe succeed and waits out the ramp.
		closeAgain := func() {
			t.Helper()
			runtime.Do(t.Context(), op, "", up)
			time.Sleep(openFor)
			runtime.Do(t.Context(), op, "", up)
			if s := d.BreakerState(); s != runtime.BreakerClosed {
				t.Fatalf("state %v after the probe and the ramp, want closed", s)
			}
		}
		for n := 1; n <= runtime.MaxOpenForFactor+2; n++ {
			want := time.Duration(min(n, runtime.MaxOpenForFactor)) * openFor
			if got := openPeriod(); got != want {
				t.Errorf("opening %d in a row: open for %v, want %v", n, got, want)
			}
			closeAgain()
		}
		time.Sleep(window)
		if got := openPeriod(); got != openFor {
			t.Errorf("opening after a window closed: open for %v, want %v", got, openFor)
		}
	})
}

type timelineObserver struct {
	runtime.NopObserver
	mu     sync.Mutex
	events []runtime.BreakerEvent
}

func (o *timelineObserver) BreakerChange(e runtime.BreakerEvent) {
	o.mu.Lock()
	o.events = append(o.events, e)
	o.mu.Unlock()
}

func (o *timelineObserver) all() []runtime.BreakerEvent {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.events)
}

func (o *timelineObserver) lastClose() (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.events) - 1; i >= 0; i-- {
		if o.events[i].To == runtime.BreakerClosed {
			return o.events[i].At, true
		}
	}
	return time.Time{}, false
}

// TestBlackHoleOpensBreakerAfterHealthyWindow: a dependency that served a
// thousand calls in the breaker's window starts black-holing them. Its
// unanswered calls end only at their deadline, so failures come slowly and
// the window's successes would keep the failure rate under the threshold
// until they age out; MinimumCalls failures in a row open the breaker
// within a second instead.
func TestBlackHoleOpensBreakerAfterHealthyWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{OpenFor: time.Second, Window: 10 * time.Second}})
		p := slowPolicy()
		p.Idempotency = runtime.ReadOnly
		p.Hedge = runtime.HedgePolicy{Delay: 15 * time.Millisecond}
		op := newOp(t, d, p)
		dep := &latencyDep{}
		dep.latency.Store(int64(5 * time.Millisecond))
		drive(op, 8, 20*time.Millisecond, 2*time.Second, 500*time.Millisecond, dep.attempt)
		dep.hang.Store(true)
		start := time.Now()
		var openedAt atomic.Int64
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			for d.BreakerState() != runtime.BreakerOpen && time.Since(start) < 5*time.Second {
				time.Sleep(time.Millisecond)
			}
			openedAt.Store(int64(time.Since(start)))
		}()
		drive(op, 8, 20*time.Millisecond, 1500*time.Millisecond, 500*time.Millisecond, dep.attempt)
		<-watched
		// 8 callers end unanswered calls of two attempts every 500ms: 16
		// failures in a row at 500ms, 20 early in the second wave.
		if at := time.Duration(openedAt.Load()); at > 1100*time.Millisecond {
			t.Errorf("breaker opened %v after the black hole began, want within 1.1s", at)
		}
	})
}

// TestCutAttemptAlwaysGetsItsRetry: an attempt is cut by its timeout only
// with its retry paid for. Twenty calls start at once against a slow
// dependency with one retry in the budget: one of them is cut and retried,
// the others run to their answer; none fails for want of budget.
func TestCutAttemptAlwaysGetsItsRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Budget: runtime.BudgetPolicy{Ratio: 0.01, DisableFloor: true}, Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 100}})
		op := newOp(t, d, slowPolicy())
		fast := &latencyDep{}
		for range 100 { // banks one retry
			runtime.Do(t.Context(), op, "", fast.attempt)
		}
		dep := &latencyDep{}
		dep.latency.Store(int64(100 * time.Millisecond))
		var wg sync.WaitGroup
		var failed atomic.Int64
		for range 20 {
			wg.Go(func() {
				if _, err := runtime.Do(t.Context(), op, "", dep.attempt); err != nil {
					failed.Add(1)
					t.Errorf("Do = %v", err)
				}
			})
		}
		wg.Wait()
		if n := dep.calls.Load(); failed.Load() != 0 || n != 21 {
			t.Errorf("%d calls failed, %d attempts; want none failed and 21 attempts (one call cut once)", failed.Load(), n)
		}
	})
}

// TestFastFailureBurstDoesNotTrip: a connection reset fails a burst of
// calls at once, each in a few milliseconds. The dependency reacted; the
// failure rate over the window, not the length of the burst, judges it,
// and a burst of thirty after a thousand successes leaves the breaker
// closed. Only attempts that got no answer before their deadline open it
// by their number in a row.
func TestFastFailureBurstDoesNotTrip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{OpenFor: time.Second}})
		op := newOp(t, d, runtime.OperationPolicy{Idempotency: runtime.NotIdempotent, Timeout: 500 * time.Millisecond})
		for range 1000 {
			runtime.Do(t.Context(), op, "", func(context.Context) (string, error) { return "ok", nil })
		}
		for range 30 {
			runtime.Do(t.Context(), op, "", func(context.Context) (string, error) {
				time.Sleep(time.Millisecond)
				return "", errors.New("read: connection reset by peer")
			})
		}
		if s, c := d.BreakerState(), d.BreakerCounts(); s != runtime.BreakerClosed {
			t.Errorf("breaker %v after a burst of 30 fast failures among 1030 calls (%+v), want closed", s, c)
		}
	})
}

// TestSlowdownSpreadsAcrossOperations: the first late answer of one
// operation tells the dependency it slowed down, and every other operation's
// attempt timeout grows with it before that operation is cut even once.
func TestSlowdownSpreadsAcrossOperations(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{})
		read := slowPolicy()
		read.Name, read.Idempotency = "Get", runtime.ReadOnly
		read.Hedge = runtime.HedgePolicy{Delay: 15 * time.Millisecond}
		get := newOp(t, d, read)
		update := newOp(t, d, slowPolicy())
		del := slowPolicy()
		del.Name = "Delete"
		remove := newOp(t, d, del)
		dep := &latencyDep{}
		dep.latency.Store(int64(65 * time.Millisecond))
		if _, err := runtime.Do(t.Context(), get, "", dep.attempt); err != nil {
			t.Fatal(err)
		}
		if got := update.EffectiveAttemptTimeout(); got < 77*time.Millisecond {
			t.Errorf("Update's attempt timeout after Get answered in 65ms = %v, want about 1.2 × 65ms", got)
		}
		before := dep.calls.Load()
		if _, err := runtime.Do(t.Context(), update, "", dep.attempt); err != nil || dep.calls.Load()-before != 1 {
			t.Errorf("Update = %v after %d attempts, want an answer at the first", err, dep.calls.Load()-before)
		}
		// Answers within the timeouts wear the slowdown down: Delete,
		// which never ran, is back at its floor.
		if got := remove.EffectiveAttemptTimeout(); got < 77*time.Millisecond {
			t.Errorf("Delete's attempt timeout while the dependency is slow = %v, want about 1.2 × 65ms", got)
		}
		dep.latency.Store(int64(5 * time.Millisecond))
		for range 2000 {
			runtime.Do(t.Context(), get, "", dep.attempt)
		}
		if got := remove.EffectiveAttemptTimeout(); got != 60*time.Millisecond {
			t.Errorf("Delete's attempt timeout after 2000 fast answers = %v, want its floor 60ms again", got)
		}
	})
}

// TestHedgeNeedsSpareCapacity: a hedge takes a bulkhead permit only when
// half the bulkhead stays free after it, so that hedges never turn calls
// away.
func TestHedgeNeedsSpareCapacity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 8}})
		hang := newOp(t, d, runtime.OperationPolicy{Name: "Hang", Idempotency: runtime.NotIdempotent, Timeout: time.Second})
		read := newOp(t, d, runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly, Timeout: time.Second,
			Hedge: runtime.HedgePolicy{Delay: 10 * time.Millisecond}})
		for range 3 {
			go runtime.Do(t.Context(), hang, "", (&latencyDep{}).attempt0(time.Second))
		}
		synctest.Wait()
		dep := &latencyDep{}
		dep.latency.Store(int64(100 * time.Millisecond))
		// The read's primary makes 4 of 8 in flight: a hedge would leave
		// three free, less than half.
		if _, err := runtime.Do(t.Context(), read, "", dep.attempt); err != nil || dep.calls.Load() != 1 {
			t.Errorf("Do = %v after %d attempts, want the primary's answer and no hedge", err, dep.calls.Load())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		// With the bulkhead free, a read (of an operation that has not yet
		// learnt this latency) is hedged.
		read2 := newOp(t, d, runtime.OperationPolicy{Name: "Get2", Idempotency: runtime.ReadOnly, Timeout: time.Second,
			Hedge: runtime.HedgePolicy{Delay: 10 * time.Millisecond}})
		before := dep.calls.Load()
		runtime.Do(t.Context(), read2, "", dep.attempt)
		if got := dep.calls.Load() - before; got != 2 {
			t.Errorf("attempts with the bulkhead free = %d, want 2 (a hedge)", got)
		}
	})
}

// attempt0 returns an attempt that answers after d.
func (l *latencyDep) attempt0(d time.Duration) runtime.Attempt[string] {
	l.latency.Store(int64(d))
	return l.attempt
}

// TestSlowDependencyUnderOpenLoad is the fault demo's slow scenario on the
// fake clock: calls arrive at 400 a second whatever the earlier ones are
// doing, half of them hedged reads and half retried writes, against the
// pet store's policy (bulkhead 36 waiting up to 15ms, attempt timeout 60ms,
// hedge after 15ms); after a healthy second every answer takes 65ms, twice
// the p99. Every call is answered, the breaker stays closed and the
// slowdown costs under a tenth more requests.
func TestSlowDependencyUnderOpenLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDep(t, runtime.DependencyPolicy{
			Breaker:  runtime.BreakerPolicy{OpenFor: time.Second, Window: 5 * time.Second},
			Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 36, MaxWait: 15 * time.Millisecond},
		})
		write := newOp(t, d, slowPolicy())
		rp := slowPolicy()
		rp.Name, rp.Idempotency, rp.Timeout = "Get", runtime.ReadOnly, 500*time.Millisecond
		rp.Hedge = runtime.HedgePolicy{Delay: 15 * time.Millisecond}
		read := newOp(t, d, rp)
		dep := &latencyDep{}
		dep.latency.Store(int64(5 * time.Millisecond))
		run := func(d time.Duration) (calls, failed int64) {
			var wg sync.WaitGroup
			var c, f atomic.Int64
			start := time.Now()
			for k := 0; time.Since(start) < d; k++ {
				op := read
				if k%2 == 1 {
					op = write
				}
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
					defer cancel()
					c.Add(1)
					if _, err := runtime.Do(ctx, op, "", dep.attempt); err != nil {
						f.Add(1)
					}
				})
				time.Sleep(2500 * time.Microsecond)
			}
			wg.Wait()
			return c.Load(), f.Load()
		}
		run(time.Second)
		dep.latency.Store(int64(65 * time.Millisecond))
		before := dep.calls.Load()
		calls, failed := run(1500 * time.Millisecond)
		if failed != 0 {
			t.Errorf("%d of %d calls failed against a dependency answering in 65ms", failed, calls)
		}
		if perCall := float64(dep.calls.Load()-before) / float64(calls); perCall > 1.1 {
			t.Errorf("%.3f requests per call, want at most 1.1", perCall)
		}
		if s, c := d.BreakerState(), d.BreakerCounts(); s != runtime.BreakerClosed || c.Failures != 0 {
			t.Errorf("breaker %v with %+v, want closed without failures", s, c)
		}
	})
}

// TestBulkheadFollowsAnsweringSlowdown: a dependency that keeps answering,
// but at 140ms instead of its 50ms p99.9, holds each call longer; the same
// traffic needs more calls in flight than the bulkhead of 10 was sized
// for. Its late answers widen the bulkhead (up to twice its size) so that
// the calls it answers are not refused; a dependency that answers nothing
// never widens it.
func TestBulkheadFollowsAnsweringSlowdown(t *testing.T) {
	for _, hang := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			d := newDep(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 10, MaxWait: 5 * time.Millisecond},
				Breaker: runtime.BreakerPolicy{Disabled: true}})
			op := newOp(t, d, slowPolicy())
			dep := &latencyDep{}
			dep.latency.Store(int64(140 * time.Millisecond))
			dep.hang.Store(hang)
			var refused, maxInFlight atomic.Int64
			watchDone := make(chan struct{})
			stop := make(chan struct{})
			go func() {
				defer close(watchDone)
				for {
					if n := int64(d.InFlight()); n > maxInFlight.Load() {
						maxInFlight.Store(n)
					}
					select {
					case <-stop:
						return
					case <-time.After(time.Millisecond):
					}
				}
			}()
			// 100 calls a second for 3s: 14 in flight at 140ms.
			var wg sync.WaitGroup
			start := time.Now()
			var late atomic.Int64
			for time.Since(start) < 3*time.Second {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
					defer cancel()
					_, err := runtime.Do(ctx, op, "", dep.attempt)
					if errors.Is(err, runtime.ErrBulkheadFull) {
						refused.Add(1)
						if time.Since(start) > time.Second {
							late.Add(1)
						}
					}
				})
				time.Sleep(10 * time.Millisecond)
			}
			wg.Wait()
			close(stop)
			<-watchDone
			if m := maxInFlight.Load(); m > 20 {
				t.Errorf("hang %v: %d calls in flight, more than twice the bulkhead of 10", hang, m)
			}
			switch {
			case !hang && late.Load() != 0:
				t.Errorf("answering at 140ms: %d calls refused by the bulkhead after the first second (%d in all), want none", late.Load(), refused.Load())
			case hang && maxInFlight.Load() > 10:
				t.Errorf("answering nothing: %d calls in flight, want the bulkhead's 10 at most", maxInFlight.Load())
			case hang && refused.Load() == 0:
				t.Error("answering nothing: no call refused by the bulkhead")
			}
		})
	}
}
