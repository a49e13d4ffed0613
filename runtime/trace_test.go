package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
	"github.com/resilientgo/resilient/runtime/stream"
	"go.uber.org/goleak"
)

// recTracer records the spans the pipeline starts, as lines.
type recTracer struct {
	mu    sync.Mutex
	lines []string
}

type spanKey struct{}

func (r *recTracer) log(format string, args ...any) {
	r.mu.Lock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recTracer) StartCall(ctx context.Context, c CallInfo) (context.Context, CallSpan) {
	r.log("call %s %s held=%v", c.Dependency, c.Operation, c.Held)
	return context.WithValue(ctx, spanKey{}, "call"), &recCall{r: r}
}

type recCall struct{ r *recTracer }

func (c *recCall) StartAttempt(ctx context.Context, a AttemptInfo) (context.Context, AttemptSpan) {
	if ctx.Value(spanKey{}) != "call" {
		c.r.log("attempt %d: not under the call's context", a.Attempt)
	}
	reason := ""
	if a.Retry != nil {
		reason = fmt.Sprintf(" retry after attempt %d (%v, %v)", a.Retry.Attempt, classify(a.Retry.Err), a.Retry.Delay)
	}
	c.r.log("attempt %d hedge=%v breaker=%v%s", a.Attempt, a.Hedge, a.Breaker, reason)
	return context.WithValue(ctx, spanKey{}, fmt.Sprint("attempt ", a.Attempt)), &recAttempt{r: c.r}
}

func (c *recCall) End(e CallEnd) {
	c.r.log("end attempts=%d wait=%v held=%v err=%v", e.Attempts, e.BulkheadWait, e.Held, e.Err)
}

type recAttempt struct{ r *recTracer }

func (a *recAttempt) End(ev AttemptEvent) {
	a.r.log("attempt %d done: %v (ctx %v)", ev.Attempt, ev.Err, ev.Context.Value(spanKey{}))
}

// TestTracerSpans: a call's span, one per attempt with why it is a retry,
// the attempt's context carrying its span, and the end with the attempts
// and the error.
func TestTracerSpans(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rec := &recTracer{}
		d, err := NewDependency("pets", DependencyPolicy{}, WithTracer(rec))
		if err != nil {
			t.Fatal(err)
		}
		op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: 2 * time.Second, Retry: RetryPolicy{DisableJitter: true}})
		n := 0
		v, err := Do(t.Context(), op, "", func(ctx context.Context) (string, error) {
			n++
			if got := ctx.Value(spanKey{}); got != fmt.Sprint("attempt ", n) {
				t.Errorf("attempt %d runs under %v", n, got)
			}
			if n == 1 {
				return "", &RemoteError{Status: 503, Class: outcome.Transient}
			}
			return "Rex", nil
		})
		if v != "Rex" || err != nil {
			t.Fatalf("Do = %q, %v", v, err)
		}
		want := []string{
			"call pets GetPet held=false",
			"attempt 1 hedge=false breaker=closed",
			"attempt 1 done: resilient: remote error 503 (ctx attempt 1)",
			"attempt 2 hedge=false breaker=closed retry after attempt 1 (transient, 100ms)",
			"attempt 2 done: <nil> (ctx attempt 2)",
			"end attempts=2 wait=0s held=false err=<nil>",
		}
		if got := rec.lines; fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("spans:\n%q\nwant\n%q", got, want)
		}
	})
}

// TestTracerHedgeAndRefusals: a hedge gets its own attempt span; a call
// the bulkhead refuses ends its span with the CallError and no attempt.
func TestTracerHedgeAndRefusals(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rec := &recTracer{}
		d, err := NewDependency("pets", DependencyPolicy{Bulkhead: BulkheadPolicy{MaxConcurrent: 4, DisableWait: true}}, WithTracer(rec))
		if err != nil {
			t.Fatal(err)
		}
		op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: 2 * time.Second, Hedge: HedgePolicy{Delay: 50 * time.Millisecond}})
		n := 0
		var mu sync.Mutex
		v, err := Do(t.Context(), op, "", func(ctx context.Context) (int, error) {
			mu.Lock()
			n++
			me := n
			mu.Unlock()
			if me == 1 {
				<-ctx.Done()
				return 0, ctx.Err()
			}
			return me, nil
		})
		if v != 2 || err != nil {
			t.Fatalf("Do = %d, %v, want the hedge's 2", v, err)
		}
		synctest.Wait()
		rec.mu.Lock()
		got := fmt.Sprintf("%q", rec.lines)
		rec.mu.Unlock()
		for _, want := range []string{"attempt 2 hedge=true breaker=closed", "end attempts=2 wait=0s held=false err=<nil>"} {
			if !contains(rec.lines, want) {
				t.Errorf("spans %s lack %q", got, want)
			}
		}

		rec.lines = nil
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				DoHeld(t.Context(), op, "", func(context.Context) (int, error) { return 1, nil })
			})
		}
		wg.Wait() // all hold a permit: their release is never called
		_, err = Do(t.Context(), op, "", func(context.Context) (int, error) { return 1, nil })
		if !errors.Is(err, ErrBulkheadFull) {
			t.Fatalf("Do = %v, want ErrBulkheadFull", err)
		}
		if last := rec.lines[len(rec.lines)-1]; last != "end attempts=0 wait=0s held=false err="+err.Error() {
			t.Errorf("last span line %q, want the refusal's end", last)
		}
	})
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// TestTracerStreamEndsAtRelease: a streamed answer's call span ends when
// the stream ends, with the read error that ended it.
func TestTracerStreamEndsAtRelease(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			w.Write([]byte("data: {}\n\n"))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}))
		rec := &recTracer{}
		d, err := NewDependency("pets", DependencyPolicy{}, WithTracer(rec))
		if err != nil {
			t.Fatal(err)
		}
		op := testOperation(t, d, OperationPolicy{Name: "Watch", Idempotency: ReadOnly, Timeout: time.Second})
		resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/watch"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if last := rec.lines[len(rec.lines)-1]; last != "attempt 1 done: <nil> (ctx attempt 1)" {
			t.Errorf("before the stream ends, the last span line is %q", last)
		}
		s := stream.NewEvents[struct{}](resp, nil)
		for s.Next() {
		}
		if last := rec.lines[len(rec.lines)-1]; last != "end attempts=1 wait=0s held=true err=unexpected EOF" {
			t.Errorf("after the stream ends, the last span line is %q", last)
		}
	})
}

// transportTracer is a Tracer whose Transport marks the transports it
// wraps.
type transportTracer struct{ Tracer }

type markedTransport struct{ base http.RoundTripper }

func (m markedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return m.base.RoundTrip(r)
}

func (transportTracer) Transport(base http.RoundTripper) http.RoundTripper {
	return markedTransport{base}
}

func TestTraceTransport(t *testing.T) {
	base := http.DefaultTransport
	plain, err := NewDependency("pets", DependencyPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.TraceTransport(base); got != base {
		t.Errorf("TraceTransport without a tracer = %T, want the base", got)
	}
	traced, err := NewDependency("pets", DependencyPolicy{}, WithTracer(transportTracer{}))
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := traced.TraceTransport(base).(markedTransport); !ok || got.base != base {
		t.Errorf("TraceTransport with a TransportTracer = %T, want its Transport around the base", got)
	}
}
