package runtime

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// The attempt stage, innermost of the pipeline: one attempt under its own
// context (attempt timeout in force, adaptive state of adaptive.go), its
// breaker report, its latency record and its observer event.

// attemptResult is what one attempt produced and how the pipeline reads it.
type attemptResult[T any] struct {
	v     T
	err   error
	class outcome.Class
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
	return !r.interrupted && !r.timedOut && (r.class == outcome.Rejected || shed(r.class))
}

// runAttempt runs one attempt under actx, reports its outcome to the
// breaker through done (nil when the breaker is disabled) and to the
// observer, records its latency when the operation adapts to it, and
// classifies it. early says that actx ends at the attempt timeout, before
// the call's deadline: when that timeout ends the attempt, its breaker
// report is not made but returned in the result's held field.
func runAttempt[T any](ctx, actx context.Context, op *Operation, attempt Attempt[T], done func(error), n int, hedge, early bool) attemptResult[T] {
	d := op.dep
	var (
		span  AttemptSpan
		start time.Time
	)
	if d.observed || d.traced || op.adaptive() {
		actx, span, start = op.beginAttempt(ctx, actx, n, hedge)
	}
	v, err := attempt(actx)
	var elapsed time.Duration
	if !start.IsZero() {
		elapsed = time.Since(start)
	}
	r := attemptResult[T]{v: v, err: err}
	var j attemptVerdict // a success
	if err != nil {
		j = op.judge(ctx, actx, err, elapsed)
		r.err, r.class, r.timedOut, r.interrupted = j.err, j.class, j.timedOut, j.interrupted
	} else if op.adaptive() {
		op.observeLatency(elapsed)
	}
	d.throttle.record(j.accepted(err), j.shed(err))
	if done != nil {
		r.held = op.tellBreaker(done, &j, early)
	}
	if d.observed || span != nil {
		op.attemptEnded(actx, span, n, hedge, elapsed, err, r.class)
	}
	return r
}

// beginAttempt starts the clock of attempt n, whose duration someone
// reads (the observer, the adaptive timeouts, the trace), and its trace
// span.
func (o *Operation) beginAttempt(ctx, actx context.Context, n int, hedge bool) (_ context.Context, span AttemptSpan, start time.Time) {
	start = time.Now()
	if o.dep.traced {
		if tr := traceOf(ctx); tr != nil {
			actx, span = tr.startAttempt(actx, o, n, hedge)
		}
	}
	return actx, span, start
}

// attemptVerdict is how the pipeline reads the end of one attempt.
type attemptVerdict struct {
	// err is the attempt's error, wrapped when its own deadline ended it
	// without saying so.
	err         error
	class       outcome.Class
	timedOut    bool
	interrupted bool
	// breaker is the breaker's verdict: nil for a success,
	// errBreakerFailure or errBreakerExcluded.
	breaker error
	// unanswered: the dependency did not answer in the time a healthy one
	// takes (attempt timeout), whatever ended the attempt.
	unanswered bool
	// stalled: the deadline that ended the attempt was noticed late (see
	// stalledPast); the verdict is an exclusion, not a failure.
	stalled bool
}

// judge reads the end of an attempt that failed with err after elapsed:
// ctx is the call's context, actx the attempt's.
func (o *Operation) judge(ctx, actx context.Context, err error, elapsed time.Duration) attemptVerdict {
	j := attemptVerdict{err: err}
	switch {
	case ctx.Err() != nil:
		j.interrupted = true
		j.breaker = errBreakerExcluded
		// The caller's deadline ended an attempt that had at least the
		// attempt timeout, the time a healthy dependency answers in: the
		// dependency failed. A shorter deadline, or a cancellation, says
		// nothing of it.
		if o.attemptTimeout > 0 && elapsed >= o.attemptTimeout && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			j.unanswered = true
			j.judgeUnanswered(o, ctx)
		}
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		j.timedOut, j.class = true, outcome.Transient
		if !errors.Is(err, context.DeadlineExceeded) {
			// A gRPC status, or a stream cancelled by its attempt's
			// end: let the caller still find the deadline.
			j.err = attemptTimedOut{err}
		}
		j.unanswered = true
		j.judgeUnanswered(o, actx)
	case actx.Err() != nil:
		j.interrupted = true
		j.breaker = errBreakerExcluded
	default:
		j.class = classify(err)
		var late *dialStalledError
		switch {
		case breakerFailure(j.class) && errors.As(err, &late):
			// A connect timeout the process noticed late: see
			// stallAwareDial.
			j.breaker, j.stalled = errBreakerExcluded, true
		case breakerFailure(j.class):
			j.breaker = errBreakerFailure
		case shed(j.class), j.class == outcome.Permanent:
			// Pacing, or a failure on the caller's side: says nothing of
			// the dependency's health.
			j.breaker = errBreakerExcluded
		}
		// Rejected: the dependency answered as it should, a success.
	}
	return j
}

// judgeUnanswered gives the breaker's verdict on an attempt that ended at
// the deadline of dctx without an answer: a failure of the dependency,
// unless the process noticed that deadline late (stalledPast), which says
// that its own goroutines were waiting for a core: the answer may have
// been waiting unread, so the attempt is excluded and does not extend the
// run of unanswered attempts.
func (j *attemptVerdict) judgeUnanswered(o *Operation, dctx context.Context) {
	j.breaker = errBreakerFailure
	if dl, ok := dctx.Deadline(); ok && o.stalledPast(dl) {
		j.breaker, j.unanswered, j.stalled = errBreakerExcluded, false, true
	}
}

// stallShare is the share of the attempt timeout in force (of the total
// timeout when there is none) by which the process may notice an
// attempt's deadline late before the runtime takes the attempt's end for
// a stall of its own rather than a silence of the dependency: a quarter.
// A process that runs notices a deadline within microseconds; one whose
// goroutines wait for a core (a starved machine, a CPU quota spent, a long
// pause) notices every deadline that passed meanwhile at once, and
// counting those as failures would open the breaker on a dependency that
// answered.
const stallShare = 0.25

// stalledPast reports whether deadline, which ended an attempt, passed
// longer ago than stallShare of the attempt timeout in force.
func (o *Operation) stalledPast(deadline time.Time) bool {
	budget := o.effectiveAttemptTimeout()
	if budget <= 0 {
		budget = o.timeout
	}
	return budget > 0 && time.Since(deadline) > time.Duration(float64(budget)*stallShare)
}

// accepted reports whether the dependency accepted the attempt, for the
// throttle: it answered (err nil) with anything but a refusal for lack of
// capacity.
func (j *attemptVerdict) accepted(err error) bool {
	return err == nil || !j.interrupted && !j.timedOut && (j.class == outcome.Rejected || j.class == outcome.Failed)
}

// shed reports whether the dependency refused the attempt for lack of
// capacity (503, 429, RESOURCE_EXHAUSTED…), for the throttle.
func (j *attemptVerdict) shed(err error) bool {
	return err != nil && !j.interrupted && !j.timedOut && shed(j.class)
}

// observeLatency records a successful attempt's latency, for an operation
// that adapts its timeouts to it, and tells the dependency's slowdown
// detector.
func (o *Operation) observeLatency(elapsed time.Duration) {
	at := o.effectiveAttemptTimeout()
	late := at > 0 && elapsed > at
	o.latency.observe(elapsed, late)
	if o.attemptTimeout > 0 {
		o.dep.noteSlowdown(elapsed, o.attemptTimeout, late)
	}
}

// tellBreaker reports an attempt's verdict j to the breaker through done,
// unless its attempt timeout cut it early (before the call's deadline):
// that report is returned instead, for heldVerdicts.
func (o *Operation) tellBreaker(done func(error), j *attemptVerdict, early bool) (held func(error)) {
	d := o.dep
	switch {
	case j.stalled:
		// Excluded at once: neither held for the call's end nor a link
		// in the run of unanswered attempts.
	case j.timedOut && early:
		return done
	case j.unanswered:
		d.breaker.noteUnanswered(1)
	case !j.interrupted:
		d.breaker.noteReaction()
	}
	done(j.breaker)
	d.report()
	return nil
}

// attemptEnded tells the observer and the attempt's trace span that
// attempt n ended after elapsed with err, read as class.
func (o *Operation) attemptEnded(actx context.Context, span AttemptSpan, n int, hedge bool, elapsed time.Duration, err error, class outcome.Class) {
	d := o.dep
	ev := AttemptEvent{Dependency: d.name, Operation: o.name, Attempt: n, Hedge: hedge,
		Duration: elapsed, Err: err, Class: class, Context: actx}
	if d.observed {
		d.observer.Attempt(ev)
	}
	if span != nil {
		span.End(ev)
	}
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
// attempt may end before the deadline. An attempt timeout that is a
// guess (guessedAttempts) cuts no attempt of a call with a caller's
// deadline. When ctx's own deadline is already the earliest it is
// returned as is, with a nil cancel.
func (o *Operation) attemptContext(ctx context.Context, deadline time.Time, retry int, held *heldVerdicts) (actx context.Context, cancel context.CancelFunc, early bool) {
	ad := deadline
	if o.attemptTimeout > 0 && !(o.guessedAttempts && hasDeadline(ctx)) {
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

// hasDeadline reports whether ctx carries a deadline (the caller's).
func hasDeadline(ctx context.Context) bool {
	_, ok := ctx.Deadline()
	return ok
}
