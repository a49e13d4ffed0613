package runtime

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Attempt is one try of an operation. It must honour ctx: when ctx is done
// the attempt's work must stop (close the socket, cancel the RPC) and the
// function return. Its error is classified through [Classifier] (see
// [Class]); an error that says nothing is [Transient].
type Attempt[T any] func(ctx context.Context) (T, error)

// Do runs one call of op through the pipeline and returns the first
// successful attempt's value. In order, outermost first:
//
//  1. Overall deadline: the caller's deadline capped by the operation's
//     total timeout. It bounds everything below, backoff included. A
//     context already done on entry returns at once, before any permit,
//     token or attempt is taken.
//  2. Bulkhead: a permit of the dependency's semaphore, waited for at most
//     the bulkhead's wait, else [ErrBulkheadFull].
//  3. Retry loop, for idempotent operations only: full-jitter backoff,
//     Retry-After honoured (also above the backoff cap; one the deadline
//     does not leave time for ends the call with
//     [ErrRetryAfterExceedsDeadline]), no attempt started without time
//     left before the deadline, each retry paid from the dependency's
//     retry budget (else [ErrBudgetExhausted]).
//  4. Circuit breaker, asked by each attempt and told each attempt's
//     outcome; an open breaker ends the loop at once ([ErrCircuitOpen]).
//  5. Per-attempt timeout: the context of an attempt that a retry could
//     still follow ends at the attempt timeout in force or the overall
//     deadline, whichever is first; the last attempt's at the deadline.
//
// For read-only operations with a hedge delay, an attempt that has not
// answered after the delay is hedged (budget and a spare permit allowing);
// the first success wins and the others are cancelled. Hedged attempts run
// to the deadline. When a read-only call fails for any reason but a
// rejection by the dependency (4xx), an invalid request, an unusable answer
// or the caller's cancellation, a configured fallback answers instead, with
// a [*DegradedError]. The package documentation, "Timeouts that do not
// manufacture outages", says how attempt timeouts and hedge delays follow
// the observed latency and how the breaker counts slow attempts.
//
// A failed call returns a [*CallError] saying what ended it (see the
// package documentation, "Errors"). An attempt's error tells the pipeline
// its class ([Classifier]), a delay asked for ([RetryAfterHinter]) and
// whether its request was sent ([DeliveryReporter], [MarkNotSent]); a
// non-idempotent call whose attempt may have been delivered and was not
// answered ends with its outcome unknown.
//
// key identifies the request for a cached fallback: it must hold
// everything that can change the answer (every parameter, and, unless the
// policy is [FallbackPolicy.Shared], the credentials and metadata the
// request carries), since a cached answer is served to any later call of
// the operation with the same key, the same [WithFallbackKey] and the same
// partition ([WithFallbackPartition]). It is hashed, never stored in clear.
// It is unused when the operation keeps no cache, and may then be empty.
func Do[T any](ctx context.Context, op *Operation, key string, attempt Attempt[T]) (T, error) {
	v, _, _, err := call(ctx, op, key, attempt, false)
	return v, err
}

// DoHeld is [Do] for calls whose result keeps using the dependency after the
// pipeline returns, such as a gRPC stream or a streamed response body: on
// success it keeps the call's bulkhead permit, and release gives it back.
// release must be called once the result is no longer in use (the stream
// ended, the body was closed); calling it again does nothing. On failure the
// permit is already given back and release is a no-op; it is never nil.
// Such calls are never hedged. Everything else is as in [Do]; a fallback
// answer holds no permit.
func DoHeld[T any](ctx context.Context, op *Operation, key string, attempt Attempt[T]) (v T, release func(), err error) {
	v, rel, err := doHeld(ctx, op, key, attempt)
	return v, func() { rel(nil) }, err
}

// doHeld is [DoHeld] whose release takes the error that ended the use of
// the result (nil for a clean end), for the call's trace.
func doHeld[T any](ctx context.Context, op *Operation, key string, attempt Attempt[T]) (v T, release func(error), err error) {
	v, held, tr, err := call(ctx, op, key, attempt, true)
	if !held {
		return v, func(error) {}, err
	}
	var once sync.Once
	return v, func(err error) {
		once.Do(func() {
			op.dep.bulkhead.release()
			if tr != nil {
				tr.end(err, true)
			}
		})
	}, err
}

// call runs the pipeline. With hold, a successful call keeps its bulkhead
// permit and reports held; the caller then releases it, and ends the
// call's trace (tr, nil when not traced).
func call[T any](ctx context.Context, op *Operation, key string, attempt Attempt[T], hold bool) (v T, held bool, tr *callTrace, err error) {
	var zero T
	d := op.dep
	if d.traced {
		ctx, tr = op.startTrace(ctx, hold)
		defer func() {
			if !held {
				tr.end(err, false)
			}
		}()
	}
	if ctx.Err() != nil {
		return zero, false, tr, op.stopped(ctx, 0, true, nil)
	}
	now := time.Now()
	deadline := now.Add(op.timeout)
	if cd, ok := ctx.Deadline(); ok && cd.Before(deadline) {
		deadline = cd
	}
	if op.minAttempt > 0 && deadline.Sub(now) < op.minAttempt {
		// Less time left than the dependency usually takes: an attempt
		// would only load it with work nobody waits for.
		v, err := fallback[T](ctx, op, key, op.fail(EndDeadline, 0, true, &DeadlineExceededError{Dependency: d.name, Operation: op.name}))
		return v, false, tr, err
	}
	waited, ok, err := d.bulkhead.acquire(ctx, deadline)
	if !ok {
		if err != nil {
			return zero, false, tr, op.stopped(ctx, 0, true, nil)
		}
		if d.observed {
			d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: op.name, Reason: RejectBulkheadFull})
		}
		v, err := fallback[T](ctx, op, key, op.fail(EndBulkheadFull, 0, true,
			&BulkheadFullError{Dependency: d.name, Operation: op.name, MaxConcurrent: d.bulkhead.limit(), Waited: waited}))
		return v, false, tr, err
	}
	if tr != nil {
		tr.waited = waited
	}
	d.budget.onCall()
	// The permit goes back when the call ends, also if the attempt panics,
	// unless the caller holds it or a losing hedge still uses it.
	keep := false
	defer func() {
		if !keep {
			d.bulkhead.release()
		}
	}()
	var verdicts heldVerdicts
	v, cerr := retryLoop(ctx, op, deadline, attempt, !hold, &keep, &verdicts)
	verdicts.settle(ctx, d)
	if cerr != nil {
		v, err = fallback[T](ctx, op, key, cerr)
		return v, false, tr, err
	}
	if op.fallback.Kind == FallbackCached {
		d.store.Store(op.storeKey(ctx, key), v, time.Now())
	}
	if hold {
		keep = true
		return v, true, tr, nil
	}
	return v, false, tr, nil
}

// Run is [Do] for attempts that return only an error.
func Run(ctx context.Context, op *Operation, attempt func(context.Context) error) error {
	_, err := Do(ctx, op, "", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, attempt(ctx)
	})
	return err
}

// attemptResult is what one attempt produced and how the pipeline reads it.
type attemptResult[T any] struct {
	v     T
	err   error
	class Class
	// timedOut: the attempt's own deadline (attempt timeout or total
	// timeout) ended it.
	timedOut bool
	// interrupted: the caller's context, or the hedge race, ended it.
	interrupted bool
	// panicked holds what a hedged attempt panicked with, for the caller's
	// goroutine to panic with again.
	panicked any
	// held is the breaker report of an attempt cut by its attempt timeout
	// while a retry could follow, left to the call's end (heldVerdicts).
	held func(error)
}

// answered reports whether the dependency answered the attempt with
// something other than a failure: a success, a rejection or a throttling.
func (r *attemptResult[T]) answered() bool {
	if r.err == nil {
		return true
	}
	return !r.interrupted && !r.timedOut && (r.class == Rejected || r.class.shed())
}

// retryLoop runs attempts until one succeeds or the policy says stop. With
// hedge, a read-only operation with a hedge delay races hedged attempts;
// *handedOver is then set when the call's bulkhead permit went to a losing
// attempt still finishing, which releases it itself. The breaker reports of
// attempts cut short while a retry could follow go to held, which the
// caller settles when the call has ended.
func retryLoop[T any](ctx context.Context, op *Operation, deadline time.Time, attempt Attempt[T], hedge bool, handedOver *bool, held *heldVerdicts) (v T, err *CallError) {
	var zero T
	d := op.dep
	attempts := 0
	var last error
	// reached: an attempt may have reached the dependency.
	reached := false
	for retry := 0; ; retry++ {
		var r attemptResult[T]
		if hedge && op.hedgeDelay > 0 {
			before := attempts
			var refused refusal
			r, refused = hedgedRound(ctx, op, deadline, attempt, &attempts, handedOver)
			if refused != admitted {
				return zero, op.refused(refused, attempts, !reached, last)
			}
			if attempts-before > 1 {
				reached = true // the other attempts' fate is not tracked
			}
		} else {
			// The attempt's context comes first so that the breaker's two
			// steps follow each other closely: its mutex, shared by every
			// call to the dependency, then changes cores half as often.
			actx, cancel, early := op.attemptContext(ctx, deadline, retry, held)
			done, why := d.admit()
			d.report()
			if why != admitted {
				if cancel != nil {
					cancel()
				}
				return zero, op.refused(why, attempts, !reached, last)
			}
			attempts++
			r = runAttempt(ctx, actx, op, attempt, done, attempts, false, early)
			if cancel != nil {
				cancel()
			}
			if r.held != nil {
				held.hold(r.held)
			}
		}
		if r.answered() {
			held.answered = true
		}
		if r.err == nil {
			return r.v, nil
		}
		last = withAttempts(r.err, attempts)
		delivery := deliveryOf(r.err)
		if delivery != NotDelivered {
			reached = true
		}

		if op.idempotency == NotIdempotent {
			return zero, op.endOnce(ctx, last, r.timedOut, r.interrupted, attempts, delivery)
		}
		if r.interrupted || ctx.Err() != nil {
			return zero, op.stopped(ctx, attempts, !reached, last)
		}
		now := time.Now()
		if !now.Before(deadline) {
			return zero, op.fail(EndDeadline, attempts, !reached, &DeadlineExceededError{Dependency: d.name, Operation: op.name, Attempts: attempts, Last: last})
		}
		if !r.class.retryable() || retry >= op.maxRetries {
			return zero, op.fail(EndAttempt, attempts, !reached, last)
		}
		left := deadline.Sub(now)
		delay, asked := op.backoff(retry), false
		if ra, ok := retryAfter(last); ok {
			if ra >= left || left-ra <= op.minAttempt {
				// The dependency asks for more than the deadline leaves:
				// waiting could only end in a deadline error.
				return zero, op.fail(EndRetryAfter, attempts, !reached, &RetryAfterExceedsDeadlineError{
					Dependency: d.name, Operation: op.name, Attempts: attempts, Asked: ra, Left: left, Last: last})
			}
			delay, asked = ra, true
		}
		if delay >= left || left-delay <= op.minAttempt {
			// No time for another attempt: fail now rather than at the deadline.
			return zero, op.fail(EndAttempt, attempts, !reached, last)
		}
		if held.reserved {
			// Paid for when the attempt was given its timeout.
			held.reserved, held.floor = false, nil
		} else if !d.budget.withdraw() {
			if d.observed {
				d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: op.name, Reason: RejectBudgetExhausted, Attempts: attempts})
			}
			return zero, op.fail(EndBudgetExhausted, attempts, !reached, &BudgetExhaustedError{Dependency: d.name, Operation: op.name, Attempts: attempts, Last: last})
		}
		if d.observed || d.traced {
			ev := RetryEvent{Dependency: d.name, Operation: op.name, Attempt: attempts, Delay: delay, RetryAfter: asked, Err: last, Context: ctx}
			if d.observed {
				d.observer.Retry(ev)
			}
			if d.traced {
				if tr := traceOf(ctx); tr != nil {
					tr.retry.Store(&ev)
				}
			}
		}
		if !sleep(ctx, delay) {
			d.budget.refund()
			return zero, op.stopped(ctx, attempts, !reached, last)
		}
	}
}

// endOnce returns the error of a non-idempotent call, whose only attempt
// failed with r, from what became of its request: not sent, answered, or
// possibly applied (outcome unknown). Which timer ended the attempt only
// says which deadline error is the cause.
func (o *Operation) endOnce(ctx context.Context, last error, timedOut, interrupted bool, attempts int, delivery Delivery) *CallError {
	if delivery == Answered {
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
	if delivery == NotDelivered {
		return o.fail(end, attempts, true, cause)
	}
	return o.fail(EndOutcomeUnknown, attempts, false, &OutcomeUnknownError{Dependency: o.dep.name, Operation: o.name, Err: cause})
}

// runAttempt runs one attempt under actx, reports its outcome to the
// breaker through done (nil when the breaker is disabled) and to the
// observer, records its latency when the operation adapts to it, and
// classifies it. early says that actx ends at the attempt timeout, before
// the call's deadline: when that timeout ends the attempt, its breaker
// report is not made but returned in the result's held field.
func runAttempt[T any](ctx, actx context.Context, op *Operation, attempt Attempt[T], done func(error), n int, hedge, early bool) attemptResult[T] {
	d := op.dep
	timed := d.observed || op.adaptive()
	var (
		start time.Time
		span  AttemptSpan
	)
	if timed {
		start = time.Now()
	}
	if d.traced {
		if !timed {
			start = time.Now()
		}
		if tr := traceOf(ctx); tr != nil {
			actx, span = tr.startAttempt(actx, op, n, hedge)
		}
	}
	v, err := attempt(actx)
	var elapsed time.Duration
	if timed || d.traced {
		elapsed = time.Since(start)
	}
	r := attemptResult[T]{v: v, err: err}
	var verdict error // nil: a success for the breaker
	unanswered := false
	if err != nil {
		switch {
		case ctx.Err() != nil:
			r.interrupted = true
			verdict = errBreakerExcluded
			// The caller's deadline ended an attempt that had at least the
			// attempt timeout, the time a healthy dependency answers in: the
			// dependency failed. A shorter deadline, or a cancellation, says
			// nothing of it.
			if op.attemptTimeout > 0 && elapsed >= op.attemptTimeout && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				verdict, unanswered = errBreakerFailure, true
			}
		case errors.Is(actx.Err(), context.DeadlineExceeded):
			r.timedOut, r.class = true, Transient
			if !errors.Is(err, context.DeadlineExceeded) {
				// A gRPC status, or a stream cancelled by its attempt's
				// end: let the caller still find the deadline.
				r.err = attemptTimedOut{err}
			}
			verdict, unanswered = errBreakerFailure, !early
		case actx.Err() != nil:
			r.interrupted = true
			verdict = errBreakerExcluded
		default:
			r.class = classify(err)
			switch {
			case r.class.breakerFailure():
				verdict = errBreakerFailure
			case r.class.shed(), r.class == Permanent:
				// Pacing, or a failure on the caller's side: says nothing of
				// the dependency's health.
				verdict = errBreakerExcluded
			}
			// Rejected: the dependency answered as it should, a success.
		}
	} else if op.adaptive() {
		at := op.effectiveAttemptTimeout()
		late := at > 0 && elapsed > at
		op.latency.observe(elapsed, late)
		if op.attemptTimeout > 0 {
			d.noteSlowdown(elapsed, op.attemptTimeout, late)
		}
	}
	d.throttle.record(err == nil || !r.interrupted && !r.timedOut && (r.class == Rejected || r.class == Failed),
		err != nil && !r.interrupted && !r.timedOut && r.class.shed())
	if done != nil {
		switch {
		case r.timedOut && early:
			r.held = done
		case unanswered:
			d.breaker.noteUnanswered(1)
		case !r.interrupted:
			d.breaker.noteReaction()
		}
		if r.held == nil {
			done(verdict)
			d.report()
		}
	}
	if d.observed || span != nil {
		ev := AttemptEvent{Dependency: d.name, Operation: op.name, Attempt: n, Hedge: hedge,
			Duration: elapsed, Err: err, Class: r.class, Context: actx}
		if d.observed {
			d.observer.Attempt(ev)
		}
		if span != nil {
			span.End(ev)
		}
	}
	return r
}

// attemptTimedOut is the error of an attempt ended by its own deadline
// whose error does not say so: it matches [context.DeadlineExceeded].
type attemptTimedOut struct{ err error }

func (e attemptTimedOut) Error() string {
	return "resilient: attempt timed out: " + strings.TrimPrefix(e.err.Error(), "resilient: ")
}
func (e attemptTimedOut) Unwrap() error        { return e.err }
func (e attemptTimedOut) Is(target error) bool { return target == context.DeadlineExceeded }

// attemptContext returns the context of an attempt started as retry number
// retry (from 0): ctx bounded by the overall deadline and, when a retry
// could still follow the attempt (see retryCanFollow, which reserves it in
// held), by the attempt timeout in force, doubled for each attempt of the
// call already cut (attemptTimeoutAfter); early then reports that the
// attempt may end before the deadline. When ctx's own deadline is already
// the earliest it is returned as is, with a nil cancel.
func (o *Operation) attemptContext(ctx context.Context, deadline time.Time, retry int, held *heldVerdicts) (actx context.Context, cancel context.CancelFunc, early bool) {
	ad := deadline
	if o.attemptTimeout > 0 {
		now := time.Now()
		at := o.attemptTimeoutAfter(held.cut)
		if t := now.Add(at); t.Before(deadline) && o.retryCanFollow(retry, now, deadline, at, held) {
			ad, early = t, true
		}
	}
	if cd, ok := ctx.Deadline(); ok && !ad.Before(cd) {
		return ctx, nil, false
	}
	actx, cancel = context.WithDeadline(ctx, ad)
	return actx, cancel, early
}

// fail returns the error of a call that ended with end after attempts;
// notSent when nothing of it reached the dependency.
func (o *Operation) fail(end End, attempts int, notSent bool, cause error) *CallError {
	var ie *InvalidRequestError
	if end == EndAttempt && errors.As(cause, &ie) {
		// An attempt found the request invalid (the gRPC glue learns
		// that a message does not marshal only by sending it).
		end, cause = EndInvalidRequest, ie
	}
	return &CallError{Dependency: o.dep.name, Operation: o.name, Attempts: attempts, End: end, NotSent: notSent, Err: cause}
}

// stopped returns the error for a call ended by its context.
func (o *Operation) stopped(ctx context.Context, attempts int, notSent bool, last error) *CallError {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return o.fail(EndDeadline, attempts, notSent, &DeadlineExceededError{Dependency: o.dep.name, Operation: o.name, Attempts: attempts, Last: last})
	}
	return o.fail(EndCanceled, attempts, notSent, &CanceledError{Dependency: o.dep.name, Operation: o.name, Attempts: attempts, Cause: context.Cause(ctx), Last: last})
}

// refused returns the error of a call whose next attempt the dependency's
// breaker or throttle refused (why).
func (o *Operation) refused(why refusal, attempts int, notSent bool, last error) *CallError {
	if why == refusedThrottle {
		d := o.dep
		if d.observed {
			d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: o.name, Reason: RejectThrottled, Attempts: attempts})
		}
		return o.fail(EndThrottled, attempts, notSent, &ThrottledError{Dependency: d.name, Operation: o.name, Attempts: attempts, Reject: d.throttle.rejecting(), Last: last})
	}
	return o.circuitOpen(attempts, notSent, last)
}

func (o *Operation) circuitOpen(attempts int, notSent bool, last error) *CallError {
	d := o.dep
	if d.observed {
		d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: o.name, Reason: RejectCircuitOpen, Attempts: attempts})
	}
	return o.fail(EndCircuitOpen, attempts, notSent, &CircuitOpenError{Dependency: d.name, Operation: o.name, Attempts: attempts, Last: last})
}

// withAttempts records the number of attempts in a [*RemoteError] and
// returns err.
func withAttempts(err error, attempts int) error {
	var re *RemoteError
	if errors.As(err, &re) {
		re.Attempts = attempts
	}
	return err
}

// fallback answers a failed call from the operation's fallback when one is
// configured and allowed for err, and returns err otherwise. No fallback
// answers the caller's own errors: a cancellation, an invalid request, or
// an answer of the dependency that rejects the request (4xx) or could not
// be used (an undecodable or too large body).
func fallback[T any](ctx context.Context, op *Operation, key string, err *CallError) (T, error) {
	var zero T
	if op.fallback.Kind == FallbackNone || errors.Is(ctx.Err(), context.Canceled) {
		return zero, err
	}
	switch err.End {
	case EndInvalidRequest, EndCanceled:
		return zero, err
	case EndAttempt:
		if c := classify(err.Err); c == Rejected || c == Permanent {
			return zero, err
		}
	}
	var (
		raw any
		age time.Duration
	)
	switch op.fallback.Kind {
	case FallbackStatic:
		raw = op.fallback.Static
	case FallbackCached:
		v, at, ok := op.dep.store.Load(op.storeKey(ctx, key))
		if !ok {
			return zero, err
		}
		if age = time.Since(at); age > op.fallback.TTL {
			return zero, err
		}
		raw = v
	}
	v, ok := raw.(T)
	if !ok {
		return zero, err
	}
	d := op.dep
	if d.observed {
		d.observer.Degraded(DegradedEvent{Dependency: d.name, Operation: op.name, Source: op.fallback.Kind, Age: age, Cause: err, Context: ctx})
	}
	return v, &DegradedError{Dependency: d.name, Operation: op.name, Source: op.fallback.Kind, Age: age, Cause: err}
}

// sleep waits for d or until ctx is done, and reports whether it slept the
// whole time.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// randDuration returns a random duration in [0, n).
func randDuration(n time.Duration) time.Duration {
	return time.Duration(rand.Int64N(int64(n)))
}
