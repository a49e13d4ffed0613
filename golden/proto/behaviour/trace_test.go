package behaviour

import (
	"context"
	"net"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/resilientgo/resilient/runtime/oteltrace"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// TestTracesEveryCallAndAttempt: with WithCounterTracer and a connection
// dialled with the tracer's DialOption, a call that is retried once
// records one call span, two attempt spans under it and a gRPC client
// span under each attempt, and the server receives the call's trace
// context in the metadata of both attempts.
func TestTracesEveryCallAndAttempt(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	tracer, err := oteltrace.New(tp, oteltrace.WithPropagator(propagation.TraceContext{}))
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		parents []string
	)
	s := &server{answer: func(ctx context.Context, n int64) error {
		md, _ := metadata.FromIncomingContext(ctx)
		mu.Lock()
		parents = append(parents, md.Get("traceparent")...)
		mu.Unlock()
		if n == 1 {
			return status.Error(codes.Unavailable, "warming up")
		}
		return nil
	}}
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	RegisterCounterServer(gs, s)
	go gs.Serve(lis)
	defer gs.Stop()
	cc, err := grpc.NewClient("passthrough:///counter", append(resilientgrpc.DialOptions(),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()), tracer.DialOption())...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	c := NewResilientCounterClient(cc, WithCounterTracer(tracer))
	if r, err := c.Get(context.Background(), &Request{}); err != nil || r.GetN() != 2 {
		t.Fatalf("Get = %v, %v; want N 2 after one retry", r, err)
	}

	var calls, attempts, clients []sdktrace.ReadOnlySpan
	for _, sp := range rec.Ended() {
		switch {
		case sp.SpanKind() == trace.SpanKindClient:
			clients = append(clients, sp)
		case sp.Name() == "golden.behaviour.Counter /golden.behaviour.Counter/Get":
			calls = append(calls, sp)
		case sp.Name() == "golden.behaviour.Counter /golden.behaviour.Counter/Get attempt":
			attempts = append(attempts, sp)
		}
	}
	if len(calls) != 1 || len(attempts) != 2 || len(clients) != 2 {
		t.Fatalf("%d call, %d attempt and %d client spans, want 1, 2 and 2", len(calls), len(attempts), len(clients))
	}
	traceID := calls[0].SpanContext().TraceID()
	for i, a := range attempts {
		if a.Parent().SpanID() != calls[0].SpanContext().SpanID() {
			t.Errorf("attempt span %d is not under the call span", i+1)
		}
		if clients[i].Parent().SpanID() != a.SpanContext().SpanID() {
			t.Errorf("client span %d is not under attempt span %d", i+1, i+1)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(parents) != 2 {
		t.Fatalf("server saw %d traceparent values, want 2", len(parents))
	}
	for i, p := range parents {
		if len(p) < 35 || p[3:35] != traceID.String() {
			t.Errorf("attempt %d's traceparent %q is not in the call's trace %s", i+1, p, traceID)
		}
	}
}
