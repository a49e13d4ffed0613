package resilientgrpc_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// sendN returns a List handler that fails calls below failCalls with
// UNAVAILABLE before any message, then sends n messages and ends with end.
func sendN(failCalls, n int, end error) func(int, *wrapperspb.StringValue, grpc.ServerStream) error {
	return func(i int, in *wrapperspb.StringValue, ss grpc.ServerStream) error {
		if i < failCalls {
			return status.Error(codes.Unavailable, "not yet")
		}
		for range n {
			if err := ss.SendMsg(in); err != nil {
				return err
			}
		}
		return end
	}
}

// drain receives until an error and returns the messages and the error.
func drain(s grpc.ServerStreamingClient[wrapperspb.StringValue]) (int, error) {
	n := 0
	for {
		if _, err := s.Recv(); err != nil {
			return n, err
		}
		n++
	}
}

func TestServerStream(t *testing.T) {
	tests := []struct {
		name        string
		idempotency runtime.Idempotency
		handler     func(int, *wrapperspb.StringValue, grpc.ServerStream) error
		wantOpen    codes.Code // status of opening the stream
		wantMsgs    int
		wantEnd     codes.Code // status of the Recv that ends it; OK is io.EOF
		wantCalls   int64
	}{
		{name: "retried before the first message", idempotency: runtime.Idempotent,
			handler: sendN(2, 3, nil), wantMsgs: 3, wantCalls: 3},
		{name: "not retried when not idempotent", idempotency: runtime.NotIdempotent,
			handler: sendN(1, 3, nil), wantOpen: codes.Unavailable, wantCalls: 1},
		{name: "error after a message not retried", idempotency: runtime.Idempotent,
			handler: sendN(0, 1, status.Error(codes.Unavailable, "gone")), wantMsgs: 1, wantEnd: codes.Unavailable, wantCalls: 1},
		{name: "empty stream", idempotency: runtime.Idempotent,
			handler: sendN(0, 0, nil), wantCalls: 1},
		{name: "error after headers not retried", idempotency: runtime.Idempotent,
			handler: func(_ int, _ *wrapperspb.StringValue, ss grpc.ServerStream) error {
				if err := ss.SendHeader(nil); err != nil {
					return err
				}
				return status.Error(codes.Unavailable, "after headers")
			}, wantOpen: codes.Unavailable, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{list: tt.handler}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "List", Idempotency: tt.idempotency, Retry: noJitter()})

				stream, err := resilientgrpc.ServerStream[wrapperspb.StringValue](t.Context(), cc, op, listDesc(), listMethod, wrapperspb.String("hi"))

				if got := status.Code(err); got != tt.wantOpen {
					t.Fatalf("open: status.Code(err) = %v, want %v (err: %v)", got, tt.wantOpen, err)
				}
				if err == nil {
					n, err := drain(stream)
					if n != tt.wantMsgs {
						t.Errorf("received %d messages, want %d", n, tt.wantMsgs)
					}
					if tt.wantEnd == codes.OK && err != io.EOF {
						t.Errorf("stream ended with %v, want io.EOF", err)
					}
					if got := status.Code(err); tt.wantEnd != codes.OK && got != tt.wantEnd {
						t.Errorf("stream ended with %v, want %v", err, tt.wantEnd)
					}
				}
				if got := s.calls.Load(); got != tt.wantCalls {
					t.Errorf("server saw %d calls, want %d", got, tt.wantCalls)
				}
				if got := op.Dependency().InFlight(); got != 0 {
					t.Errorf("InFlight() = %d after the stream ended, want 0", got)
				}
			})
		})
	}
}

// TestServerStreamPermitWhileEstablishing: the bulkhead permit is held
// only while the stream is being established: with one permit, a second
// stream opens beside an open one, and the first still ends with io.EOF or
// its context's cancellation.
func TestServerStreamPermitWhileEstablishing(t *testing.T) {
	for _, end := range []string{"eof", "cancel"} {
		t.Run(end, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				next := make(chan struct{})
				s := &echoServer{list: func(_ int, in *wrapperspb.StringValue, ss grpc.ServerStream) error {
					for {
						if err := ss.SendMsg(in); err != nil {
							return err
						}
						select {
						case _, ok := <-next:
							if !ok {
								return nil
							}
						case <-ss.Context().Done():
							return ss.Context().Err()
						}
					}
				}}
				cc := serveBufconn(t, s)
				op := newOp(t, runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}},
					runtime.OperationPolicy{Name: "List", Idempotency: runtime.ReadOnly})
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()

				stream, err := resilientgrpc.ServerStream[wrapperspb.StringValue](ctx, cc, op, listDesc(), listMethod, wrapperspb.String("hi"))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := stream.Recv(); err != nil {
					t.Fatal(err)
				}
				if got := op.Dependency().InFlight(); got != 0 {
					t.Errorf("InFlight() = %d with the stream open, want 0", got)
				}
				ctx2, cancel2 := context.WithCancel(t.Context())
				second, err := resilientgrpc.ServerStream[wrapperspb.StringValue](ctx2, cc, op, listDesc(), listMethod, wrapperspb.String("hi"))
				if err != nil {
					t.Errorf("second stream beside an open one: %v, want it open", err)
				} else if _, err := second.Recv(); err != nil {
					t.Errorf("second stream: Recv() = %v", err)
				}
				cancel2()

				switch end {
				case "eof":
					close(next)
					if _, err := drain(stream); err != io.EOF {
						t.Errorf("stream ended with %v, want io.EOF", err)
					}
				case "cancel":
					cancel()
					synctest.Wait()
				}
				if got := op.Dependency().InFlight(); got != 0 {
					t.Errorf("InFlight() = %d after %s, want 0", got, end)
				}
			})
		})
	}
}

func TestClientStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{upload: func(ss grpc.ServerStream) error {
			n := 0
			for {
				m := new(wrapperspb.StringValue)
				if err := ss.RecvMsg(m); err == io.EOF {
					break
				} else if err != nil {
					return err
				}
				n++
			}
			return ss.SendMsg(wrapperspb.String(string(rune('0' + n))))
		}}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Upload", Idempotency: runtime.Idempotent})

		stream, err := resilientgrpc.ClientStream[wrapperspb.StringValue, wrapperspb.StringValue](t.Context(), cc, op, uploadDesc(), uploadMethod)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := stream.Send(wrapperspb.String("x")); err != nil {
				t.Fatal(err)
			}
		}
		if got := op.Dependency().InFlight(); got != 0 {
			t.Errorf("InFlight() = %d while sending, want 0 (an open stream holds no permit)", got)
		}
		got, err := stream.CloseAndRecv()
		if err != nil || got.GetValue() != "3" {
			t.Errorf("CloseAndRecv() = %v, %v, want 3, nil", got, err)
		}
		if got := op.Dependency().InFlight(); got != 0 {
			t.Errorf("InFlight() = %d after CloseAndRecv, want 0", got)
		}
	})
}

func TestBidiStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{chat: func(ss grpc.ServerStream) error {
			for {
				m := new(wrapperspb.StringValue)
				if err := ss.RecvMsg(m); err == io.EOF {
					return status.Error(codes.Unavailable, "bye")
				} else if err != nil {
					return err
				}
				if err := ss.SendMsg(m); err != nil {
					return err
				}
			}
		}}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Chat", Idempotency: runtime.Idempotent, Retry: noJitter()})

		stream, err := resilientgrpc.BidiStream[wrapperspb.StringValue, wrapperspb.StringValue](t.Context(), cc, op, chatDesc(), chatMethod)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Send(wrapperspb.String("ping")); err != nil {
			t.Fatal(err)
		}
		if got, err := stream.Recv(); err != nil || got.GetValue() != "ping" {
			t.Fatalf("Recv() = %v, %v, want ping", got, err)
		}
		if got := op.Dependency().InFlight(); got != 0 {
			t.Errorf("InFlight() = %d with the stream open, want 0 (an open stream holds no permit)", got)
		}
		if err := stream.CloseSend(); err != nil {
			t.Fatal(err)
		}
		if _, err := stream.Recv(); status.Code(err) != codes.Unavailable {
			t.Errorf("Recv() after CloseSend = %v, want Unavailable", err)
		}
		if got := s.calls.Load(); got != 1 {
			t.Errorf("server saw %d calls, want 1 (streams are never retried)", got)
		}
		if got := op.Dependency().InFlight(); got != 0 {
			t.Errorf("InFlight() = %d after the stream ended, want 0", got)
		}
	})
}

// TestStreamBreakerOpen: an open breaker refuses a stream without
// reaching the server.
func TestStreamBreakerOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{list: func(int, *wrapperspb.StringValue, grpc.ServerStream) error {
			return status.Error(codes.Internal, "down")
		}}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 3}},
			runtime.OperationPolicy{Name: "List", Idempotency: runtime.NotIdempotent})
		open := func() error {
			_, err := resilientgrpc.ServerStream[wrapperspb.StringValue](t.Context(), cc, op, listDesc(), listMethod, wrapperspb.String("hi"))
			return err
		}
		for range 3 {
			open()
		}

		err := open()

		if !errors.Is(err, runtime.ErrCircuitOpen) || status.Code(err) != codes.Unavailable {
			t.Errorf("err = %v (code %v), want circuit open, Unavailable", err, status.Code(err))
		}
		if got := s.calls.Load(); got != 3 {
			t.Errorf("server saw %d calls, want 3", got)
		}
	})
}

// TestServerStreamEstablishmentTimesOut: a server stream whose first
// message never comes reports a deadline, although the glue ends each
// attempt by cancelling the stream.
func TestServerStreamEstablishmentTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &echoServer{list: func(_ int, _ *wrapperspb.StringValue, ss grpc.ServerStream) error {
			<-ss.Context().Done()
			return ss.Context().Err()
		}}
		cc := serveBufconn(t, s)
		op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "List", Idempotency: runtime.ReadOnly,
			Timeout: 10 * time.Second, AttemptTimeout: 100 * time.Millisecond, Retry: noJitter()})
		_, err := resilientgrpc.ServerStream[wrapperspb.StringValue](t.Context(), cc, op, listDesc(), listMethod, wrapperspb.String("hi"))
		if got := status.Code(err); got != codes.DeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v (code %v), want DEADLINE_EXCEEDED matching context.DeadlineExceeded", err, got)
		}
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Attempts != 3 {
			t.Errorf("err = %v, want a CallError after 3 attempts", err)
		}
	})
}

// TestStreamsNeverRetriedByGRPC: on a connection dialled without
// DialOptions, whose service config retries UNAVAILABLE for every method,
// a client or bidi stream that the server refuses before the caller's
// first message is opened once, never again by grpc-go.
func TestStreamsNeverRetriedByGRPC(t *testing.T) {
	refuse := func(grpc.ServerStream) error { return status.Error(codes.Unavailable, "not now") }
	tests := []struct {
		name string
		open func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error)
	}{
		{"client stream", func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error) {
			return resilientgrpc.ClientStream[wrapperspb.StringValue, wrapperspb.StringValue](ctx, cc, op, uploadDesc(), uploadMethod)
		}},
		{"bidi stream", func(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation) (grpc.ClientStream, error) {
			return resilientgrpc.BidiStream[wrapperspb.StringValue, wrapperspb.StringValue](ctx, cc, op, chatDesc(), chatMethod)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{upload: refuse, chat: refuse}
				cc := serveBufconn(t, s, grpc.WithDefaultServiceConfig(retryServiceConfig))
				op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Stream", Idempotency: runtime.NotIdempotent})
				stream, err := tt.open(t.Context(), cc, op)
				if err != nil {
					t.Fatal(err)
				}
				synctest.Wait() // the server has refused the stream
				stream.SendMsg(wrapperspb.String("first"))
				stream.CloseSend()
				err = stream.RecvMsg(new(wrapperspb.StringValue))
				if got := status.Code(err); got != codes.Unavailable {
					t.Errorf("stream ended with %v, want UNAVAILABLE", err)
				}
				synctest.Wait()
				if got := s.calls.Load(); got != 1 {
					t.Errorf("server saw the stream opened %d times, want 1", got)
				}
			})
		})
	}
}
