package faults

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// Verdict is the outcome of one criterion for one row.
type Verdict struct {
	// Criterion names the criterion ("answered", "breaker" …).
	Criterion string
	// Pass reports whether the row met it.
	Pass bool
	// Detail gives the measured figures against the bound, and on failure
	// says what went wrong.
	Detail string
}

// RowVerdict is a Verdict for one row.
type RowVerdict struct {
	Scenario  Scenario
	Transport Transport
	Verdict
}

// Slack is the share of calls by which the resilient arm may answer fewer
// than another arm and still be judged to answer as many: two points,
// about the noise between two arms that see the same fault.
const Slack = 0.02

// Check judges the resilient arm of row against the others by the fault
// suite's criteria. They are ordinal or ratio facts (the breaker opened;
// resilient answered at least as many calls as naive; refused calls took
// under a tenth of the deadline; requests per call stay within the retry
// budget), so that they hold on a loaded machine; absolute latency
// bounds are left to [Acceptance]. A row whose arms did not all run fails
// every criterion.
func Check(row *Row) []Verdict {
	r, n, c := row.Arms[Resilient], row.Arms[Naive], row.Arms[Common]
	for _, a := range []*Result{r, n, c} {
		if a == nil || a.Err != nil || a.Calls == 0 {
			return []Verdict{{Criterion: "ran", Detail: ranDetail(row)}}
		}
	}
	vs := []Verdict{
		answeredVerdict(r, n, c),
		{Criterion: "duplicates", Pass: r.Duplicates == 0 && r.KeylessCreates == 0,
			Detail: fmt.Sprintf("%d side effects applied twice, %d creates without a key (naive %d, common %d duplicates)",
				r.Duplicates, r.KeylessCreates, n.Duplicates, c.Duplicates)},
		requestsVerdict(row, r, n),
		refusedVerdict(row, r),
		bulkheadVerdict(row, r),
		leaksVerdict(row),
	}
	switch row.Scenario.Name {
	case "slow":
		vs = append(vs, breakerVerdict(r, false, false),
			atLeast("fresh answers", r.Share(r.OK), n.Share(n.OK), "fresh (not degraded) answers"))
	case "503-window":
		// A store that answers 503 sheds load: the client sends less and
		// its breaker stays closed; it gets the fresh answers naive gets
		// (within the loaded machine's bound) and recovers.
		vs = append(vs, breakerVerdict(r, false, false), suiteGoodputVerdict(r, n))
	case "black-hole":
		vs = append(vs, breakerVerdict(r, true, false), betterVerdict(r, n))
	case "429", "tail":
		vs = append(vs, breakerVerdict(r, false, false))
	case "overload":
		vs = append(vs, betterVerdict(r, n), suiteGoodputVerdict(r, n),
			Verdict{Criterion: "sends less", Pass: r.PerCall() < 1,
				Detail: fmt.Sprintf("%.3f requests per call to an overloaded store", r.PerCall())})
	case "retry-storm":
		vs = append(vs, stormVerdict(row, n), recoveredVerdict(row, r))
	case "spent-deadline":
		vs = append(vs, betterVerdict(r, n),
			Verdict{Criterion: "nothing sent", Pass: r.Requests == 0,
				Detail: fmt.Sprintf("%d requests reached the store from callers with less time than the p50", r.Requests)})
	}
	if row.Scenario.Name == "tail" {
		vs = append(vs, tailVerdict(row, r, n))
	}
	if row.Stalled {
		vs = append(vs, Verdict{Criterion: "measured", Detail: fmt.Sprintf(
			"the machine stalled the harness in each of %d runs (a call started %s late, a hundredth of its goroutines waited %s for a core): the figures are not a measurement",
			row.Runs, ms(row.Stall), ms(row.SchedP99))})
	}
	return vs
}

// stormVerdict: the trigger tipped the store over, as the store counts
// it: a caller with no resilience of its own (naive) met 503s from the
// store's timeout, which only a store past its capacity gives. It keeps
// a run on a machine too loaded to build the backlog from passing as a
// storm survived.
func stormVerdict(row *Row, n *Result) Verdict {
	return Verdict{Criterion: "storm", Pass: n.OK < n.Calls && n.Requests > 0 && naiveTimedOut(n),
		Detail: fmt.Sprintf("naive: %d of %d calls fresh; store timeouts among its errors: %v", n.OK, n.Calls, naiveTimedOut(n))}
}

func naiveTimedOut(n *Result) bool {
	for m := range n.Errors {
		if strings.Contains(m, "503") || strings.Contains(m, "Unavailable") || strings.Contains(m, "injected fault") {
			return true
		}
	}
	return false
}

// recoveredVerdict: the resilient arm's ok share per bucket came back to
// 90 % of its pre-fault level before the phase ended (a share, not a
// time, so it holds on a loaded machine).
func recoveredVerdict(row *Row, r *Result) Verdict {
	v, _ := recoveryMs(row, r)
	return Verdict{Criterion: "recovered", Pass: v >= 0,
		Detail: fmt.Sprintf("fresh answers back to 90 %% of the pre-fault %s: %s after the trigger ended", pct(r.PreFaultOK), recText(v))}
}

// tailVerdict: of the requests the tail fault made slow (ten times the
// measured p99), resilient callers waited out
// a smaller share than naive ones, whose callers wait for every one; a
// hedge answers them from a second request and the slow one is cut. The
// share is counted by the store, not timed, so scheduling delay on a
// loaded machine moves both sides of a slow request alike; the latency
// shares stay in the detail for the reader.
func tailVerdict(row *Row, r, n *Result) Verdict {
	share := func(a *Result) float64 {
		if a.SlowWaited+a.SlowCut == 0 {
			return 0
		}
		return float64(a.SlowWaited) / float64(a.SlowWaited+a.SlowCut)
	}
	rs, ns := share(r), share(n)
	cut := row.Policy.Latency.P99
	return Verdict{Criterion: "tail", Pass: r.SlowWaited+r.SlowCut > 0 && rs < ns,
		Detail: fmt.Sprintf("slow requests waited out: resilient %d of %d (%s), naive %d of %d (%s); calls slower than the p99 %s: %s against %s",
			r.SlowWaited, r.SlowWaited+r.SlowCut, pct1(rs), n.SlowWaited, n.SlowWaited+n.SlowCut, pct1(ns),
			ms(cut), pct1(shareAbove(r.Latencies, cut)), pct1(shareAbove(n.Latencies, cut)))}
}

func ranDetail(row *Row) string {
	d := "not every arm ran:"
	for _, a := range Arms {
		switch r := row.Arms[a]; {
		case r == nil:
			d += fmt.Sprintf(" %s missing;", a)
		case r.Err != nil:
			d += fmt.Sprintf(" %s failed: %v;", a, r.Err)
		case r.Calls == 0:
			d += fmt.Sprintf(" %s made no call;", a)
		}
	}
	return d
}

// answeredVerdict: resilient answered (fresh or degraded) at least as many
// calls as naive and common, within Slack.
func answeredVerdict(r, n, c *Result) Verdict {
	rs, ns, cs := r.Share(r.Answered()), n.Share(n.Answered()), c.Share(c.Answered())
	return Verdict{Criterion: "answered", Pass: rs >= ns-Slack && rs >= cs-Slack,
		Detail: fmt.Sprintf("resilient %s, naive %s, common %s answered (fresh or degraded)", pct(rs), pct(ns), pct(cs))}
}

func atLeast(name string, r, n float64, what string) Verdict {
	return Verdict{Criterion: name, Pass: r >= n-Slack, Detail: fmt.Sprintf("resilient %s, naive %s %s", pct(r), pct(n), what)}
}

// betterVerdict: resilient answered strictly more calls than naive, or its
// p99 is at least a fifth lower.
func betterVerdict(r, n *Result) Verdict {
	rs, ns := r.Share(r.Answered()), n.Share(n.Answered())
	return Verdict{Criterion: "better", Pass: rs > ns || float64(r.P99) <= 0.8*float64(n.P99),
		Detail: fmt.Sprintf("answered %s against naive %s; p99 %s against %s", pct(rs), pct(ns), ms(r.P99), ms(n.P99))}
}

// AmplificationBound returns the most requests the retry budget lets the
// resilient arm send for its calls: (1 + ratio) × calls, plus the floor's
// rate over the phase and its burst, plus what the warm-up banked (ratio
// × warm-up calls, at most the maximum balance). Ratio, floor and balance
// come from the resolved policy.
func AmplificationBound(row *Row, r *Result) float64 {
	b := row.Policy.Shared.Budget
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

// requestsVerdict: the resilient arm sent no more requests per call than
// the naive one, or than its retry budget allows.
func requestsVerdict(row *Row, r, n *Result) Verdict {
	bound := math.Max(n.PerCall(), AmplificationBound(row, r)/float64(r.Calls))
	return Verdict{Criterion: "requests", Pass: r.PerCall() <= bound,
		Detail: fmt.Sprintf("%.2f requests per call ≤ %.2f (naive %.2f, retry budget %.2f)",
			r.PerCall(), bound, n.PerCall(), AmplificationBound(row, r)/float64(r.Calls))}
}

// refusedVerdict: calls the pipeline refused before sending anything
// (breaker open, bulkhead full, no time left) returned within a tenth of
// the deadline, taken at the median and in process time (see
// [Result.RefusedP50]): a refusal costs microseconds, or the bulkhead's
// bounded wait. A machine that takes the cores away from the process
// stretches every refusal in wall time by the stall, which says nothing of
// the client; the stall is measured apart (the calls' dispatcher starts
// its calls that much late) and taken off, and the wall time stays in the
// detail.
func refusedVerdict(row *Row, r *Result) Verdict {
	bound := row.Deadline / 10
	if r.Refused == 0 {
		return Verdict{Criterion: "refused fast", Pass: true, Detail: "no call refused before sending"}
	}
	return Verdict{Criterion: "refused fast", Pass: r.RefusedP50 < bound,
		Detail: fmt.Sprintf("%d calls refused before sending, median %s < %s (a tenth of the deadline), p99 %s, in process time (wall-time median %s)",
			r.Refused, ms(r.RefusedP50), ms(bound), ms(r.RefusedP99), ms(r.RefusedWallP50))}
}

// bulkheadVerdict: the store never had more requests of the resilient
// client in flight than the bulkhead admits: its policy's size, or up to
// twice that while the dependency answers slowly (the runtime widens it),
// and never more than its size when the dependency answers nothing. The
// runtime bounds the calls holding a permit exactly; the store sees a
// cancelled attempt (a lost hedge) end only when the cancellation reaches
// it, while the freed permit may already carry the next request. A tenth
// of the bulkhead (at least one) is allowed for those cancellations in
// transit.
func bulkheadVerdict(row *Row, r *Result) Verdict {
	n := int64(bulkheadSize(row.Policy))
	limit := 2 * n
	if row.Scenario.Name == "black-hole" {
		limit = n
	}
	transit := max(1, n/10)
	return Verdict{Criterion: "bulkhead", Pass: r.MaxInFlight <= limit+transit,
		Detail: fmt.Sprintf("max in flight at the store %d ≤ %d (bulkhead %d, widened up to twice for a dependency that answers slowly) + %d for cancellations in transit",
			r.MaxInFlight, limit, n, transit)}
}

// leaksVerdict: goroutines and sockets back to their baselines once the
// row's clients, proxies and servers are closed.
func leaksVerdict(row *Row) Verdict {
	return Verdict{Criterion: "leaks", Pass: row.GoroutinesAfter <= row.GoroutinesBefore && row.SocketsAfter <= row.SocketsBefore,
		Detail: fmt.Sprintf("goroutines %d→%d, sockets %d→%d", row.GoroutinesBefore, row.GoroutinesAfter, row.SocketsBefore, row.SocketsAfter)}
}

// breakerVerdict: whether the resilient client's breaker opened, as the
// scenario wants, and whether it is closed at the end.
func breakerVerdict(r *Result, open, closeAgain bool) Verdict {
	v := Verdict{Criterion: "breaker", Detail: "transitions " + transitions(r.Transitions) + ", " + r.Breaker + " at the end"}
	switch {
	case open && !r.Opened():
		v.Detail += ": it never opened"
	case !open && r.Opened():
		v.Detail += ": it opened on a dependency that answers"
	case closeAgain && r.Breaker != runtime.BreakerClosed.String():
		v.Detail += ": it was not closed again after the fault"
	default:
		v.Pass = true
	}
	return v
}

// FreshSlack is the share of calls by which the resilient arm's fresh
// answers may fall short of another arm's in the acceptance lines: three
// points.
const FreshSlack = 0.03

// goodputAcceptance returns the acceptance lines on fresh answers and
// recovery of the scenarios that have them: overload keeps naive's
// fresh answers with less than one request per call; 503-window's
// resilient arm recovers within 300 ms; retry-storm's recovers within
// 2 s, with at least 1.5 × common's fresh answers and naive's and
// tuned's, while
// naive or common recovers later than 3 × resilient's time, or never.
func goodputAcceptance(row *Row, r, n, c *Result) []Verdict {
	ro, no, co := r.Share(r.OK), n.Share(n.OK), c.Share(c.OK)
	tuo := 0.0 // the tuned arm's fresh share, 0 when it did not run
	if t := row.Arms[Tuned]; t != nil {
		tuo = t.Share(t.OK)
	}
	rec := func(x *Result) float64 { v, _ := recoveryMs(row, x); return v }
	switch row.Scenario.Name {
	case "overload":
		return []Verdict{{Criterion: "fresh ≥ naive − 3 points, requests per call < 1.0", Pass: ro >= no-FreshSlack && r.PerCall() < 1,
			Detail: fmt.Sprintf("fresh %s against %s; %.2f requests per call", pct(ro), pct(no), r.PerCall())}}
	case "503-window":
		rr := rec(r)
		return []Verdict{{Criterion: "recovery ≤ 300 ms", Pass: rr >= 0 && rr <= 300,
			Detail: fmt.Sprintf("resilient %s (naive %s, common %s)", recText(rr), recText(rec(n)), recText(rec(c)))}}
	case "retry-storm":
		rr, nr, cr := rec(r), rec(n), rec(c)
		later := func(x float64) bool { return x < 0 || (rr >= 0 && x > 3*rr) }
		return []Verdict{
			{Criterion: "recovery within 2 s of the trigger's end", Pass: rr >= 0 && rr <= 2000,
				Detail: fmt.Sprintf("resilient %s", recText(rr))},
			{Criterion: "fresh ≥ 1.5 × common and ≥ naive, tuned", Pass: ro >= 1.5*co && ro >= no && ro >= tuo,
				Detail: fmt.Sprintf("resilient %s, common %s, naive %s, tuned %s", pct(ro), pct(co), pct(no), pct(tuo))},
			{Criterion: "naive or common recovers after 3 × resilient, or never", Pass: later(nr) || later(cr),
				Detail: fmt.Sprintf("resilient %s, naive %s, common %s", recText(rr), recText(nr), recText(cr))},
		}
	}
	return nil
}

// recText writes a recovery time in ms, "never" for -1.
func recText(v float64) string {
	if v < 0 {
		return "never"
	}
	return fmt.Sprintf("%.0f ms", v)
}

// Acceptance judges rows by the demo's acceptance lines, absolute bounds
// included, as they read in the results file of one run.
func Acceptance(rows []*Row) []RowVerdict {
	var out []RowVerdict
	add := func(row *Row, v Verdict) { out = append(out, RowVerdict{row.Scenario, row.Transport, v}) }
	for _, row := range rows {
		r, n, c := row.Arms[Resilient], row.Arms[Naive], row.Arms[Common]
		if r == nil || n == nil || c == nil || r.Calls == 0 || n.Calls == 0 || c.Calls == 0 {
			add(row, Verdict{Criterion: "ran", Detail: ranDetail(row)})
			continue
		}
		rs, ns, cs := r.Share(r.Answered()), n.Share(n.Answered()), c.Share(c.Answered())
		ro, no := r.Share(r.OK), n.Share(n.OK)
		if t := row.Arms[Tuned]; t != nil && t.Calls > 0 {
			ts, to := t.Share(t.Answered()), t.Share(t.OK)
			add(row, Verdict{Criterion: "answered ≥ naive, common, tuned − 2 points", Pass: rs >= ns-Slack && rs >= cs-Slack && rs >= ts-Slack,
				Detail: fmt.Sprintf("resilient %s, naive %s, common %s, tuned %s", pct(rs), pct(ns), pct(cs), pct(ts))})
			add(row, Verdict{Criterion: "fresh (ok) ≥ naive, tuned − 3 points", Pass: ro >= no-FreshSlack && ro >= to-FreshSlack,
				Detail: fmt.Sprintf("resilient %s, naive %s, tuned %s", pct(ro), pct(no), pct(to))})
		} else {
			add(row, Verdict{Criterion: "answered ≥ naive, common − 2 points", Pass: rs >= ns-Slack && rs >= cs-Slack,
				Detail: fmt.Sprintf("resilient %s, naive %s, common %s", pct(rs), pct(ns), pct(cs))})
			add(row, Verdict{Criterion: "fresh (ok) ≥ naive − 3 points", Pass: ro >= no-FreshSlack,
				Detail: fmt.Sprintf("resilient %s, naive %s", pct(ro), pct(no))})
		}
		for _, v := range goodputAcceptance(row, r, n, c) {
			add(row, v)
		}
		switch row.Scenario.Name {
		case "slow":
			add(row, Verdict{Criterion: "fresh answers ≥ 95 %", Pass: r.Share(r.OK) >= 0.95,
				Detail: fmt.Sprintf("%s of calls answered fresh", pct(r.Share(r.OK)))})
			add(row, Verdict{Criterion: "p99 ≤ deadline", Pass: r.P99 <= row.Deadline,
				Detail: fmt.Sprintf("p99 %s, deadline %s", ms(r.P99), ms(row.Deadline))})
		case "503-window":
			add(row, Verdict{Criterion: "answered ≥ naive", Pass: rs >= ns,
				Detail: fmt.Sprintf("resilient %s, naive %s", pct(rs), pct(ns))})
		case "black-hole", "overload", "spent-deadline":
			add(row, Verdict{Criterion: "better than naive", Pass: rs > ns || float64(r.P99) <= 0.8*float64(n.P99),
				Detail: fmt.Sprintf("answered %s against %s; p99 %s against %s", pct(rs), pct(ns), ms(r.P99), ms(n.P99))})
		case "tail":
			add(row, Verdict{Criterion: "p99 ≤ 0.6 × naive", Pass: float64(r.P99) <= 0.6*float64(n.P99),
				Detail: fmt.Sprintf("p99 %s, naive %s (%.2f×)", ms(r.P99), ms(n.P99), float64(r.P99)/float64(n.P99))})
			add(row, Verdict{Criterion: "requests per call ≤ 1.1", Pass: r.PerCall() <= 1.1,
				Detail: fmt.Sprintf("%.3f", r.PerCall())})
		}
		bound := math.Max(n.PerCall(), 1.1)
		add(row, Verdict{Criterion: "requests per call ≤ max(naive, 1.1)", Pass: r.PerCall() <= bound,
			Detail: fmt.Sprintf("%.3f ≤ %.3f", r.PerCall(), bound)})
		add(row, Verdict{Criterion: "no duplicate effect", Pass: r.Duplicates == 0,
			Detail: fmt.Sprintf("%d (naive %d, common %d)", r.Duplicates, n.Duplicates, c.Duplicates)})
	}
	return out
}

// SuiteGoodputSlack is the share of calls by which the fault suite lets
// the resilient arm get fewer fresh answers than naive: ten points, since
// it must hold on a loaded machine where a stalled process moves the arms
// apart, and still far below what a client that refuses instead of
// sending loses (a whole open period of answers). The demo's acceptance
// uses FreshSlack.
const SuiteGoodputSlack = 0.10

// suiteGoodputVerdict: resilient got as many fresh (not degraded) answers
// as naive, within SuiteGoodputSlack.
func suiteGoodputVerdict(r, n *Result) Verdict {
	rs, ns := r.Share(r.OK), n.Share(n.OK)
	return Verdict{Criterion: "fresh answers", Pass: rs >= ns-SuiteGoodputSlack,
		Detail: fmt.Sprintf("resilient %s, naive %s fresh (not degraded) answers", pct(rs), pct(ns))}
}

// transitions renders a breaker's transitions as "closed→open 0.05s, …".
func transitions(ts []Transition) string {
	if len(ts) == 0 {
		return "none"
	}
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s→%s %s", t.From, t.To, secs(t.At))
	}
	return s
}

// ms formats d in milliseconds, with one decimal below 10 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return fmt.Sprintf("%.1fms", f)
	}
	return fmt.Sprintf("%.0fms", f)
}

// secs formats d in seconds with two decimals.
func secs(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

// pct formats a share as a whole percentage.
func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// pct1 formats a share as a percentage with one decimal.
func pct1(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
