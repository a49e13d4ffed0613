package runtime

import (
	"context"
	"sync/atomic"
	"time"
)

// hedgedRound runs one round of a hedged read: the first attempt, then,
// while no attempt has answered, another one every hedge delay up to the
// operation's maximum, each paid from the retry budget and needing a spare
// bulkhead permit and the breaker's consent. The first success wins and the
// other attempts are cancelled; if every attempt fails the round returns
// the last failure. Every attempt of the round runs to the call's deadline:
// the hedge, not a timeout and a retry, is a slow attempt's second chance.
// The delay is the one in force when the round starts
// ([Operation.EffectiveHedgeDelay]). refused is true when the breaker
// refused the first attempt. attempts is increased by the number of
// attempts started.
//
// The first attempt runs on the call's own bulkhead permit, each hedge on a
// permit of its own that it gives back when it ends. When a hedge wins while
// the first attempt is still finishing its cancellation, that attempt keeps
// the call's permit and gives it back itself, so that in-flight work never
// exceeds the bulkhead: handedOver then tells the caller not to.
func hedgedRound[T any](ctx context.Context, op *Operation, deadline time.Time, attempt Attempt[T], attempts *int) (r attemptResult[T], refused, handedOver bool) {
	d := op.dep
	done, ok := d.breaker.allow()
	d.report()
	if !ok {
		return r, true, false
	}
	const (
		running int32 = iota
		collected
		abandoned
	)
	var primary atomic.Int32
	results := make(chan attemptResult[T], 1+op.maxHedges)
	cancels := make([]context.CancelFunc, 0, 1+op.maxHedges)
	defer func() {
		for _, cancel := range cancels {
			cancel()
		}
	}()
	start := func(done func(error), hedge bool) {
		*attempts++
		n := *attempts
		actx, cancel := context.WithDeadline(ctx, deadline)
		cancels = append(cancels, cancel)
		go func() {
			res := runAttempt(ctx, actx, op, attempt, done, n, hedge, false)
			if hedge || !primary.CompareAndSwap(running, collected) {
				d.bulkhead.release()
			}
			results <- res
		}()
	}

	began := time.Now()
	start(done, false)
	outstanding, hedges := 1, 0
	delay := op.effectiveHedgeDelay()
	timer := time.NewTimer(delay)
	defer timer.Stop()
	for {
		select {
		case res := <-results:
			outstanding--
			if res.err == nil || outstanding == 0 {
				handedOver = outstanding > 0 && primary.CompareAndSwap(running, abandoned)
				return res, false, handedOver
			}
			r = res
		case <-timer.C:
			if hedges >= op.maxHedges || !op.startHedge(start) {
				continue
			}
			hedges++
			outstanding++
			if d.observed {
				d.observer.Hedge(HedgeEvent{Dependency: d.name, Operation: op.name, Attempt: *attempts, After: time.Since(began)})
			}
			if hedges < op.maxHedges {
				timer.Reset(delay)
			}
		}
	}
}

// startHedge starts a hedged attempt if the budget, a spare permit (one
// that leaves half the bulkhead free) and the breaker all allow
// it, and reports whether it did.
func (o *Operation) startHedge(start func(func(error), bool)) bool {
	d := o.dep
	if !d.bulkhead.tryAcquireSpare() {
		return false
	}
	if !d.budget.withdraw() {
		d.bulkhead.release()
		if d.observed {
			d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: o.name, Reason: RejectBudgetExhausted})
		}
		return false
	}
	done, ok := d.breaker.allow()
	d.report()
	if !ok {
		d.budget.refund()
		d.bulkhead.release()
		return false
	}
	start(done, true)
	return true
}
