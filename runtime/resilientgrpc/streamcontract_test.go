package resilientgrpc_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// openers open each kind of stream of test.Echo and, for a server stream,
// its first message; they return the error of establishment.
var openers = []struct {
	name string
	open func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error)
}{
	{"server stream", func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error) {
		return resilientgrpc.ServerStream[wrapperspb.StringValue](ctx, cc, op, listDesc(), listMethod, wrapperspb.String("hi"))
	}},
	{"client stream", func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error) {
		return resilientgrpc.ClientStream[wrapperspb.StringValue, wrapperspb.StringValue](ctx, cc, op, uploadDesc(), uploadMethod)
	}},
	{"bidi stream", func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error) {
		return resilientgrpc.BidiStream[wrapperspb.StringValue, wrapperspb.StringValue](ctx, cc, op, chatDesc(), chatMethod)
	}},
}

// TestStreamInvalidRequest: metadata grpc-go would refuse, or an
// idempotency key name that is no metadata key, is the caller's error when
// opening any kind of stream: typed, INVALID_ARGUMENT, not sent, no
// attempt, the server never reached, and the breaker's counts, the retry
// budget and the bulkhead as before, however many such calls are made.
func TestStreamInvalidRequest(t *testing.T) {
	cases := []struct {
		name string
		ctx  func(context.Context) context.Context
		key  string
	}{
		{name: "LF in a metadata value", ctx: func(ctx context.Context) context.Context {
			return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer a\nb")
		}},
		{name: "metadata key with a space", ctx: func(ctx context.Context) context.Context {
			return metadata.NewOutgoingContext(ctx, metadata.MD{"x trace": {"1"}})
		}},
		{name: "idempotency key name", key: "idempotency key"},
	}
	for _, o := range openers {
		for _, tt := range cases {
			t.Run(o.name+"/"+tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					never := func(grpc.ServerStream) error { t.Error("the server saw the stream"); return nil }
					s := &echoServer{list: func(int, *wrapperspb.StringValue, grpc.ServerStream) error { return never(nil) }, upload: never, chat: never}
					cc := serveBufconn(t, s)
					op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Stream", Idempotency: runtime.Idempotent, IdempotencyKey: tt.key})
					d := op.Dependency()
					// Earn some budget, so that a withdrawal would show.
					for range 100 {
						_, release, err := runtime.DoHeld(t.Context(), op, "", func(context.Context) (int, error) { return 1, nil })
						if err != nil {
							t.Fatal(err)
						}
						release()
					}
					budget, counts := d.RetryBudget(), d.BreakerCounts()
					if budget == 0 {
						t.Fatal("the budget earned nothing")
					}
					ctx := t.Context()
					if tt.ctx != nil {
						ctx = tt.ctx(ctx)
					}
					for i := range 30 { // more than the breaker's minimum calls
						stream, err := o.open(ctx, cc, op)
						var ce *runtime.CallError
						switch {
						case stream != nil:
							t.Fatalf("call %d: a stream was opened", i)
						case !errors.Is(err, runtime.ErrInvalidRequest) || !errors.Is(err, runtime.ErrNotSent):
							t.Fatalf("call %d: err = %v, want an invalid request, not sent", i, err)
						case status.Code(err) != codes.InvalidArgument:
							t.Fatalf("call %d: status.Code = %v, want InvalidArgument", i, status.Code(err))
						case !errors.As(err, &ce) || ce.End != runtime.EndInvalidRequest || ce.Attempts != 0:
							t.Fatalf("call %d: CallError = %+v, want EndInvalidRequest, 0 attempts", i, ce)
						}
					}
					if got := d.RetryBudget(); got != budget {
						t.Errorf("retry budget = %v, want %v as before", got, budget)
					}
					if s, c := d.BreakerState(), d.BreakerCounts(); s != runtime.BreakerClosed || c != counts {
						t.Errorf("breaker %v with counts %+v, want closed with %+v as before", s, c, counts)
					}
					if n := d.InFlight(); n != 0 {
						t.Errorf("InFlight() = %d, want 0", n)
					}
					if n := s.calls.Load(); n != 0 {
						t.Errorf("server saw %d streams, want none", n)
					}
				})
			})
		}
	}
}

// cutConn is an in-memory connection to an echoServer whose client side
// the server's handler can cut, as a network failure would.
type cutConn struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (c *cutConn) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.conns {
		conn.Close()
	}
}

func (c *cutConn) serve(t *testing.T, s *echoServer) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	srv.RegisterService(serviceDesc(), s)
	go srv.Serve(lis)
	cc, err := grpc.NewClient("passthrough:///bufnet", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			conn, err := lis.DialContext(ctx)
			if err == nil {
				c.mu.Lock()
				c.conns = append(c.conns, conn)
				c.mu.Unlock()
			}
			return conn, err
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cc.Close()
		srv.Stop()
	})
	return cc
}

// TestClientStreamsNotIdempotentDelivery: a client or bidi stream of a
// non-idempotent operation tells from what was sent whether it never left
// (refused at the dial: ErrNotSent, from the constructor) or may have been
// applied (the connection cut after the caller's first message reached
// the server: ErrOutcomeUnknown, from the receive that reports the
// failure, with grpc-go's status kept).
func TestClientStreamsNotIdempotentDelivery(t *testing.T) {
	for _, o := range openers[1:] {
		t.Run(o.name+"/connection refused", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cc, err := grpc.NewClient("passthrough:///down", grpc.WithTransportCredentials(insecure.NewCredentials()),
					grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return nil, errors.New("connection refused") }))
				if err != nil {
					t.Fatal(err)
				}
				defer cc.Close()
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Stream", Idempotency: runtime.NotIdempotent, Timeout: time.Second})
				stream, err := o.open(t.Context(), cc, op)
				var ce *runtime.CallError
				switch {
				case stream != nil:
					t.Fatal("a stream was opened")
				case !errors.Is(err, runtime.ErrNotSent) || errors.Is(err, runtime.ErrOutcomeUnknown):
					t.Errorf("err = %v, want not sent, not outcome unknown", err)
				case !errors.As(err, &ce) || ce.Attempts != 1 || !ce.NotSent:
					t.Errorf("CallError = %+v, want 1 attempt, not sent", ce)
				}
			})
		})
		t.Run(o.name+"/connection cut after the first message", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var c cutConn
				got := make(chan struct{})
				handler := func(ss grpc.ServerStream) error {
					if err := ss.RecvMsg(new(wrapperspb.StringValue)); err != nil {
						return err
					}
					close(got)
					<-ss.Context().Done()
					return ss.Context().Err()
				}
				cc := c.serve(t, &echoServer{upload: handler, chat: handler})
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Stream", Idempotency: runtime.NotIdempotent, Timeout: time.Second})
				stream, err := o.open(t.Context(), cc, op)
				if err != nil {
					t.Fatal(err)
				}
				if err := stream.SendMsg(wrapperspb.String("apply me")); err != nil {
					t.Fatal(err)
				}
				<-got
				c.cut()
				stream.CloseSend()
				err = stream.RecvMsg(new(wrapperspb.StringValue))
				if !errors.Is(err, runtime.ErrOutcomeUnknown) || errors.Is(err, runtime.ErrNotSent) {
					t.Errorf("err = %v, want outcome unknown", err)
				}
				if got := status.Code(err); got != codes.Unavailable {
					t.Errorf("status.Code = %v, want grpc-go's Unavailable", got)
				}
				if n := op.Dependency().InFlight(); n != 0 {
					t.Errorf("InFlight() = %d after the stream ended, want 0", n)
				}
			})
		})
	}
}

// TestNotIdempotentDeadlineRace: grpc-go may end a call with
// DEADLINE_EXCEEDED (its own timer for grpc-timeout, or the client's
// cancellation turned into that code) before the runtime's timer fires.
// Over many real-time calls whose total timeout races with grpc-go's, every
// failure of a non-idempotent call that reached the server is marked
// outcome unknown, never a plain error, and every failure is one or the
// other of not sent and outcome unknown.
func TestNotIdempotentDeadlineRace(t *testing.T) {
	var reached atomic.Int64
	s := &echoServer{unary: func(ctx context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
		reached.Add(1)
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}}
	cc := serveLoopback(t, s)
	op := newOp(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 64}},
		runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.NotIdempotent, Timeout: 3 * time.Millisecond})
	// Warm the connection, so that calls race on the deadline, not the dial.
	call(t.Context(), cc, op)
	const calls = 200
	var (
		wg               sync.WaitGroup
		unknown, notSent atomic.Int64
		mu               sync.Mutex
		plain            []error
	)
	sem := make(chan struct{}, 8)
	for i := range calls {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			// Half the calls carry a caller deadline at the same instant
			// as the total timeout, half a little before it.
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(2+i%2)*time.Millisecond)
			defer cancel()
			_, err := call(ctx, cc, op)
			switch {
			case err == nil:
				mu.Lock()
				plain = append(plain, errors.New("a call succeeded"))
				mu.Unlock()
			case errors.Is(err, runtime.ErrOutcomeUnknown) && !errors.Is(err, runtime.ErrNotSent):
				unknown.Add(1)
			case errors.Is(err, runtime.ErrNotSent) && !errors.Is(err, runtime.ErrOutcomeUnknown):
				notSent.Add(1)
			default:
				mu.Lock()
				plain = append(plain, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(plain) > 0 {
		t.Errorf("%d of %d calls neither outcome unknown nor not sent; first: %v", len(plain), calls, plain[0])
	}
	if n := reached.Load() - 1; unknown.Load() < n {
		t.Errorf("the server saw %d calls, but only %d came back outcome unknown (%d not sent)", n, unknown.Load(), notSent.Load())
	}
	t.Logf("%d outcome unknown, %d not sent, %d reached the server", unknown.Load(), notSent.Load(), reached.Load()-1)
}
