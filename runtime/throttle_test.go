package runtime

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// capacityDependency accepts at most perSecond attempts a second (a token
// bucket with a burst of one tenth of a second) and sheds the rest, as a
// dependency at its capacity does.
type capacityDependency struct {
	perSecond float64
	tokens    float64
	last      time.Time
}

func (c *capacityDependency) serve(now time.Time) bool {
	if !c.last.IsZero() {
		c.tokens = min(c.perSecond/10, c.tokens+now.Sub(c.last).Seconds()*c.perSecond)
	}
	c.last = now
	if c.tokens >= 1 {
		c.tokens--
		return true
	}
	return false
}

// drive offers one attempt every step for d to t in front of dep and
// returns how many t let through and how many dep accepted.
func drive(t *throttle, dep func(time.Time) bool, step, d time.Duration) (sent, accepted int) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(step) {
		if !t.admit() {
			continue
		}
		sent++
		if dep(time.Now()) {
			accepted++
			t.record(true, false)
		} else {
			t.record(false, true)
		}
	}
	return sent, accepted
}

func defaultThrottle(t *testing.T) *throttle {
	t.Helper()
	p, err := DependencyPolicy{}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	return newThrottle(p.Throttle)
}

// TestThrottleSendsWhatTheDependencyTakes: in front of a dependency that
// can take a fifth of the demand, the throttle sends about Ratio times
// what it accepts, and the dependency stays busy: its accepts are what it
// can take, as they would be for a client that sent everything.
func TestThrottleSendsWhatTheDependencyTakes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		th := defaultThrottle(t)
		dep := &capacityDependency{perSecond: 200}
		drive(th, dep.serve, time.Millisecond, time.Second) // settle
		sent, accepted := drive(th, dep.serve, time.Millisecond, 5*time.Second)

		if accepted < 950 {
			t.Errorf("the dependency accepted %d of the 1000 it can take in 5 s", accepted)
		}
		want := DefaultThrottleRatio * 1000
		if float64(sent) < 0.75*want || float64(sent) > 1.25*want {
			t.Errorf("sent %d of 5000 wanted, want about %.0f (ratio × capacity)", sent, want)
		}
	})
}

// TestThrottleRecoversWithinAWindow: after a dependency that shed
// everything recovers, the throttle lets everything through again within
// half a window: a few accepts in a row and a third of a window without a
// shed answer end it.
func TestThrottleRecoversWithinAWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		th := defaultThrottle(t)
		sent, _ := drive(th, func(time.Time) bool { return false }, time.Millisecond, 2*time.Second)
		if sent > 2000*(1-DefaultThrottleMaxReject)*1.3 {
			t.Errorf("sent %d of 2000 to a dependency that sheds everything, want about %.0f", sent, 2000*(1-DefaultThrottleMaxReject))
		}
		if sent < 2000*(1-DefaultThrottleMaxReject)*0.7 {
			t.Errorf("sent %d of 2000 to a dependency that sheds everything: too few to see it recover", sent)
		}
		start := time.Now()
		for th.rejecting() > 0.1 {
			drive(th, func(time.Time) bool { return true }, time.Millisecond, 10*time.Millisecond)
			if time.Since(start) > time.Second {
				break
			}
		}
		if took := time.Since(start); took > DefaultThrottleWindow/2 {
			t.Errorf("rejecting %.2f of attempts %v after recovery, want under 0.1 within half a window (%v)", th.rejecting(), took, DefaultThrottleWindow/2)
		}
		if th.active.Load() {
			t.Error("throttle still active once the dependency accepts everything")
		}
		// One shed answer among accepts does not bring it back at once.
		th.record(false, true)
		if sent, _ := drive(th, func(time.Time) bool { return true }, time.Millisecond, 100*time.Millisecond); sent != 100 {
			t.Errorf("sent %d of 100 after a lone shed answer, want all", sent)
		}
	})
}

// TestThrottleIdleAndQuiet: a dependency that sheds nothing, or only a
// few attempts, is never throttled.
func TestThrottleIdleAndQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		th := defaultThrottle(t)
		if sent, _ := drive(th, func(time.Time) bool { return true }, time.Millisecond, time.Second); sent != 1000 {
			t.Errorf("sent %d of 1000 to a healthy dependency", sent)
		}
		if th.active.Load() {
			t.Error("throttle counting while nothing was shed")
		}
		// A quiet dependency: one attempt every 20 ms, all shed: the window
		// never holds the minimum of requests.
		if sent, _ := drive(th, func(time.Time) bool { return false }, 20*time.Millisecond, time.Second); sent != 50 {
			t.Errorf("sent %d of 50 to a quiet dependency, want all", sent)
		}
	})
}

func TestRejectProbability(t *testing.T) {
	for _, tc := range []struct {
		req, acc int64
		want     float64
	}{
		{0, 0, 0}, {100, 50, 0}, {100, 34, 0}, {100, 20, 0.4 / 1.01}, {100, 0, 0.8}, {10, 0, 0.8},
	} {
		if got := rejectProbability(tc.req, tc.acc, 3, 0.8); got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("rejectProbability(%d, %d) = %v, want %v", tc.req, tc.acc, got, tc.want)
		}
	}
}

// TestDoThrottledWhileShed: calls to a dependency that answers every
// attempt with an overloaded answer are mostly refused locally, with a
// typed error that says so and sends nothing, and the breaker does not
// open: an overloaded dependency is told to take less, not cut off.
func TestDoThrottledWhileShed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := NewDependency("shedding", DependencyPolicy{})
		if err != nil {
			t.Fatal(err)
		}
		op, err := d.Operation(OperationPolicy{Name: "Get", Idempotency: ReadOnly, Retry: RetryPolicy{Disabled: true}})
		if err != nil {
			t.Fatal(err)
		}
		sent := 0
		shed := func(context.Context) (int, error) {
			sent++
			return 0, &RemoteError{Status: 503, Class: outcome.Overloaded}
		}
		throttled := 0
		for range 2000 {
			_, err := Do(t.Context(), op, "", shed)
			var te *ThrottledError
			var ce *CallError
			if errors.As(err, &te) {
				throttled++
				if !errors.Is(err, ErrThrottled) || !errors.As(err, &ce) || ce.End != EndThrottled || !ce.NotSent {
					t.Fatalf("throttled call: %v, want a CallError ending throttled, not sent", err)
				}
			}
			time.Sleep(time.Millisecond)
		}
		if d.BreakerState() != BreakerClosed {
			t.Errorf("breaker %v, want closed: shed answers are not failures", d.BreakerState())
		}
		if sent+throttled != 2000 || sent > 600 || sent < 300 {
			t.Errorf("sent %d, throttled %d of 2000 calls; want about a fifth sent", sent, throttled)
		}
	})
}
