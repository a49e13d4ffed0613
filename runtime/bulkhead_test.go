package runtime

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// fullBulkhead returns a bulkhead of one permit with a wait of 10ms, its
// permit taken.
func fullBulkhead(t *testing.T) *bulkhead {
	t.Helper()
	b := newBulkhead(BulkheadPolicy{MaxConcurrent: 1, MaxWait: 10 * time.Millisecond})
	if !b.tryAcquire() {
		t.Fatal("a new bulkhead has no free permit")
	}
	return b
}

// TestBulkheadTimerFiringAsAPermitFrees: the wait timer has fired and a
// permit is free when the waiter looks; the waiter takes the permit. A
// select between the two, both ready, picks either at random, so a waiter
// that refuses on the timer alone is refused about every other time.
func TestBulkheadTimerFiringAsAPermitFrees(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		refused := 0
		for range 64 {
			b := fullBulkhead(t)
			start := time.Now()
			timer := time.NewTimer(b.maxWait)
			time.Sleep(b.maxWait) // the timer fires…
			b.release()           // …as the call holding the permit ends
			waited, ok, err := b.await(t.Context(), timer, start, start.Add(b.maxWait), start.Add(time.Second))
			timer.Stop()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				refused++
			}
			if waited != b.maxWait {
				t.Errorf("waited %v, want %v", waited, b.maxWait)
			}
		}
		if refused > 0 {
			t.Errorf("%d of 64 waiters refused while a permit was free", refused)
		}
	})
}

// TestBulkheadWaitDiscountsAStall: a waiter that notices its timer 20ms
// late (its process was stalled) waits its 10ms once more, and takes the
// permit freed 5ms later; the stall is not counted as waiting for a
// permit.
func TestBulkheadWaitDiscountsAStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := fullBulkhead(t)
		start := time.Now()
		timer := time.NewTimer(b.maxWait)
		defer timer.Stop()
		released := make(chan struct{})
		go func() {
			defer close(released)
			time.Sleep(35 * time.Millisecond)
			b.release()
		}()
		time.Sleep(30 * time.Millisecond) // noticed 20ms late
		waited, ok, err := b.await(t.Context(), timer, start, start.Add(b.maxWait), start.Add(time.Second))
		<-released
		if err != nil || !ok || waited != 35*time.Millisecond {
			t.Errorf("await = %v, %v, %v; want the permit freed 5ms after the stall, after 35ms", waited, ok, err)
		}
	})
}

// TestBulkheadStallWaitEndsAtTheDeadline: the wait a stall adds never
// passes the call's deadline.
func TestBulkheadStallWaitEndsAtTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := fullBulkhead(t)
		start := time.Now()
		timer := time.NewTimer(b.maxWait)
		defer timer.Stop()
		time.Sleep(30 * time.Millisecond)
		waited, ok, err := b.await(t.Context(), timer, start, start.Add(b.maxWait), start.Add(35*time.Millisecond))
		if err != nil || ok {
			t.Fatalf("await = %v, %v, %v; want a refusal", waited, ok, err)
		}
		if waited != 35*time.Millisecond {
			t.Errorf("waited %v, want 35ms: up to the deadline", waited)
		}
		b.release()
	})
}

// TestBulkheadWaitsOnceMoreAfterAStall: a waiter whose first timer was
// noticed late waits maxWait once more (up to the deadline); one whose
// timer was noticed on time, or whose second timer was noticed late too
// (its process stays starved), is refused, so that a refusal waits at
// most twice maxWait and the stalls.
func TestBulkheadWaitsOnceMoreAfterAStall(t *testing.T) {
	b := fullBulkhead(t)
	due := time.Now()
	far := due.Add(time.Second)
	for _, c := range []struct {
		first    bool
		late     time.Duration
		deadline time.Time
		want     time.Duration
	}{
		{true, 20 * time.Millisecond, far, b.maxWait},
		{true, 2 * time.Millisecond, far, 0}, // within a quarter of the wait: on time
		{false, 20 * time.Millisecond, far, 0},
		{true, 20 * time.Millisecond, due.Add(24 * time.Millisecond), 4 * time.Millisecond},
		{true, 20 * time.Millisecond, due.Add(10 * time.Millisecond), 0},
	} {
		if got := b.extension(c.first, due, due.Add(c.late), c.deadline); got != c.want {
			t.Errorf("extension(first %v, %v late, deadline in %v) = %v, want %v", c.first, c.late, c.deadline.Sub(due), got, c.want)
		}
	}
}

// TestBulkheadFullRefusesAfterItsWait: on a process that notices its
// timers on time, a bulkhead whose permits stay taken refuses after
// exactly its wait, and one whose permit frees within it admits.
func TestBulkheadFullRefusesAfterItsWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := fullBulkhead(t)
		waited, ok, err := b.acquire(t.Context(), time.Now().Add(time.Second))
		if err != nil || ok || waited != b.maxWait {
			t.Errorf("acquire = %v, %v, %v; want a refusal after %v", waited, ok, err, b.maxWait)
		}
		go func() {
			time.Sleep(4 * time.Millisecond)
			b.release()
		}()
		waited, ok, err = b.acquire(t.Context(), time.Now().Add(time.Second))
		if err != nil || !ok || waited != 4*time.Millisecond {
			t.Errorf("acquire = %v, %v, %v; want the permit freed after 4ms", waited, ok, err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			time.Sleep(2 * time.Millisecond)
			cancel()
		}()
		if _, ok, err := b.acquire(ctx, time.Now().Add(time.Second)); ok || err != context.Canceled {
			t.Errorf("acquire with a cancelled context = %v, %v; want context.Canceled", ok, err)
		}
	})
}
