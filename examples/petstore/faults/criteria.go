package faults

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// Slack is the scheduling allowance added to a caller's deadline on
// loopback with two shared cores.
const Slack = 50 * time.Millisecond

// Verdict is the outcome of one pass criterion for one run.
type Verdict struct {
	// Criterion names the criterion ("latency", "bulkhead" …).
	Criterion string
	// Pass reports whether the run met it.
	Pass bool
	// Detail gives the measured figures against the bound, and on failure
	// says what went wrong.
	Detail string
}

// Criterion is one pass criterion.
type Criterion struct {
	// Name names it in the report.
	Name string
	// Check judges a resilient client's run.
	Check func(r *Result) Verdict
}

// Criteria returns the pass criteria, in report order.
func Criteria() []Criterion {
	return []Criterion{
		{"latency", checkLatency},
		{"bulkhead", checkBulkhead},
		{"leaks", checkLeaks},
		{"amplification", checkAmplification},
		{"side effects", checkSideEffects},
		{"degraded", checkDegraded},
		{"breaker", checkBreaker},
	}
}

// Check judges a resilient client's run by every criterion. A run that
// failed to run fails them all.
func Check(r *Result) []Verdict {
	var vs []Verdict
	for _, c := range Criteria() {
		if r.Err != nil {
			vs = append(vs, Verdict{c.Name, false, "run failed: " + r.Err.Error()})
			continue
		}
		v := c.Check(r)
		v.Criterion = c.Name
		vs = append(vs, v)
	}
	return vs
}

// CheckHedging judges scenario 6: the read path's p99 with hedging must be
// below the same client's p99 without it.
func CheckHedging(on, off *Result) Verdict {
	v := Verdict{Criterion: "hedging"}
	switch {
	case on.Err != nil || off.Err != nil:
		v.Detail = "run failed"
	case on.Calls == 0 || off.Calls == 0:
		v.Detail = "no calls measured"
	default:
		v.Pass = on.P99 < off.P99
		v.Detail = fmt.Sprintf("read p99 %s with hedging, %s without", ms(on.P99), ms(off.P99))
		if !v.Pass {
			v.Detail += ": hedging did not cut the tail"
		}
	}
	return v
}

// checkLatency: p99 within the caller's deadline plus Slack, and calls
// refused before any attempt (breaker open, bulkhead full) well under it,
// within a quarter. A retry refused by the breaker or the budget after
// attempts were sent is held to the deadline like any call.
func checkLatency(r *Result) Verdict {
	bound := r.Plan.Deadline + Slack
	ffBound := r.Plan.Deadline / 4
	d := fmt.Sprintf("p99 %s ≤ deadline %s + %s", ms(r.P99), ms(r.Plan.Deadline), ms(Slack))
	if r.FastFail > 0 {
		d += fmt.Sprintf("; refused-at-once p99 %s ≤ %s", ms(r.FastFailP99), ms(max(ffBound, Slack)))
	}
	switch {
	case r.Calls == 0:
		return Verdict{Detail: "no calls measured"}
	case r.P99 > bound:
		return Verdict{Detail: d + ": caller p99 exceeds its deadline"}
	case r.FastFail > 0 && r.FastFailP99 > max(ffBound, Slack):
		return Verdict{Detail: d + ": fast failures are not fast"}
	}
	return Verdict{Pass: true, Detail: d}
}

// checkBulkhead: the store never had more requests of this client in
// flight than the bulkhead admits. The runtime bounds the calls holding a
// permit exactly; the store sees a cancelled attempt (a lost hedge, an
// attempt timeout) end only when the cancellation reaches it, while the
// freed permit may already carry the next request. A tenth of the bulkhead
// (at least one) is allowed for those cancellations in transit, and said.
func checkBulkhead(r *Result) Verdict {
	n := int64(bulkheadSize(r.Policy))
	transit := max(1, n/10)
	d := fmt.Sprintf("max in flight at the store %d ≤ bulkhead %d (+%d for cancellations in transit)", r.MaxInFlight, n, transit)
	if r.MaxInFlight > n+transit {
		return Verdict{Detail: d + ": the store saw more concurrent requests than the bulkhead allows"}
	}
	return Verdict{Pass: true, Detail: d}
}

// checkLeaks: goroutines and sockets back to their baselines after the
// client, proxy and server are closed.
func checkLeaks(r *Result) Verdict {
	d := fmt.Sprintf("goroutines %d→%d, sockets %d→%d", r.GoroutinesBefore, r.GoroutinesAfter, r.SocketsBefore, r.SocketsAfter)
	if r.GoroutinesAfter > r.GoroutinesBefore || r.SocketsAfter > r.SocketsBefore {
		return Verdict{Detail: d + ": not back to baseline after teardown"}
	}
	return Verdict{Pass: true, Detail: d}
}

// AmplificationBound returns the most requests the retry budget lets reach
// the store for r's calls: (1 + ratio) × calls, plus the floor's rate over
// the phase and its burst, plus what the warm-up banked (ratio × warm-up
// calls, at most the maximum balance). Ratio, floor and balance come from
// the resolved policy.
func AmplificationBound(r *Result) float64 {
	b := r.Policy.Shared.Budget
	ratio, floor, maxBal := b.Ratio, b.MinPerSecond, b.MaxBalance
	if ratio == 0 {
		ratio = runtime.DefaultBudgetRatio
	}
	if floor == 0 {
		floor = runtime.DefaultBudgetMinPerSec
	}
	floor = math.Max(floor, 0)
	if maxBal == 0 {
		maxBal = runtime.DefaultBudgetMaxBalance
	}
	banked := math.Min(maxBal, ratio*float64(r.WarmupCalls))
	return (1+ratio)*float64(r.Calls) + floor*r.Elapsed.Seconds() + math.Ceil(floor) + banked
}

// checkAmplification: requests reaching the store stay within the budget.
func checkAmplification(r *Result) Verdict {
	bound := AmplificationBound(r)
	b := r.Policy.Shared.Budget
	d := fmt.Sprintf("%d requests for %d calls (%.2f/call) ≤ %.0f = (1+%.2f)×calls + %.0f/s×%s + burst + banked",
		r.Requests, r.Calls, r.PerCall(), bound, b.Ratio, b.MinPerSecond, ms(r.Elapsed))
	if float64(r.Requests) > bound {
		return Verdict{Detail: d + ": requests to the failing store multiplied"}
	}
	return Verdict{Pass: true, Detail: d}
}

// checkSideEffects: no create applied twice for one key, none applied
// without a key, no more adopts applied than adopt calls made.
func checkSideEffects(r *Result) Verdict {
	d := fmt.Sprintf("creates: %d keys applied, max %d per key, %d without key, %d of %d calls succeeded; adopts: %d applied for %d calls",
		r.KeysApplied, r.MaxApplied, r.KeylessCreates, r.CreatesOK, r.CreatesSent, r.AdoptsApplied, r.AdoptsSent)
	switch {
	case r.MaxApplied > 1:
		return Verdict{Detail: d + ": a create was applied twice for one idempotency key"}
	case r.KeylessCreates > 0:
		return Verdict{Detail: d + ": creates were sent without an idempotency key"}
	case r.KeysApplied < r.CreatesOK:
		return Verdict{Detail: d + ": a successful create was not applied"}
	case r.AdoptsApplied > int64(r.AdoptsSent):
		return Verdict{Detail: d + ": an adopt was applied more often than it was called"}
	}
	return Verdict{Pass: true, Detail: d}
}

// checkDegraded: degraded answers come only from operations with a
// fallback, and are counted.
func checkDegraded(r *Result) Verdict {
	var bad []string
	for op, n := range r.DegradedByOp {
		if n > 0 && r.Policy.Ops[string(op)].Fallback.Kind == runtime.FallbackNone {
			bad = append(bad, string(op))
		}
	}
	slices.Sort(bad)
	d := fmt.Sprintf("%d degraded answers (%.1f%%), all marked, from %v", r.Degraded, 100*r.Share(r.Degraded), opsWithCounts(r.DegradedByOp))
	if len(bad) > 0 {
		return Verdict{Detail: d + fmt.Sprintf(": degraded answers from %v, which have no fallback", bad)}
	}
	return Verdict{Pass: true, Detail: d}
}

// checkBreaker: scenario-specific breaker expectations. Under the 503
// window the breaker must open and be closed again at the end; under 429
// (throttling, not failure) it must never open. Elsewhere it is reported.
func checkBreaker(r *Result) Verdict {
	d := fmt.Sprintf("states %v, %s at the end", r.BreakerSeen, r.Breaker)
	switch r.Scenario.Name {
	case "503-window":
		if !slices.Contains(r.BreakerSeen, runtime.BreakerOpen.String()) {
			return Verdict{Detail: d + ": the breaker never opened during the outage"}
		}
		if !slices.Contains(r.BreakerSeen, runtime.BreakerHalfOpen.String()) {
			return Verdict{Detail: d + ": the breaker never probed (half-open)"}
		}
		if r.Breaker != runtime.BreakerClosed.String() {
			return Verdict{Detail: d + ": the breaker did not close after recovery"}
		}
	case "429":
		if slices.Contains(r.BreakerSeen, runtime.BreakerOpen.String()) {
			return Verdict{Detail: d + ": throttling opened the breaker"}
		}
	}
	return Verdict{Pass: true, Detail: d}
}

func opsWithCounts(m map[Op]int) string {
	if len(m) == 0 {
		return "none"
	}
	var s string
	for _, op := range Ops {
		if n := m[op]; n > 0 {
			if s != "" {
				s += ", "
			}
			s += fmt.Sprintf("%s %d", op, n)
		}
	}
	return s
}

// ms formats d in milliseconds with one decimal below 10 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return fmt.Sprintf("%.1fms", f)
	}
	return fmt.Sprintf("%.0fms", f)
}
