package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/internal/testtier"
	"github.com/resilientgo/resilient/runtime"
)

// long skips the wall-clock runs of the scenarios outside the slow tier
// (see internal/testtier) and under the race detector; it is the one place that gates them.
func long(t *testing.T) {
	t.Helper()
	testtier.Slow(t)
	if raceDetector {
		// The race detector makes every goroutine operation several times
		// slower: the latencies measured would be its own.
		t.Skip("measures wall-clock latency, which the race detector distorts; run it without -race: go test ./examples/petstore/faults ./examples/petstore/cmd/faultdemo")
	}
}

// TestScenarios runs every scenario over HTTP and gRPC against the three
// arms side by side and asserts the fault suite's criteria ([Check]):
// ordinal and ratio facts about the resilient arm against the others,
// which hold on a loaded machine. Each row starts and tears down its own
// servers, proxies and clients on loopback, so goleak finds nothing left
// but Toxiproxy's own toxic pipes that a reset_peer toxic leaves blocked
// (see toxicPipe): those belong to the fault injector and are ignored.
func TestScenarios(t *testing.T) {
	long(t)
	for _, sc := range Scenarios() {
		for _, tr := range []Transport{HTTP, GRPC} {
			t.Run(sc.Name+"/"+string(tr), func(t *testing.T) {
				defer goleak.VerifyNone(t, goleak.IgnoreTopFunction(toxicPipe))
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				rows, err := Run(ctx, Options{Phase: time.Second, Scenarios: []string{sc.Name}, Transports: []Transport{tr}})
				if err != nil || len(rows) != 1 {
					t.Fatalf("Run = %d rows, %v; want 1", len(rows), err)
				}
				row := rows[0]
				for _, v := range Check(row) {
					if !v.Pass {
						t.Errorf("%s: %s", v.Criterion, v.Detail)
					} else {
						t.Logf("%s: %s", v.Criterion, v.Detail)
					}
				}
				for _, a := range Arms {
					if r := row.Arms[a]; r != nil {
						t.Logf("%s: %d calls, answered %s, failed fast %s, slow %s, p99 %s, %.2f requests/call, %d duplicates; errors %s",
							r.Client, r.Calls, pct(r.Share(r.Answered())), pct(r.Share(r.FailedFast)), pct(r.Share(r.FailedSlow)), ms(r.P99), r.PerCall(), r.Duplicates, TopErrors(r, 8))
					}
				}
			})
		}
	}
}

// fabricated returns two rows of made-up results, to check the report
// without running anything.
func fabricated() []*Row {
	pol := Policy{Review: "## Resilience review: x\n| a |\n", Shared: runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 24}}}
	mk := func(a Arm, ok, deg, ff, fs int, p99 time.Duration, req int64) *Result {
		calls := ok + deg + ff + fs
		return &Result{Arm: a, Client: string(a) + " HTTP", Calls: calls, OK: ok, Degraded: deg, FailedFast: ff, FailedSlow: fs,
			P50: time.Millisecond, P99: p99, Requests: req, Breaker: "none", Elapsed: time.Second, WarmupCalls: 100}
	}
	var rows []*Row
	for _, sc := range Scenarios()[:2] {
		pl := sc.Plan(pol, time.Second)
		row := &Row{Scenario: sc, Transport: HTTP, Plan: pl, Policy: pol, Deadline: 500 * time.Millisecond, Arms: map[Arm]*Result{
			Naive:     mk(Naive, 50, 0, 50, 0, 8*time.Millisecond, 100),
			Resilient: mk(Resilient, 50, 30, 20, 0, 9*time.Millisecond, 60),
			Common:    mk(Common, 50, 0, 0, 50, 500*time.Millisecond, 170),
			Tuned:     mk(Tuned, 45, 0, 40, 15, 60*time.Millisecond, 120),
		}}
		row.Arms[Resilient].Breaker = "closed"
		row.Arms[Resilient].Transitions = []Transition{{At: 50 * time.Millisecond, From: runtime.BreakerClosed, To: runtime.BreakerOpen}}
		rows = append(rows, row)
	}
	return rows
}

// TestSummaryFitsATerminal: every line of the summary is at most 100
// columns wide, and each row says who answered what, fresh then answered.
func TestSummaryFitsATerminal(t *testing.T) {
	rep := NewReport(fabricated())
	var b bytes.Buffer
	rep.WriteSummary(&b)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("summary line of %d columns: %q", n, l)
		}
	}
	want := []string{"slow", "http", "50/50", "50/80", "45/45", "1.20", "better"}
	if row := lines[3]; !containsAll(row, want) {
		t.Errorf("summary row %q lacks %q", row, want)
	}
	if got := Word(rep.Rows[1]); got != "better" {
		t.Errorf("Word(503-window) = %q, want better (resilient answered 80%% against 50%%)", got)
	}
}

func containsAll(s string, subs []string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// TestResultsFileShape: the results file has exactly the documented
// shape, and each arm's outcomes add up to its calls.
func TestResultsFileShape(t *testing.T) {
	rep := NewReport(fabricated())
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(b.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if got := keys(f); got != "deadlineMs results" {
		t.Errorf("top-level keys %q", got)
	}
	if f["deadlineMs"] != 500.0 {
		t.Errorf("deadlineMs = %v, want 500", f["deadlineMs"])
	}
	results := f["results"].([]any)
	first := results[0].(map[string]any)
	if got := keys(first); got != "arms scenario timeline transport" || first["scenario"] != "slow" || first["transport"] != "http" {
		t.Errorf("result %v", first)
	}
	// A scenario whose fault ends within the phase has recovery times.
	if second := results[1].(map[string]any); keys(second) != "arms recoveryMs scenario timeline transport" {
		t.Errorf("503-window result keys %q", keys(second))
	} else if got := keys(second["recoveryMs"].(map[string]any)); got != "common naive resilient tuned" {
		t.Errorf("recoveryMs keys %q", got)
	}
	armsObj := first["arms"].(map[string]any)
	if got := keys(armsObj); got != "common naive resilient tuned" {
		t.Errorf("arms keys %q", got)
	}
	arm := armsObj["resilient"].(map[string]any)
	if got := keys(arm); got != "calls degraded duplicateEffects failedFast failedSlow ok p50Ms p99Ms requestsPerCall" {
		t.Errorf("arm keys %q", got)
	}
	if sum := arm["ok"].(float64) + arm["degraded"].(float64) + arm["failedFast"].(float64) + arm["failedSlow"].(float64); sum != arm["calls"] {
		t.Errorf("outcomes add up to %v, calls %v", sum, arm["calls"])
	}
	if arm["requestsPerCall"] != 0.6 || arm["p99Ms"] != 9.0 {
		t.Errorf("arm figures %v", arm)
	}
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, " ")
}

// TestMarkdownReport: the report reads as documented: how to read it, a
// sentence per scenario, the charts, the criteria and the reviews.
func TestMarkdownReport(t *testing.T) {
	rep := NewReport(fabricated())
	md := rep.Markdown(MarkdownOptions{OutcomesChart: "outcomes.svg", RequestsChart: "requests.svg", LatencyChart: "latency.svg",
		LogFile: "log.txt", LogLines: 3, LogHead: []string{"line 1"}})
	for _, want := range []string{
		"## How to read this", "**naive**", "- **slow** (", "- **503-window** (", "![what users got, per scenario and arm](outcomes.svg)",
		"requests.svg", "latency.svg", "| slow | HTTP | resilient | 100 | 50% | 30% | 20% | 0% |", "### Acceptance",
		"### Resilience review: x", "## Library log", "line 1",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
}

// TestCharts: each chart has a bar for every arm of every row; the
// outcomes' bars fill the whole width (their shares add up to 100 %).
func TestCharts(t *testing.T) {
	rep := NewReport(fabricated())
	for name, svg := range map[string]string{"outcomes": rep.OutcomesSVG(), "requests": rep.RequestsSVG(), "latency": rep.LatencySVG()} {
		if !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(svg, "</svg>\n") {
			t.Errorf("%s: not an SVG document", name)
		}
		for _, a := range Arms {
			if got := strings.Count(svg, "<title>"+string(a)+" HTTP"); got < 2 {
				t.Errorf("%s: %d bars of %s, want one per row", name, got, a)
			}
		}
	}
	if svg := rep.OutcomesSVG(); !strings.Contains(svg, "resilient HTTP: 50% ok") || !strings.Contains(svg, "common HTTP: 50% failed slow") {
		t.Errorf("outcome bars lack their shares:\n%.600s", svg)
	}
}
