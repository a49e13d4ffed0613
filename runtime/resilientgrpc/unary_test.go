package resilientgrpc_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// retryServiceConfig asks grpc-go to retry UNAVAILABLE itself, up to 4
// attempts: the second retry layer that must not stack with ours.
const retryServiceConfig = `{"methodConfig":[{"name":[{"service":"test.Echo"}],"retryPolicy":{
  "maxAttempts":4,"initialBackoff":"0.01s","maxBackoff":"0.1s","backoffMultiplier":2,
  "retryableStatusCodes":["UNAVAILABLE","RESOURCE_EXHAUSTED"]}}]}`

// failing returns a unary handler that fails the first n calls with err,
// sending trailer first, and then echoes.
func failing(n int, err error, trailer ...string) func(context.Context, int, *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	return func(ctx context.Context, i int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
		if i < n {
			if len(trailer) > 0 {
				grpc.SetTrailer(ctx, metadata.Pairs(trailer...))
			}
			return nil, err
		}
		return in, nil
	}
}

func call(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, opts ...grpc.CallOption) (*wrapperspb.StringValue, error) {
	return resilientgrpc.Invoke[wrapperspb.StringValue](ctx, cc, op, unaryMethod, wrapperspb.String("hi"), opts...)
}

func TestInvokeRetriesOnlyIdempotent(t *testing.T) {
	unavailable := status.Error(codes.Unavailable, "down")
	tests := []struct {
		name          string
		idempotency   runtime.Idempotency
		serviceConfig bool // grpc-go would retry on its own too
		wantCalls     int64
	}{
		{name: "idempotent retried up to the limit", idempotency: runtime.Idempotent, wantCalls: 3},
		{name: "read-only retried up to the limit", idempotency: runtime.ReadOnly, wantCalls: 3},
		{name: "not idempotent sent once", idempotency: runtime.NotIdempotent, wantCalls: 1},
		{name: "idempotent, grpc-go retry policy does not stack", idempotency: runtime.Idempotent, serviceConfig: true, wantCalls: 3},
		{name: "not idempotent, grpc-go retry policy does not retry it", idempotency: runtime.NotIdempotent, serviceConfig: true, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{unary: failing(100, unavailable)}
				var opts []grpc.DialOption
				if tt.serviceConfig {
					opts = append(opts, grpc.WithDefaultServiceConfig(retryServiceConfig))
				}
				cc := serveBufconn(t, s, opts...)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: tt.idempotency, Retry: noJitter()})

				_, err := call(t.Context(), cc, op)

				if got := s.calls.Load(); got != tt.wantCalls {
					t.Errorf("server saw %d calls, want %d", got, tt.wantCalls)
				}
				if got := status.Code(err); got != codes.Unavailable {
					t.Errorf("status.Code(err) = %v, want Unavailable (err: %v)", got, err)
				}
				var re *runtime.RemoteError
				if !errors.As(err, &re) {
					t.Fatalf("errors.As(%v, *runtime.RemoteError) = false", err)
				}
				if re.Attempts != int(tt.wantCalls) || re.Code != "UNAVAILABLE" || re.Message != "down" {
					t.Errorf("RemoteError = %+v, want %d attempts, UNAVAILABLE, down", re, tt.wantCalls)
				}
			})
		})
	}
}

func TestInvokeSucceedsAfterRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{unary: failing(2, status.Error(codes.Unavailable, "down"))}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent, Retry: noJitter()})
		start := time.Now()

		got, err := call(t.Context(), cc, op)

		if err != nil || got.GetValue() != "hi" {
			t.Fatalf("call = %v, %v, want hi, nil", got, err)
		}
		// Backoff without jitter: 100 ms, then 200 ms.
		if el := time.Since(start); el != 300*time.Millisecond {
			t.Errorf("call took %v, want 300ms", el)
		}
	})
}

// TestInvokeDeadlinePropagation: every attempt's grpc-timeout is the
// caller's remaining budget (row 13 and 21 of the matrix): with pushback
// 300 ms twice, attempts start at 0, 300 ms, 600 ms, and each sees the
// caller's deadline, never later.
func TestInvokeDeadlinePropagation(t *testing.T) {
	tests := []struct {
		name           string
		attemptTimeout time.Duration
		wantBudget     []time.Duration // per attempt, relative to its start
	}{
		{name: "caller deadline", wantBudget: []time.Duration{2 * time.Second, 1700 * time.Millisecond, 1400 * time.Millisecond}},
		// The last attempt, which no retry could follow, runs to the
		// caller's deadline.
		{name: "attempt timeout below", attemptTimeout: 400 * time.Millisecond, wantBudget: []time.Duration{400 * time.Millisecond, 400 * time.Millisecond, 1400 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{unary: failing(2, status.Error(codes.Unavailable, "busy"), resilientgrpc.PushbackKey, "300")}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent,
					AttemptTimeout: tt.attemptTimeout, Retry: noJitter()})
				ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
				defer cancel()
				start := time.Now()

				if _, err := call(ctx, cc, op); err != nil {
					t.Fatal(err)
				}

				starts, deadlines := s.record()
				if len(starts) != 3 {
					t.Fatalf("server saw %d calls, want 3", len(starts))
				}
				callerDeadline, _ := ctx.Deadline()
				for i := range starts {
					if at := starts[i].Sub(start); at != time.Duration(i)*300*time.Millisecond {
						t.Errorf("attempt %d started at %v, want %v", i+1, at, time.Duration(i)*300*time.Millisecond)
					}
					if deadlines[i].IsZero() {
						t.Fatalf("attempt %d: server saw no deadline", i+1)
					}
					if deadlines[i].After(callerDeadline) {
						t.Errorf("attempt %d: server deadline %v after the caller's %v", i+1, deadlines[i], callerDeadline)
					}
					if got := deadlines[i].Sub(starts[i]); got > tt.wantBudget[i] || got < tt.wantBudget[i]-time.Millisecond {
						t.Errorf("attempt %d: server budget %v, want %v", i+1, got, tt.wantBudget[i])
					}
				}
			})
		})
	}
}

func TestInvokePushback(t *testing.T) {
	unavailable := status.Error(codes.Unavailable, "busy")
	exhausted := status.Error(codes.ResourceExhausted, "quota")
	tests := []struct {
		name        string
		err         error
		trailer     []string
		idempotency runtime.Idempotency
		wantCalls   int64
		wantGap     time.Duration // between the first two attempts
		wantCode    codes.Code
	}{
		{name: "UNAVAILABLE pushback 300ms obeyed exactly", err: unavailable, trailer: []string{resilientgrpc.PushbackKey, "300"},
			idempotency: runtime.Idempotent, wantCalls: 2, wantGap: 300 * time.Millisecond, wantCode: codes.OK},
		{name: "UNAVAILABLE pushback 0 retried at once", err: unavailable, trailer: []string{resilientgrpc.PushbackKey, "0"},
			idempotency: runtime.Idempotent, wantCalls: 2, wantCode: codes.OK},
		{name: "UNAVAILABLE pushback -1 not retried", err: unavailable, trailer: []string{resilientgrpc.PushbackKey, "-1"},
			idempotency: runtime.Idempotent, wantCalls: 1, wantCode: codes.Unavailable},
		{name: "UNAVAILABLE pushback unparsable not retried", err: unavailable, trailer: []string{resilientgrpc.PushbackKey, "soon"},
			idempotency: runtime.Idempotent, wantCalls: 1, wantCode: codes.Unavailable},
		{name: "UNAVAILABLE two pushbacks not retried", err: unavailable, trailer: []string{resilientgrpc.PushbackKey, "300", resilientgrpc.PushbackKey, "300"},
			idempotency: runtime.Idempotent, wantCalls: 1, wantCode: codes.Unavailable},
		{name: "RESOURCE_EXHAUSTED without pushback not retried", err: exhausted,
			idempotency: runtime.Idempotent, wantCalls: 1, wantCode: codes.ResourceExhausted},
		{name: "RESOURCE_EXHAUSTED pushback 300ms retried", err: exhausted, trailer: []string{resilientgrpc.PushbackKey, "300"},
			idempotency: runtime.Idempotent, wantCalls: 2, wantGap: 300 * time.Millisecond, wantCode: codes.OK},
		{name: "RESOURCE_EXHAUSTED pushback, not idempotent", err: exhausted, trailer: []string{resilientgrpc.PushbackKey, "300"},
			idempotency: runtime.NotIdempotent, wantCalls: 1, wantCode: codes.ResourceExhausted},
		{name: "INTERNAL with pushback not retried", err: status.Error(codes.Internal, "bug"), trailer: []string{resilientgrpc.PushbackKey, "300"},
			idempotency: runtime.Idempotent, wantCalls: 1, wantCode: codes.Internal},
		{name: "NOT_FOUND not retried", err: status.Error(codes.NotFound, "no"),
			idempotency: runtime.Idempotent, wantCalls: 1, wantCode: codes.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{unary: failing(1, tt.err, tt.trailer...)}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: tt.idempotency, Retry: noJitter()})

				_, err := call(t.Context(), cc, op)

				if got := status.Code(err); got != tt.wantCode {
					t.Errorf("status.Code(err) = %v, want %v (err: %v)", got, tt.wantCode, err)
				}
				if got := s.calls.Load(); got != tt.wantCalls {
					t.Fatalf("server saw %d calls, want %d", got, tt.wantCalls)
				}
				if starts, _ := s.record(); len(starts) == 2 {
					if gap := starts[1].Sub(starts[0]); gap != tt.wantGap {
						t.Errorf("retry after %v, want %v", gap, tt.wantGap)
					}
				}
			})
		})
	}
}

// TestInvokeCommitted: a server that sent response headers before failing
// has committed the call, which is not retried (matrix row 15).
func TestInvokeCommitted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{unary: func(ctx context.Context, _ int, _ *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
			if err := grpc.SendHeader(ctx, metadata.Pairs("x-served-by", "a")); err != nil {
				return nil, err
			}
			return nil, status.Error(codes.Unavailable, "after headers")
		}}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent, Retry: noJitter()})

		_, err := call(t.Context(), cc, op)

		if got := s.calls.Load(); got != 1 {
			t.Errorf("server saw %d calls, want 1", got)
		}
		if got := status.Code(err); got != codes.Unavailable {
			t.Errorf("status.Code(err) = %v, want Unavailable", got)
		}
	})
}

func TestInvokeBreakerOpens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{unary: failing(100, status.Error(codes.Internal, "down"))}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 5}},
			runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.NotIdempotent})

		for i := range 5 {
			if _, err := call(t.Context(), cc, op); status.Code(err) != codes.Internal {
				t.Fatalf("call %d: status.Code(err) = %v, want Internal", i+1, status.Code(err))
			}
		}
		if got := op.Dependency().BreakerState(); got != runtime.BreakerOpen {
			t.Fatalf("breaker %v after 5 failures, want open", got)
		}
		start := time.Now()
		_, err := call(t.Context(), cc, op)

		if !errors.Is(err, runtime.ErrCircuitOpen) {
			t.Errorf("err = %v, want ErrCircuitOpen", err)
		}
		if got := status.Code(err); got != codes.Unavailable {
			t.Errorf("status.Code(err) = %v, want Unavailable", got)
		}
		if got := s.calls.Load(); got != 5 {
			t.Errorf("server saw %d calls, want 5 (the open breaker must not send)", got)
		}
		if el := time.Since(start); el != 0 {
			t.Errorf("open breaker took %v, want 0", el)
		}
	})
}

func TestInvokeBulkhead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		s := &echoServer{unary: func(ctx context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
			select {
			case <-release:
				return in, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 2, DisableWait: true}},
			runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent})

		const callers = 5
		errs := make([]error, callers)
		var wg sync.WaitGroup
		for i := range callers {
			wg.Go(func() { _, errs[i] = call(t.Context(), cc, op) })
		}
		synctest.Wait()
		if got := op.Dependency().InFlight(); got != 2 {
			t.Errorf("InFlight() = %d while blocked, want 2", got)
		}
		close(release)
		wg.Wait()

		full := 0
		for _, err := range errs {
			switch {
			case err == nil:
			case errors.Is(err, runtime.ErrBulkheadFull):
				full++
				if got := status.Code(err); got != codes.Unavailable {
					t.Errorf("status.Code(bulkhead full) = %v, want Unavailable", got)
				}
			default:
				t.Errorf("unexpected error %v", err)
			}
		}
		if full != callers-2 {
			t.Errorf("%d calls rejected by the bulkhead, want %d", full, callers-2)
		}
		if got := s.maxSeen.Load(); got != 2 {
			t.Errorf("server saw %d concurrent calls, want 2", got)
		}
	})
}

// TestInvokeStatusCode: status.Code works on every error a call returns.
func TestInvokeStatusCode(t *testing.T) {
	slow := func(ctx context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	tests := []struct {
		name        string
		idempotency runtime.Idempotency
		cancel      bool // the caller cancels after 100 ms
		wantIs      error
		wantCode    codes.Code
	}{
		{name: "deadline, idempotent", idempotency: runtime.Idempotent, wantIs: context.DeadlineExceeded, wantCode: codes.DeadlineExceeded},
		{name: "deadline, outcome unknown", idempotency: runtime.NotIdempotent, wantIs: runtime.ErrOutcomeUnknown, wantCode: codes.DeadlineExceeded},
		{name: "canceled by the caller", idempotency: runtime.Idempotent, cancel: true, wantIs: context.Canceled, wantCode: codes.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{unary: slow}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: tt.idempotency, Timeout: time.Second})
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.cancel {
					time.AfterFunc(100*time.Millisecond, cancel)
				}

				_, err := call(ctx, cc, op)

				if !errors.Is(err, tt.wantIs) {
					t.Errorf("err = %v, want one matching %v", err, tt.wantIs)
				}
				if got := status.Code(err); got != tt.wantCode {
					t.Errorf("status.Code(err) = %v, want %v", got, tt.wantCode)
				}
			})
		})
	}
}

func TestCallPolicyOverrides(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{unary: failing(100, status.Error(codes.Unavailable, "down"))}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent, Retry: noJitter()})

		_, err := call(t.Context(), cc, op, resilientgrpc.CallPolicy(runtime.WithoutRetries()))

		if got := s.calls.Load(); got != 1 {
			t.Errorf("server saw %d calls with WithoutRetries(), want 1", got)
		}
		if status.Code(err) != codes.Unavailable {
			t.Errorf("status.Code(err) = %v, want Unavailable", status.Code(err))
		}
	})
}

// TestInvokeLoopback runs over TCP on 127.0.0.1 in real time: retries are
// counted by the server, and the server's deadline is the caller's, give or
// take the transit time of the request (the server measures grpc-timeout
// from when it receives the request; slack 20 ms).
func TestInvokeLoopback(t *testing.T) {
	s := &echoServer{unary: failing(2, status.Error(codes.Unavailable, "down"))}
	cc := serveLoopback(t, s, resilientgrpc.DialOptions()...)
	op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent,
		Retry: runtime.RetryPolicy{Base: time.Millisecond, Cap: 5 * time.Millisecond}})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()

	begin := time.Now()
	got, err := call(ctx, cc, op)

	if err != nil || got.GetValue() != "hi" {
		t.Fatalf("call = %v, %v, want hi, nil", got, err)
	}
	if n := s.calls.Load(); n != 3 {
		t.Errorf("server saw %d calls, want 3", n)
	}
	// The server's deadline is its arrival time plus the grpc-timeout
	// sent, so it lies after the caller's by the attempt's time in
	// transit, which a busy machine stretches. That time is at most the
	// span from the call's start to the handler's, measured here.
	const slack = 20 * time.Millisecond
	callerDeadline, _ := ctx.Deadline()
	starts, deadlines := s.record()
	for i, d := range deadlines {
		transit := starts[i].Sub(begin)
		if d.IsZero() || d.After(callerDeadline.Add(transit+slack)) || d.Before(callerDeadline.Add(-slack)) {
			t.Errorf("attempt %d: server deadline %v, want %v, at most %v (time to reach the server) + %v later, at most %v earlier",
				i+1, d, callerDeadline, transit, slack, slack)
		}
	}
}
