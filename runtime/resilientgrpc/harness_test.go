package resilientgrpc_test

import (
	"context"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const (
	service      = "test.Echo"
	unaryMethod  = "/test.Echo/Unary"
	listMethod   = "/test.Echo/List"
	uploadMethod = "/test.Echo/Upload"
	chatMethod   = "/test.Echo/Chat"
)

// echoServer is a real grpc-go service whose behaviour each test scripts.
// It records every call it sees: when, with which deadline.
type echoServer struct {
	unary  func(ctx context.Context, n int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error)
	list   func(n int, in *wrapperspb.StringValue, ss grpc.ServerStream) error
	upload func(ss grpc.ServerStream) error
	chat   func(ss grpc.ServerStream) error

	calls    atomic.Int64
	inFlight atomic.Int64
	maxSeen  atomic.Int64

	mu        sync.Mutex
	starts    []time.Time
	deadlines []time.Time // zero when the call had none
}

// enter records a call and returns its number, from 0, and the function
// that marks its end.
func (s *echoServer) enter(ctx context.Context) (int, func()) {
	n := int(s.calls.Add(1)) - 1
	cur := s.inFlight.Add(1)
	for {
		m := s.maxSeen.Load()
		if cur <= m || s.maxSeen.CompareAndSwap(m, cur) {
			break
		}
	}
	d, _ := ctx.Deadline()
	s.mu.Lock()
	s.starts = append(s.starts, time.Now())
	s.deadlines = append(s.deadlines, d)
	s.mu.Unlock()
	return n, func() { s.inFlight.Add(-1) }
}

func (s *echoServer) record() (starts, deadlines []time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.starts...), append([]time.Time(nil), s.deadlines...)
}

// serviceDesc describes test.Echo by hand, with the protobuf codec and
// wrapperspb messages, so no protoc is needed.
func serviceDesc() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: service,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{
			MethodName: "Unary",
			Handler: func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				s := srv.(*echoServer)
				n, done := s.enter(ctx)
				defer done()
				in := new(wrapperspb.StringValue)
				if err := dec(in); err != nil {
					return nil, err
				}
				return s.unary(ctx, n, in)
			},
		}},
		Streams: []grpc.StreamDesc{
			{StreamName: "List", ServerStreams: true, Handler: func(srv any, ss grpc.ServerStream) error {
				s := srv.(*echoServer)
				n, done := s.enter(ss.Context())
				defer done()
				in := new(wrapperspb.StringValue)
				if err := ss.RecvMsg(in); err != nil {
					return err
				}
				return s.list(n, in, ss)
			}},
			{StreamName: "Upload", ClientStreams: true, Handler: func(srv any, ss grpc.ServerStream) error {
				s := srv.(*echoServer)
				_, done := s.enter(ss.Context())
				defer done()
				return s.upload(ss)
			}},
			{StreamName: "Chat", ServerStreams: true, ClientStreams: true, Handler: func(srv any, ss grpc.ServerStream) error {
				s := srv.(*echoServer)
				_, done := s.enter(ss.Context())
				defer done()
				return s.chat(ss)
			}},
		},
	}
}

// listDesc, uploadDesc and chatDesc are the client-side stream
// descriptions, as generated code has them.
func listDesc() *grpc.StreamDesc { return &grpc.StreamDesc{StreamName: "List", ServerStreams: true} }
func uploadDesc() *grpc.StreamDesc {
	return &grpc.StreamDesc{StreamName: "Upload", ClientStreams: true}
}
func chatDesc() *grpc.StreamDesc {
	return &grpc.StreamDesc{StreamName: "Chat", ServerStreams: true, ClientStreams: true}
}

// serveBufconn starts s on an in-memory listener and returns a client
// connection to it; both are closed at cleanup. It works inside a
// synctest bubble, where the fake clock drives grpc-timeout and backoff.
func serveBufconn(t *testing.T, s *echoServer, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	srv.RegisterService(serviceDesc(), s)
	go srv.Serve(lis)
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	opts = append([]grpc.DialOption{
		grpc.WithContextDialer(dial),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	}, opts...)
	cc, err := grpc.NewClient("passthrough:///bufnet", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cc.Close()
		srv.Stop()
	})
	return cc
}

// serveLoopback is serveBufconn over TCP on 127.0.0.1, in real time.
func serveLoopback(t *testing.T, s *echoServer, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	srv.RegisterService(serviceDesc(), s)
	go srv.Serve(lis)
	opts = append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)
	cc, err := grpc.NewClient(lis.Addr().String(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cc.Close()
		srv.Stop()
	})
	return cc
}

// newOp returns an operation of a fresh dependency.
func newOp(t *testing.T, dp runtime.DependencyPolicy, op runtime.OperationPolicy) *runtime.Operation {
	t.Helper()
	d, err := runtime.NewDependency(service, dp, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	o, err := d.Operation(op)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// noJitter is a retry policy whose backoff is exactly base·2^n.
func noJitter() runtime.RetryPolicy {
	return runtime.RetryPolicy{Base: 100 * time.Millisecond, DisableJitter: true}
}
