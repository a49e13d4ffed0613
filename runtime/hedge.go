package runtime

import (
	"context"
	"time"
)

// hedgedRound runs one round of a hedged read: the first attempt, then,
// while no attempt has answered, another one every hedge delay up to the
// operation's maximum, each paid from the retry budget and needing a spare
// bulkhead permit and the breaker's consent. The first success wins and the
// other attempts are cancelled; if every attempt fails the round returns
// the last failure. refused is true when the breaker refused the first
// attempt. attempts is increased by the number of attempts started.
func hedgedRound[T any](ctx context.Context, op *Operation, deadline time.Time, attempt Attempt[T], attempts *int) (r attemptResult[T], refused bool) {
	d := op.dep
	done, ok := d.breaker.allow()
	d.report()
	if !ok {
		return r, true
	}
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
		actx, cancel := context.WithDeadline(ctx, op.attemptDeadline(deadline))
		cancels = append(cancels, cancel)
		go func() {
			res := runAttempt(ctx, actx, op, attempt, done, n, hedge)
			if hedge {
				d.bulkhead.release()
			}
			results <- res
		}()
	}

	began := time.Now()
	start(done, false)
	outstanding, hedges := 1, 0
	timer := time.NewTimer(op.hedgeDelay)
	defer timer.Stop()
	for {
		select {
		case res := <-results:
			outstanding--
			if res.err == nil || outstanding == 0 {
				return res, false
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
				timer.Reset(op.hedgeDelay)
			}
		}
	}
}

// startHedge starts a hedged attempt if the budget, a spare permit and the
// breaker all allow it, and reports whether it did.
func (o *Operation) startHedge(start func(func(error), bool)) bool {
	d := o.dep
	if !d.bulkhead.tryAcquire() {
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
