// Package oteltrace records the resilient call pipeline as OpenTelemetry
// spans. [New] returns a [Tracer], a [runtime.Tracer] that dependencies
// are given with [runtime.WithTracer]; the runtime package itself imports
// nothing of OpenTelemetry.
//
// # Spans
//
// Every call gets a span named "<dependency> <operation>", and every
// attempt, hedges included, a child span named "<dependency> <operation>
// attempt", both of kind internal. What the attempt sends is a child of
// its attempt span: the client span of an HTTP request sent through
// [Tracer.Transport] (otelhttp), or of a gRPC call made on a connection
// dialled with otelgrpc's client stats handler, which also put the trace
// context on the wire with the configured propagator ([Tracer.DialOption]).
// The runtime does no propagation of its own. The HTTP client span's
// url.full reads "REDACTED" for the values of the query parameters that
// credentials and request editors put there (an API key sent in the
// query), which [runtime.EditedQueryNames] names.
//
// The call span carries:
//
//	resilient.dependency, resilient.operation   names, as on the metrics
//	resilient.idempotency     "not_idempotent", "idempotent" or "read_only"
//	resilient.attempts        attempts started, hedges included
//	resilient.bulkhead.wait   seconds waited for a bulkhead permit
//	resilient.end             what ended a failed call ("circuit open",
//	                          "bulkhead full", "deadline exceeded", …)
//	resilient.degraded        true for an answer from a fallback, with
//	resilient.source          "cached" or "static"
//	resilient.held            true for a stream: the span ends with it
//
// and an error status when the call failed (not when a fallback
// answered). The attempt span carries resilient.attempt (from 1),
// resilient.hedge, resilient.breaker.state ("closed" or "half_open": the
// breaker let the attempt through), resilient.outcome (as on the
// resilient.attempts metric: "success", "canceled" or the error's class)
// and, for a retry, why: resilient.retry.reason (the class of the failed
// attempt before it), resilient.retry.delay (seconds of backoff) and
// resilient.retry_after (the dependency asked for that delay).
//
// # Metrics
//
// The metrics of the otelobserver package are recorded with the
// attempt's context, so a meter provider that keeps exemplars links each
// attempt measurement to its attempt span; spans and measurements share
// the dependency and operation attributes.
//
// # Example
//
//	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
//	tracer, err := oteltrace.New(tp)
//	if err != nil {
//		return err
//	}
//	pets, err := runtime.NewDependency("petstore", runtime.DependencyPolicy{}, runtime.WithTracer(tracer))
//	...
//	hc := &runtime.HTTPClient{Doer: runtime.NewHTTPClient(tracer.Transport(runtime.NewTransport(0, 0)))}
//
// For gRPC, dial with [Tracer.DialOption] (otelgrpc's client stats
// handler). A generated client takes the tracer with its WithTracer option,
// which also wraps its default HTTP transport with [Tracer.Transport].
package oteltrace
