package runtime

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// Tracer starts the spans of a dependency's calls and of their attempts,
// for distributed tracing. Set it with [WithTracer]; a dependency without
// one pays nothing for tracing, not even a context lookup. The
// OpenTelemetry implementation lives in the oteltrace sub-package, so
// that this package imports nothing of OpenTelemetry.
//
// The pipeline calls StartCall when a call enters it, before the
// bulkhead, and runs the call under the context it returns: every
// attempt's context derives from it, so the attempt spans are children of
// the call span, and whatever the attempt sends (an HTTP request through
// an instrumented transport, a gRPC call through a stats handler) is a
// child of its attempt span. The tracer's methods are called on the
// calling goroutine, or on a hedged attempt's own, never with a lock
// held; they must be safe for concurrent use.
type Tracer interface {
	// StartCall starts the span of one call and returns the context the
	// call runs under, carrying it.
	StartCall(ctx context.Context, call CallInfo) (context.Context, CallSpan)
}

// CallInfo describes a call that starts.
type CallInfo struct {
	Dependency, Operation string
	Idempotency           Idempotency
	// Held is true for a call whose result keeps using the dependency
	// after the pipeline returns ([DoHeld], [DoHTTPStream], the gRPC
	// streams): its span ends when the result is released.
	Held bool
}

// CallSpan is the span of one call, from [Tracer.StartCall]. StartAttempt
// may be called concurrently, for hedged attempts; End is called once,
// after every attempt that the call waited for has ended.
type CallSpan interface {
	// StartAttempt starts the span of one attempt, hedges included, and
	// returns the context the attempt runs under, carrying it.
	StartAttempt(ctx context.Context, attempt AttemptInfo) (context.Context, AttemptSpan)
	// End ends the call's span.
	End(CallEnd)
}

// AttemptSpan is the span of one attempt, from [CallSpan.StartAttempt].
type AttemptSpan interface {
	// End ends the attempt's span with the event the observer also gets.
	End(AttemptEvent)
}

// AttemptInfo describes an attempt that starts.
type AttemptInfo struct {
	Dependency, Operation string
	// Attempt counts from 1 within the call, hedges included.
	Attempt int
	// Hedge is true for a hedged attempt.
	Hedge bool
	// Breaker is the state of the dependency's breaker once it let the
	// attempt through: closed, or half-open for a probe.
	Breaker BreakerState
	// Retry says why this attempt is a retry: the failed attempt before it
	// (its error and class), the backoff waited and whether the
	// dependency asked for it. Nil for a call's first attempt and for
	// hedges.
	Retry *RetryEvent
}

// CallEnd describes how a call ended, for its span.
type CallEnd struct {
	// Attempts is the number of attempts started, hedges included.
	Attempts int
	// BulkheadWait is how long the call waited for a bulkhead permit.
	BulkheadWait time.Duration
	// Err is nil for a success; a [*CallError] for a failure, saying what
	// ended it; a [*DegradedError] for an answer from a fallback. For a
	// held call that succeeded, it is the error that ended the use of its
	// result, such as a stream's failed read, and nil for a clean end.
	Err error
	// Held is true when the span ends as a held result is released.
	Held bool
}

// WithTracer sets the tracer that starts spans for the dependency's calls
// and attempts. The default, and nil, trace nothing.
func WithTracer(t Tracer) Option {
	return optionFunc(func(d *Dependency) {
		if t != nil {
			d.tracer, d.traced = t, true
		}
	})
}

// TransportTracer is a [Tracer] that also instruments an HTTP transport,
// putting the trace context on outgoing requests and starting their client
// spans (oteltrace's Tracer does so with otelhttp).
type TransportTracer interface {
	Tracer
	// Transport returns base wrapped; nil base means
	// [http.DefaultTransport].
	Transport(base http.RoundTripper) http.RoundTripper
}

// TraceTransport returns base wrapped by the Transport of the dependency's
// tracer ([WithTracer]) when that is a [TransportTracer], and base as it
// is otherwise (no tracer included). Generated clients wrap their default
// transport with it.
func (d *Dependency) TraceTransport(base http.RoundTripper) http.RoundTripper {
	if tt, ok := d.tracer.(TransportTracer); ok && d.traced {
		return tt.Transport(base)
	}
	return base
}

// callTrace is the tracing state of one call, carried in its context.
type callTrace struct {
	span     CallSpan
	attempts atomic.Int32
	waited   time.Duration
	// retry is the retry about to be made, read by the next attempt.
	retry atomic.Pointer[RetryEvent]
}

type callTraceKey struct{}

// startTrace starts the span of a call of o and returns the call's
// context and tracing state.
func (o *Operation) startTrace(ctx context.Context, hold bool) (context.Context, *callTrace) {
	d := o.dep
	ctx, span := d.tracer.StartCall(ctx, CallInfo{Dependency: d.name, Operation: o.name, Idempotency: o.idempotency, Held: hold})
	tr := &callTrace{span: span}
	return context.WithValue(ctx, callTraceKey{}, tr), tr
}

// traceOf returns the tracing state that ctx carries, nil if none.
func traceOf(ctx context.Context) *callTrace {
	tr, _ := ctx.Value(callTraceKey{}).(*callTrace)
	return tr
}

// startAttempt starts the span of attempt n and returns its context.
func (tr *callTrace) startAttempt(actx context.Context, o *Operation, n int, hedge bool) (context.Context, AttemptSpan) {
	tr.attempts.Add(1)
	a := AttemptInfo{Dependency: o.dep.name, Operation: o.name, Attempt: n, Hedge: hedge, Breaker: o.dep.breaker.state()}
	if !hedge {
		a.Retry = tr.retry.Swap(nil)
	}
	return tr.span.StartAttempt(actx, a)
}

// end ends the call's span with err.
func (tr *callTrace) end(err error, held bool) {
	tr.span.End(CallEnd{Attempts: int(tr.attempts.Load()), BulkheadWait: tr.waited, Err: err, Held: held})
}
