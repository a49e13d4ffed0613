package runtime

import (
	"context"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// The retry stage: the loop of attempts of one call, with backoff,
// Retry-After and the dependency's retry budget. Inside it, each round is
// either one attempt (runAttempt, attempt.go) or a hedged round
// (hedgedRound, hedge.go), both asking the breaker first.

// retryState is what the retry stage knows of one call so far.
type retryState struct {
	// attempts started, hedges included.
	attempts int
	// last is the last failure, with its number of attempts.
	last error
	// reached: an attempt may have reached the dependency.
	reached bool
}

// retryLoop runs attempts until one succeeds or the policy says stop. With
// hedge, a read-only operation with a hedge delay races hedged attempts;
// *handedOver is then set when the call's bulkhead permit went to a losing
// attempt still finishing, which releases it itself. The breaker reports of
// attempts cut short while a retry could follow go to held, which the
// caller settles when the call has ended.
func retryLoop[T any](ctx context.Context, op *Operation, deadline time.Time, attempt Attempt[T], hedge bool, handedOver *bool, held *heldVerdicts) (v T, err *CallError) {
	var (
		zero T
		s    retryState
		r    attemptResult[T]
	)
	hedged := hedge && op.hedgeDelay > 0
	for retry := 0; ; retry++ {
		refused := admitted
		if hedged {
			before := s.attempts
			r, refused = hedgedRound(ctx, op, deadline, attempt, &s.attempts, handedOver)
			if s.attempts-before > 1 {
				s.reached = true // the other attempts' fate is not tracked
			}
		} else {
			// The attempt's context comes first so that the breaker's two
			// steps follow each other closely: its mutex, shared by every
			// call to the dependency, then changes cores half as often.
			actx, cancel, early := op.attemptContext(ctx, deadline, retry, held)
			done, why := op.dep.admit()
			op.dep.report()
			if refused = why; why == admitted {
				s.attempts++
				r = runAttempt(ctx, actx, op, attempt, done, s.attempts, false, early)
				if r.held != nil {
					held.hold(r.held)
				}
			}
			if cancel != nil {
				cancel()
			}
		}
		if refused != admitted {
			return zero, op.refused(refused, s.attempts, !s.reached, s.last)
		}
		if r.answered() {
			held.answered = true
		}
		if r.err == nil {
			return r.v, nil
		}
		f := failure{err: r.err, class: r.class, timedOut: r.timedOut, interrupted: r.interrupted}
		if err := op.retryAfterFailure(ctx, deadline, retry, &s, &f, held); err != nil {
			return zero, err
		}
	}
}

// failure is a failed round as the retry stage reads it.
type failure struct {
	err         error
	class       outcome.Class
	timedOut    bool
	interrupted bool
}

// retryAfterFailure decides what follows failed round number retry (from
// 0): it returns the call's error when no retry may follow, else pays for
// the retry, tells the observer and sleeps its delay, and returns nil.
func (o *Operation) retryAfterFailure(ctx context.Context, deadline time.Time, retry int, s *retryState, f *failure, held *heldVerdicts) *CallError {
	delay, asked, err := o.retryDelay(ctx, deadline, retry, s, f)
	if err != nil {
		return err
	}
	return o.payAndWait(ctx, s, delay, asked, held)
}

// retryDelay records failure f in s and returns the delay before the next
// attempt (asked: the dependency's Retry-After), or the call's error when
// the call ends here: not idempotent, interrupted, past its deadline, not
// retryable, out of retries, or without time for another attempt.
func (o *Operation) retryDelay(ctx context.Context, deadline time.Time, retry int, s *retryState, f *failure) (delay time.Duration, asked bool, err *CallError) {
	d := o.dep
	s.last = withAttempts(f.err, s.attempts)
	delivery := deliveryOf(f.err)
	if delivery != outcome.NotDelivered {
		s.reached = true
	}
	if o.idempotency == NotIdempotent {
		return 0, false, o.endOnce(ctx, s.last, f.timedOut, f.interrupted, s.attempts, delivery)
	}
	if f.interrupted || ctx.Err() != nil {
		return 0, false, o.stopped(ctx, s.attempts, !s.reached, s.last)
	}
	now := time.Now()
	if !now.Before(deadline) {
		return 0, false, o.fail(EndDeadline, s.attempts, !s.reached, &DeadlineExceededError{Dependency: d.name, Operation: o.name, Attempts: s.attempts, Last: s.last})
	}
	if !retryable(f.class) || retry >= o.maxRetries {
		return 0, false, o.fail(EndAttempt, s.attempts, !s.reached, s.last)
	}
	left := deadline.Sub(now)
	delay = o.backoff(retry)
	if ra, ok := retryAfter(s.last); ok {
		if ra >= left || left-ra <= o.minAttempt {
			// The dependency asks for more than the deadline leaves:
			// waiting could only end in a deadline error.
			return 0, false, o.fail(EndRetryAfter, s.attempts, !s.reached, &RetryAfterExceedsDeadlineError{
				Dependency: d.name, Operation: o.name, Attempts: s.attempts, Asked: ra, Left: left, Last: s.last})
		}
		delay, asked = ra, true
	}
	if delay >= left || left-delay <= o.minAttempt {
		// No time for another attempt: fail now rather than at the deadline.
		return 0, false, o.fail(EndAttempt, s.attempts, !s.reached, s.last)
	}
	return delay, asked, nil
}

// payAndWait pays for a retry from the dependency's budget (or the
// reservation made when the failed attempt was given its timeout), tells
// the observer and the trace, and sleeps delay. It returns the call's
// error when the budget is spent or the context ends during the sleep.
func (o *Operation) payAndWait(ctx context.Context, s *retryState, delay time.Duration, asked bool, held *heldVerdicts) *CallError {
	d := o.dep
	if held.reserved {
		// Paid for when the attempt was given its timeout.
		held.reserved, held.floor = false, nil
	} else if !d.budget.withdraw() {
		if d.observed {
			d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: o.name, Reason: RejectBudgetExhausted, Attempts: s.attempts})
		}
		return o.fail(EndBudgetExhausted, s.attempts, !s.reached, &BudgetExhaustedError{Dependency: d.name, Operation: o.name, Attempts: s.attempts, Last: s.last})
	}
	if d.observed || d.traced {
		o.retrying(ctx, s, delay, asked)
	}
	if !sleep(ctx, delay) {
		d.budget.refund()
		return o.stopped(ctx, s.attempts, !s.reached, s.last)
	}
	return nil
}

// retrying tells the observer and the call's trace that a retry follows
// after delay.
func (o *Operation) retrying(ctx context.Context, s *retryState, delay time.Duration, asked bool) {
	d := o.dep
	ev := RetryEvent{Dependency: d.name, Operation: o.name, Attempt: s.attempts, Delay: delay, RetryAfter: asked, Err: s.last, Context: ctx}
	if d.observed {
		d.observer.Retry(ev)
	}
	if d.traced {
		if tr := traceOf(ctx); tr != nil {
			tr.retry.Store(&ev)
		}
	}
}

// endOnce returns the error of a non-idempotent call, whose only attempt
// failed with r, from what became of its request: not sent, answered, or
// possibly applied (outcome unknown). Which timer ended the attempt only
// says which deadline error is the cause.
func (o *Operation) endOnce(ctx context.Context, last error, timedOut, interrupted bool, attempts int, delivery outcome.Delivery) *CallError {
	if delivery == outcome.Answered {
		return o.fail(EndAttempt, attempts, false, last)
	}
	var cause error
	end := EndAttempt
	switch {
	case timedOut:
		cause, end = &DeadlineExceededError{Dependency: o.dep.name, Operation: o.name, Attempts: attempts, Last: last}, EndDeadline
	case interrupted || ctx.Err() != nil:
		ce := o.stopped(ctx, attempts, false, last)
		cause, end = ce.Err, ce.End
	default:
		cause = last
	}
	if delivery == outcome.NotDelivered {
		return o.fail(end, attempts, true, cause)
	}
	return o.fail(EndOutcomeUnknown, attempts, false, &OutcomeUnknownError{Dependency: o.dep.name, Operation: o.name, Err: cause})
}
