package policyspec

import (
	"github.com/resilientgo/resilient/policyspec/diag"
	"testing"

	"github.com/resilientgo/resilient/runtime"
)

// TestOperationSummary: the summary names what a reader needs of an
// operation's policy, plainly and with a note on every value nobody
// wrote.
func TestOperationSummary(t *testing.T) {
	tests := []struct {
		name       string
		idem       runtime.Idempotency
		dep, op    string // YAML of the dependency's and the operation's layer
		plain, ann string
	}{
		{"a read with defaults", runtime.ReadOnly, "", "",
			"read-only, 3 attempts; timeout 6.3s, only without a caller deadline; attempt ≥2s, only without a caller deadline, adaptive, last attempt to the deadline",
			"read-only (from the method), 3 attempts (default); timeout 6.3s, only without a caller deadline (guess); attempt ≥2s, only without a caller deadline (guess), adaptive, last attempt to the deadline"},
		{"a guessed write runs to the caller's deadline", runtime.NotIdempotent, "", "",
			"not idempotent, 1 attempt; timeout 2s, only without a caller deadline",
			"not idempotent (from the method), 1 attempt (not idempotent: never retried); timeout 2s, only without a caller deadline (guess)"},
		{"a write is sent once", runtime.NotIdempotent, "", "timeout: 3s",
			"not idempotent, 1 attempt; timeout 3s",
			"not idempotent (from the method), 1 attempt (not idempotent: never retried); timeout 3s"},
		{"derived from latency", runtime.ReadOnly, "latency: {p50: 20ms, p95: 90ms, p99: 180ms, p999: 350ms, rps: 200}", "hedge: {maxHedges: 1}",
			"read-only, 3 attempts; timeout 1.7s; hedged after ≥90ms, every attempt to the deadline",
			"read-only (from the method), 3 attempts (default); timeout 1.7s (3 × attempt 420ms + backoff 300ms + hedge delay 90ms, rounded up); hedged after ≥90ms (p95 90ms), every attempt to the deadline"},
		{"everything written", runtime.NotIdempotent, "",
			"{idempotencyKey: Idempotency-Key, timeout: 2s, attemptTimeout: 500ms, retry: {maxRetries: 1}}",
			"idempotent, 2 attempts; timeout 2s; attempt ≥500ms, adaptive, last attempt to the deadline; key in Idempotency-Key",
			"idempotent, 2 attempts; timeout 2s; attempt ≥500ms, adaptive, last attempt to the deadline; key in Idempotency-Key"},
		{"a cached fallback shared by all", runtime.ReadOnly, "", "{timeout: 1s, attemptTimeout: 300ms, fallback: {kind: cached, shared: true}}",
			"read-only, 3 attempts; timeout 1s; attempt ≥300ms, adaptive, last attempt to the deadline; cached fallback 5m, shared by all callers",
			"read-only (from the method), 3 attempts (default); timeout 1s; attempt ≥300ms, adaptive, last attempt to the deadline; cached fallback 5m (default), shared by all callers"},
		{"a static fallback", runtime.ReadOnly, "", "{timeout: 1s, attemptTimeout: 300ms, retry: {maxRetries: 0}, fallback: {kind: static, value: {}}}",
			"read-only, 1 attempt; timeout 1s; static fallback",
			"read-only (from the method), 1 attempt; timeout 1s; static fallback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var depLayers, opLayers []Layer
			if tt.dep != "" {
				depLayers = append(depLayers, Layer{Kind: LayerDocument, Spec: mustSpec(t, tt.dep)})
			}
			if tt.op != "" {
				opLayers = append(opLayers, Layer{Kind: LayerOperation, Spec: mustSpec(t, tt.op)})
			}
			d, err := ResolveDependency("dep", depLayers...)
			if err != nil {
				t.Fatal(err)
			}
			op, err := d.ResolveOperation("Op", tt.idem, opLayers...)
			if err != nil {
				t.Fatal(err)
			}
			s := op.Summary()
			if got := s.String(); got != tt.plain {
				t.Errorf("String() = %q, want %q", got, tt.plain)
			}
			if got := s.Annotated(); got != tt.ann {
				t.Errorf("Annotated() = %q, want %q", got, tt.ann)
			}
		})
	}
}

// TestDependencySummary: breaker, bulkhead and budget, noted where nobody
// wrote them, and the fleet when the policy declares one.
func TestDependencySummary(t *testing.T) {
	tests := []struct {
		name, dep  string
		plain, ann string
	}{
		{"defaults", "",
			"breaker at 50% of 20 calls, open 30s; bulkhead 32; retry budget 10%",
			"breaker at 50% of 20 calls (default), open 30s (default); bulkhead 32 (guess); retry budget 10% (default)"},
		{"written and derived", "{breaker: {failureRate: 40, minimumCalls: 10, openFor: 15s}, retry: {budget: 20%}, latency: {p99: 120ms, rps: 400}}",
			"breaker at 40% of 10 calls, open 15s; bulkhead 144; retry budget 20%",
			"breaker at 40% of 10 calls, open 15s; bulkhead 144 (400 rps × p99 120ms = 48 in flight, × 3 headroom); retry budget 20%"},
		{"a fleet", "{fleet: {store: sessions-redis, prefix: \"checkout:\"}}",
			`breaker at 50% of 20 calls, open 30s; bulkhead 32; retry budget 10%; breaker and budget shared by the fleet in Redis store "sessions-redis"`,
			`breaker at 50% of 20 calls (default), open 30s (default); bulkhead 32 (guess); retry budget 10% (default); breaker and budget shared by the fleet in Redis store "sessions-redis"`},
		{"a fleet without a store name", "{fleet: {prefix: \"checkout:\"}}",
			"breaker at 50% of 20 calls, open 30s; bulkhead 32; retry budget 10%; breaker and budget shared by the fleet in Redis",
			"breaker at 50% of 20 calls (default), open 30s (default); bulkhead 32 (guess); retry budget 10% (default); breaker and budget shared by the fleet in Redis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var layers []Layer
			if tt.dep != "" {
				layers = append(layers, Layer{Kind: LayerDocument, Spec: mustSpec(t, tt.dep)})
			}
			d, err := ResolveDependency("dep", layers...)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Summary().String(); got != tt.plain {
				t.Errorf("String() = %q, want %q", got, tt.plain)
			}
			if got := d.Summary().Annotated(); got != tt.ann {
				t.Errorf("Annotated() = %q, want %q", got, tt.ann)
			}
		})
	}
}

func TestSourceNote(t *testing.T) {
	tests := []struct {
		src  Source
		want string
	}{
		{Source{Origin: OriginSet, Layer: LayerOperation, Basis: "ignored"}, ""},
		{Source{Origin: OriginSet, Layer: LayerServiceConfig, Loc: diag.Location{File: "google/pubsub/v1/pubsub_grpc_service_config.json", Line: 30}},
			"service config pubsub_grpc_service_config.json"},
		{Source{Origin: OriginDefault}, "default"},
		{Source{Origin: OriginDefault, Basis: "GET"}, "GET"},
		{Source{Origin: OriginGuess, Basis: "no latency data"}, "guess"},
		{Source{Origin: OriginDerived, Basis: "p95 90ms"}, "p95 90ms"},
		{Source{Origin: OriginDerived}, "derived"},
	}
	for _, tt := range tests {
		if got := tt.src.Note(); got != tt.want {
			t.Errorf("%+v.Note() = %q, want %q", tt.src, got, tt.want)
		}
	}
}
