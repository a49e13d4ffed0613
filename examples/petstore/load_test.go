package petstore

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestLoadModel: beyond its capacity every request of the store slows in
// proportion to the work in progress, the store's timeout answers 503,
// and requests abandoned by their caller keep costing until noticed.
func TestLoadModel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := new(Faults)
		m := LoadModel{Capacity: 2, Timeout: 100 * time.Millisecond, Notice: 30 * time.Millisecond}
		ctx := context.Background()

		// Within capacity: the plain service time.
		start := time.Now()
		if err := f.serveLoaded(ctx, 10*time.Millisecond, m); err != nil || time.Since(start) != 10*time.Millisecond {
			t.Fatalf("within capacity: err %v after %v, want nil after 10ms", err, time.Since(start))
		}
		if f.WorkInProgress() != 0 {
			t.Fatalf("work in progress %d after the request", f.WorkInProgress())
		}

		// Abandoned requests: their caller gives up after 5 ms; each stays
		// in progress 30 ms more (Notice).
		for range 3 {
			go func() {
				cctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
				defer cancel()
				if err := f.serveLoaded(cctx, 50*time.Millisecond, m); !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("abandoned request: %v", err)
				}
			}()
		}
		time.Sleep(10 * time.Millisecond)
		synctest.Wait()
		if got := f.WorkInProgress(); got != 3 {
			t.Fatalf("work in progress %d after the callers left, want 3 (not yet noticed)", got)
		}
		// A new request meets 4 in progress with capacity 2: twice as slow.
		start = time.Now()
		if err := f.serveLoaded(ctx, 10*time.Millisecond, m); err != nil || time.Since(start) != 20*time.Millisecond {
			t.Fatalf("over capacity: err %v after %v, want nil after 20ms", err, time.Since(start))
		}
		time.Sleep(30 * time.Millisecond)
		synctest.Wait()
		if got := f.WorkInProgress(); got != 0 {
			t.Fatalf("work in progress %d once noticed, want 0", got)
		}

		// Past the store's timeout: a 503 at the timeout, and the work
		// lingers for Notice.
		start = time.Now()
		var fe *FaultError
		if err := f.serveLoaded(ctx, 500*time.Millisecond, m); !errors.As(err, &fe) || fe.Status != 503 || time.Since(start) != 100*time.Millisecond {
			t.Fatalf("past the timeout: %v after %v, want a 503 after 100ms", err, time.Since(start))
		}
		if got := f.WorkInProgress(); got != 1 {
			t.Fatalf("work in progress %d right after the 503, want 1", got)
		}
		time.Sleep(31 * time.Millisecond)
		synctest.Wait()
		if got := f.WorkInProgress(); got != 0 {
			t.Fatalf("work in progress %d after Notice, want 0", got)
		}
	})
}

// TestLoadModelContention: with Contention, each request beyond capacity
// also takes more work per unit of overload, so the store's throughput
// falls as work in progress grows: a backlog serves fewer requests per
// second than the store serves at its capacity.
func TestLoadModelContention(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := new(Faults)
		m := LoadModel{Capacity: 2, Contention: 0.5}
		ctx := context.Background()
		// 7 requests hold the store: with the 8th, 8 in progress against a
		// capacity of 2, an overload of 4, so 4 × (1 + 0.5 × 3) = 10 times
		// the service time.
		release := make(chan struct{})
		for range 7 {
			go func() {
				cctx, cancel := context.WithCancel(ctx)
				defer cancel()
				go func() { <-release; cancel() }()
				f.serveLoaded(cctx, time.Hour, m)
			}()
		}
		synctest.Wait()
		start := time.Now()
		if err := f.serveLoaded(ctx, 10*time.Millisecond, m); err != nil || time.Since(start) != 100*time.Millisecond {
			t.Fatalf("8 in progress, capacity 2, contention 0.5: err %v after %v, want nil after 100ms", err, time.Since(start))
		}
		close(release)
		synctest.Wait()
		if got := f.WorkInProgress(); got != 0 {
			t.Fatalf("work in progress %d after the requests left, want 0", got)
		}
		m.Contention = 0
		f.SetLoad(m)
		if got := f.Load(); got != m {
			t.Fatalf("Load() = %+v after SetLoad(%+v)", got, m)
		}
	})
}
