package runtime

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"
)

// BreakerState is the state of a dependency's circuit breaker.
type BreakerState uint8

const (
	// BreakerClosed lets every attempt through and counts outcomes.
	BreakerClosed BreakerState = iota
	// BreakerHalfOpen lets a few probes through after the open period,
	// then a growing share of attempts while it ramps traffic back.
	BreakerHalfOpen
	// BreakerOpen refuses every attempt until the open period ends.
	BreakerOpen
)

// String returns "closed", "half-open" or "open".
func (s BreakerState) String() string {
	switch s {
	case BreakerHalfOpen:
		return "half-open"
	case BreakerOpen:
		return "open"
	default:
		return "closed"
	}
}

func fromGobreaker(s gobreaker.State) BreakerState {
	switch s {
	case gobreaker.StateHalfOpen:
		return BreakerHalfOpen
	case gobreaker.StateOpen:
		return BreakerOpen
	default:
		return BreakerClosed
	}
}

// Outcomes reported to gobreaker. They are sentinels so that reporting
// allocates nothing; only their identity matters.
var (
	errBreakerFailure  = errors.New("failure")
	errBreakerExcluded = errors.New("excluded")
)

// BreakerCounts are the breaker's counts in its current window (closed) or
// probe round (half-open).
type BreakerCounts struct {
	Requests, Successes, Failures, Exclusions uint32
}

// transition is a breaker state change waiting to be reported.
type transition struct {
	from, to BreakerState
	at       time.Time
}

// rampFloor is the share of attempts the breaker admits as its ramp
// begins, right after its probes succeeded.
const rampFloor = 0.1

// breaker wraps a gobreaker two-step breaker. gobreaker calls OnStateChange
// with its own mutex held, so transitions are only queued there and
// reported to the observer and the log afterwards, outside any lock.
//
// Around gobreaker, whose open period is fixed (OpenFor) and whose
// half-open state is one round of probes, the breaker keeps an opening
// streak: the n-th consecutive opening stays open n × OpenFor (gobreaker's
// own period, then the gate's extension), and once the probes succeed it
// admits a share of attempts that grows over OpenFor before it reports
// itself closed (the ramp). The hot path reads one atomic flag, gate,
// set only while either is in force.
type breaker struct {
	cb       *gobreaker.TwoStepCircuitBreaker[struct{}]
	disabled bool
	// unanswered counts the attempts in a row that ended at their deadline
	// without any reaction from the dependency (see noteUnanswered).
	unanswered atomic.Uint32
	// fleet, when set, shares the breaker with the other replicas: it
	// counts outcomes and refuses attempts while the fleet's breaker is
	// open, and the local breaker does not trip on its own meanwhile.
	fleet *fleet

	mu      sync.Mutex
	pending []transition
	waiting atomic.Bool

	// openFor is the policy's open period, the first of a streak, the
	// ramp's length and the unit of the streak's growth.
	openFor time.Duration
	// gate is set while the open period is extended or the ramp is
	// on; the rest is under gmu.
	gate atomic.Bool
	gmu  sync.Mutex
	// streak counts the consecutive openings; it restarts when the
	// breaker opens after staying closed (ramp done) a whole window.
	streak int
	// openUntil ends the extended open period; rampFrom and rampUntil
	// bound the ramp (zero when none).
	openUntil, rampFrom, rampUntil time.Time
	// closedAt is when the last ramp ended, the breaker closed for good.
	closedAt time.Time
	window   time.Duration
}

func newBreaker(name string, p BreakerPolicy) *breaker {
	b := &breaker{disabled: p.Disabled, openFor: p.OpenFor, window: p.Window}
	bucket := DefaultBreakerBucket
	if p.Window < bucket {
		bucket = p.Window
	}
	minCalls, rate := p.MinimumCalls, p.FailureRate
	b.cb = gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:         name,
		MaxRequests:  p.HalfOpenProbes,
		Interval:     p.Window,
		BucketPeriod: bucket,
		Timeout:      p.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			if f := b.fleet; f != nil && f.sharedView() {
				return false // the fleet's counts decide
			}
			// The rate is taken over the attempts whose outcome is known:
			// attempts still in flight, which against an unanswering
			// dependency last until their deadline, would dilute it. And
			// MinimumCalls attempts in a row that ended at their deadline
			// without any reaction open the breaker whatever the window
			// holds, so that the successes of a long healthy stretch
			// cannot hide an outage whose failures come only as deadlines
			// pass. A burst of fast failures (a reset connection) is left
			// to the rate.
			if b.gate.Load() && b.ramping() {
				return true // a failure during the ramp, as in half-open
			}
			counted := c.TotalSuccesses + c.TotalFailures
			return b.unanswered.Load() >= minCalls ||
				counted >= minCalls && float64(c.TotalFailures)*100 >= rate*float64(counted)
		},
		IsSuccessful: func(err error) bool {
			if f := b.fleet; f != nil {
				f.count(err)
			}
			return err == nil
		},
		IsExcluded: func(err error) bool { return err == errBreakerExcluded },
		OnStateChange: func(_ string, from, to gobreaker.State) {
			now := time.Now()
			f, t, ok := b.shape(fromGobreaker(from), fromGobreaker(to), now)
			if ok {
				b.queue(f, t, now)
			}
		},
	})
	return b
}

// queue records a transition for the next report.
func (b *breaker) queue(from, to BreakerState, at time.Time) {
	b.mu.Lock()
	b.pending = append(b.pending, transition{from, to, at})
	b.mu.Unlock()
	b.waiting.Store(true)
}

// shape applies the opening streak and the ramp to a transition of
// gobreaker's at now, and returns the transition to report, if any. An
// opening extends the open period to streak × openFor; probes that
// succeeded start the ramp, whose end reports the close (see admitGate);
// a failure during the ramp opens again from half-open, as it would have
// during the probes. A replica in a fleet keeps gobreaker's fixed period
// and single round of probes: the fleet's protocol carries neither.
func (b *breaker) shape(from, to BreakerState, now time.Time) (BreakerState, BreakerState, bool) {
	if b.fleet != nil {
		return from, to, true
	}
	b.gmu.Lock()
	defer b.gmu.Unlock()
	switch to {
	case BreakerOpen:
		switch {
		case b.rampUntil.IsZero():
		case now.Before(b.rampUntil):
			from = BreakerHalfOpen // the ramp is reported as half-open
			b.rampFrom, b.rampUntil = time.Time{}, time.Time{}
		default:
			// The ramp ended with no attempt to notice it: the close
			// it reports comes first.
			b.closedAt = b.rampUntil
			b.rampFrom, b.rampUntil = time.Time{}, time.Time{}
			b.queue(BreakerHalfOpen, BreakerClosed, b.closedAt)
		}
		if from == BreakerClosed && !b.closedAt.IsZero() && now.Sub(b.closedAt) >= b.window {
			b.streak = 0
		}
		b.streak = min(b.streak+1, MaxOpenForFactor)
		b.openUntil = now.Add(time.Duration(b.streak) * b.openFor)
		b.gate.Store(b.streak > 1)
	case BreakerClosed:
		if from == BreakerHalfOpen {
			b.rampFrom, b.rampUntil = now, now.Add(b.openFor)
			b.gate.Store(true)
			return from, to, false // reported when the ramp ends
		}
	}
	return from, to, true
}

// ramping reports whether the ramp is on.
func (b *breaker) ramping() bool {
	now := time.Now()
	b.gmu.Lock()
	defer b.gmu.Unlock()
	return !b.rampUntil.IsZero() && now.Before(b.rampUntil)
}

// admitGate decides an attempt while the gate is set: refused until the
// extended open period ends; during the ramp admitted with a probability
// that grows from rampFloor to 1 over openFor; once the ramp is over the
// gate is lifted and the close reported.
func (b *breaker) admitGate() bool {
	now := time.Now()
	b.gmu.Lock()
	if now.Before(b.openUntil) {
		b.gmu.Unlock()
		return false
	}
	if b.rampUntil.IsZero() {
		b.gate.Store(false) // the extension is over: gobreaker's half-open
		b.gmu.Unlock()
		return true
	}
	if now.Before(b.rampUntil) {
		share := max(rampFloor, float64(now.Sub(b.rampFrom))/float64(b.rampUntil.Sub(b.rampFrom)))
		b.gmu.Unlock()
		return rand.Float64() < share
	}
	b.rampFrom, b.rampUntil, b.closedAt = time.Time{}, time.Time{}, now
	b.gate.Store(false)
	b.gmu.Unlock()
	b.queue(BreakerHalfOpen, BreakerClosed, now)
	return true
}

// gatedState returns the state the gate makes the breaker report: open
// during the extension, half-open during the ramp; ok is false when the
// gate is not in force.
func (b *breaker) gatedState() (BreakerState, bool) {
	now := time.Now()
	b.gmu.Lock()
	defer b.gmu.Unlock()
	switch {
	case now.Before(b.openUntil):
		return BreakerOpen, true
	case !b.rampUntil.IsZero() && now.Before(b.rampUntil):
		return BreakerHalfOpen, true
	}
	return 0, false
}

// noteUnanswered records n attempts that ended at their deadline without
// any reaction from the dependency; it must precede their failure reports,
// which consult the count.
func (b *breaker) noteUnanswered(n int) { b.unanswered.Add(uint32(n)) }

// noteReaction records an attempt the dependency reacted to before its
// deadline (an answer, a refusal, a reset): the run of unanswered attempts
// ends.
func (b *breaker) noteReaction() {
	if b.unanswered.Load() != 0 {
		b.unanswered.Store(0)
	}
}

// allow asks the breaker for one attempt. On success it returns the function
// that reports the attempt's outcome.
func (b *breaker) allow() (func(error), bool) {
	if b.disabled {
		return nil, true
	}
	if f := b.fleet; f != nil {
		if v := f.view.Load(); v > viewClosed {
			return f.allow(b, v)
		}
	}
	if b.gate.Load() && !b.admitGate() {
		return nil, false
	}
	done, err := b.cb.Allow()
	return done, err == nil
}

// takePending returns and clears the queued transitions.
func (b *breaker) takePending() []transition {
	if !b.waiting.Load() {
		return nil
	}
	b.mu.Lock()
	p := b.pending
	b.pending = nil
	b.waiting.Store(false)
	b.mu.Unlock()
	return p
}

func (b *breaker) state() BreakerState {
	if b.disabled {
		return BreakerClosed
	}
	if f := b.fleet; f != nil {
		switch f.view.Load() {
		case viewOpen:
			return BreakerOpen
		case viewHalfOpen, viewProbing:
			return BreakerHalfOpen
		}
	}
	if b.gate.Load() {
		if s, ok := b.gatedState(); ok {
			return s
		}
	}
	return fromGobreaker(b.cb.State())
}

func (b *breaker) counts() BreakerCounts {
	if b.disabled {
		return BreakerCounts{}
	}
	c := b.cb.Counts()
	return BreakerCounts{Requests: c.Requests, Successes: c.TotalSuccesses, Failures: c.TotalFailures, Exclusions: c.TotalExclusions}
}
