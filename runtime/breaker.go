package runtime

import (
	"errors"
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
	// BreakerHalfOpen lets a few probes through after the open period.
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

// breaker wraps a gobreaker two-step breaker. gobreaker calls OnStateChange
// with its own mutex held, so transitions are only queued there and
// reported to the observer and the log afterwards, outside any lock.
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
}

func newBreaker(name string, p BreakerPolicy) *breaker {
	b := &breaker{disabled: p.Disabled}
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
			b.mu.Lock()
			b.pending = append(b.pending, transition{fromGobreaker(from), fromGobreaker(to), time.Now()})
			b.mu.Unlock()
			b.waiting.Store(true)
		},
	})
	return b
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
	return fromGobreaker(b.cb.State())
}

func (b *breaker) counts() BreakerCounts {
	if b.disabled {
		return BreakerCounts{}
	}
	c := b.cb.Counts()
	return BreakerCounts{Requests: c.Requests, Successes: c.TotalSuccesses, Failures: c.TotalFailures, Exclusions: c.TotalExclusions}
}

// admit asks the dependency's breaker whether an attempt may start, and
// reports any change of its state; done takes the attempt's verdict.
func (d *Dependency) admit() (done func(error), ok bool) {
	done, ok = d.breaker.allow()
	d.report()
	return done, ok
}
