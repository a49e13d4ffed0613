package resilientgrpc_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// A connection for resilient clients is dialled with DialOptions, so that
// grpc-go never retries on its own; a generated
// NewResilient<Service>Client(cc) is then made once per connection and
// kept. Invoke is what its unary methods call: here a read-only method
// that the server refuses once with UNAVAILABLE, which the pipeline
// retries, and a NOT_FOUND, which it does not.
func ExampleInvoke() {
	// An in-memory server of test.Echo/Unary.
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	calls := 0
	srv.RegisterService(&grpc.ServiceDesc{
		ServiceName: "test.Echo",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{MethodName: "Unary", Handler: func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			in := new(wrapperspb.StringValue)
			if err := dec(in); err != nil {
				return nil, err
			}
			calls++
			switch {
			case in.Value == "missing":
				return nil, status.Error(codes.NotFound, "no such greeting")
			case calls == 1:
				return nil, status.Error(codes.Unavailable, "restarting")
			}
			return wrapperspb.String("hello, " + in.Value), nil
		}}},
	}, struct{}{})
	go srv.Serve(lis)
	defer srv.Stop()

	cc, err := grpc.NewClient("passthrough:///bufnet", append(resilientgrpc.DialOptions(),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cc.Close()

	dep, _ := runtime.NewDependency("test.Echo", runtime.DependencyPolicy{}, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	unary, _ := dep.Operation(runtime.OperationPolicy{Name: "/test.Echo/Unary", Idempotency: runtime.ReadOnly,
		Retry: runtime.RetryPolicy{Base: time.Millisecond}})

	reply, err := resilientgrpc.Invoke[wrapperspb.StringValue](context.Background(), cc, unary, "/test.Echo/Unary", wrapperspb.String("world"))
	fmt.Println(reply.GetValue(), err, "after", calls, "calls")

	_, err = resilientgrpc.Invoke[wrapperspb.StringValue](context.Background(), cc, unary, "/test.Echo/Unary", wrapperspb.String("missing"))
	var ce *runtime.CallError
	fmt.Println(status.Code(err), errors.As(err, &ce) && ce.Attempts == 1)
	// Output:
	// hello, world <nil> after 2 calls
	// NotFound true
}
