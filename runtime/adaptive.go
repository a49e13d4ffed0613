package runtime

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// adaptiveGain is the size of the steps of the streaming quantile
// estimates: an answer above an estimate raises it by gain × q (18 % for
// the p90), an answer below lowers it by gain × (1-q) (2 % for the p90,
// 0.2 % for the p99). The estimate settles where a share 1-q of the answers
// is above it, climbs a tenfold slowdown in about fifteen answers and
// forgets a lifted p99 over a few hundred.
const adaptiveGain = 0.2

// latencyTracker follows the latency of an operation's successful attempts
// with two streaming quantile estimates: the p90, for the hedge delay, and
// the p99, for the attempt timeout. The hedge delay follows the p90 rather
// than the p95 it stands for: a tail of a twentieth of slow answers, the
// very thing hedging cuts, would put a p95 estimate at its edge and the
// delay above it. Each estimate is one atomic integer of nanoseconds, zero
// until the first answer; an update is one compare-and-swap. The tracker
// is shared by an [Operation] and the copies [Operation.With] makes, and
// safe for concurrent use.
type latencyTracker struct {
	p90, p99 atomic.Int64
}

// observe records a successful attempt that took d. jump says that the
// attempt ran past the operation's current attempt timeout, which only an
// attempt that no retry could follow does: its answer would have been lost
// to the timeout, so both estimates move up to d at once instead of by a
// step.
func (t *latencyTracker) observe(d time.Duration, jump bool) {
	if d <= 0 {
		return
	}
	stepQuantile(&t.p90, int64(d), 0.90, jump)
	stepQuantile(&t.p99, int64(d), 0.99, jump)
}

// stepQuantile moves the estimate of quantile q held in a towards x.
func stepQuantile(a *atomic.Int64, x int64, q float64, jump bool) {
	for {
		old := a.Load()
		var next int64
		switch {
		case old == 0, jump && x > old:
			next = x
		case x > old:
			next = old + max(1, int64(float64(old)*adaptiveGain*q))
		case x < old:
			next = max(1, old-max(1, int64(float64(old)*adaptiveGain*(1-q))))
		default:
			return
		}
		if a.CompareAndSwap(old, next) {
			return
		}
	}
}

// adaptive reports whether the operation follows its latency: it has an
// attempt timeout or a hedge delay to adapt.
func (o *Operation) adaptive() bool { return o.attemptTimeout > 0 || o.hedgeDelay > 0 }

// effectiveAttemptTimeout returns the attempt timeout in force: the
// policy's, [AdaptiveHeadroom] × the observed p99, or the policy's scaled
// by the dependency's slowdown (see slowdown) and the headroom, whichever
// is longest. Zero when the operation has no attempt timeout.
func (o *Operation) effectiveAttemptTimeout() time.Duration {
	at := o.attemptTimeout
	if at <= 0 {
		return 0
	}
	if p := time.Duration(float64(o.latency.p99.Load()) * AdaptiveHeadroom); p > at {
		at = p
	}
	if s := o.dep.slowdown.Load(); s > slowdownUnit {
		if p := time.Duration(float64(o.attemptTimeout) * float64(s) / slowdownUnit * AdaptiveHeadroom); p > at {
			at = p
		}
	}
	return at
}

// effectiveHedgeDelay returns the hedge delay in force: the policy's, or
// [AdaptiveHeadroom] × the observed p90 when that is longer, so that a
// dependency that slowed down as a whole does not get every read twice.
func (o *Operation) effectiveHedgeDelay() time.Duration {
	return max(o.hedgeDelay, time.Duration(float64(o.latency.p90.Load())*AdaptiveHeadroom))
}

// slowdownUnit is the fixed-point unit of a dependency's slowdown: 1000
// stands for "as fast as the policies say".
const slowdownUnit = 1000

// noteSlowdown updates the dependency's slowdown with a successful attempt
// of an operation whose attempt timeout's floor is floor. An answer that
// came after the attempt timeout in force (late) says the whole dependency
// may have slowed down: the slowdown becomes at least elapsed / floor, so
// that every operation's attempt timeout grows with it at once instead of
// each learning it from its own cut attempts, and the bulkhead admits as
// many more calls (bulkhead.follow). An answer faster than the slowdown
// says lowers it by 0.2 %, as the p99 estimates forget; answers as slow as
// it says keep it.
func (d *Dependency) noteSlowdown(elapsed, floor time.Duration, late bool) {
	ratio := int64(elapsed) * slowdownUnit / int64(floor)
	for {
		old := d.slowdown.Load()
		var next int64
		switch {
		case late:
			next = max(old, ratio)
		case old > slowdownUnit && ratio < old:
			next = max(slowdownUnit, old-max(1, old/500))
		default:
			return
		}
		if next == old {
			return
		}
		if d.slowdown.CompareAndSwap(old, next) {
			d.bulkhead.follow(next)
			return
		}
	}
}

// EffectiveAttemptTimeout returns the attempt timeout the next attempt
// would get if a retry could follow it: the policy's attempt timeout, or
// [AdaptiveHeadroom] times the observed p99 latency of the operation's
// successful attempts, or the policy's scaled up by the slowdown the
// dependency last showed, whichever is longest. Zero when the operation
// has no attempt timeout. See the package documentation, "Timeouts that do
// not manufacture outages".
func (o *Operation) EffectiveAttemptTimeout() time.Duration { return o.effectiveAttemptTimeout() }

// EffectiveHedgeDelay returns the hedge delay in force: the policy's, or
// [AdaptiveHeadroom] times the observed p90 latency of the operation's
// successful attempts when that is longer. Zero when the operation does not
// hedge.
func (o *Operation) EffectiveHedgeDelay() time.Duration {
	if o.hedgeDelay <= 0 {
		return 0
	}
	return o.effectiveHedgeDelay()
}

// attemptTimeoutAfter returns the attempt timeout of an attempt that
// follows cut attempts of the same call cut by their timeout: the timeout in
// force doubled for each, as TCP doubles its retransmission timeout (RFC
// 6298 §5.5). A timeout is a hint that the timeout is too short; the retry
// that follows it waits longer, so that a dependency that slowed down is
// answered by the second attempt rather than only by the last.
func (o *Operation) attemptTimeoutAfter(cut int) time.Duration {
	at := o.effectiveAttemptTimeout()
	for ; cut > 0 && at < o.timeout; cut-- {
		at *= 2
	}
	return at
}

// retryCanFollow reports whether an attempt started now, as retry number
// retry (from 0), may be cut by the attempt timeout at because a retry
// could still follow it: the operation may retry and has retries left,
// after the attempt timeout and the longest backoff before that retry
// there is as much time left as this attempt had (and at least the least
// time an attempt needs), so that the retry is a real second chance and
// not a shorter one doomed to the deadline, and the retry budget's
// balance pays for that retry now (held.reserved; the retry then uses it,
// and settle gives it back if no retry is made). Otherwise the attempt is
// the call's last and runs to the deadline: cutting it would turn a slow
// answer into an error and gain nothing.
func (o *Operation) retryCanFollow(retry int, now, deadline time.Time, at time.Duration, held *heldVerdicts) bool {
	if o.idempotency == NotIdempotent || retry >= o.maxRetries {
		return false
	}
	if deadline.Sub(now)-at-o.backoffCeiling(retry) < max(at, o.minAttempt) {
		return false
	}
	if !held.reserved {
		held.floor, held.reserved = o.dep.budget.reserve()
	}
	return held.reserved
}

// backoffCeiling returns the longest backoff before retry n (from 0):
// min(cap, base·2^n).
func (o *Operation) backoffCeiling(n int) time.Duration {
	if n < 63 && o.base <= o.cap>>n {
		return o.base << n
	}
	return o.cap
}

// heldVerdicts holds the breaker outcomes of a call's attempts that their
// attempt timeout cut short while a retry could follow, until the call ends.
// Such an attempt says only that the dependency is slower than the attempt
// timeout; the rest of the call says whether it is failing. If a later
// attempt is answered (a success, a rejection, a throttling), the held
// attempts were slow, not failed, and are reported to the breaker as
// exclusions; if no attempt is answered, they are failures; if the caller
// cancelled, they are exclusions like the cancellation itself.
type heldVerdicts struct {
	done [4]func(error)
	n    int
	// cut counts the call's attempts cut by their attempt timeout; each
	// doubles the next attempt's (see attemptTimeoutAfter).
	cut      int
	answered bool
	// reserved: a retry was taken from the budget for an attempt that
	// may be cut (retryCanFollow); the next retry uses it, settle gives it
	// back when none is made. floor is its reservation when it came from
	// the budget's floor.
	reserved bool
	floor    *rate.Reservation
}

// hold keeps done, an early-cut attempt's breaker report, for settle. More
// than the array holds (five or more retries cut in one call) are reported
// at once as failures.
func (h *heldVerdicts) hold(done func(error)) {
	h.cut++
	if h.n < len(h.done) {
		h.done[h.n] = done
		h.n++
		return
	}
	done(errBreakerFailure)
}

// settle gives back a retry reserved and not made, and reports the held
// attempts, once the call has ended.
func (h *heldVerdicts) settle(ctx context.Context, d *Dependency) {
	if h.reserved {
		d.budget.unreserve(h.floor)
		h.reserved, h.floor = false, nil
	}
	if h.n == 0 {
		return
	}
	verdict := errBreakerFailure
	if h.answered || errors.Is(ctx.Err(), context.Canceled) {
		verdict = errBreakerExcluded
	} else {
		d.breaker.noteUnanswered(h.n)
	}
	for i := range h.n {
		h.done[i](verdict)
		h.done[i] = nil
	}
	h.n = 0
	d.report()
}
