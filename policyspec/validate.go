package policyspec

import (
	"fmt"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// checkLatency reports percentiles out of order (p50 ≤ p95 ≤ p99 ≤ p99.9).
func checkLatency(l LatencySpec) diag.List {
	type pct struct {
		name string
		f    Field[time.Duration]
	}
	ps := []pct{{"p50", l.P50}, {"p95", l.P95}, {"p99", l.P99}, {"p999", l.P999}}
	var ds diag.List
	var prev *pct
	for i := range ps {
		p := &ps[i]
		if !p.f.Set {
			continue
		}
		if prev != nil && p.f.Value < prev.f.Value {
			ds = append(ds, diag.Diagnostic{Location: p.f.Loc, Rule: diag.RuleRange,
				Message: fmt.Sprintf("latency.%s %s is below latency.%s %s", p.name, p.f.Value, prev.name, prev.f.Value),
				Fix:     "percentiles must not decrease; check the measurement"})
		}
		prev = p
	}
	return ds
}

// narrower returns the location of whichever of two fields was set at the
// narrower layer (a for equal layers), the one to blame for a conflict
// between them.
func narrower(a, b field) diag.Location {
	la, seta := a.where()
	lb, setb := b.where()
	if !setb || (seta && a.from() >= b.from()) {
		return la
	}
	return lb
}

// checkBaseCap reports a backoff base above its cap.
func checkBaseCap(r *resolution, rs *RetrySpec) {
	p := r.op.Policy.Retry
	if p.Base <= p.Cap || (!rs.Base.Set && !rs.Cap.Set) {
		return
	}
	r.add(narrower(&rs.Base, &rs.Cap), diag.RuleRange,
		fmt.Sprintf("retry.base %s is above retry.cap %s", p.Base, p.Cap),
		"the cap bounds the backoff; make retry.base at most retry.cap")
}

// checkFallbackValue reports a static fallback without a value
// (E-FALLBACK-VALUE), and the settings a fallback's kind does not use
// (E-FALLBACK-KIND): a value for a fallback that is not static, shared for
// one that is not cached.
func checkFallbackValue(r *resolution, fs *FallbackSpec, kind runtime.FallbackKind) {
	switch {
	case kind == runtime.FallbackStatic && !fs.Value.Set:
		r.add(fs.Kind.Loc, diag.RuleFallbackValue,
			fmt.Sprintf("operation %s has a static fallback without a value", r.op.Name),
			"set fallback.value to a JSON value of the response type, or use kind: cached")
	case kind != runtime.FallbackStatic && fs.Value.Set && fs.Value.from() >= fs.Kind.from():
		r.add(fs.Value.Loc, diag.RuleFallbackKind,
			fmt.Sprintf("fallback.value is given but the fallback of operation %s is %s", r.op.Name, kind),
			"set fallback.kind: static, or remove the value")
	}
	_, ownShared := askedByOperation(&fs.Shared)
	if kind != runtime.FallbackCached && fs.Shared.Set && (ownShared || fs.Kind.Set && fs.Shared.from() >= fs.Kind.from()) {
		r.add(fs.Shared.Loc, diag.RuleFallbackKind,
			fmt.Sprintf("fallback.shared is given but the fallback of operation %s is %s; only a cached answer is shared", r.op.Name, kind),
			"set fallback.kind: cached, or remove shared")
	}
}

// checkTimeouts reports contradictions between the resolved timeouts and
// what they must cover.
func checkTimeouts(r *resolution) {
	s, p := &r.s, &r.op.Policy
	// The runtime's rule: an attempt timeout that does not fit under the
	// total is dropped there, and refused here.
	if s.AttemptTimeout.Set && s.Timeout.Set && p.AttemptTimeout > 0 && !p.AttemptTimeoutFits() {
		r.add(narrower(&s.AttemptTimeout, &s.Timeout), diag.RuleTimeoutOrder,
			fmt.Sprintf("attemptTimeout %s must be below timeout %s (set at %s)", p.AttemptTimeout, p.Timeout, s.Timeout.Loc),
			"lower attemptTimeout, raise timeout, or remove one of them to derive it")
	}
	if p99 := r.op.Latency.P99; p99 > 0 {
		suggestion, basis := DeriveAttemptTimeout(r.op.Latency)
		for _, t := range []struct {
			name string
			f    *Field[time.Duration]
		}{{"timeout", &s.Timeout}, {"attemptTimeout", &s.AttemptTimeout}} {
			if t.f.Set && t.f.Value < p99 {
				r.add(t.f.Loc, diag.RuleTimeoutBelowP99,
					fmt.Sprintf("%s %s is below the measured p99 latency %s (set at %s): every slow-but-fine call would fail", t.name, t.f.Value, p99, s.Latency.P99.Loc),
					fmt.Sprintf("raise it to at least %s (%s), or remove it to derive it", suggestion, basis))
			}
		}
	}
	rs := &s.Retry
	if rs.Cap.Set && s.Timeout.Set && r.retries > 0 && p.Retry.Cap >= p.Timeout {
		r.add(narrower(&rs.Cap, &s.Timeout), diag.RuleRange,
			fmt.Sprintf("retry.cap %s is not below timeout %s: a backoff of that length leaves no time to retry", p.Retry.Cap, p.Timeout),
			"lower retry.cap below the timeout")
	}
	if r.hedging && p.AttemptTimeout > 0 && p.Hedge.Delay >= p.AttemptTimeout {
		r.add(narrower(&s.Hedge.Delay, &s.AttemptTimeout), diag.RuleHedgeDelay,
			fmt.Sprintf("hedge.delay %s is not below attemptTimeout %s: the hedge would never start", p.Hedge.Delay, p.AttemptTimeout),
			"set the hedge delay near the p95, below the attempt timeout")
	}
}

// checkAttemptCuts warns of a declared attempt timeout that never cuts an
// attempt (W-ATTEMPT-NEVER-CUT), by the runtime's rule that an attempt is
// cut only when a retry can follow it, with as much time left as the
// attempt had. Such a value misleads a reader into expecting a cut; the
// runtime still uses it as the time a healthy answer takes. A hedged read,
// whose attempts all run to the deadline by design, and an attempt
// timeout written wider than the operation of an operation sent once, are
// not reported.
func checkAttemptCuts(r *resolution) {
	s, p := &r.s, &r.op.Policy
	if !s.AttemptTimeout.Set || !p.AttemptTimeoutFits() || r.hedging {
		return
	}
	at := p.AttemptTimeout
	if r.retries == 0 {
		loc, asked := askedByOperation(&s.AttemptTimeout)
		if !asked {
			return
		}
		why := "not idempotent"
		if p.Idempotency != runtime.NotIdempotent {
			why = "retries are off"
		}
		r.warn(loc, diag.RuleAttemptNeverCut,
			fmt.Sprintf("attemptTimeout %s of operation %s never cuts its attempt: the operation is sent once (%s), so its one attempt runs to the total %s; the value only tells the breaker how long a healthy answer takes", at, r.op.Name, why, p.Timeout),
			"remove attemptTimeout, or let the operation retry (idempotencyKey, or idempotent: true) if a second attempt is safe")
		return
	}
	backoff := min(p.Retry.Base, p.Retry.Cap)
	if p.Timeout-at-backoff >= max(at, p.Retry.MinAttempt) {
		return
	}
	fix := fmt.Sprintf("raise timeout to at least %s", RoundUp(at+backoff+max(at, p.Retry.MinAttempt)))
	if fit := roundDown((p.Timeout - backoff) / 2); fit > 0 && fit >= p.Retry.MinAttempt {
		fix += fmt.Sprintf(", or lower attemptTimeout to at most %s", fit)
	}
	r.warn(narrower(&s.AttemptTimeout, &s.Timeout), diag.RuleAttemptNeverCut,
		fmt.Sprintf("attemptTimeout %s of operation %s never cuts an attempt: under timeout %s, a retry after it (backoff up to %s) would have less time than the attempt had, so every attempt runs to the total", at, r.op.Name, p.Timeout, backoff),
		fix)
}
