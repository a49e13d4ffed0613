package runtime

import (
	"sync/atomic"

	"golang.org/x/time/rate"
)

// milli is the budget's fixed-point unit: one retry costs milli.
const milli = 1000

// budget is a dependency's retry budget: a token bucket that every admitted
// call fills by the ratio and every retry or hedge drains by one token,
// bounded by a maximum balance, plus a floor of a few retries per second
// (a rate.Limiter) for dependencies with too little traffic to earn any.
// It is safe for concurrent use; the per-call cost is one atomic add.
type budget struct {
	disabled bool
	deposit  int64 // milli-tokens added per call
	max      int64 // milli-tokens the balance may hold
	balance  atomic.Int64
	floor    *rate.Limiter // nil: no floor
	// fleet, when set, counts calls for the fleet's budget and, while it
	// is shared, pays retries from the replica's lease of fleet tokens.
	// The local balance and floor keep running for when it is not.
	fleet *fleet
}

func newBudget(p BudgetPolicy) *budget {
	b := &budget{
		disabled: p.Disabled,
		deposit:  int64(p.Ratio*milli + 0.5),
		max:      int64(p.MaxBalance * milli),
	}
	if p.MinPerSecond > 0 {
		burst := int(p.MinPerSecond)
		if burst < 1 {
			burst = 1
		}
		b.floor = rate.NewLimiter(rate.Limit(p.MinPerSecond), burst)
	}
	return b
}

// onCall credits the budget for one admitted call.
func (b *budget) onCall() {
	if b.disabled {
		return
	}
	if f := b.fleet; f != nil {
		f.calls.Add(1)
	}
	if b.balance.Load() < b.max {
		b.balance.Add(b.deposit)
	}
}

// withdraw takes one retry from the budget, from the balance first and the
// floor second, and reports whether it could. With a fleet, it first
// waits until the fleet has counted the replica's failures (see
// fleet.awaitReported), and for a refill of an empty lease.
func (b *budget) withdraw() bool {
	if f := b.fleet; f != nil && !b.disabled && f.sharedView() {
		f.awaitReported()
		return f.withdrawWaiting()
	}
	return b.withdrawNow()
}

// withdrawNow is withdraw without waiting: for a hedge, which must not
// hold up the attempt it hedges.
func (b *budget) withdrawNow() bool {
	if b.disabled {
		return true
	}
	if f := b.fleet; f != nil && f.sharedView() {
		return f.withdraw()
	}
	for {
		v := b.balance.Load()
		if v < milli {
			break
		}
		if b.balance.CompareAndSwap(v, v-milli) {
			return true
		}
	}
	return b.floor != nil && b.floor.Allow()
}

// reserve takes one retry ahead of need, from the balance first and the
// floor second, and reports whether it could. When it came from the floor,
// fromFloor is its reservation there. A retry reserved and not made goes
// back with unreserve, to where it came from.
func (b *budget) reserve() (fromFloor *rate.Reservation, ok bool) {
	if b.disabled {
		return nil, true
	}
	for {
		v := b.balance.Load()
		if v < milli {
			break
		}
		if b.balance.CompareAndSwap(v, v-milli) {
			return nil, true
		}
	}
	if b.floor == nil {
		return nil, false
	}
	r := b.floor.Reserve()
	if !r.OK() || r.Delay() > 0 {
		r.Cancel()
		return nil, false
	}
	return r, true
}

// unreserve gives back a retry reserved and not made.
func (b *budget) unreserve(fromFloor *rate.Reservation) {
	if fromFloor != nil {
		fromFloor.Cancel()
		return
	}
	b.refund()
}

// refund gives back a retry that was withdrawn but not sent.
func (b *budget) refund() {
	switch f := b.fleet; {
	case b.disabled:
	case f != nil && f.sharedView():
		f.refund()
	default:
		b.balance.Add(milli)
	}
}
