package policyspec

import (
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// Field is one optional policy value together with where it was written.
// The zero value is an unset field. Front ends that do not decode YAML (the
// proto options) fill fields with [Given].
type Field[T any] struct {
	// Value is the value written; meaningful only when Set.
	Value T
	// Set reports whether the value was written.
	Set bool
	// Loc is where the value was written.
	Loc diag.Location

	// layer is the layer the value came from, filled in when layers are
	// merged.
	layer LayerKind
}

// Given returns a set field holding v, written at loc.
func Given[T any](v T, loc diag.Location) Field[T] {
	return Field[T]{Value: v, Set: true, Loc: loc}
}

// Or returns the field's value when set, otherwise def.
func (f Field[T]) Or(def T) T {
	if f.Set {
		return f.Value
	}
	return def
}

// Spec is a policy as people write it, at any level: the policy file's
// defaults, one of its dependencies or operations, an OpenAPI document, path
// item or operation (x-resilience), or a proto file, service or method
// option. Every field is optional. The keys are listed by [Keys]; their
// meaning is that of [runtime.DependencyPolicy] and [runtime.OperationPolicy].
type Spec struct {
	// Idempotent overrides the idempotency the operation has by its HTTP
	// method or proto idempotency_level. Operation level only.
	Idempotent Field[bool]
	// IdempotencyKey names the header that carries one generated key per
	// logical call, the same on every attempt; it makes a non-idempotent
	// operation retry-eligible.
	IdempotencyKey Field[string]
	// Timeout bounds a whole call, retries and backoff included.
	Timeout Field[time.Duration]
	// AttemptTimeout bounds each attempt; it must be below Timeout.
	AttemptTimeout Field[time.Duration]
	// ConnectTimeout bounds connection set-up. HTTP only: a gRPC client
	// connects as its connection's dial options say, and the key is
	// reported and left out there.
	ConnectTimeout Field[time.Duration]
	// DeadlineHeader says whether, and in which header, an HTTP client
	// sends the call's remaining budget: only to a server declared to read
	// it. Dependency level only; HTTP only (gRPC sends grpc-timeout).
	DeadlineHeader Field[HeaderSwitch]
	// Retry says how eligible operations are retried.
	Retry RetrySpec
	// Breaker configures the dependency's circuit breaker. Dependency level
	// only.
	Breaker BreakerSpec
	// Bulkhead bounds concurrent calls to the dependency. Dependency level
	// only.
	Bulkhead BulkheadSpec
	// Hedge asks for hedged attempts on reads.
	Hedge HedgeSpec
	// Fallback selects the degraded answer of a failed read.
	Fallback FallbackSpec
	// Fleet shares the breaker and the retry budget with the service's
	// other replicas, in a Redis the application provides. Dependency level
	// only.
	Fleet FleetSpec
	// Latency carries measured latency, from which unset timeouts, the
	// bulkhead size and the hedge delay are derived.
	Latency LatencySpec
}

// HeaderSwitch is the value of "deadlineHeader": true sends the header
// under its default name, the convention of the runtime's
// DeadlineMiddleware; false, like leaving the key out, sends none; and a
// header name sends it under that name.
type HeaderSwitch struct {
	// Off is true when false was written.
	Off bool
	// Name is the header name written, empty for true or false.
	Name string
}

// FleetSpec is the "fleet" block (dependency level only). Writing either
// key shares the dependency's breaker and retry budget with the other
// replicas of the service, through the Redis (or Valkey) client the
// application gives the generated client's WithFleet (gRPC:
// With<Service>Fleet) option. The policy names the store; it never holds
// an address or a credential.
type FleetSpec struct {
	// Store names the shared store ("sessions-redis") for the reader of
	// the policy, the review and the logs: letters, digits, ".", "_" and
	// "-", at most 64.
	Store Field[StoreName]
	// Prefix starts the names of the store's keys for this dependency,
	// "resilient:" by default: printable ASCII without spaces, braces,
	// "@" or "://", at most 64 characters.
	Prefix Field[KeyPrefix]
}

// StoreName is the value of "fleet.store".
type StoreName string

// KeyPrefix is the value of "fleet.prefix".
type KeyPrefix string

// RetrySpec is the "retry" block. Budget and MinPerSecond are dependency
// level only.
type RetrySpec struct {
	// MaxRetries is the number of retries after the first attempt, 0 to 5;
	// 0 turns retries off.
	MaxRetries Field[int]
	// Base is the backoff base.
	Base Field[time.Duration]
	// Cap bounds the backoff; it must not be below Base.
	Cap Field[time.Duration]
	// Budget is the share of requests that may be retried, in (0, 1];
	// written as "10%" or 0.1.
	Budget Field[float64]
	// MinPerSecond is the floor of the budget for low-traffic dependencies,
	// in retries per second; 0 means no floor.
	MinPerSecond Field[float64]
}

// BreakerSpec is the "breaker" block (dependency level only).
type BreakerSpec struct {
	// FailureRate is the failure percentage that opens the breaker, in
	// (0, 100].
	FailureRate Field[float64]
	// MinimumCalls is the number of calls in the window below which the
	// breaker never opens, at least 1.
	MinimumCalls Field[int]
	// Window is the counting window, a whole number of seconds.
	Window Field[time.Duration]
	// OpenFor is how long the breaker stays open.
	OpenFor Field[time.Duration]
	// HalfOpenProbes is the number of probes let through while half-open,
	// at least 1.
	HalfOpenProbes Field[int]
}

// BulkheadSpec is the "bulkhead" block (dependency level only).
type BulkheadSpec struct {
	// MaxConcurrent is the number of calls in flight at once, at least 1.
	MaxConcurrent Field[int]
	// MaxWait is how long a call waits for a permit; 0 fails fast.
	MaxWait Field[time.Duration]
}

// HedgeSpec is the "hedge" block. Writing either key asks for hedging
// (unless maxHedges is 0); a missing delay is taken from the p95 latency.
type HedgeSpec struct {
	// Delay is how long an attempt runs before a hedge is started.
	Delay Field[time.Duration]
	// MaxHedges is the number of hedges per attempt, 0 to 4; 0 turns
	// hedging off.
	MaxHedges Field[int]
}

// FallbackSpec is the "fallback" block.
type FallbackSpec struct {
	// Kind is cached, static or none.
	Kind Field[runtime.FallbackKind]
	// TTL is how long a cached value may be served.
	TTL Field[time.Duration]
	// Value is the static answer, a JSON value of the response type.
	Value Field[any]
	// Shared declares that a cached answer is the same for every caller,
	// so that it may be served to any of them (see
	// [runtime.FallbackPolicy.Shared]). Unset means false: a cached answer
	// is served only to a request identical in parameters and credentials.
	Shared Field[bool]
}

// LatencySpec is the "latency" block: measured latency of the dependency or
// of one operation.
type LatencySpec struct {
	// P50 is the median latency.
	P50 Field[time.Duration]
	// P95 is the 95th percentile.
	P95 Field[time.Duration]
	// P99 is the 99th percentile.
	P99 Field[time.Duration]
	// P999 is the 99.9th percentile.
	P999 Field[time.Duration]
	// RPS is the request rate, in requests per second.
	RPS Field[float64]
}
