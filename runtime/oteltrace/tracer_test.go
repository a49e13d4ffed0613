package oteltrace_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	grpccodes "google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/codec"
	"github.com/resilientgo/resilient/runtime/otelobserver"
	"github.com/resilientgo/resilient/runtime/oteltrace"
	"github.com/resilientgo/resilient/runtime/outcome"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
	"github.com/resilientgo/resilient/runtime/stream"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// newTracer returns a tracer recording into a span recorder, propagating
// with W3C trace context.
func newTracer(t *testing.T) (*oteltrace.Tracer, *tracetest.SpanRecorder, *sdktrace.TracerProvider) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	tracer, err := oteltrace.New(tp, oteltrace.WithPropagator(propagation.TraceContext{}))
	if err != nil {
		t.Fatal(err)
	}
	return tracer, rec, tp
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func byName(spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// TestHTTPSpans: a GET that gets a 503 and then a 200 makes one call span,
// two attempt spans (the second saying it retries an overloaded answer),
// and under each attempt span the otelhttp client span whose context the
// server receives in traceparent. The attempt metrics carry exemplars of
// the attempt spans.
func TestHTTPSpans(t *testing.T) {
	tracer, rec, _ := newTracer(t)
	var (
		mu      sync.Mutex
		parents []string
		n       atomic.Int64
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		parents = append(parents, r.Header.Get("Traceparent"))
		mu.Unlock()
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `"Rex"`)
	}))
	defer srv.Close()

	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	obs, err := otelobserver.New(mp)
	if err != nil {
		t.Fatal(err)
	}
	dep, err := runtime.NewDependency("petstore", runtime.DependencyPolicy{}, runtime.WithTracer(tracer), runtime.WithObserver(obs),
		runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	op, err := dep.Operation(runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second,
		Retry: runtime.RetryPolicy{Base: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	client := runtime.NewHTTPClient(tracer.Transport(nil))
	defer client.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/pets/7", nil)
	name, err := runtime.DoHTTP(context.Background(), op, &runtime.HTTPClient{Doer: client}, req, func(r *http.Response) (string, error) {
		b, err := io.ReadAll(r.Body)
		return string(b), err
	}, nil)
	if err != nil || name != `"Rex"` {
		t.Fatalf("DoHTTP = %q, %v", name, err)
	}

	spans := rec.Ended()
	calls := byName(spans, "petstore GetPet")
	attempts := byName(spans, "petstore GetPet attempt")
	if len(calls) != 1 || len(attempts) != 2 {
		t.Fatalf("%d call spans and %d attempt spans, want 1 and 2; spans: %v", len(calls), len(attempts), spans)
	}
	call := calls[0]
	if a := attrs(call); a[oteltrace.AttemptsKey].AsInt64() != 2 || a[otelobserver.DependencyKey].AsString() != "petstore" ||
		a[oteltrace.IdempotencyKey].AsString() != "read_only" || call.Status().Code == codes.Error {
		t.Errorf("call span attributes %v, status %v", call.Attributes(), call.Status())
	}
	for i, a := range attempts {
		if a.Parent().SpanID() != call.SpanContext().SpanID() {
			t.Errorf("attempt %d is not a child of the call span", i+1)
		}
		at := attrs(a)
		if at[oteltrace.AttemptKey].AsInt64() != int64(i+1) || at[otelobserver.StateKey].AsString() != "closed" {
			t.Errorf("attempt %d attributes %v", i+1, a.Attributes())
		}
	}
	if at := attrs(attempts[0]); at[otelobserver.OutcomeKey].AsString() != "overloaded" || attempts[0].Status().Code != codes.Error {
		t.Errorf("first attempt: %v, status %v; want outcome overloaded and an error status", attempts[0].Attributes(), attempts[0].Status())
	}
	if at := attrs(attempts[1]); at[oteltrace.RetryReasonKey].AsString() != "overloaded" || at[otelobserver.OutcomeKey].AsString() != "success" {
		t.Errorf("second attempt: %v; want retry reason overloaded and outcome success", attempts[1].Attributes())
	}
	// The HTTP client spans are the attempts' children, and the server
	// got their context.
	var clients []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.SpanKind() == trace.SpanKindClient {
			clients = append(clients, s)
		}
	}
	if len(clients) != 2 || len(parents) != 2 {
		t.Fatalf("%d client spans, %d requests; want 2 and 2", len(clients), len(parents))
	}
	for i, c := range clients {
		if c.Parent().SpanID() != attempts[i].SpanContext().SpanID() {
			t.Errorf("client span %d is not under attempt %d", i+1, i+1)
		}
		want := "00-" + c.SpanContext().TraceID().String() + "-" + c.SpanContext().SpanID().String() + "-01"
		if parents[i] != want {
			t.Errorf("request %d traceparent %q, want %q", i+1, parents[i], want)
		}
	}

	// Exemplars link the attempt measurements to the attempt spans.
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	linked := map[trace.SpanID]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != otelobserver.AttemptsName {
				continue
			}
			for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
				for _, ex := range dp.Exemplars {
					linked[trace.SpanID(ex.SpanID)] = true
				}
			}
		}
	}
	for i, a := range attempts {
		if !linked[a.SpanContext().SpanID()] {
			t.Errorf("no exemplar of %s links to attempt span %d", otelobserver.AttemptsName, i+1)
		}
	}
}

// TestRefusedAndDegradedCalls: a call the breaker refuses ends its span in
// error, saying why; a fallback answer is marked degraded, not an error.
func TestRefusedAndDegradedCalls(t *testing.T) {
	tracer, rec, _ := newTracer(t)
	dep, err := runtime.NewDependency("petstore", runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{MinimumCalls: 1}},
		runtime.WithTracer(tracer), runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	op, err := dep.Operation(runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly, Timeout: time.Second,
		Retry:    runtime.RetryPolicy{Disabled: true},
		Fallback: runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: "default"}})
	if err != nil {
		t.Fatal(err)
	}
	fail := func(context.Context) (string, error) {
		return "", &runtime.RemoteError{Status: 500, Class: outcome.Failed}
	}
	v, err := runtime.Do(context.Background(), op, "", fail)
	if v != "default" || !runtime.IsDegraded(err) {
		t.Fatalf("Do = %q, %v; want the degraded default", v, err)
	}
	_, err = runtime.Do(context.Background(), op.With(runtime.WithoutFallback()), "", fail)
	if !errors.Is(err, runtime.ErrCircuitOpen) {
		t.Fatalf("Do = %v, want ErrCircuitOpen", err)
	}
	calls := byName(rec.Ended(), "petstore GetPet")
	if len(calls) != 2 {
		t.Fatalf("%d call spans, want 2", len(calls))
	}
	if a := attrs(calls[0]); !a[oteltrace.DegradedKey].AsBool() || a[otelobserver.SourceKey].AsString() != "static" || calls[0].Status().Code == codes.Error {
		t.Errorf("degraded call: %v, status %v", calls[0].Attributes(), calls[0].Status())
	}
	if a := attrs(calls[1]); a[oteltrace.EndKey].AsString() != "circuit open" || a[oteltrace.AttemptsKey].AsInt64() != 0 || calls[1].Status().Code != codes.Error {
		t.Errorf("refused call: %v, status %v", calls[1].Attributes(), calls[1].Status())
	}
}

// TestGRPCSpans: a unary call through resilientgrpc on a connection with
// otelgrpc's stats handlers: the client span is the attempt span's child,
// and the server's span continues the same trace, from the metadata.
func TestGRPCSpans(t *testing.T) {
	tracer, rec, tp := newTracer(t)
	lis := bufconn.Listen(1 << 20)
	var n atomic.Int64
	var serverTrace []trace.TraceID
	var mu sync.Mutex
	srv := grpc.NewServer(
		grpc.StatsHandler(otelgrpc.NewServerHandler(otelgrpc.WithTracerProvider(tp), otelgrpc.WithPropagators(propagation.TraceContext{}))),
		grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			mu.Lock()
			serverTrace = append(serverTrace, trace.SpanContextFromContext(ctx).TraceID())
			mu.Unlock()
			if _, ok := metadata.FromIncomingContext(ctx); !ok {
				return nil, status.Error(grpccodes.Internal, "no metadata")
			}
			if n.Add(1) == 1 {
				return nil, status.Error(grpccodes.Unavailable, "warming up")
			}
			return h(ctx, req)
		}))
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go srv.Serve(lis)
	defer srv.Stop()
	cc, err := grpc.NewClient("passthrough:///bufnet", append(resilientgrpc.DialOptions(),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		tracer.DialOption())...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	dep, err := runtime.NewDependency("grpc.health.v1.Health", runtime.DependencyPolicy{}, runtime.WithTracer(tracer), runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	op, err := dep.Operation(runtime.OperationPolicy{Name: "Check", Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second,
		Retry: runtime.RetryPolicy{Base: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := resilientgrpc.Invoke[healthpb.HealthCheckResponse](context.Background(), cc, op, healthpb.Health_Check_FullMethodName, &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("Check = %v, %v", resp, err)
	}
	spans := rec.Ended()
	calls := byName(spans, "grpc.health.v1.Health Check")
	attempts := byName(spans, "grpc.health.v1.Health Check attempt")
	if len(calls) != 1 || len(attempts) != 2 {
		t.Fatalf("%d call and %d attempt spans, want 1 and 2", len(calls), len(attempts))
	}
	if r := attrs(attempts[1])[oteltrace.RetryReasonKey].AsString(); r != "overloaded" {
		t.Errorf("second attempt's retry reason %q, want overloaded (an UNAVAILABLE the server answered)", r)
	}
	var clients int
	for _, s := range spans {
		if s.SpanKind() != trace.SpanKindClient {
			continue
		}
		if s.Parent().SpanID() != attempts[clients].SpanContext().SpanID() {
			t.Errorf("gRPC client span %d is not under attempt %d", clients+1, clients+1)
		}
		clients++
	}
	if clients != 2 {
		t.Errorf("%d gRPC client spans, want 2", clients)
	}
	for i, id := range serverTrace {
		if id != calls[0].SpanContext().TraceID() {
			t.Errorf("server call %d in trace %v, want the call's %v", i+1, id, calls[0].SpanContext().TraceID())
		}
	}
}

// TestStreamSpan: a streamed answer's call span ends when the stream ends,
// after its events were read, and says it was held.
func TestStreamSpan(t *testing.T) {
	tracer, rec, _ := newTracer(t)
	next := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: 1\n\n")
		w.(http.Flusher).Flush()
		<-next
		io.WriteString(w, "data: 2\n\n")
	}))
	defer srv.Close()
	dep, err := runtime.NewDependency("feed", runtime.DependencyPolicy{}, runtime.WithTracer(tracer), runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	op, err := dep.Operation(runtime.OperationPolicy{Name: "Watch", Idempotency: runtime.ReadOnly, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	client := runtime.NewHTTPClient(tracer.Transport(nil))
	defer client.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/watch", nil)
	resp, err := runtime.DoHTTPStream(context.Background(), op, &runtime.HTTPClient{Doer: client}, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := stream.NewEvents[int](resp, nil)
	if !s.Next() {
		t.Fatal(s.Err())
	}
	if n := len(byName(rec.Ended(), "feed Watch")); n != 0 {
		t.Errorf("the call span ended while the stream is read")
	}
	close(next)
	for s.Next() {
	}
	calls := byName(rec.Ended(), "feed Watch")
	if len(calls) != 1 || !attrs(calls[0])[oteltrace.HeldKey].AsBool() || calls[0].Status().Code == codes.Error {
		t.Errorf("call spans after the stream ended: %v", calls)
	}
}

// TestAPIKeyInQueryIsRedacted: an API key a credential puts in the query
// reaches the server but not the client span's url.full, which keeps the
// caller's own query parameters.
func TestAPIKeyInQueryIsRedacted(t *testing.T) {
	tracer, rec, _ := newTracer(t)
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Query().Get("api_key")
		io.WriteString(w, `"ok"`)
	}))
	defer srv.Close()
	dep, err := runtime.NewDependency("petstore", runtime.DependencyPolicy{}, runtime.WithTracer(tracer), runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	op, err := dep.Operation(runtime.OperationPolicy{Name: "ListPets", Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	const secret = "s3cr3t-key"
	op = op.With(runtime.WithCredentials([]runtime.Credential{{Scheme: "apiKey",
		Apply: codec.APIKeyQuery("api_key", func(context.Context) (string, error) { return secret, nil })}}))
	client := runtime.NewHTTPClient(tracer.Transport(nil))
	defer client.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/pets?page=2", nil)
	if _, err := runtime.DoHTTP(context.Background(), op, &runtime.HTTPClient{Doer: client}, req, func(r *http.Response) (string, error) {
		b, err := io.ReadAll(r.Body)
		return string(b), err
	}, nil); err != nil {
		t.Fatal(err)
	}
	if got != secret {
		t.Fatalf("the server got api_key %q, want the key", got)
	}
	var clients int
	for _, s := range rec.Ended() {
		if s.SpanKind() != trace.SpanKindClient {
			continue
		}
		clients++
		full := attrs(s)["url.full"].AsString()
		if strings.Contains(full, secret) || !strings.Contains(full, "api_key=REDACTED") || !strings.Contains(full, "page=2") {
			t.Errorf("client span url.full = %q, want the key redacted and page=2 kept", full)
		}
		for _, a := range s.Attributes() {
			if strings.Contains(a.Value.String(), secret) {
				t.Errorf("client span attribute %s carries the key: %q", a.Key, a.Value.String())
			}
		}
	}
	if clients != 1 {
		t.Fatalf("%d client spans, want 1", clients)
	}
}
