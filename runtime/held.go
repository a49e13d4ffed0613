package runtime

import (
	"context"
	"sync"
	"time"
)

// DoHeld is [Do] for calls whose result keeps using the dependency after the
// pipeline returns, such as a gRPC stream or a streamed response body: on
// success it keeps the call's bulkhead permit, and release gives it back.
// release must be called once the result is no longer in use (the stream
// ended, the body was closed); calling it again does nothing. On failure the
// permit is already given back and release is a no-op; it is never nil.
//
// Everything else is as in [Do]: deadline, bulkhead, retries, breaker,
// attempt timeout, hedging and fallback. A fallback answer does not hold a
// permit.
func DoHeld[T any](ctx context.Context, op *Operation, key string, attempt Attempt[T]) (v T, release func(), err error) {
	var zero T
	noop := func() {}
	if ctx.Err() != nil {
		return zero, noop, op.stopped(ctx, 0, nil)
	}
	d := op.dep
	deadline := time.Now().Add(op.timeout)
	if cd, ok := ctx.Deadline(); ok && cd.Before(deadline) {
		deadline = cd
	}
	waited, ok, err := d.bulkhead.acquire(ctx, deadline)
	if !ok {
		if err != nil {
			return zero, noop, op.stopped(ctx, 0, nil)
		}
		if d.observed {
			d.observer.Rejected(RejectedEvent{Dependency: d.name, Operation: op.name, Reason: RejectBulkheadFull})
		}
		v, err := fallback[T](ctx, op, key, &BulkheadFullError{Dependency: d.name, Operation: op.name, MaxConcurrent: cap(d.bulkhead.sem), Waited: waited})
		return v, noop, err
	}
	d.budget.onCall()
	v, err = retryLoop(ctx, op, deadline, attempt)
	if err != nil {
		d.bulkhead.release()
		v, err = fallback[T](ctx, op, key, err)
		return v, noop, err
	}
	if op.fallback.Kind == FallbackCached {
		d.store.Store(op.storeKey(key), v, time.Now())
	}
	return v, sync.OnceFunc(d.bulkhead.release), nil
}
