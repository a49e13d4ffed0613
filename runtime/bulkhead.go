package runtime

import (
	"context"
	"time"
)

// bulkhead is a dependency's concurrency limit: a channel semaphore with a
// bounded wait. There is no queue beyond the goroutines waiting at most
// maxWait each.
type bulkhead struct {
	sem     chan struct{}
	maxWait time.Duration // <= 0: never wait
}

func newBulkhead(p BulkheadPolicy) *bulkhead {
	return &bulkhead{sem: make(chan struct{}, p.MaxConcurrent), maxWait: p.MaxWait}
}

// acquire takes a permit, waiting at most maxWait and never past deadline
// or the context. It returns how long it waited and whether it got one; a
// false result with a nil error is a rejection.
func (b *bulkhead) acquire(ctx context.Context, deadline time.Time) (time.Duration, bool, error) {
	select {
	case b.sem <- struct{}{}:
		return 0, true, nil
	default:
	}
	if b.maxWait <= 0 {
		return 0, false, nil
	}
	start := time.Now()
	wait := b.maxWait
	if left := deadline.Sub(start); left < wait {
		wait = left
	}
	if wait <= 0 {
		return 0, false, nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case b.sem <- struct{}{}:
		return time.Since(start), true, nil
	case <-t.C:
		return time.Since(start), false, nil
	case <-ctx.Done():
		return time.Since(start), false, ctx.Err()
	}
}

// tryAcquireSpare takes a permit only if, after it, a quarter of the
// permits are still free: the spare capacity hedges may use, so that a
// burst of hedges never turns calls away.
func (b *bulkhead) tryAcquireSpare() bool {
	if len(b.sem) >= cap(b.sem)-cap(b.sem)/4 {
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

// inFlight returns the number of permits taken.
func (b *bulkhead) inFlight() int { return len(b.sem) }
