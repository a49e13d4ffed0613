package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
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
// ([Operation.EffectiveHedgeDelay]). refused says why the breaker or the
// throttle refused the first attempt, admitted when neither did. attempts is increased by the number of
// attempts started.
//
// The first attempt runs on the call's own bulkhead permit, each hedge on a
// permit of its own that it gives back when it ends. When the round ends
// while the first attempt is still finishing its cancellation, that attempt
// keeps the call's permit and gives it back itself, so that in-flight work
// never exceeds the bulkhead: *handedOver is then set to tell the caller
// not to.
//
// An attempt that panics before the round ends makes the round panic with
// the same value on the caller's goroutine, as an unhedged attempt would.
// An attempt that the round abandoned and that panics afterwards has no
// caller left to tell, and re-raising its panic on its own goroutine would
// end the whole process for an answer nobody waits for: it is recovered and
// reported instead (reportAbandonedPanic), with its stack.
func hedgedRound[T any](ctx context.Context, op *Operation, deadline time.Time, attempt Attempt[T], attempts *int, handedOver *bool) (r attemptResult[T], refused refusal) {
	d := op.dep
	done, why := d.admit()
	d.report()
	if why != admitted {
		return r, why
	}
	rs := &roundState[T]{results: make(chan attemptResult[T], 1+op.maxHedges)}
	cancels := make([]context.CancelFunc, 0, 1+op.maxHedges)
	defer func() {
		for _, cancel := range cancels {
			cancel()
		}
	}()
	results := rs.results
	start := func(done func(error), hedge bool) {
		*attempts++
		n := *attempts
		actx, cancel := context.WithDeadline(ctx, deadline)
		cancels = append(cancels, cancel)
		go func() {
			var res attemptResult[T]
			completed := false
			defer func() {
				if !completed {
					res = attemptResult[T]{err: errAttemptPanicked, panicked: recover()}
					rs.deliver(op, res, n, hedge, debug.Stack())
					return
				}
				rs.deliver(op, res, n, hedge, nil)
			}()
			res = runAttempt(ctx, actx, op, attempt, done, n, hedge, false)
			completed = true
		}()
	}
	// end ends the round: the first attempt, if still running, takes over
	// the call's permit, and a panic delivered meanwhile is raised here.
	end := func() { rs.end(handedOver) }

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
			if res.err == errAttemptPanicked {
				end()
				panic(res.panicked)
			}
			if res.err == nil || outstanding == 0 {
				end()
				return res, admitted
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

// roundState is what a hedged round and its attempts share. mu orders the
// end of the round against the end of each attempt, so that every result
// (a panic above all) is either read by the round or known by its attempt
// to be unread, and the call's permit is released exactly once.
type roundState[T any] struct {
	mu          sync.Mutex
	over        bool // the round has ended
	primaryDone bool // the first attempt delivered its result
	// results is buffered for every attempt: a send never blocks.
	results chan attemptResult[T]
}

// deliver hands attempt n's result res to the round unless the round has
// ended, and gives back the permit the attempt ran on when it is a hedge's
// own or the call's one that the round handed over. stack is where a
// panicking attempt panicked (res.panicked), nil otherwise; the panic of
// an attempt whose round has ended is reported (reportAbandonedPanic).
func (rs *roundState[T]) deliver(op *Operation, res attemptResult[T], n int, hedge bool, stack []byte) {
	d := op.dep
	rs.mu.Lock()
	delivered := !rs.over
	if delivered {
		rs.results <- res
		if !hedge {
			rs.primaryDone = true
		}
	}
	rs.mu.Unlock()
	if hedge || !delivered {
		d.bulkhead.release()
	}
	if stack != nil && !delivered {
		d.reportAbandonedPanic(op, n, hedge, res.panicked, stack)
	}
}

// end ends the round: when the first attempt is still running it takes
// over the call's permit (*handedOver is set), and a panic delivered
// meanwhile is raised on the caller's goroutine.
func (rs *roundState[T]) end(handedOver *bool) {
	rs.mu.Lock()
	rs.over = true
	if !rs.primaryDone {
		*handedOver = true
	}
	var panicked *attemptResult[T]
	for len(rs.results) > 0 {
		if res := <-rs.results; res.err == errAttemptPanicked {
			panicked = &res
		}
	}
	rs.mu.Unlock()
	if panicked != nil {
		panic(panicked.panicked)
	}
}

// reportAbandonedPanic tells the log (at error level) and a
// [PanicObserver] that attempt n of op, which its round had abandoned,
// panicked with value p; stack is where.
func (d *Dependency) reportAbandonedPanic(op *Operation, n int, hedge bool, p any, stack []byte) {
	d.logger.Error("abandoned hedged attempt panicked",
		slog.String("dependency", d.name), slog.String("operation", op.name),
		slog.Int("attempt", n), slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(stack)))
	if po, ok := d.observer.(PanicObserver); ok {
		po.AbandonedPanic(PanicEvent{Dependency: d.name, Operation: op.name, Attempt: n, Hedge: hedge, Value: p, Stack: stack})
	}
}

// errAttemptPanicked is the error of a hedged attempt that panicked; the
// value it panicked with travels in the attempt's result.
var errAttemptPanicked = panicError{}

type panicError struct{}

func (panicError) Error() string { return "resilient: attempt panicked" }

// startHedge starts a hedged attempt if the budget, a spare permit (one
// that leaves half the bulkhead free) and the breaker all allow it, and
// reports whether it did.
func (o *Operation) startHedge(start func(func(error), bool)) bool {
	d := o.dep
	if !d.bulkhead.tryAcquireSpare() {
		return false
	}
	if !d.budget.withdrawNow() {
		d.bulkhead.release()
		if d.observed {
			d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: o.name, Reason: RejectBudgetExhausted})
		}
		return false
	}
	done, why := d.admit()
	d.report()
	if why != admitted {
		d.budget.refund()
		d.bulkhead.release()
		return false
	}
	start(done, true)
	return true
}
