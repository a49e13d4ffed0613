package resilientgrpc_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// TestInvokeInvalidRequest: what grpc-go refuses locally (metadata it
// would not send, an idempotency key name that is no metadata key, a
// message that does not marshal) is the caller's error: typed, not sent,
// never retried, not a breaker failure, never answered by the fallback.
func TestInvokeInvalidRequest(t *testing.T) {
	tests := []struct {
		name  string
		ctx   func(context.Context) context.Context
		key   string // the operation's idempotency key
		req   *wrapperspb.StringValue
		where string
	}{
		{name: "metadata key with a space", ctx: func(ctx context.Context) context.Context {
			return metadata.NewOutgoingContext(ctx, metadata.MD{"x trace": {"1"}})
		}, where: `"x trace"`},
		{name: "LF in a metadata value", ctx: func(ctx context.Context) context.Context {
			return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer a\nb")
		}, where: `"authorization"`},
		{name: "idempotency key name", key: "idempotency key", where: "idempotency key name"},
		{name: "message does not marshal", req: wrapperspb.String("\xff"), where: "does not marshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// served counts the calls whose request the server decoded and
				// served. (A message that does not marshal is found by
				// grpc-go after it opened the stream: the server's handler
				// starts, and finds no message to decode.)
				var served atomic.Int64
				s := &echoServer{unary: func(ctx context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
					served.Add(1)
					return in, nil
				}}
				cc := serveBufconn(t, s)
				d, err := runtime.NewDependency(service, runtime.DependencyPolicy{})
				if err != nil {
					t.Fatal(err)
				}
				op, err := d.Operation(runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.ReadOnly, IdempotencyKey: tt.key,
					Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: wrapperspb.String("stale")}})
				if err != nil {
					t.Fatal(err)
				}
				ctx := t.Context()
				if tt.ctx != nil {
					ctx = tt.ctx(ctx)
				}
				req := tt.req
				if req == nil {
					req = wrapperspb.String("hi")
				}
				var calls int
				for range 25 { // more than the breaker's minimum calls
					_, err = resilientgrpc.Invoke[wrapperspb.StringValue](ctx, cc, op, unaryMethod, req)
					calls++
				}
				if !errors.Is(err, runtime.ErrInvalidRequest) || !errors.Is(err, runtime.ErrNotSent) || runtime.IsDegraded(err) {
					t.Fatalf("err = %v, want an invalid request, not sent, not degraded", err)
				}
				if !strings.Contains(err.Error(), tt.where) {
					t.Errorf("err %q does not say where (%s)", err, tt.where)
				}
				if got := status.Code(err); got != codes.InvalidArgument {
					t.Errorf("status.Code = %v, want InvalidArgument", got)
				}
				if c := d.BreakerCounts(); c.Failures != 0 || d.BreakerState() != runtime.BreakerClosed {
					t.Errorf("breaker %v with counts %+v after %d invalid calls, want closed, no failure", d.BreakerState(), c, calls)
				}
				if n := served.Load(); n != 0 {
					t.Errorf("server served %d calls, want none", n)
				}
			})
		})
	}
}

// TestInvokeIdempotencyKey: the operation's key goes out once per call,
// the same on every attempt, and a key the caller set is used as it is,
// never sent twice.
func TestInvokeIdempotencyKey(t *testing.T) {
	tests := []struct {
		name   string
		caller string // the caller's key, if any
	}{
		{name: "generated"},
		{name: "the caller's", caller: "caller-key-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var keys [][]string
				s := &echoServer{unary: func(ctx context.Context, n int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
					md, _ := metadata.FromIncomingContext(ctx)
					keys = append(keys, md.Get("idempotency-key"))
					if n == 0 {
						return nil, status.Error(codes.Unavailable, "down")
					}
					return in, nil
				}}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent,
					IdempotencyKey: "Idempotency-Key", Retry: noJitter()})
				ctx := t.Context()
				if tt.caller != "" {
					ctx = metadata.AppendToOutgoingContext(ctx, "Idempotency-Key", tt.caller)
				}
				if _, err := call(ctx, cc, op); err != nil {
					t.Fatal(err)
				}
				if len(keys) != 2 || len(keys[0]) != 1 || len(keys[1]) != 1 || keys[0][0] != keys[1][0] {
					t.Fatalf("keys per attempt = %q, want one key, the same on both attempts", keys)
				}
				if tt.caller != "" && keys[0][0] != tt.caller {
					t.Errorf("key = %q, want the caller's %q", keys[0][0], tt.caller)
				}
			})
		})
	}
}

// TestInvokeNotIdempotentDelivery: a failed non-idempotent call tells from
// what was sent whether it never left (ErrNotSent), may have been applied
// (ErrOutcomeUnknown), or was answered, whichever timer fired.
func TestInvokeNotIdempotentDelivery(t *testing.T) {
	tests := []struct {
		name     string
		unary    func(ctx context.Context, n int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error)
		down     bool // no server: connecting fails
		want     error
		other    error
		wantCode codes.Code
	}{
		{
			name:  "server's DEADLINE_EXCEEDED",
			unary: failing(1, status.Error(codes.DeadlineExceeded, "ran out of time")),
			want:  runtime.ErrOutcomeUnknown, other: runtime.ErrNotSent, wantCode: codes.DeadlineExceeded,
		},
		{
			name:  "server's INTERNAL",
			unary: failing(1, status.Error(codes.Internal, "crashed")),
			want:  runtime.ErrOutcomeUnknown, other: runtime.ErrNotSent, wantCode: codes.Internal,
		},
		{
			name:  "answered NOT_FOUND",
			unary: failing(1, status.Error(codes.NotFound, "no such order")),
			other: runtime.ErrOutcomeUnknown, wantCode: codes.NotFound,
		},
		{
			name: "no connection",
			down: true,
			want: runtime.ErrNotSent, other: runtime.ErrOutcomeUnknown, wantCode: codes.Unavailable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var cc *grpc.ClientConn
				if tt.down {
					var err error
					cc, err = grpc.NewClient("passthrough:///down", grpc.WithTransportCredentials(insecure.NewCredentials()),
						grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return nil, errors.New("connection refused") }))
					if err != nil {
						t.Fatal(err)
					}
					defer cc.Close()
				} else {
					cc = serveBufconn(t, &echoServer{unary: tt.unary})
				}
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.NotIdempotent, Timeout: time.Second})
				_, err := call(t.Context(), cc, op)
				if tt.want != nil && !errors.Is(err, tt.want) {
					t.Errorf("err = %v, want it to match %v", err, tt.want)
				}
				if errors.Is(err, tt.other) {
					t.Errorf("err = %v, want it not to match %v", err, tt.other)
				}
				if got := status.Code(err); got != tt.wantCode {
					t.Errorf("status.Code = %v, want %v", got, tt.wantCode)
				}
				var ce *runtime.CallError
				if !errors.As(err, &ce) || ce.Attempts != 1 {
					t.Errorf("err = %v, want a *runtime.CallError with 1 attempt", err)
				}
			})
		})
	}
}

// TestInvokePushbackAboveTheCap: a pushback longer than the backoff cap
// is obeyed when the deadline leaves time for it; otherwise the call fails
// at once, saying why, with the server's status.
func TestInvokePushbackAboveTheCap(t *testing.T) {
	tests := []struct {
		name      string
		pushback  string
		wantCalls int64
		wantGap   time.Duration
		wantCode  codes.Code
	}{
		{name: "3s, cap 2s, 10s left: obeyed", pushback: "3000", wantCalls: 2, wantGap: 3 * time.Second, wantCode: codes.OK},
		{name: "30s, 10s left: fails at once", pushback: "30000", wantCalls: 1, wantCode: codes.Unavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{unary: failing(1, status.Error(codes.Unavailable, "busy"), resilientgrpc.PushbackKey, tt.pushback)}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.Idempotent,
					Timeout: 10 * time.Second, Retry: runtime.RetryPolicy{Cap: 2 * time.Second}})
				start := time.Now()
				_, err := call(t.Context(), cc, op)
				if got := status.Code(err); got != tt.wantCode {
					t.Errorf("status.Code = %v, want %v (err %v)", got, tt.wantCode, err)
				}
				if got := s.calls.Load(); got != tt.wantCalls {
					t.Errorf("server saw %d calls, want %d", got, tt.wantCalls)
				}
				if starts, _ := s.record(); len(starts) == 2 && starts[1].Sub(starts[0]) != tt.wantGap {
					t.Errorf("retry after %v, want %v", starts[1].Sub(starts[0]), tt.wantGap)
				}
				if tt.wantCode == codes.OK {
					return
				}
				var ra *runtime.RetryAfterExceedsDeadlineError
				if !errors.As(err, &ra) || ra.Asked != 30*time.Second || ra.Left != 10*time.Second {
					t.Errorf("err = %v, want a RetryAfterExceedsDeadlineError asking 30s with 10s left", err)
				}
				if time.Since(start) != 0 {
					t.Errorf("call took %v, want it to fail at once", time.Since(start))
				}
			})
		})
	}
}

// tokenCreds are per-RPC credentials given as a call option.
type tokenCreds string

func (c tokenCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(c)}, nil
}
func (tokenCreds) RequireTransportSecurity() bool { return false }

// TestInvokeCachedFallbackNeverCrossesCallers: a cached answer is served
// only to a call with the same request and outgoing metadata (gRPC's own
// and trace keys aside), never when per-RPC credentials hide who calls
// unless a partition says, and to anyone when the answer is shared.
func TestInvokeCachedFallbackNeverCrossesCallers(t *testing.T) {
	type call struct {
		md    []string
		opts  []grpc.CallOption
		value string
	}
	alice := []string{"authorization", "Bearer alice"}
	tests := []struct {
		name      string
		shared    bool
		partition bool
		first     call
		then      call
		wantHit   bool
	}{
		{name: "another authorization", first: call{md: alice}, then: call{md: []string{"authorization", "Bearer bob"}}},
		{name: "no metadata", first: call{md: alice}, then: call{}},
		{name: "the same metadata, other trace", first: call{md: append([]string{"traceparent", "00-1-1-01"}, alice...)},
			then: call{md: append([]string{"traceparent", "00-2-2-01"}, alice...)}, wantHit: true},
		{name: "another request", first: call{md: alice, value: "a"}, then: call{md: alice, value: "b"}},
		{name: "shared", shared: true, first: call{md: alice}, then: call{md: []string{"authorization", "Bearer bob"}}, wantHit: true},
		{name: "per-RPC credentials", first: call{opts: []grpc.CallOption{grpc.PerRPCCredentials(tokenCreds("alice"))}},
			then: call{opts: []grpc.CallOption{grpc.PerRPCCredentials(tokenCreds("alice"))}}},
		{name: "per-RPC credentials, another fallback key", first: call{opts: []grpc.CallOption{grpc.PerRPCCredentials(tokenCreds("alice")), resilientgrpc.CallPolicy(runtime.WithFallbackKey("alice"))}},
			then: call{opts: []grpc.CallOption{grpc.PerRPCCredentials(tokenCreds("bob")), resilientgrpc.CallPolicy(runtime.WithFallbackKey("bob"))}}},
		{name: "per-RPC credentials, the same fallback key", first: call{opts: []grpc.CallOption{grpc.PerRPCCredentials(tokenCreds("alice")), resilientgrpc.CallPolicy(runtime.WithFallbackKey("alice"))}},
			then: call{opts: []grpc.CallOption{grpc.PerRPCCredentials(tokenCreds("alice")), resilientgrpc.CallPolicy(runtime.WithFallbackKey("alice"))}}, wantHit: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var down atomic.Bool
				s := &echoServer{unary: func(ctx context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
					if down.Load() {
						return nil, status.Error(codes.Unavailable, "down")
					}
					md, _ := metadata.FromIncomingContext(ctx)
					return wrapperspb.String("answer for " + strings.Join(md.Get("authorization"), ",")), nil
				}}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.ReadOnly, Retry: runtime.RetryPolicy{Disabled: true},
					Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackCached, Shared: tt.shared}})
				do := func(c call) (*wrapperspb.StringValue, error) {
					ctx := t.Context()
					if c.md != nil {
						ctx = metadata.AppendToOutgoingContext(ctx, c.md...)
					}
					return resilientgrpc.Invoke[wrapperspb.StringValue](ctx, cc, op, unaryMethod, wrapperspb.String(c.value), c.opts...)
				}
				first, err := do(tt.first)
				if err != nil {
					t.Fatal(err)
				}
				down.Store(true)
				v, err := do(tt.then)
				switch {
				case tt.wantHit && (!runtime.IsDegraded(err) || v.GetValue() != first.GetValue()):
					t.Errorf("during the outage: %v, %v; want the cached %v, degraded", v, err, first)
				case !tt.wantHit && (runtime.IsDegraded(err) || v != nil):
					t.Errorf("during the outage: %v, %v; a cached answer was served", v, err)
				}
			})
		})
	}
}

// TestRemoteErrorMessageIsPrintable: a server's status message reaches
// RemoteError.Message without control or formatting characters; the
// status itself is the server's, as sent.
func TestRemoteErrorMessageIsPrintable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const msg = "no\x1b[2K such\u202e order\x00"
		cc := serveBufconn(t, &echoServer{unary: failing(1, status.Error(codes.NotFound, msg))})
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.ReadOnly})
		_, err := call(t.Context(), cc, op)
		var re *runtime.RemoteError
		if !errors.As(err, &re) || re.Message != "no[2K such order" {
			t.Errorf("RemoteError.Message = %q, want %q", re.Message, "no[2K such order")
		}
		if strings.ContainsAny(err.Error(), "\x1b\u202e\x00") {
			t.Errorf("err.Error() = %q has control characters", err)
		}
		if st := status.Convert(err); st.Message() != msg {
			t.Errorf("status message = %q, want the server's %q", st.Message(), msg)
		}
	})
}

// TestInvokeFallbackAnswersNotShared: the caller whose answer a cached
// fallback keeps, every caller it answers, and every caller a static
// fallback answers, each get a message of their own: what one changes is
// not what the next one reads.
func TestInvokeFallbackAnswersNotShared(t *testing.T) {
	for _, fb := range []runtime.FallbackPolicy{
		{Kind: runtime.FallbackCached},
		{Kind: runtime.FallbackStatic, Static: wrapperspb.String("answer")},
	} {
		t.Run(fb.Kind.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var down atomic.Bool
				s := &echoServer{unary: func(ctx context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
					if down.Load() {
						return nil, status.Error(codes.Unavailable, "down")
					}
					return wrapperspb.String("answer"), nil
				}}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.ReadOnly,
					Retry: runtime.RetryPolicy{Disabled: true}, Fallback: fb})
				do := func() (*wrapperspb.StringValue, error) {
					return resilientgrpc.Invoke[wrapperspb.StringValue](t.Context(), cc, op, unaryMethod, wrapperspb.String("q"))
				}
				first, err := do()
				if err != nil || first.GetValue() != "answer" {
					t.Fatalf("first call: %v, %v", first, err)
				}
				first.Value = "changed"
				down.Store(true)
				for i := range 2 {
					v, err := do()
					if !runtime.IsDegraded(err) || v.GetValue() != "answer" {
						t.Errorf("degraded call %d: %v, %v; want the answer as it was sent, degraded", i, v, err)
					}
					if v != nil {
						v.Value = "changed"
					}
				}
			})
		})
	}
}
