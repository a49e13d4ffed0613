package runtime

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// Attempt is one try of an operation. It must honour ctx: when ctx is done
// the attempt's work must stop (close the socket, cancel the RPC) and the
// function return. Its error is classified through [outcome.Classifier] (see
// [outcome.Class]); an error that says nothing is [outcome.Transient].
type Attempt[T any] func(ctx context.Context) (T, error)

// Do runs one call of op through the pipeline and returns the first
// successful attempt's value. In order, outermost first:
//
//  1. Overall deadline: the caller's deadline capped by the operation's
//     total timeout, or kept as it is when the total only bounds calls
//     without a deadline ([OperationPolicy.KeepCallerDeadline]; a call
//     without one gets the total). It bounds everything below, backoff
//     included. A
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
// its class ([outcome.Classifier]), a delay asked for ([outcome.RetryAfterHinter]) and
// whether its request was sent ([outcome.DeliveryReporter], [MarkNotSent]); a
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
	deadline := op.deadline(ctx, now)
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

// deadline returns the overall deadline of a call starting at now: the
// total timeout from now for a call without a deadline; else ctx's
// deadline, capped by the total unless the total is undeclared
// (keepCallerDeadline), which never cuts a caller short.
func (o *Operation) deadline(ctx context.Context, now time.Time) time.Time {
	deadline := now.Add(o.timeout)
	cd, ok := ctx.Deadline()
	if ok && (o.keepCallerDeadline || cd.Before(deadline)) {
		return cd
	}
	return deadline
}

// Run is [Do] for attempts that return only an error.
func Run(ctx context.Context, op *Operation, attempt func(context.Context) error) error {
	_, err := Do(ctx, op, "", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, attempt(ctx)
	})
	return err
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
