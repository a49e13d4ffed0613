package policyspec

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// layer decodes src as the policy of a layer of kind.
func layer(t *testing.T, kind LayerKind, src string) Layer {
	t.Helper()
	return Layer{Kind: kind, Spec: mustSpec(t, src)}
}

func TestLayering(t *testing.T) {
	kinds := []LayerKind{LayerFileDefaults, LayerFileDependency, LayerDocument, LayerService}
	opKinds := []LayerKind{LayerServiceConfig, LayerFileOperation, LayerPathItem, LayerOperation}
	// Each layer sets the timeout to its own number of seconds; the
	// narrowest layer present must win.
	tests := []struct {
		name    string
		present []LayerKind
		layer   LayerKind
	}{
		{name: "service config over built-in", present: []LayerKind{LayerServiceConfig}, layer: LayerServiceConfig},
		{name: "policy file defaults over service config", present: []LayerKind{LayerServiceConfig, LayerFileDefaults}, layer: LayerFileDefaults},
		{name: "policy file operation over service config", present: []LayerKind{LayerFileOperation, LayerServiceConfig}, layer: LayerFileOperation},
		{name: "method option over service config", present: []LayerKind{LayerServiceConfig, LayerOperation}, layer: LayerOperation},
		{name: "file defaults", present: []LayerKind{LayerFileDefaults}, layer: LayerFileDefaults},
		{name: "file dependency over defaults", present: []LayerKind{LayerFileDefaults, LayerFileDependency}, layer: LayerFileDependency},
		{name: "file operation over file dependency", present: []LayerKind{LayerFileDependency, LayerFileOperation}, layer: LayerFileOperation},
		{name: "spec root over the whole file", present: []LayerKind{LayerFileDefaults, LayerFileDependency, LayerFileOperation, LayerDocument}, layer: LayerDocument},
		{name: "service over spec root", present: []LayerKind{LayerDocument, LayerService}, layer: LayerService},
		{name: "path item over service", present: []LayerKind{LayerService, LayerPathItem}, layer: LayerPathItem},
		{name: "operation over all", present: []LayerKind{LayerFileDefaults, LayerFileDependency, LayerFileOperation, LayerDocument, LayerService, LayerPathItem, LayerOperation}, layer: LayerOperation},
		{name: "operation over path item", present: []LayerKind{LayerOperation, LayerPathItem}, layer: LayerOperation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var depLayers, opLayers []Layer
			for _, k := range tt.present {
				l := Layer{Kind: k, Spec: Spec{Timeout: Given(time.Duration(k)*time.Second, diag.Location{File: k.String(), Line: int(k)})}}
				switch {
				case contains2(kinds, k):
					depLayers = append(depLayers, l)
				case contains2(opKinds, k):
					opLayers = append(opLayers, l)
				}
			}
			d, err := ResolveDependency("dep", depLayers...)
			if err != nil {
				t.Fatalf("ResolveDependency: %v", err)
			}
			op, err := d.ResolveOperation("Op", runtime.ReadOnly, opLayers...)
			if err != nil {
				t.Fatalf("ResolveOperation: %v", err)
			}
			if want := time.Duration(tt.layer) * time.Second; op.Policy.Timeout != want {
				t.Errorf("Timeout = %v, want %v from the %s", op.Policy.Timeout, want, tt.layer)
			}
			want := Source{Origin: OriginSet, Layer: tt.layer, Loc: diag.Location{File: tt.layer.String(), Line: int(tt.layer)}}
			if diff := cmp.Diff(want, op.Sources["timeout"]); diff != "" {
				t.Errorf("timeout source mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func contains2(list []LayerKind, k LayerKind) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

func TestLayerKindsAreChecked(t *testing.T) {
	if _, err := ResolveDependency("dep", Layer{Kind: LayerOperation}); err == nil {
		t.Error("ResolveDependency with an operation layer succeeded, want an error")
	}
	d, err := ResolveDependency("dep")
	if err != nil {
		t.Fatalf("ResolveDependency: %v", err)
	}
	if _, err := d.ResolveOperation("Op", runtime.ReadOnly, Layer{Kind: LayerDocument}); err == nil {
		t.Error("ResolveOperation with a document layer succeeded, want an error")
	}
}

func TestShadowedWarning(t *testing.T) {
	f, err := DecodeFile("policy.yaml", []byte("dependencies:\n  inv:\n    operations:\n      Get: {timeout: 2s, connectTimeout: 100ms}\n"))
	if err != nil {
		t.Fatal(err)
	}
	doc := Layer{Kind: LayerDocument, Spec: Spec{Timeout: Given(3*time.Second, diag.Location{File: "api.yaml", Line: 5, Col: 3})}}
	d, err := ResolveDependency("inv", append(f.DependencyLayers("inv"), doc)...)
	if err != nil {
		t.Fatal(err)
	}
	op, err := d.ResolveOperation("Get", runtime.ReadOnly, f.OperationLayers("inv", "Get")...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`policy.yaml:4:13: W-SHADOWED: timeout from the policy file operation has no effect: the spec root sets it at api.yaml:5:3 (/dependencies/inv/operations/Get/timeout); remove it from the policy file, or change the specification`}
	if diff := cmp.Diff(want, messages(op.Warnings)); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if op.Policy.Timeout != 3*time.Second || op.Policy.ConnectTimeout != 100*time.Millisecond {
		t.Errorf("timeouts = %v / %v, want 100ms / 3s", op.Policy.ConnectTimeout, op.Policy.Timeout)
	}
	if op.Warnings[0].Severity != diag.Warning {
		t.Errorf("severity = %v, want warning", op.Warnings[0].Severity)
	}
}

func TestResolveRules(t *testing.T) {
	tests := []struct {
		name      string
		doc, path string // spec root and path item
		op        string // operation
		idem      runtime.Idempotency
		wantRules []diag.Rule
		check     func(t *testing.T, op *Operation)
	}{
		{
			name: "document retry block never makes a plain POST retry",
			doc:  "retry: {maxRetries: 3}",
			idem: runtime.NotIdempotent,
			check: func(t *testing.T, op *Operation) {
				if !op.Policy.Retry.Disabled || op.Policy.Retry.MaxRetries != 0 {
					t.Errorf("Retry = %+v, want Disabled", op.Policy.Retry)
				}
			},
		},
		{
			name: "path item retry block never makes a plain POST retry",
			path: "retry: {maxRetries: 3}",
			idem: runtime.NotIdempotent,
		},
		{
			name:      "operation asks for retries on a POST",
			op:        "retry: {maxRetries: 2}",
			idem:      runtime.NotIdempotent,
			wantRules: []diag.Rule{diag.RuleRetryUnsafe},
		},
		{
			name:      "operation tunes backoff on a POST",
			op:        "retry: {base: 50ms}",
			idem:      runtime.NotIdempotent,
			wantRules: []diag.Rule{diag.RuleRetryUnsafe},
		},
		{
			name: "operation turns retries off on a POST",
			op:   "retry: {maxRetries: 0}",
			idem: runtime.NotIdempotent,
		},
		{
			name: "idempotency key makes a POST retry",
			op:   "idempotencyKey: Idempotency-Key\nretry: {maxRetries: 2}",
			idem: runtime.NotIdempotent,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Idempotency != runtime.Idempotent || op.Policy.Retry.MaxRetries != 2 || op.IdempotencyKey != "Idempotency-Key" {
					t.Errorf("idempotency %v, retries %d, key %q; want idempotent, 2, Idempotency-Key", op.Policy.Idempotency, op.Policy.Retry.MaxRetries, op.IdempotencyKey)
				}
			},
		},
		{
			name: "document idempotency key makes POSTs retry with inherited retries",
			doc:  "idempotencyKey: Idempotency-Key",
			idem: runtime.NotIdempotent,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Retry.MaxRetries != runtime.DefaultMaxRetries {
					t.Errorf("MaxRetries = %d, want %d", op.Policy.Retry.MaxRetries, runtime.DefaultMaxRetries)
				}
			},
		},
		{
			name: "idempotent: true on a POST",
			op:   "idempotent: true\nretry: {maxRetries: 1}",
			idem: runtime.NotIdempotent,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Idempotency != runtime.Idempotent || op.Policy.Retry.MaxRetries != 1 {
					t.Errorf("idempotency %v, retries %d; want idempotent, 1", op.Policy.Idempotency, op.Policy.Retry.MaxRetries)
				}
			},
		},
		{
			name: "idempotent: true keeps a read a read",
			op:   "idempotent: true",
			idem: runtime.ReadOnly,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Idempotency != runtime.ReadOnly {
					t.Errorf("idempotency %v, want read-only", op.Policy.Idempotency)
				}
			},
		},
		{
			name:      "idempotent: false on a GET forbids its retries",
			op:        "idempotent: false\nretry: {maxRetries: 2}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleRetryUnsafe},
		},
		{
			name:      "idempotent at the document is out of scope",
			doc:       "idempotent: true",
			idem:      runtime.NotIdempotent,
			wantRules: []diag.Rule{diag.RuleScope},
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Idempotency != runtime.NotIdempotent {
					t.Errorf("idempotency %v, want not idempotent", op.Policy.Idempotency)
				}
			},
		},
		{
			name:      "hedging a PUT",
			op:        "hedge: {delay: 50ms}",
			idem:      runtime.Idempotent,
			wantRules: []diag.Rule{diag.RuleHedgeUnsafe},
		},
		{
			name: "document hedging applies to reads only",
			doc:  "hedge: {delay: 50ms}",
			idem: runtime.Idempotent,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Hedge.Delay != 0 {
					t.Errorf("Hedge.Delay = %v, want 0", op.Policy.Hedge.Delay)
				}
			},
		},
		{
			name: "hedging a GET takes the p95",
			doc:  "latency: {p95: 90ms, p99: 180ms}",
			op:   "hedge: {maxHedges: 2}",
			idem: runtime.ReadOnly,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Hedge != (runtime.HedgePolicy{Delay: 90 * time.Millisecond, MaxHedges: 2}) {
					t.Errorf("Hedge = %+v, want 90ms, 2", op.Policy.Hedge)
				}
			},
		},
		{
			name:      "hedging without delay nor p95",
			op:        "hedge: {maxHedges: 1}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleHedgeDelay},
		},
		{
			name:      "hedge delay beyond the attempt timeout",
			op:        "hedge: {delay: 500ms}\nattemptTimeout: 400ms",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleHedgeDelay},
		},
		{
			name:      "fallback on a POST",
			op:        "fallback: {kind: cached}",
			idem:      runtime.NotIdempotent,
			wantRules: []diag.Rule{diag.RuleFallbackUnsafe},
		},
		{
			name: "document fallback is not applied to a write",
			doc:  "fallback: {kind: cached}",
			idem: runtime.Idempotent,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Fallback.Kind != runtime.FallbackNone {
					t.Errorf("Fallback.Kind = %v, want none", op.Policy.Fallback.Kind)
				}
			},
		},
		{
			name:      "static fallback without value",
			op:        "fallback: {kind: static}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleFallbackValue},
		},
		{
			name:      "value without a static fallback",
			op:        "fallback: {kind: cached, value: 1}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleFallbackKind},
		},
		{
			name: "cached fallback shared by every caller",
			op:   "fallback: {kind: cached, shared: true}",
			idem: runtime.ReadOnly,
			check: func(t *testing.T, op *Operation) {
				want := runtime.FallbackPolicy{Kind: runtime.FallbackCached, TTL: runtime.DefaultFallbackTTL, Shared: true}
				if diff := cmp.Diff(want, op.Policy.Fallback); diff != "" {
					t.Errorf("Fallback mismatch (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "document shared applies to an operation's cached fallback",
			doc:  "fallback: {shared: true}",
			op:   "fallback: {kind: cached}",
			idem: runtime.ReadOnly,
			check: func(t *testing.T, op *Operation) {
				if !op.Policy.Fallback.Shared {
					t.Error("Fallback.Shared = false, want true")
				}
			},
		},
		{
			name: "document shared without any fallback is no error",
			doc:  "fallback: {shared: true}",
			idem: runtime.ReadOnly,
			check: func(t *testing.T, op *Operation) {
				if op.Policy.Fallback != (runtime.FallbackPolicy{TTL: runtime.DefaultFallbackTTL}) {
					t.Errorf("Fallback = %+v, want none", op.Policy.Fallback)
				}
			},
		},
		{
			name:      "shared on a static fallback",
			op:        "fallback: {kind: static, value: 1, shared: true}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleFallbackKind},
		},
		{
			name:      "shared on an operation without fallback",
			op:        "fallback: {shared: false}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleFallbackKind},
		},
		{
			name: "static fallback with value",
			op:   "fallback: {kind: static, value: {items: []}}",
			idem: runtime.ReadOnly,
			check: func(t *testing.T, op *Operation) {
				want := runtime.FallbackPolicy{Kind: runtime.FallbackStatic, TTL: runtime.DefaultFallbackTTL, Static: map[string]any{"items": []any{}}}
				if diff := cmp.Diff(want, op.Policy.Fallback); diff != "" {
					t.Errorf("Fallback mismatch (-want +got):\n%s", diff)
				}
			},
		},
		{
			name:      "attempt timeout not below timeout",
			op:        "timeout: 2s\nattemptTimeout: 3s",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleTimeoutOrder},
		},
		{
			name:      "attempt timeout below timeout set at a wider level",
			doc:       "timeout: 2s",
			op:        "attemptTimeout: 2s",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleTimeoutOrder},
		},
		{
			name:      "timeouts below the dependency's p99",
			doc:       "latency: {p99: 180ms}",
			op:        "timeout: 150ms\nattemptTimeout: 100ms",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleTimeoutBelowP99, diag.RuleTimeoutBelowP99},
		},
		{
			name:      "latency percentiles out of order",
			doc:       "latency: {p95: 200ms, p99: 100ms}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleRange},
		},
		{
			name:      "base above cap",
			doc:       "retry: {cap: 1s}",
			op:        "retry: {base: 2s}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleRange},
		},
		{
			name:      "cap not below timeout",
			op:        "retry: {cap: 5s}\ntimeout: 3s",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleRange},
		},
		{
			name:      "dependency-wide keys on an operation",
			op:        "breaker: {failureRate: 10}\nbulkhead: {maxConcurrent: 1}\nretry: {budget: 50%, minPerSecond: 1}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleScope, diag.RuleScope, diag.RuleScope, diag.RuleScope},
		},
		{
			name:      "dependency-wide keys on a path item",
			path:      "breaker: {openFor: 1s}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleScope},
		},
		{
			name:      "deadlineHeader on an operation",
			op:        "deadlineHeader: false",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleScope},
		},
		{
			name:      "fleet on an operation",
			op:        "fleet: {store: cache}",
			idem:      runtime.ReadOnly,
			wantRules: []diag.Rule{diag.RuleScope},
		},

		{
			name:      "all problems at once",
			doc:       "latency: {p99: 1s}",
			op:        "retry: {maxRetries: 2}\nhedge: {delay: 10ms}\nfallback: {kind: cached}\ntimeout: 500ms\nattemptTimeout: 600ms",
			idem:      runtime.NotIdempotent,
			wantRules: []diag.Rule{diag.RuleRetryUnsafe, diag.RuleHedgeUnsafe, diag.RuleFallbackUnsafe, diag.RuleTimeoutBelowP99, diag.RuleTimeoutBelowP99, diag.RuleTimeoutOrder},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, derr := ResolveDependency("dep", layer(t, LayerDocument, tt.doc))
			op, err := d.ResolveOperation("Op", tt.idem, layer(t, LayerPathItem, tt.path), layer(t, LayerOperation, tt.op))
			if err := append(diag.From(derr), diag.From(err)...).Sorted().Err(); err != nil || tt.wantRules != nil {
				got := rules(err)
				if diff := cmp.Diff(tt.wantRules, got); diff != "" {
					t.Errorf("rules mismatch (-want +got):\n%s\nerrors:\n%v", diff, err)
				}
			}
			if tt.check != nil {
				tt.check(t, op)
			}
		})
	}
}

func TestRetryUnsafeMessage(t *testing.T) {
	d, _ := ResolveDependency("orders")
	_, err := d.ResolveOperation("CreateOrder", runtime.NotIdempotent, Layer{Kind: LayerOperation, Spec: mustSpec(t, "retry: {maxRetries: 2}")})
	want := []string{`api.yaml:1:9: E-RETRY-UNSAFE: operation CreateOrder asks for retries but is not idempotent: a retried request may repeat its side effect (RFC 9110 §9.2.2) (#/x-resilience/retry/maxRetries); set idempotencyKey: Idempotency-Key if the server deduplicates by key, idempotent: true if repeating is harmless, or remove the retry settings`}
	if diff := cmp.Diff(want, messages(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var found diag.Diagnostic
	if !errors.As(err, &found) || found.Rule != diag.RuleRetryUnsafe {
		t.Errorf("errors.As(err, *diag.Diagnostic) = %v, want the E-RETRY-UNSAFE diagnostic", found)
	}
}

func TestDependencyPolicy(t *testing.T) {
	tests := []struct {
		name    string
		layers  []Layer
		want    runtime.DependencyPolicy
		sources map[string]Origin
	}{
		{
			name: "built-in defaults",
			want: runtime.DependencyPolicy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, Window: 10 * time.Second, OpenFor: 30 * time.Second, HalfOpenProbes: 5},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 32, MaxWait: 10 * time.Millisecond},
				Budget:   runtime.BudgetPolicy{Ratio: 0.1, MinPerSecond: 10, MaxBalance: 100},
			},
			sources: map[string]Origin{"breaker.failureRate": OriginDefault, "bulkhead.maxConcurrent": OriginGuess},
		},
		{
			name: "written values, zero wait and no floor",
			layers: []Layer{
				layer(t, LayerFileDefaults, "breaker: {failureRate: 25, minimumCalls: 10, window: 20s, openFor: 1m, halfOpenProbes: 2}\nretry: {budget: 20%, minPerSecond: 0}"),
				layer(t, LayerService, "bulkhead: {maxConcurrent: 8, maxWait: 0s}"),
			},
			want: runtime.DependencyPolicy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 25, MinimumCalls: 10, Window: 20 * time.Second, OpenFor: time.Minute, HalfOpenProbes: 2},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 8, DisableWait: true},
				Budget:   runtime.BudgetPolicy{Ratio: 0.2, DisableFloor: true, MaxBalance: 100},
			},
			sources: map[string]Origin{"breaker.failureRate": OriginSet, "bulkhead.maxConcurrent": OriginSet},
		},
		{
			name:   "bulkhead by Little's law",
			layers: []Layer{layer(t, LayerFileDependency, "latency: {p99: 50ms, rps: 200}")},
			want: runtime.DependencyPolicy{
				Breaker:  runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, Window: 10 * time.Second, OpenFor: 30 * time.Second, HalfOpenProbes: 5},
				Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 30, MaxWait: 10 * time.Millisecond},
				Budget:   runtime.BudgetPolicy{Ratio: 0.1, MinPerSecond: 10, MaxBalance: 100},
			},
			sources: map[string]Origin{"bulkhead.maxConcurrent": OriginDerived},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ResolveDependency("dep", tt.layers...)
			if err != nil {
				t.Fatalf("ResolveDependency: %v", err)
			}
			if diff := cmp.Diff(tt.want, d.Policy); diff != "" {
				t.Errorf("Policy mismatch (-want +got):\n%s", diff)
			}
			for key, want := range tt.sources {
				if got := d.Sources[key].Origin; got != want {
					t.Errorf("Sources[%s] = %v, want %v", key, got, want)
				}
			}
			// An operation asking for its own breaker changes nothing of the
			// dependency: the policy is shared.
			before := d.Policy
			if _, err := d.ResolveOperation("Op", runtime.ReadOnly, layer(t, LayerOperation, "breaker: {failureRate: 1}")); err == nil {
				t.Error("operation-level breaker accepted, want E-SCOPE")
			}
			if diff := cmp.Diff(before, d.Policy); diff != "" {
				t.Errorf("operation changed the dependency policy (-want +got):\n%s", diff)
			}
		})
	}
}
