package runtime

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// bulkhead is a dependency's concurrency limit: a channel semaphore with a
// bounded wait. There is no queue beyond the goroutines waiting at most
// maxWait each.
//
// The channel holds twice the policy's size; the slots above the limit in
// force are taken by the bulkhead itself (held), so that the limit can grow
// up to twice the policy's, and come back, without the hot path doing
// anything but one channel operation each way (see follow).
type bulkhead struct {
	sem     chan struct{}
	size    int           // the policy's MaxConcurrent
	maxWait time.Duration // <= 0: never wait

	mu   sync.Mutex   // serialises follow
	held atomic.Int64 // slots of sem taken by the bulkhead itself
}

func newBulkhead(p BulkheadPolicy) *bulkhead {
	b := &bulkhead{sem: make(chan struct{}, 2*p.MaxConcurrent), size: p.MaxConcurrent, maxWait: p.MaxWait}
	for range p.MaxConcurrent {
		b.sem <- struct{}{}
	}
	b.held.Store(int64(p.MaxConcurrent))
	return b
}

// limit returns the number of calls admitted at once now.
func (b *bulkhead) limit() int { return cap(b.sem) - int(b.held.Load()) }

// follow sets the limit to the policy's size times slowdown (in
// slowdownUnit thousandths), between the policy's size and twice it. A
// dependency that answers more slowly holds each call longer, so the same
// traffic needs more calls in flight (Little's law); only answers raise
// slowdown, so a dependency that answers nothing never widens the
// bulkhead. Growing gives back held slots at once; shrinking takes them
// back as calls end (a slot the bulkhead cannot take now it takes on a
// later call).
func (b *bulkhead) follow(slowdown int64) {
	target := int(min(max(int64(b.size)*slowdown/slowdownUnit, int64(b.size)), 2*int64(b.size)))
	if target == b.limit() || !b.mu.TryLock() {
		return
	}
	defer b.mu.Unlock()
	for b.limit() < target {
		<-b.sem // a slot the bulkhead held: there are held ones, so this never waits
		b.held.Add(-1)
	}
	for b.limit() > target {
		select {
		case b.sem <- struct{}{}:
			b.held.Add(1)
		default:
			return
		}
	}
}

// acquire takes a permit, waiting at most maxWait and never past deadline
// or the context. It returns how long it waited and whether it got one; a
// false result with a nil error is a rejection.
func (b *bulkhead) acquire(ctx context.Context, deadline time.Time) (time.Duration, bool, error) {
	if b.tryAcquire() {
		return 0, true, nil
	}
	if b.maxWait <= 0 {
		return 0, false, nil
	}
	start := time.Now()
	wait := min(b.maxWait, deadline.Sub(start))
	if wait <= 0 {
		return 0, false, nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	return b.await(ctx, t, start, start.Add(wait), deadline)
}

// await waits for a permit until the timer t, due at due, fires, and
// returns as acquire does. The wait does not count a stall of the caller's
// own as queueing:
//
//   - when t fires, a permit free at that moment is taken (one freed as the
//     timer fired, or while this goroutine waited for a core to notice it);
//     a call is never refused while a permit is free;
//   - a timer noticed more than stallShare of maxWait after it was due
//     says that the process itself was stalled (its goroutines waited for
//     a core, the calls holding permits with their answers in hand among
//     them): the call waits once more, for maxWait of a process that runs
//     again, up to the deadline, rather than refusing for a delay of its
//     own. A process that runs notices the timer within microseconds, so
//     a full bulkhead still refuses after maxWait; one that stays starved
//     refuses after the second wait, so that a refusal never waits more
//     than twice maxWait and the stalls.
func (b *bulkhead) await(ctx context.Context, t *time.Timer, start, due, deadline time.Time) (time.Duration, bool, error) {
	for again := true; ; again = false {
		select {
		case b.sem <- struct{}{}:
			return time.Since(start), true, nil
		case <-ctx.Done():
			return time.Since(start), false, ctx.Err()
		case <-t.C:
		}
		if b.tryAcquire() {
			return time.Since(start), true, nil
		}
		now := time.Now()
		more := b.extension(again, due, now, deadline)
		if more <= 0 {
			return now.Sub(start), false, nil
		}
		due = now.Add(more)
		t.Reset(more)
	}
}

// extension returns how much longer a waiter waits whose timer, due at
// due, it noticed at now (see await): maxWait, up to the deadline, after
// its first timer noticed late; zero, a refusal, otherwise.
func (b *bulkhead) extension(first bool, due, now, deadline time.Time) time.Duration {
	if !first || now.Sub(due) <= time.Duration(float64(b.maxWait)*stallShare) {
		return 0
	}
	return max(0, min(b.maxWait, deadline.Sub(now)))
}

// tryAcquireSpare takes a permit only if, after it, half the permits are
// still free: the spare capacity hedges may use. A healthy dependency
// keeps the bulkhead nearly empty, so this costs the tail nothing; when
// the dependency slows down and every read would be hedged, hedges stop
// before they crowd out calls.
func (b *bulkhead) tryAcquireSpare() bool {
	if l := b.limit(); b.inFlight() >= l-l/2 {
		return false
	}
	return b.tryAcquire()
}

// tryAcquire takes a permit only if one is free now.
func (b *bulkhead) tryAcquire() bool {
	select {
	case b.sem <- struct{}{}:
		return true
	default:
		return false
	}
}

func (b *bulkhead) release() { <-b.sem }

// inFlight returns the number of permits taken by calls.
func (b *bulkhead) inFlight() int { return len(b.sem) - int(b.held.Load()) }
