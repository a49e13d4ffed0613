package runtime

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"os"
	"testing"
	"testing/synctest"
	"time"
)

// TestStallAwareDial: a connect timeout returned on time is the dial's
// error as is; one returned more than a quarter of the timeout late (the
// process was stalled) is a *dialStalledError that still unwraps to it.
// Other errors, and a dial the caller's context ended, pass through.
func TestStallAwareDial(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 40 * time.Millisecond
		timedOut := &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
		refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
		for _, tc := range []struct {
			took   time.Duration
			err    error
			cancel bool
			late   bool
		}{
			{took: timeout, err: timedOut},
			{took: timeout + timeout/4, err: timedOut},
			{took: timeout + timeout/4 + time.Millisecond, err: timedOut, late: true},
			{took: 3 * timeout, err: timedOut, late: true},
			{took: 3 * timeout, err: refused},
			{took: 3 * timeout, err: timedOut, cancel: true},
		} {
			ctx, cancel := context.WithCancel(t.Context())
			dial := stallAwareDial(func(context.Context, string, string) (net.Conn, error) {
				time.Sleep(tc.took) // the goroutine notices the timeout only now
				if tc.cancel {
					cancel()
				}
				return nil, tc.err
			}, timeout)
			_, err := dial(ctx, "tcp", "127.0.0.1:1")
			cancel()
			var late *dialStalledError
			if errors.As(err, &late) != tc.late || !errors.Is(err, tc.err) {
				t.Errorf("dial error %v after %v (cancelled %v): %v, want stalled %v and the dial's error within", tc.err, tc.took, tc.cancel, err, tc.late)
			}
		}
	})
}

// TestStalledDialIsNotABreakerFailure: attempts failing with a connect
// timeout noticed late (wrapped as net/http wraps it) never open the
// breaker; the same timeouts noticed in time do.
func TestStalledDialIsNotABreakerFailure(t *testing.T) {
	for _, stalled := range []bool{true, false} {
		d, err := NewDependency("dep", DependencyPolicy{Breaker: BreakerPolicy{MinimumCalls: 5}}, WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		op, err := d.Operation(OperationPolicy{Name: "Op", Idempotency: NotIdempotent})
		if err != nil {
			t.Fatal(err)
		}
		var dialErr error = &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
		if stalled {
			dialErr = &dialStalledError{err: dialErr}
		}
		for range 10 {
			Do(t.Context(), op, "", func(context.Context) (string, error) {
				return "", &url.Error{Op: "Get", URL: "http://127.0.0.1:1/", Err: dialErr}
			})
		}
		c := d.BreakerCounts()
		if open := d.BreakerState() == BreakerOpen; open == stalled || stalled && (c.Failures != 0 || c.Exclusions != 10) {
			t.Errorf("dial timeouts noticed late %v: breaker %v, counts %+v; want open only when noticed in time", stalled, d.BreakerState(), c)
		}
	}
}
