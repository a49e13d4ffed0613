package faults

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBucketize(t *testing.T) {
	fail := errors.New("boom")
	ms := time.Millisecond
	s := []sample{
		{at: 0},                        // bucket 0, ok
		{at: 99 * ms, err: fail},       // bucket 0, failed
		{at: 100 * ms, degraded: true}, // bucket 1, degraded: not ok
		{at: 150 * ms},                 // bucket 1, ok
		{at: 250 * ms},                 // bucket 2, ok
		{at: 290 * ms, err: fail},      // bucket 2, failed
		{at: 420 * ms},                 // past the phase: last bucket
		{at: -5 * ms, err: fail},       // before the phase: first bucket
	}
	got := bucketize(s, BucketWidth, 350*ms)
	want := []Bucket{{OK: 1, Calls: 3}, {OK: 1, Calls: 2}, {OK: 1, Calls: 2}, {OK: 1, Calls: 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("bucketize = %v, want %v", got, want)
	}
	if got := bucketize(s, BucketWidth, 0); got != nil {
		t.Errorf("bucketize with no phase = %v, want nil", got)
	}
}

func TestRecovery(t *testing.T) {
	ms := time.Millisecond
	tl := []Bucket{
		{OK: 0, Calls: 40},  // 0: fault
		{OK: 0, Calls: 40},  // 100
		{OK: 20, Calls: 40}, // 200: fault ended at 250 ms
		{OK: 30, Calls: 40}, // 300: 75 %
		{OK: 0, Calls: 0},   // 400: empty, never counts
		{OK: 36, Calls: 40}, // 500: 90 %
		{OK: 40, Calls: 40}, // 600
	}
	cases := []struct {
		name     string
		faultEnd time.Duration
		pre      float64
		want     time.Duration
	}{
		{"back at 90 % of a full pre-fault level", 250 * ms, 1, 250 * ms},
		{"a lower pre-fault level is reached sooner", 250 * ms, 0.8, 50 * ms},
		{"a bucket before the fault's end does not count", 300 * ms, 0.5, 0},
		{"fault end on a bucket boundary", 200 * ms, 0.5, 0},
		{"never back", 250 * ms, 1.2, RecoveryNever},
		{"fault ends after the timeline", 800 * ms, 0.1, RecoveryNever},
	}
	for _, c := range cases {
		if got := Recovery(tl, BucketWidth, c.faultEnd, c.pre); got != c.want {
			t.Errorf("%s: Recovery = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestResultsTimelineAndRecovery(t *testing.T) {
	ms := time.Millisecond
	row := &Row{Scenario: Scenario{Name: "503-window"}, Transport: HTTP, Plan: Plan{Window: 100 * ms, Phase: 300 * ms},
		Arms: map[Arm]*Result{
			Naive:     {Calls: 3, OK: 2, PreFaultOK: 1, Timeline: []Bucket{{0, 1}, {1, 1}, {1, 1}}},
			Resilient: {Calls: 3, OK: 1, PreFaultOK: 1, Timeline: []Bucket{{0, 1}, {0, 1}, {1, 1}}},
			Common:    {Calls: 3, OK: 0, PreFaultOK: 1, Timeline: []Bucket{{0, 1}, {0, 1}, {0, 1}}},
		}}
	f := (&Report{Rows: []*Row{row}}).Results()
	got := f.Results[0]
	if len(got.Timeline) != 3 || got.Timeline[2].AtMs != 200 || got.Timeline[1].Arms["naive"] != (Bucket{1, 1}) {
		t.Fatalf("timeline = %+v", got.Timeline)
	}
	want := map[string]float64{"naive": 0, "resilient": 100, "common": -1}
	for a, v := range want {
		if got.RecoveryMs[a] != v {
			t.Errorf("recoveryMs[%s] = %v, want %v (all %v)", a, got.RecoveryMs[a], v, got.RecoveryMs)
		}
	}
	row.Plan.Window = 0
	if f := (&Report{Rows: []*Row{row}}).Results(); f.Results[0].RecoveryMs != nil {
		t.Errorf("a scenario without a recovery has recoveryMs %v", f.Results[0].RecoveryMs)
	}
}

func TestGoodputSVG(t *testing.T) {
	ms := time.Millisecond
	row := &Row{Scenario: Scenario{Name: "503-window"}, Transport: GRPC, Plan: Plan{Window: 100 * ms, Phase: 300 * ms},
		Arms: map[Arm]*Result{
			Naive:     {Client: "naive gRPC", Timeline: []Bucket{{0, 4}, {2, 4}, {4, 4}}},
			Resilient: {Client: "resilient gRPC", Timeline: []Bucket{{0, 4}, {0, 0}, {4, 4}}},
		}}
	rep := &Report{Rows: []*Row{row}}
	svg := rep.GoodputSVG("503-window")
	for _, want := range []string{"fault ends", "grpc", "naive gRPC", "resilient gRPC"} {
		if !strings.Contains(svg, want) {
			t.Errorf("goodput chart lacks %q", want)
		}
	}
	// 3 points for naive, 2 for resilient: the empty bucket is skipped.
	if n := strings.Count(svg, `points="`); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
	if got := rep.GoodputSVG("overload"); got != "" {
		t.Errorf("a chart for a scenario that did not run: %q", got[:min(len(got), 80)])
	}
}

// TestStormAcceptance: retry-storm's acceptance lines hold for a resilient
// arm that recovers soon with the most fresh answers, and fail for one
// that recovers no sooner than the others.
func TestStormAcceptance(t *testing.T) {
	sc := Scenarios()[8]
	if sc.Name != "retry-storm" {
		t.Fatalf("scenario 9 is %q", sc.Name)
	}
	ms := time.Millisecond
	tl := func(okAfter int) []Bucket { // ten buckets, ok from bucket okAfter on
		bs := make([]Bucket, 10)
		for i := range bs {
			bs[i] = Bucket{Calls: 10}
			if i >= okAfter {
				bs[i].OK = 10
			}
		}
		return bs
	}
	arm := func(okAfter int) *Result {
		r := &Result{Calls: 100, PreFaultOK: 1, Timeline: tl(okAfter)}
		for _, b := range r.Timeline {
			r.OK += b.OK
		}
		return r
	}
	row := &Row{Scenario: sc, Transport: GRPC, Plan: Plan{Window: 200 * ms, Phase: time.Second},
		Arms: map[Arm]*Result{Naive: arm(7), Resilient: arm(3), Common: arm(10)}}
	for _, v := range goodputAcceptance(row, row.Arms[Resilient], row.Arms[Naive], row.Arms[Common]) {
		if !v.Pass {
			t.Errorf("%s failed: %s", v.Criterion, v.Detail)
		}
	}
	row.Arms[Resilient] = arm(7) // recovers with naive: 500 ms, not < 3 × 500 ms
	failed := 0
	for _, v := range goodputAcceptance(row, row.Arms[Resilient], row.Arms[Naive], row.Arms[Common]) {
		if !v.Pass {
			failed++
		}
	}
	// Common never recovers, so only the fresh-share line can fail: 30 % ≥
	// 1.5 × 0 and ≥ naive's 30 % holds; make common as good as naive.
	row.Arms[Common] = arm(7)
	for _, v := range goodputAcceptance(row, row.Arms[Resilient], row.Arms[Naive], row.Arms[Common]) {
		if !v.Pass {
			failed++
		}
	}
	if failed < 2 {
		t.Errorf("%d lines failed for a resilient arm no better than the others, want at least 2", failed)
	}
}
