package policyspec

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/resilientgo/resilient/runtime"
)

func TestRoundUp(t *testing.T) {
	tests := []struct{ in, want time.Duration }{
		{3 * time.Millisecond, 10 * time.Millisecond},
		{420 * time.Millisecond, 420 * time.Millisecond},
		{421 * time.Millisecond, 430 * time.Millisecond},
		{1560 * time.Millisecond, 1600 * time.Millisecond},
		{12300 * time.Millisecond, 13 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			if got := RoundUp(tt.in); got != tt.want {
				t.Errorf("RoundUp(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestDerivations(t *testing.T) {
	ms := time.Millisecond
	if got, basis := DeriveAttemptTimeout(Latency{P99: 180 * ms, P999: 350 * ms}); got != 420*ms || basis != "p99.9 350ms × 1.2, rounded up" {
		t.Errorf("DeriveAttemptTimeout(p99.9 350ms) = %v, %q, want 420ms", got, basis)
	}
	if got, _ := DeriveAttemptTimeout(Latency{P99: 180 * ms}); got != 220*ms {
		t.Errorf("DeriveAttemptTimeout(p99 180ms) = %v, want 220ms", got)
	}
	if got, _ := DeriveAttemptTimeout(Latency{P50: 10 * ms}); got != 0 {
		t.Errorf("DeriveAttemptTimeout(no tail) = %v, want 0", got)
	}
	if got, basis := DeriveBulkhead(Latency{P99: 50 * ms, RPS: 200}); got != 30 || basis != "200 rps × p99 50ms = 10 in flight, × 3 headroom" {
		t.Errorf("DeriveBulkhead(200 rps, 50ms) = %d, %q, want 30", got, basis)
	}
	if got, _ := DeriveBulkhead(Latency{P99: 33 * ms, RPS: 10}); got != 3 {
		t.Errorf("DeriveBulkhead(10 rps, 33ms) = %d, want 3 (ceil(0.33) × 3)", got)
	}
	if got := Backoff(4, 100*ms, 500*ms); got != 100*ms+200*ms+400*ms+500*ms {
		t.Errorf("Backoff(4, 100ms, 500ms) = %v, want 1.2s", got)
	}
	if got := CoveringTimeout(3, 420*ms, 300*ms, 90*ms); got != 1700*ms {
		t.Errorf("CoveringTimeout = %v, want 1.7s", got)
	}
}

// TestBulkheadHoldsASlowDependency: the derived bulkhead holds the calls
// in flight when the dependency answers at twice its p99 (the
// resilience-patterns' slow-dependency fault), with a quarter to spare for
// the retries and hedges of the slowdown's first moments; otherwise the
// bulkhead, not the dependency, fails the calls.
func TestBulkheadHoldsASlowDependency(t *testing.T) {
	ms := time.Millisecond
	for _, l := range []Latency{
		{P99: 30 * ms, RPS: 400}, {P99: 50 * ms, RPS: 200}, {P99: 180 * ms, RPS: 200}, {P99: 2 * time.Second, RPS: 5},
	} {
		slowed := l.RPS * (2 * l.P99).Seconds()
		if got, _ := DeriveBulkhead(l); float64(got) < 1.25*slowed {
			t.Errorf("DeriveBulkhead(%g rps, p99 %v) = %d, want at least 1.25 × %.0f in flight at twice the p99", l.RPS, l.P99, got, slowed)
		}
	}
}

// TestBulkheadWaitFromLatency: with a measured p95 the bulkhead's wait is
// the p95; without one, the runtime default; a written value wins.
func TestBulkheadWaitFromLatency(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		doc    string
		want   time.Duration
		origin Origin
	}{
		{"latency: {p95: 15ms, p99: 30ms, rps: 400}", 15 * ms, OriginDerived},
		{"latency: {p99: 30ms, rps: 400}", runtime.DefaultMaxWait, OriginDefault},
		{"latency: {p95: 15ms}\nbulkhead: {maxWait: 40ms}", 40 * ms, OriginSet},
	}
	for _, tt := range tests {
		d, err := ResolveDependency("dep", layer(t, LayerDocument, tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got, src := d.Policy.Bulkhead.MaxWait, d.Sources["bulkhead.maxWait"]; got != tt.want || src.Origin != tt.origin {
			t.Errorf("%q: bulkhead wait %v (%v), want %v (%v)", tt.doc, got, src.Origin, tt.want, tt.origin)
		}
	}
}

func TestResolveTimeouts(t *testing.T) {
	ms := time.Millisecond
	type want struct {
		Connect, Attempt, Total, MinAttempt time.Duration
		Origins                             map[string]Origin
	}
	tests := []struct {
		name string
		doc  string
		op   string
		idem runtime.Idempotency
		want want
	}{
		{
			name: "from latency, retried read",
			doc:  "latency: {p50: 20ms, p95: 90ms, p99: 180ms, p999: 350ms}",
			idem: runtime.ReadOnly,
			// attempt 350ms × 1.2 = 420ms; total 3 × 420ms + backoff 100ms + 200ms = 1.56s → 1.6s
			want: want{Connect: time.Second, Attempt: 420 * ms, Total: 1600 * ms, MinAttempt: 20 * ms,
				Origins: map[string]Origin{"connectTimeout": OriginGuess, "attemptTimeout": OriginDerived, "timeout": OriginDerived, "retry.minAttempt": OriginDerived}},
		},
		{
			// Sent once: the total of three attempts of 420ms and the
			// default backoff (1.56s → 1.6s), the attempt timeout kept as
			// the runtime's reference.
			name: "from latency, single attempt",
			doc:  "latency: {p999: 350ms}\nconnectTimeout: 200ms",
			idem: runtime.NotIdempotent,
			want: want{Connect: 200 * ms, Attempt: 420 * ms, Total: 1600 * ms,
				Origins: map[string]Origin{"connectTimeout": OriginSet, "attemptTimeout": OriginDerived, "timeout": OriginDerived, "retry.minAttempt": OriginGuess}},
		},
		{
			name: "no latency: guesses",
			idem: runtime.Idempotent,
			// 3 × 2s + 300ms backoff
			want: want{Connect: time.Second, Attempt: 2 * time.Second, Total: 6300 * ms,
				Origins: map[string]Origin{"attemptTimeout": OriginGuess, "timeout": OriginGuess}},
		},
		{
			name: "attempt set, total covers it",
			op:   "attemptTimeout: 500ms\nretry: {maxRetries: 1, base: 50ms}",
			idem: runtime.ReadOnly,
			want: want{Connect: time.Second, Attempt: 500 * ms, Total: 1100 * ms, // 2 × 500ms + 50ms, rounded up
				Origins: map[string]Origin{"attemptTimeout": OriginSet, "timeout": OriginDerived}},
		},
		{
			name: "total set, latency fits",
			doc:  "latency: {p99: 100ms}",
			op:   "timeout: 1s",
			idem: runtime.ReadOnly,
			want: want{Connect: time.Second, Attempt: 120 * ms, Total: time.Second,
				Origins: map[string]Origin{"attemptTimeout": OriginDerived, "timeout": OriginSet}},
		},
		{
			name: "total set, no latency: equal shares after backoff",
			op:   "timeout: 2s",
			idem: runtime.ReadOnly,
			// (2s − 300ms) / 3 = 566ms → 560ms
			want: want{Connect: time.Second, Attempt: 560 * ms, Total: 2 * time.Second,
				Origins: map[string]Origin{"attemptTimeout": OriginDerived, "timeout": OriginSet}},
		},
		{
			name: "hedging adds the hedge delay",
			doc:  "latency: {p95: 90ms, p999: 350ms}",
			op:   "hedge: {maxHedges: 1}\nretry: {maxRetries: 0}",
			idem: runtime.ReadOnly,
			want: want{Connect: time.Second, Attempt: 420 * ms, Total: 510 * ms,
				Origins: map[string]Origin{"attemptTimeout": OriginDerived, "timeout": OriginDerived, "hedge.delay": OriginDerived}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ResolveDependency("dep", layer(t, LayerDocument, tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			op, err := d.ResolveOperation("Op", tt.idem, layer(t, LayerOperation, tt.op))
			if err != nil {
				t.Fatal(err)
			}
			p := op.Policy
			got := want{Connect: p.ConnectTimeout, Attempt: p.AttemptTimeout, Total: p.Timeout, MinAttempt: p.Retry.MinAttempt, Origins: map[string]Origin{}}
			for k := range tt.want.Origins {
				got.Origins[k] = op.Sources[k].Origin
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("timeouts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
