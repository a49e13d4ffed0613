package policyspec

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// resolveOp resolves operation Op of a dependency with layers doc
// (document level) and op (operation level), failing on errors.
func resolveOp(t *testing.T, idem runtime.Idempotency, doc, op string) *Operation {
	t.Helper()
	d, err := ResolveDependency("dep", layer(t, LayerDocument, doc))
	if err != nil {
		t.Fatal(err)
	}
	o, err := d.ResolveOperation("Op", idem, layer(t, LayerOperation, op))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestGuessedTimeoutKeepsCallerDeadline: only a total timeout nobody
// declared, a guess without latency data, is marked to bound just the
// calls without a deadline; a declared or derived total caps every call.
func TestGuessedTimeoutKeepsCallerDeadline(t *testing.T) {
	tests := []struct {
		name    string
		idem    runtime.Idempotency
		doc, op string
		want    bool
	}{
		{name: "guess, sent once", idem: runtime.NotIdempotent, want: true},
		{name: "guess, retried", idem: runtime.ReadOnly, want: true},
		{name: "declared timeout", idem: runtime.ReadOnly, op: "timeout: 2s", want: false},
		{name: "declared at the document", idem: runtime.NotIdempotent, doc: "timeout: 2s", want: false},
		{name: "derived from a declared attempt timeout", idem: runtime.ReadOnly, op: "attemptTimeout: 1s", want: false},
		{name: "derived from latency", idem: runtime.ReadOnly, doc: "latency: {p99: 100ms}", want: false},
		{name: "derived from latency, sent once", idem: runtime.NotIdempotent, doc: "latency: {p99: 100ms}", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := resolveOp(t, tt.idem, tt.doc, tt.op)
			if got := o.Policy.KeepCallerDeadline; got != tt.want {
				t.Errorf("KeepCallerDeadline = %v, want %v (timeout %v from %v)", got, tt.want, o.Policy.Timeout, o.Sources["timeout"])
			}
		})
	}
}

// TestTimeoutOrderAgreesWithRuntime: policyspec refuses an attempt
// timeout not below the total (E-TIMEOUT-ORDER) exactly when the runtime
// would drop it.
func TestTimeoutOrderAgreesWithRuntime(t *testing.T) {
	dep, err := runtime.NewDependency("dep", runtime.DependencyPolicy{}, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, total := range []time.Duration{ms(1), ms(500), time.Second, runtime.DefaultTimeout} {
		for _, attempt := range []time.Duration{ms(1), total - ms(1), total, total + ms(1), 2 * total} {
			if attempt <= 0 {
				continue
			}
			t.Run(fmt.Sprintf("attempt %v total %v", attempt, total), func(t *testing.T) {
				d, _ := ResolveDependency("dep")
				_, err := d.ResolveOperation("Op", runtime.ReadOnly, layer(t, LayerOperation, fmt.Sprintf("timeout: %v\nattemptTimeout: %v", total, attempt)))
				refused := slices.Contains(rules(err), diag.RuleTimeoutOrder)
				op, oerr := dep.Operation(runtime.OperationPolicy{Name: "Op", Timeout: total, AttemptTimeout: attempt})
				if oerr != nil {
					t.Fatal(oerr)
				}
				dropped := op.AttemptTimeout() == 0
				if refused != dropped {
					t.Errorf("policyspec refuses: %v, runtime drops: %v", refused, dropped)
				}
			})
		}
	}
}

// TestAttemptNeverCut: a declared attempt timeout that no attempt can be
// cut by is a W-ATTEMPT-NEVER-CUT warning, not an error.
func TestAttemptNeverCut(t *testing.T) {
	tests := []struct {
		name    string
		idem    runtime.Idempotency
		doc, op string
		want    []string
	}{
		{name: "sent once", idem: runtime.NotIdempotent, op: "timeout: 2s\nattemptTimeout: 400ms",
			want: []string{"api.yaml:2:1: W-ATTEMPT-NEVER-CUT: attemptTimeout 400ms of operation Op never cuts its attempt: the operation is sent once (not idempotent), so its one attempt runs to the total 2s; the value only tells the breaker how long a healthy answer takes (#/x-resilience/attemptTimeout); remove attemptTimeout, or let the operation retry (idempotencyKey, or idempotent: true) if a second attempt is safe"}},
		{name: "retries off", idem: runtime.ReadOnly, op: "timeout: 2s\nattemptTimeout: 400ms\nretry: {maxRetries: 0}",
			want: []string{"api.yaml:2:1: W-ATTEMPT-NEVER-CUT: attemptTimeout 400ms of operation Op never cuts its attempt: the operation is sent once (retries are off), so its one attempt runs to the total 2s; the value only tells the breaker how long a healthy answer takes (#/x-resilience/attemptTimeout); remove attemptTimeout, or let the operation retry (idempotencyKey, or idempotent: true) if a second attempt is safe"}},
		{name: "too close to the total", idem: runtime.ReadOnly, op: "timeout: 1s\nattemptTimeout: 800ms",
			want: []string{"api.yaml:2:1: W-ATTEMPT-NEVER-CUT: attemptTimeout 800ms of operation Op never cuts an attempt: under timeout 1s, a retry after it (backoff up to 100ms) would have less time than the attempt had, so every attempt runs to the total (#/x-resilience/attemptTimeout); raise timeout to at least 1.7s, or lower attemptTimeout to at most 450ms"}},
		{name: "room for one retry", idem: runtime.ReadOnly, op: "timeout: 1s\nattemptTimeout: 450ms"},
		{name: "written for every operation, one sent once", idem: runtime.NotIdempotent, doc: "attemptTimeout: 400ms\ntimeout: 2s"},
		{name: "hedged read", idem: runtime.ReadOnly, op: "timeout: 1s\nattemptTimeout: 800ms\nhedge: {delay: 100ms}"},
		{name: "derived from latency, sent once", idem: runtime.NotIdempotent, doc: "latency: {p99: 100ms}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := resolveOp(t, tt.idem, tt.doc, tt.op)
			var got []string
			for _, w := range o.Warnings {
				got = append(got, w.Error())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("warnings\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestSentOnceWaitsItsTotal: the fact behind the warning. A method
// declared with attemptTimeout 400ms and a 2s total, sent once, waits its
// whole total against a server that never answers.
func TestSentOnceWaitsItsTotal(t *testing.T) {
	p := resolveOp(t, runtime.NotIdempotent, "", "timeout: 2s\nattemptTimeout: 400ms").Policy
	synctest.Test(t, func(t *testing.T) {
		dep, err := runtime.NewDependency("dep", runtime.DependencyPolicy{}, runtime.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		op, err := dep.Operation(p)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		attempts := 0
		_, err = runtime.Do(t.Context(), op, "", func(ctx context.Context) (int, error) {
			attempts++
			<-ctx.Done()
			return 0, ctx.Err()
		})
		if err == nil {
			t.Fatal("a call to a server that never answers succeeded")
		}
		if el := time.Since(start); attempts != 1 || el != 2*time.Second {
			t.Errorf("%d attempts over %v, want 1 over the whole 2s total", attempts, el)
		}
	})
}

// TestDeadlineHeaderDeclared: the deadline header goes only to a server
// declared to read it, declared once for the dependency in the policy
// file or in the spec's root; the review says which.
func TestDeadlineHeaderDeclared(t *testing.T) {
	for _, tt := range []struct {
		name   string
		layers []Layer
		want   string
		cell   string
	}{
		{name: "undeclared", want: "", cell: "no deadline header (default)"},
		{name: "policy file dependency", layers: []Layer{layer(t, LayerFileDependency, "deadlineHeader: true")},
			want: runtime.DefaultDeadlineHeader, cell: "deadline in X-Request-Deadline"},
		{name: "spec root", layers: []Layer{layer(t, LayerDocument, "deadlineHeader: X-Budget-Ms")},
			want: "X-Budget-Ms", cell: "deadline in X-Budget-Ms"},
		{name: "policy file defaults, spec turns it off", layers: []Layer{layer(t, LayerFileDefaults, "deadlineHeader: true"), layer(t, LayerDocument, "deadlineHeader: false")},
			want: "", cell: "no deadline header"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ResolveDependency("dep", tt.layers...)
			if err != nil {
				t.Fatal(err)
			}
			if d.DeadlineHeader != tt.want {
				t.Errorf("DeadlineHeader = %q, want %q", d.DeadlineHeader, tt.want)
			}
			if got := deadlineCell(d); got != ", "+tt.cell {
				t.Errorf("review cell %q, want %q", got, ", "+tt.cell)
			}
		})
	}
}
