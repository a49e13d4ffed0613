package policyspec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/resilientgo/resilient/runtime"
)

// reviewFixture resolves the example policy file for two dependencies.
func reviewFixture(t *testing.T) []ReviewDependency {
	t.Helper()
	f, err := DecodeFile("policy.yaml", []byte(examplePolicy))
	if err != nil {
		t.Fatal(err)
	}
	var deps []ReviewDependency
	for _, dep := range []struct {
		name, protocol string
		ops            map[string]runtime.Idempotency
	}{
		{"inventory", "gRPC", map[string]runtime.Idempotency{"GetItem": runtime.ReadOnly, "ReserveItem": runtime.NotIdempotent, "ListItems": runtime.ReadOnly}},
		{"billing", "HTTP", map[string]runtime.Idempotency{"Charge": runtime.NotIdempotent}},
	} {
		d, err := ResolveDependency(dep.name, f.DependencyLayers(dep.name)...)
		if err != nil {
			t.Fatal(err)
		}
		rd := ReviewDependency{Dependency: d, Protocol: dep.protocol}
		for name, idem := range dep.ops {
			op, err := d.ResolveOperation(name, idem, f.OperationLayers(dep.name, name)...)
			if err != nil {
				t.Fatal(err)
			}
			rd.Operations = append(rd.Operations, op)
		}
		deps = append(deps, rd)
	}
	return deps
}

func TestRenderReview(t *testing.T) {
	tests := []struct {
		name string
		mode ReviewMode
		want string
	}{
		{
			name: "per operation",
			mode: ReviewPerOperation,
			want: `## Resilience review: shop
| Dependency | Timeout (connect/request) | Retries | Breaker | Bulkhead | Fallback | Idempotent |
|---|---|---|---|---|---|---|
| billing/Charge (HTTP) | 300 ms / 2 s *guess*, only without a caller deadline, no deadline header (default) | none (not idempotent) | 50%/20 calls/30 s→5 m (default), throttle 3×/250 ms | ≥32 permits *guess* | none | no |
| inventory/GetItem (gRPC) | 300 ms / 1.7 s | 2 (default), full jitter, budget 10%, hedge after ≥90 ms | 50%/20 calls/30 s→5 m, throttle 3×/250 ms | ≥108 permits | cached, 5 m, marked degraded | yes |
| inventory/ListItems (gRPC) | 300 ms / ≥420 ms adaptive, last attempt to the deadline, total 1.6 s | 2 (default), full jitter, budget 10% | 50%/20 calls/30 s→5 m, throttle 3×/250 ms | ≥108 permits | none | yes |
| inventory/ReserveItem (gRPC) | 300 ms / ≥420 ms adaptive, last attempt to the deadline, total 1.6 s | 2 (default), full jitter, budget 10% | 50%/20 calls/30 s→5 m, throttle 3×/250 ms | ≥108 permits | none | with key Idempotency-Key |

Marks: (default) built-in default; *guess* chosen without latency data; measure p99.9 and rps to replace it; ≥ a floor the runtime raises when the dependency slows down: the attempt timeout to 1.2 × the observed p99, the hedge delay to 1.2 × the observed p90, the bulkhead up to twice its size while the dependency answers; an attempt is cut only when a retry can follow, hedged and last attempts run to the deadline; throttle K×/W: while the dependency sheds load (503, 429, gRPC RESOURCE_EXHAUSTED or UNAVAILABLE from a reached server) the client sends about K times what it accepted over the last W and refuses the rest locally (ErrThrottled); shed answers do not open the breaker, which opens on unanswered attempts, resets, 500s and gateway errors; breaker R%/N calls/A→B: it opens at R % failures among at least N attempts, for A at first and A longer at each opening in a row up to B, and once its probes succeed ramps traffic back over A (a fleet's shared breaker keeps A and one round of probes).

**Open risks:** billing: no latency data, timeouts or bulkhead are guesses; billing: no fallback, failures reach the caller.
`,
		},
		{
			name: "per dependency",
			mode: ReviewPerDependency,
			want: `## Resilience review: shop
| Dependency | Timeout (connect/request) | Retries | Breaker | Bulkhead | Fallback | Idempotent |
|---|---|---|---|---|---|---|
| billing (HTTP) | 300 ms / 2 s *guess*, only without a caller deadline, no deadline header (default) | none (not idempotent) | 50%/20 calls/30 s→5 m (default), throttle 3×/250 ms | ≥32 permits *guess* | none | no |
| inventory (gRPC) | 2 ops: 300 ms / ≥420 ms adaptive, last attempt to the deadline, total 1.6 s; 1 op: 300 ms / 1.7 s | 2 ops: 2 (default), full jitter, budget 10%; 1 op: 2 (default), full jitter, budget 10%, hedge after ≥90 ms | 50%/20 calls/30 s→5 m, throttle 3×/250 ms | ≥108 permits | 2 ops: none; 1 op: cached, 5 m, marked degraded | 2 ops: yes; 1 op: with key Idempotency-Key |

Marks: (default) built-in default; *guess* chosen without latency data; measure p99.9 and rps to replace it; ≥ a floor the runtime raises when the dependency slows down: the attempt timeout to 1.2 × the observed p99, the hedge delay to 1.2 × the observed p90, the bulkhead up to twice its size while the dependency answers; an attempt is cut only when a retry can follow, hedged and last attempts run to the deadline; throttle K×/W: while the dependency sheds load (503, 429, gRPC RESOURCE_EXHAUSTED or UNAVAILABLE from a reached server) the client sends about K times what it accepted over the last W and refuses the rest locally (ErrThrottled); shed answers do not open the breaker, which opens on unanswered attempts, resets, 500s and gateway errors; breaker R%/N calls/A→B: it opens at R % failures among at least N attempts, for A at first and A longer at each opening in a row up to B, and once its probes succeed ramps traffic back over A (a fleet's shared breaker keeps A and one round of probes).

**Open risks:** billing: no latency data, timeouts or bulkhead are guesses; billing: no fallback, failures reach the caller.
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RenderReview("shop", reviewFixture(t), tt.mode)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RenderReview mismatch (-want +got):\n%s", diff)
			}
			if again := RenderReview("shop", reviewFixture(t), tt.mode); again != got {
				t.Errorf("RenderReview is not deterministic:\n%s\nthen\n%s", got, again)
			}
		})
	}
}

func TestReviewCells(t *testing.T) {
	d, err := ResolveDependency("dep", layer(t, LayerDocument, "breaker: {failureRate: 30}"))
	if err != nil {
		t.Fatal(err)
	}
	op, err := d.ResolveOperation("a|b", runtime.ReadOnly, layer(t, LayerOperation, "fallback: {kind: static, value: 0}\nretry: {maxRetries: 0}\nconnectTimeout: 250ms\ntimeout: 90s"))
	if err != nil {
		t.Fatal(err)
	}
	got := RenderReview("svc", []ReviewDependency{{Dependency: d, Operations: []*Operation{op}}}, ReviewPerOperation)
	want := `## Resilience review: svc
| Dependency | Timeout (connect/request) | Retries | Breaker | Bulkhead | Fallback | Idempotent |
|---|---|---|---|---|---|---|
| dep/a\|b | 250 ms / 90 s, no deadline header (default) | none | 30%/20 calls/30 s→5 m (partly default), throttle 3×/250 ms | ≥32 permits *guess* | static value, marked degraded | yes |

Marks: (default) built-in default; (partly default) some values are built-in defaults; *guess* chosen without latency data; measure p99.9 and rps to replace it; ≥ a floor the runtime raises when the dependency slows down: the attempt timeout to 1.2 × the observed p99, the hedge delay to 1.2 × the observed p90, the bulkhead up to twice its size while the dependency answers; an attempt is cut only when a retry can follow, hedged and last attempts run to the deadline; throttle K×/W: while the dependency sheds load (503, 429, gRPC RESOURCE_EXHAUSTED or UNAVAILABLE from a reached server) the client sends about K times what it accepted over the last W and refuses the rest locally (ErrThrottled); shed answers do not open the breaker, which opens on unanswered attempts, resets, 500s and gateway errors; breaker R%/N calls/A→B: it opens at R % failures among at least N attempts, for A at first and A longer at each opening in a row up to B, and once its probes succeed ramps traffic back over A (a fleet's shared breaker keeps A and one round of probes).

**Open risks:** dep: no latency data, timeouts or bulkhead are guesses.
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RenderReview mismatch (-want +got):\n%s", diff)
	}
}

// TestReviewDeadlineHeader: the review says whether an HTTP client sends
// the deadline header, and in which; a gRPC row says nothing of it and
// shows no connect timeout the client does not apply.
func TestReviewDeadlineHeader(t *testing.T) {
	tests := []struct {
		name, doc, protocol string
		connect             bool // the operation has a connect timeout
		want                string
	}{
		{name: "default", doc: "{}", protocol: "HTTP", connect: true, want: "250 ms / 90 s, no deadline header (default)"},
		{name: "renamed", doc: "deadlineHeader: X-Budget-Ms", protocol: "HTTP", connect: true, want: "250 ms / 90 s, deadline in X-Budget-Ms"},
		{name: "off", doc: "deadlineHeader: false", protocol: "HTTP", connect: true, want: "250 ms / 90 s, no deadline header"},
		{name: "on", doc: "deadlineHeader: true", protocol: "HTTP", connect: true, want: "250 ms / 90 s, deadline in X-Request-Deadline"},
		{name: "gRPC", doc: "{}", protocol: "gRPC", want: "– / 90 s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ResolveDependency("dep", layer(t, LayerDocument, tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			op, err := d.ResolveOperation("Get", runtime.ReadOnly, layer(t, LayerOperation, "retry: {maxRetries: 0}\nconnectTimeout: 250ms\ntimeout: 90s"))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.connect {
				op.Policy.ConnectTimeout = 0 // as the gRPC generator leaves it
			}
			row := operationRow("dep/Get", d, op, tt.protocol != "gRPC")
			if row[1] != tt.want {
				t.Errorf("timeout cell = %q, want %q", row[1], tt.want)
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"800ms", "800 ms"}, {"1.5s", "1.5 s"}, {"90s", "90 s"}, {"5m", "5 m"}, {"2h", "2 h"}, {"500us", "0.5 ms"},
	} {
		d, _ := parseDuration(tt.in, false)
		if got := formatDuration(d); got != tt.want {
			t.Errorf("formatDuration(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFallbackCell(t *testing.T) {
	d, err := ResolveDependency("dep")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ op, want string }{
		{"fallback: {kind: cached}", "cached, 5 m (default), marked degraded"},
		{"fallback: {kind: cached, ttl: 1m, shared: true}", "cached, 1 m, shared by all callers, marked degraded"},
		{"fallback: {kind: static, value: 0}", "static value, marked degraded"},
		{"fallback: {kind: none}", "none"},
	}
	for _, tt := range tests {
		op, err := d.ResolveOperation("get", runtime.ReadOnly, layer(t, LayerOperation, tt.op))
		if err != nil {
			t.Fatalf("%s: %v", tt.op, err)
		}
		if got := fallbackCell(op); got != tt.want {
			t.Errorf("fallbackCell(%s) = %q, want %q", tt.op, got, tt.want)
		}
	}
}

// TestReviewFleet: a dependency whose breaker and budget are the fleet's
// says "fleet (redis)" in both cells; one without says nothing of it.
func TestReviewFleet(t *testing.T) {
	tests := []struct {
		name, doc             string
		wantBreaker, wantRetr string
	}{
		{name: "local", doc: "{}", wantBreaker: "50%/20 calls/30 s→5 m (default), throttle 3×/250 ms", wantRetr: "2 (default), full jitter, budget 10% (default)"},
		{name: "fleet", doc: "fleet: {store: sessions-redis}", wantBreaker: "50%/20 calls/30 s→5 m (default), fleet (redis), throttle 3×/250 ms",
			wantRetr: "2 (default), full jitter, budget 10% (default), fleet (redis)"},
		{name: "prefix only", doc: "fleet: {prefix: \"checkout:\"}", wantBreaker: "50%/20 calls/30 s→5 m (default), fleet (redis), throttle 3×/250 ms",
			wantRetr: "2 (default), full jitter, budget 10% (default), fleet (redis)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ResolveDependency("dep", layer(t, LayerDocument, tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			op, err := d.ResolveOperation("Get", runtime.ReadOnly, layer(t, LayerOperation, "timeout: 1s"))
			if err != nil {
				t.Fatal(err)
			}
			row := operationRow("dep/Get", d, op, true)
			if row[3] != tt.wantBreaker || row[2] != tt.wantRetr {
				t.Errorf("breaker, retries = %q, %q; want %q, %q", row[3], row[2], tt.wantBreaker, tt.wantRetr)
			}
		})
	}
}
