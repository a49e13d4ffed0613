package faults

import (
	"context"
	"fmt"
	"math"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/examples/petstore"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// dispatched returns calls planned every 2.5 ms from 0 to 200 ms, as the
// dispatcher of a run at 400 calls per second plans them, started on time
// except while the process was stalled from 100 ms to 140 ms: the calls
// planned then start when the stall ends.
func dispatched() []sample {
	var s []sample
	for at := time.Duration(0); at < 200*time.Millisecond; at += 2500 * time.Microsecond {
		x := sample{op: GetPet, at: at, latency: 5 * time.Millisecond}
		if at >= 100*time.Millisecond && at < 140*time.Millisecond {
			x.late = 140*time.Millisecond - at
		}
		s = append(s, x)
	}
	return s
}

// TestRefusalTimeLessTheStall: a refusal that waited the bulkhead's 15 ms
// and was stalled 40 ms by the machine meanwhile took 55 ms of wall time
// and 15 ms of the process's own; a refusal outside the stall keeps its
// wall time, so a slow refusal still fails the criterion.
func TestRefusalTimeLessTheStall(t *testing.T) {
	full := fmt.Errorf("call: %w", runtime.ErrBulkheadFull)
	row := &Row{Deadline: 500 * time.Millisecond}

	s := append(dispatched(), sample{op: CreatePet, at: 95 * time.Millisecond, latency: 55 * time.Millisecond, err: full})
	var r Result
	r.fill(s, row.Deadline)
	if r.Refused != 1 || r.RefusedP50 != 15*time.Millisecond || r.RefusedWallP50 != 55*time.Millisecond {
		t.Errorf("refused %d, median %v in process time, %v in wall time; want 1, 15ms, 55ms", r.Refused, r.RefusedP50, r.RefusedWallP50)
	}
	if v := refusedVerdict(row, &r); !v.Pass || !strings.Contains(v.Detail, "wall-time median 55ms") {
		t.Errorf("refusedVerdict = %+v; want a pass that shows the wall time", v)
	}

	s = append(dispatched(), sample{op: CreatePet, at: 20 * time.Millisecond, latency: 60 * time.Millisecond, err: full})
	r = Result{}
	r.fill(s, row.Deadline)
	if r.RefusedP50 != 60*time.Millisecond {
		t.Errorf("a refusal on a running process: median %v in process time, want its 60ms", r.RefusedP50)
	}
	if v := refusedVerdict(row, &r); v.Pass {
		t.Errorf("refusedVerdict = %+v; want a failure: 60ms is over a tenth of the deadline", v)
	}
}

// TestTailStandsOutOfTheLatency: the tail scenario's slow requests take
// ten times the measured p99 (300 ms for a p99 of 30 ms), far above the
// scheduling delay a loaded machine adds to every call, not ten times the
// store's own 5 ms.
func TestTailStandsOutOfTheLatency(t *testing.T) {
	var sc Scenario
	for _, s := range Scenarios() {
		if s.Name == "tail" {
			sc = s
		}
	}
	pol := Policy{Latency: policyspec.Latency{P50: 5 * time.Millisecond, P99: 30 * time.Millisecond, RPS: 400}}
	pl := sc.Plan(pol, time.Second)
	st := &Stack{Faults: &petstore.Faults{}}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := sc.Inject(ctx, st, pl); err != nil {
		t.Fatal(err)
	}
	frac, factor := st.Faults.Tail()
	if slow := time.Duration(factor * float64(petstore.BaseLatency)); frac != 0.05 || slow != 300*time.Millisecond || pl.Value != slow {
		t.Errorf("tail: %.2f of requests take %v (plan %v); want 0.05 taking 300ms, 10 × the p99", frac, slow, pl.Value)
	}
}

// TestSchedQuantile: the quantile of the goroutines' waits between two
// readings of the scheduler's histogram is taken from the waits in
// between only; the process's own histogram reads without error.
func TestSchedQuantile(t *testing.T) {
	edges := []float64{0, 0.001, 0.01, 0.1, 1, math.Inf(1)}
	before := &metrics.Float64Histogram{Counts: []uint64{1000, 0, 0, 0, 5}, Buckets: edges}
	after := &metrics.Float64Histogram{Counts: []uint64{1980, 5, 4, 11, 5}, Buckets: edges}
	// Between the readings: 980 waits under 1 ms, 5 under 10 ms, 4 under
	// 100 ms and 11 under 1 s; the 5 of over a second came before.
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 0}, {0.98, 0}, {0.985, time.Millisecond}, {0.99, 100 * time.Millisecond}, {1, 100 * time.Millisecond}} {
		if got := schedQuantile(before, after, c.q); got != c.want {
			t.Errorf("schedQuantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := schedQuantile(nil, after, 0.99); got != 0 {
		t.Errorf("without a first reading: %v, want 0", got)
	}
	if h := readSched(); h == nil || len(h.Counts) == 0 {
		t.Errorf("readSched() = %v, want the process's histogram", h)
	}
}
