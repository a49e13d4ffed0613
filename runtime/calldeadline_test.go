package runtime_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/server"
)

// TestGuessedTimeoutKeepsCallerDeadline: a total timeout nobody declared
// (KeepCallerDeadline, or zero) bounds only calls without a deadline; a
// declared one caps every call, a caller's later deadline included.
// Each row's attempt reports the deadline the call's first attempt runs
// to.
func TestGuessedTimeoutKeepsCallerDeadline(t *testing.T) {
	guessedRead := runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 6300 * time.Millisecond,
		KeepCallerDeadline: true, AttemptTimeout: 2 * time.Second}
	tests := []struct {
		name   string
		policy runtime.OperationPolicy
		opts   []runtime.CallOption
		caller time.Duration // zero: no deadline
		want   time.Duration
	}{
		{name: "guess, caller 30s", policy: runtime.OperationPolicy{Timeout: 2 * time.Second, KeepCallerDeadline: true}, caller: 30 * time.Second, want: 30 * time.Second},
		{name: "guess, caller 1s", policy: runtime.OperationPolicy{Timeout: 2 * time.Second, KeepCallerDeadline: true}, caller: time.Second, want: time.Second},
		{name: "guess, no caller deadline", policy: runtime.OperationPolicy{Timeout: 2 * time.Second, KeepCallerDeadline: true}, want: 2 * time.Second},
		{name: "undeclared, caller 30s", caller: 30 * time.Second, want: 30 * time.Second},
		{name: "undeclared, no caller deadline", want: runtime.DefaultTimeout},
		{name: "declared, caller 30s", policy: runtime.OperationPolicy{Timeout: 2 * time.Second}, caller: 30 * time.Second, want: 2 * time.Second},
		{name: "declared, caller 1s", policy: runtime.OperationPolicy{Timeout: 2 * time.Second}, caller: time.Second, want: time.Second},
		// A retried read whose attempt timeout is a guess as well: the
		// caller's deadline is its first attempt's; without one, the
		// guessed attempt timeout cuts it so that a retry can follow.
		{name: "retried read, guesses, caller 30s", policy: guessedRead, caller: 30 * time.Second, want: 30 * time.Second},
		{name: "retried read, guesses, no caller deadline", policy: guessedRead, want: 2 * time.Second},
		{name: "retried read, declared attempt, caller 30s", policy: runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 6300 * time.Millisecond,
			AttemptTimeout: 2 * time.Second}, caller: 30 * time.Second, want: 2 * time.Second},
		{name: "retried read, guesses, WithAttemptTimeout", policy: guessedRead, opts: []runtime.CallOption{runtime.WithAttemptTimeout(time.Second)},
			caller: 30 * time.Second, want: time.Second},
		{name: "guess overridden by WithTimeout", policy: runtime.OperationPolicy{Timeout: 2 * time.Second, KeepCallerDeadline: true},
			opts: []runtime.CallOption{runtime.WithTimeout(3 * time.Second)}, caller: 30 * time.Second, want: 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				op := newOp(t, newDep(t, runtime.DependencyPolicy{}), tt.policy).With(tt.opts...)
				ctx := t.Context()
				if tt.caller > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.caller)
					defer cancel()
				}
				start := time.Now()
				got, err := runtime.Do(ctx, op, "", func(ctx context.Context) (time.Duration, error) {
					d, ok := ctx.Deadline()
					if !ok {
						return 0, errors.New("attempt without a deadline")
					}
					return d.Sub(start), nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if got != tt.want {
					t.Errorf("attempt deadline %v after the start, want %v", got, tt.want)
				}
			})
		})
	}
}

// TestKeepsCallerDeadline: the accessor says which kind the total is.
func TestKeepsCallerDeadline(t *testing.T) {
	d := newDep(t, runtime.DependencyPolicy{})
	for _, tt := range []struct {
		p    runtime.OperationPolicy
		opts []runtime.CallOption
		want bool
	}{
		{p: runtime.OperationPolicy{}, want: true},
		{p: runtime.OperationPolicy{Timeout: time.Second, KeepCallerDeadline: true}, want: true},
		{p: runtime.OperationPolicy{Timeout: time.Second}, want: false},
		{p: runtime.OperationPolicy{}, opts: []runtime.CallOption{runtime.WithTimeout(time.Second)}, want: false},
	} {
		op := newOp(t, d, tt.p).With(tt.opts...)
		if got := op.KeepsCallerDeadline(); got != tt.want {
			t.Errorf("%+v with %d options: KeepsCallerDeadline() = %v, want %v", tt.p, len(tt.opts), got, tt.want)
		}
	}
}

// TestGuessedTimeoutCallerDeadlineOverHTTP: over loopback, a caller's
// 30 s deadline on an operation whose 2 s total is a guess reaches the
// server, through the deadline header and DeadlineMiddleware, as about
// 30 s.
func TestGuessedTimeoutCallerDeadlineOverHTTP(t *testing.T) {
	seen := make(chan time.Duration, 1)
	h := server.DeadlineMiddleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := r.Context().Deadline()
		if !ok {
			d = time.Now()
		}
		seen <- time.Until(d)
		io.WriteString(w, "ok")
	}))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(lis)
	defer srv.Close()

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &runtime.HTTPClient{Doer: &http.Client{Transport: tr}}
	op := newOp(t, newDep(t, runtime.DependencyPolicy{}), runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly,
		Timeout: 2 * time.Second, KeepCallerDeadline: true})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequest(http.MethodGet, "http://"+lis.Addr().String()+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := runtime.DoHTTP(ctx, op, c, req, func(r *http.Response) (string, error) {
		b, err := io.ReadAll(r.Body)
		return string(b), err
	}, nil)
	if err != nil || body != "ok" {
		t.Fatalf("call = %q, %v, want ok", body, err)
	}
	if got := <-seen; got < 29*time.Second || got > 30*time.Second {
		t.Errorf("the server saw a deadline %v away, want about 30s", got)
	}
}

// TestHangingServerAttemptContract checks the contract the generated doc
// comment states for a retried operation with the guessed timeouts
// (attempt ≥2s, adaptive; last attempt to the deadline; total 6.3s):
// against a server that never answers, the first attempt is cut at 2 s,
// and the second, whose doubled timeout leaves no room for a third, runs
// to the deadline, 4.2 s later (4.2 s to 4.3 s with jitter).
func TestHangingServerAttemptContract(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		op := newOp(t, newDep(t, runtime.DependencyPolicy{}), runtime.OperationPolicy{Idempotency: runtime.ReadOnly,
			Timeout: 6300 * time.Millisecond, KeepCallerDeadline: true, AttemptTimeout: 2 * time.Second,
			Retry: runtime.RetryPolicy{DisableJitter: true}})
		start := time.Now()
		var ran []time.Duration
		_, err := runtime.Do(t.Context(), op, "", func(ctx context.Context) (int, error) {
			began := time.Now()
			<-ctx.Done()
			ran = append(ran, time.Since(began))
			return 0, ctx.Err()
		})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a deadline error", err)
		}
		if want := []time.Duration{2 * time.Second, 4200 * time.Millisecond}; len(ran) != 2 || ran[0] != want[0] || ran[1] != want[1] {
			t.Errorf("attempts ran %v, want %v", ran, want)
		}
		if el := time.Since(start); el != 6300*time.Millisecond {
			t.Errorf("call took %v, want the 6.3s total", el)
		}
	})
}

// TestSentOnceRunsToTotal: an operation sent once is never cut by its
// attempt timeout: with attempt timeout 400 ms and total 2 s, against a
// server that never answers, its one attempt waits the whole 2 s.
func TestSentOnceRunsToTotal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		op := newOp(t, newDep(t, runtime.DependencyPolicy{}), runtime.OperationPolicy{Idempotency: runtime.NotIdempotent,
			Timeout: 2 * time.Second, AttemptTimeout: 400 * time.Millisecond})
		calls := 0
		start := time.Now()
		_, err := runtime.Do(t.Context(), op, "", func(ctx context.Context) (int, error) {
			calls++
			<-ctx.Done()
			return 0, ctx.Err()
		})
		if err == nil {
			t.Fatal("a call to a server that never answers succeeded")
		}
		if el := time.Since(start); calls != 1 || el != 2*time.Second {
			t.Errorf("%d attempts over %v, want 1 over the 2s total", calls, el)
		}
	})
}
