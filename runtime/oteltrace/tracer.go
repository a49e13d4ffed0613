package oteltrace

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/otelobserver"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// ScopeName is the instrumentation scope of the tracer [New] creates.
const ScopeName = "github.com/resilientgo/resilient/runtime/oteltrace"

// Attribute keys of the spans, beside the ones shared with the metrics
// (otelobserver.DependencyKey, OperationKey, OutcomeKey, HedgeKey,
// RetryAfterKey, SourceKey and StateKey).
const (
	// IdempotencyKey is the operation's idempotency: "not_idempotent",
	// "idempotent" or "read_only".
	IdempotencyKey = attribute.Key("resilient.idempotency")
	// AttemptsKey is the number of attempts a call started.
	AttemptsKey = attribute.Key("resilient.attempts")
	// BulkheadWaitKey is the time a call waited for a bulkhead permit, in
	// seconds.
	BulkheadWaitKey = attribute.Key("resilient.bulkhead.wait")
	// EndKey says what ended a failed call ([runtime.End]'s String).
	EndKey = attribute.Key("resilient.end")
	// DegradedKey is true on a call answered by a fallback.
	DegradedKey = attribute.Key("resilient.degraded")
	// HeldKey is true on a call whose result was held (a stream).
	HeldKey = attribute.Key("resilient.held")
	// AttemptKey is an attempt's number, from 1.
	AttemptKey = attribute.Key("resilient.attempt")
	// RetryReasonKey is the class of the failed attempt a retry follows.
	RetryReasonKey = attribute.Key("resilient.retry.reason")
	// RetryDelayKey is the backoff before a retry, in seconds.
	RetryDelayKey = attribute.Key("resilient.retry.delay")
)

// Option configures a [Tracer].
type Option interface {
	apply(*Tracer)
}

type optionFunc func(*Tracer)

func (f optionFunc) apply(t *Tracer) { f(t) }

// WithTracerOptions adds options to the tracer taken from the provider,
// such as [trace.WithInstrumentationVersion]. The default is none.
func WithTracerOptions(opts ...trace.TracerOption) Option {
	o := append([]trace.TracerOption(nil), opts...)
	return optionFunc(func(t *Tracer) { t.tracerOpts = append(t.tracerOpts, o...) })
}

// WithPropagator sets the propagator that [Tracer.Transport] puts the
// trace context on outgoing requests with. The default is the global one
// (otel.GetTextMapPropagator), which sends nothing until the program sets
// one, such as propagation.TraceContext{}.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return optionFunc(func(t *Tracer) { t.propagator = p })
}

// Tracer is a [runtime.Tracer] that starts OpenTelemetry spans for calls
// and attempts (see the package documentation). It is safe for concurrent
// use; one Tracer may serve any number of dependencies.
type Tracer struct {
	tp         trace.TracerProvider
	tracer     trace.Tracer
	tracerOpts []trace.TracerOption
	propagator propagation.TextMapPropagator
}

var _ runtime.Tracer = (*Tracer)(nil)

// New returns a tracer starting spans on a tracer of tp named
// [ScopeName]. It fails when tp is nil.
func New(tp trace.TracerProvider, opts ...Option) (*Tracer, error) {
	if tp == nil {
		return nil, errors.New("oteltrace: nil tracer provider")
	}
	t := &Tracer{tp: tp}
	for _, o := range opts {
		o.apply(t)
	}
	t.tracer = tp.Tracer(ScopeName, t.tracerOpts...)
	return t, nil
}

// Transport returns base wrapped by otelhttp: every request it sends gets
// a client span, child of the attempt span its context carries, and the
// trace context in its header (see [WithPropagator]). Nil base means
// [http.DefaultTransport]. Give the result to the [http.Client] of the
// dependency's [runtime.HTTPClient], or to a generated client's
// WithHTTPClient.
//
// The span's url.full leaves out the values of the query parameters the
// attempt's credentials and request editors added or changed
// ([runtime.EditedQueryNames]), such as an API key sent in the query:
// they read "REDACTED".
func (t *Tracer) Transport(base http.RoundTripper) http.RoundTripper {
	opts := []otelhttp.Option{otelhttp.WithTracerProvider(t.tp)}
	if t.propagator != nil {
		opts = append(opts, otelhttp.WithPropagators(t.propagator))
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return otelhttp.NewTransport(redactingTransport{base}, opts...)
}

// urlFullKey is the semantic conventions' attribute of a client span's
// full URL, which otelhttp sets.
const urlFullKey = attribute.Key("url.full")

// redactingTransport runs inside otelhttp's transport, where the request's
// context holds the client span: when the attempt's editors put values in
// the query, it sets the span's url.full again with those values
// redacted, as otelhttp's own redacts userinfo.
type redactingTransport struct{ base http.RoundTripper }

func (t redactingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if names := runtime.EditedQueryNames(req.Context()); len(names) > 0 && req.URL != nil {
		if span := trace.SpanFromContext(req.Context()); span.IsRecording() {
			span.SetAttributes(urlFullKey.String(redactedURL(req.URL, names)))
		}
	}
	return t.base.RoundTrip(req)
}

// redactedURL returns u without its userinfo and with the values of the
// query parameters names replaced by "REDACTED".
func redactedURL(u *url.URL, names []string) string {
	c := *u
	c.User = nil
	q := c.Query()
	for _, name := range names {
		if vs, ok := q[name]; ok {
			for i := range vs {
				vs[i] = "REDACTED"
			}
		}
	}
	c.RawQuery = q.Encode()
	return c.String()
}

// StartCall starts a call's span.
func (t *Tracer) StartCall(ctx context.Context, c runtime.CallInfo) (context.Context, runtime.CallSpan) {
	name := c.Dependency + " " + c.Operation
	ctx, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
		otelobserver.DependencyKey.String(c.Dependency),
		otelobserver.OperationKey.String(c.Operation),
		IdempotencyKey.String(idempotency(c.Idempotency)),
	))
	return ctx, &callSpan{t: t, span: span, name: name + " attempt"}
}

type callSpan struct {
	t    *Tracer
	span trace.Span
	name string
}

// StartAttempt starts an attempt's span, child of the call's.
func (c *callSpan) StartAttempt(ctx context.Context, a runtime.AttemptInfo) (context.Context, runtime.AttemptSpan) {
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs,
		otelobserver.DependencyKey.String(a.Dependency),
		otelobserver.OperationKey.String(a.Operation),
		AttemptKey.Int(a.Attempt),
		otelobserver.HedgeKey.Bool(a.Hedge),
		otelobserver.StateKey.String(state(a.Breaker)),
	)
	if r := a.Retry; r != nil {
		attrs = append(attrs,
			RetryReasonKey.String(outcomeName(r.Err, classOf(r.Err))),
			RetryDelayKey.Float64(r.Delay.Seconds()),
			otelobserver.RetryAfterKey.Bool(r.RetryAfter),
		)
	}
	ctx, span := c.t.tracer.Start(ctx, c.name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx, attemptSpan{span}
}

// End ends the call's span.
func (c *callSpan) End(e runtime.CallEnd) {
	c.span.SetAttributes(AttemptsKey.Int(e.Attempts), BulkheadWaitKey.Float64(e.BulkheadWait.Seconds()))
	if e.Held {
		c.span.SetAttributes(HeldKey.Bool(true))
	}
	var (
		ce *runtime.CallError
		de *runtime.DegradedError
	)
	switch {
	case e.Err == nil:
	case errors.As(e.Err, &de):
		c.span.SetAttributes(DegradedKey.Bool(true), otelobserver.SourceKey.String(source(de.Source)))
		c.span.AddEvent("degraded", trace.WithAttributes(attribute.String("resilient.cause", de.Cause.Error())))
	case errors.As(e.Err, &ce):
		c.span.SetAttributes(EndKey.String(ce.End.String()))
		c.span.RecordError(e.Err)
		c.span.SetStatus(codes.Error, ce.End.String())
	default:
		c.span.RecordError(e.Err)
		c.span.SetStatus(codes.Error, e.Err.Error())
	}
	c.span.End()
}

type attemptSpan struct{ span trace.Span }

// End ends the attempt's span.
func (a attemptSpan) End(ev runtime.AttemptEvent) {
	a.span.SetAttributes(otelobserver.OutcomeKey.String(outcomeName(ev.Err, ev.Class)))
	if ev.Err != nil {
		a.span.RecordError(ev.Err)
		a.span.SetStatus(codes.Error, fmt.Sprint(outcomeName(ev.Err, ev.Class)))
	}
	a.span.End()
}

// outcomeName names an attempt's outcome as the resilient.attempts metric
// does.
func outcomeName(err error, c outcome.Class) string {
	switch {
	case err == nil:
		return "success"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return c.String()
}

// classOf returns the class an error says it has, Transient if none.
func classOf(err error) outcome.Class {
	var c outcome.Classifier
	if errors.As(err, &c) {
		return c.Classify()
	}
	return outcome.Transient
}

func idempotency(i runtime.Idempotency) string {
	switch i {
	case runtime.Idempotent:
		return "idempotent"
	case runtime.ReadOnly:
		return "read_only"
	default:
		return "not_idempotent"
	}
}

func state(s runtime.BreakerState) string {
	switch s {
	case runtime.BreakerHalfOpen:
		return "half_open"
	case runtime.BreakerOpen:
		return "open"
	default:
		return "closed"
	}
}

func source(k runtime.FallbackKind) string {
	switch k {
	case runtime.FallbackCached:
		return "cached"
	case runtime.FallbackStatic:
		return "static"
	default:
		return "none"
	}
}

// DialOption returns the gRPC dial option that records the client span of
// every RPC sent on the connection, child of the attempt span its context
// carries, and puts the trace context in its metadata (see
// [WithPropagator]): otelgrpc's client stats handler on the tracer's
// provider. Dial the connection a generated gRPC client calls with it.
func (t *Tracer) DialOption() grpc.DialOption {
	opts := []otelgrpc.Option{otelgrpc.WithTracerProvider(t.tp)}
	if t.propagator != nil {
		opts = append(opts, otelgrpc.WithPropagators(t.propagator))
	}
	return grpc.WithStatsHandler(otelgrpc.NewClientHandler(opts...))
}
