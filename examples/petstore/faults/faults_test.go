package faults

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/internal/testtier"
)

// phase returns the fault phase of the suite's runs: shorter with -short.
func phase() time.Duration {
	if testing.Short() {
		return 600 * time.Millisecond
	}
	return time.Second
}

// TestScenarios runs every scenario against the resilient HTTP and gRPC
// clients (and, for the tail scenario, the same clients without hedging)
// and asserts the pass criteria. Each run starts and tears down its own
// servers, proxy and client on loopback, so goleak finds nothing left but
// Toxiproxy's own toxic pipes that a reset_peer toxic leaves blocked (see
// toxicPipe): those belong to the fault injector and are ignored.
func TestScenarios(t *testing.T) {
	testtier.Slow(t)
	for _, sc := range Scenarios() {
		for _, tr := range []Transport{HTTP, GRPC} {
			t.Run(fmt.Sprintf("%d-%s/%s", sc.ID, sc.Name, tr), func(t *testing.T) {
				defer goleak.VerifyNone(t, goleak.IgnoreTopFunction(toxicPipe))
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				kinds := []Kind{Resilient}
				if sc.CompareHedging {
					kinds = append(kinds, ResilientNoHedge)
				}
				res, err := Run(ctx, Options{Phase: phase(), Scenarios: []int{sc.ID}, Transports: []Transport{tr}, Kinds: kinds})
				if err != nil {
					t.Fatalf("Run = %v", err)
				}
				if len(res) != len(kinds) {
					t.Fatalf("Run gave %d results, want %d", len(res), len(kinds))
				}
				rep := NewReport(res)
				for _, v := range rep.Verdicts {
					if !v.Pass {
						t.Errorf("%s: %s", v.Criterion, v.Detail)
					} else {
						t.Logf("%s: %s", v.Criterion, v.Detail)
					}
				}
				r := res[0]
				t.Logf("%s: %d calls, p50 %s, p99 %s, errors %.0f%%, degraded %.0f%%, %.2f requests/call, breaker %v",
					r.Client, r.Calls, ms(r.P50), ms(r.P99), 100*r.ErrorRate(), 100*r.Share(r.Degraded), r.PerCall(), r.BreakerSeen)
			})
		}
	}
}

// TestNaiveContrast runs the black hole against the naive HTTP client to
// check that the harness measures the failure the resilient client avoids:
// every call waits out the caller's whole deadline.
func TestNaiveContrast(t *testing.T) {
	testtier.Slow(t)
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction(toxicPipe))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := Run(ctx, Options{Phase: phase(), Scenarios: []int{3}, Transports: []Transport{HTTP}, Kinds: []Kind{Naive}})
	if err != nil || len(res) != 1 {
		t.Fatalf("Run = %d results, %v", len(res), err)
	}
	r := res[0]
	if r.Calls == 0 || r.ErrorRate() < 0.99 || r.P50 < r.Plan.Deadline {
		t.Errorf("naive client under a black hole: %d calls, errors %.0f%%, p50 %s; want every call to fail after the deadline %s",
			r.Calls, 100*r.ErrorRate(), ms(r.P50), ms(r.Plan.Deadline))
	}
}

// TestReport renders a report of fabricated results, to check the tables
// and the chart without running anything.
func TestReport(t *testing.T) {
	sc := Scenarios()[5]
	pol := Policy{Review: "## Resilience review: x\n"}
	mk := func(k Kind, p99 time.Duration) *Result {
		return &Result{Scenario: sc, Transport: HTTP, Kind: k, Client: string(k), Policy: pol, Calls: 10, OK: 10,
			P50: time.Millisecond, P99: p99, Breaker: "closed", Plan: Plan{Deadline: time.Second, Callers: 1}}
	}
	rep := NewReport([]*Result{mk(Resilient, 20*time.Millisecond), mk(ResilientNoHedge, 50*time.Millisecond), mk(Naive, 60*time.Millisecond)})
	md := rep.Markdown("latency.svg")
	for _, want := range []string{"## Resilience review: x", "| 6 | 5% of calls 10× slower | HTTP | 10 / 10 |", "60ms / 20ms (no hedging 50ms)", "| 6 tail | HTTP | hedging | PASS |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown() lacks %q:\n%s", want, md)
		}
	}
	if svg := rep.SVG(); !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "p99 60ms") {
		t.Errorf("SVG() = %.200s…", svg)
	}
}
