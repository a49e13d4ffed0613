package runtime

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

// TestInvalidRequestEveryEntryPoint: a request with a CR/LF in a header
// value is the caller's error through every HTTP entry point (DoHTTP,
// DoHTTPStream, Relay under an http.Client, as the route transport uses it): a typed
// InvalidRequestError, nothing sent, no attempt, no retry, the breaker's
// counts, the retry budget's balance and the bulkhead as before the
// call, and no fallback. Fifty such calls in a row change none of it.
func TestInvalidRequestEveryEntryPoint(t *testing.T) {
	calls := []struct {
		name string
		call func(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request) error
	}{
		{"DoHTTP", func(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request) error {
			v, err := DoHTTP(ctx, op, c, req, decodePet, nil)
			if v != (testPet{}) {
				return errors.New("DoHTTP answered " + v.Name)
			}
			return err
		}},
		{"DoHTTPStream", func(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request) error {
			resp, err := DoHTTPStream(ctx, op, c, req, nil)
			if resp != nil {
				resp.Body.Close()
				return errors.New("DoHTTPStream handed over a response")
			}
			return err
		}},
		{"Relay", func(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request) error {
			relay := roundTripFunc(func(r *http.Request) (*http.Response, error) { return c.Relay(op, r, false) })
			resp, err := (&http.Client{Transport: relay}).Do(req)
			if resp != nil {
				resp.Body.Close()
				return errors.New("Relay handed over a response")
			}
			return err
		}},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				obs := &eventCounter{}
				d, err := NewDependency("pets", DependencyPolicy{}, WithObserver(obs), WithLogger(slog.New(slog.DiscardHandler)))
				if err != nil {
					t.Fatal(err)
				}
				op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly,
					Fallback: FallbackPolicy{Kind: FallbackStatic, Static: testPet{Name: "stale"}}})
				// Some budget in the bucket, so that a withdrawal would show.
				for range 100 {
					d.budget.onCall()
				}
				balance, counts := d.budget.balance.Load(), d.BreakerCounts()
				var dials atomic.Int64
				c := &HTTPClient{Doer: countingDoer(&dials)}
				for i := range 50 {
					req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://pets.test/pets/1", nil)
					req.Header.Set("X-Note", "a\r\nX-Injected: 1")
					err := tt.call(t.Context(), op, c, req)
					var ce *CallError
					var ie *InvalidRequestError
					switch {
					case !errors.Is(err, ErrInvalidRequest) || !errors.Is(err, ErrNotSent) || !errors.As(err, &ie):
						t.Fatalf("call %d: error = %v, want an invalid request, not sent", i, err)
					case IsDegraded(err):
						t.Fatalf("call %d: the fallback answered the caller's error: %v", i, err)
					case !errors.As(err, &ce) || ce.End != EndInvalidRequest || ce.Attempts != 0 || !ce.NotSent:
						t.Fatalf("call %d: CallError = %+v, want EndInvalidRequest, 0 attempts, not sent", i, ce)
					}
				}
				if n := dials.Load(); n != 0 {
					t.Errorf("%d dials, want none", n)
				}
				if s, c := d.BreakerState(), d.BreakerCounts(); s != BreakerClosed || c != counts {
					t.Errorf("breaker %v with counts %+v, want closed with %+v as before", s, c, counts)
				}
				if b := d.budget.balance.Load(); b != balance {
					t.Errorf("retry budget balance %d milli-tokens, want %d as before", b, balance)
				}
				if n := d.InFlight(); n != 0 {
					t.Errorf("InFlight() = %d, want 0", n)
				}
				if a, r, g := obs.attempts.Load(), obs.rejected.Load(), obs.degraded.Load(); a+r+g != 0 {
					t.Errorf("observer saw %d attempts, %d rejections, %d degraded answers; want none", a, r, g)
				}
			})
		})
	}
}

// TestDoHTTPStreamNotIdempotentDelivery: a failed streamed POST tells,
// from what was actually written, whether it never left (ErrNotSent) or
// may have been applied (ErrOutcomeUnknown), as DoHTTP does.
func TestDoHTTPStreamNotIdempotentDelivery(t *testing.T) {
	tests := []struct {
		name    string
		dial    func(ctx context.Context, l *pipeListener) (net.Conn, error)
		handler http.HandlerFunc
		want    error // ErrNotSent or ErrOutcomeUnknown
		other   error // must not match
	}{
		{
			name: "connection closed after the request was written",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.ReadAll(r.Body)
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
			},
			want: ErrOutcomeUnknown, other: ErrNotSent,
		},
		{
			name: "connection refused",
			dial: func(context.Context, *pipeListener) (net.Conn, error) { return nil, errors.New("connection refused") },
			want: ErrNotSent, other: ErrOutcomeUnknown,
		},
		{
			name:    "attempt timeout after the request was written",
			handler: func(w http.ResponseWriter, r *http.Request) { io.ReadAll(r.Body); <-r.Context().Done() },
			want:    ErrOutcomeUnknown, other: ErrNotSent,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			synctest.Test(t, func(t *testing.T) {
				h := tt.handler
				if h == nil {
					h = func(http.ResponseWriter, *http.Request) { t.Error("the server saw the request") }
				}
				rig := newHTTPRig(t, h)
				if tt.dial != nil {
					rig.tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) { return tt.dial(ctx, rig.l) }
				}
				op := testOperation(t, testDependency(t), OperationPolicy{Name: "Export", Idempotency: NotIdempotent,
					Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond})
				req, _ := http.NewRequest(http.MethodPost, rig.url+"/exports", strings.NewReader(`{"from":1}`))
				resp, err := DoHTTPStream(t.Context(), op, rig.client, req, nil)
				if resp != nil {
					resp.Body.Close()
					t.Fatal("DoHTTPStream handed over a response")
				}
				if !errors.Is(err, tt.want) {
					t.Errorf("error = %v, want it to match %v", err, tt.want)
				}
				if errors.Is(err, tt.other) {
					t.Errorf("error = %v, want it not to match %v", err, tt.other)
				}
				var ce *CallError
				if !errors.As(err, &ce) || ce.Attempts != 1 || ce.NotSent != (tt.want == ErrNotSent) {
					t.Errorf("CallError = %+v, want 1 attempt, NotSent %v", ce, tt.want == ErrNotSent)
				}
			})
		})
	}
}

// roundTripFunc is an http.RoundTripper of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
