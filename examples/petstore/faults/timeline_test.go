package faults

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// samplesOf makes one sample every 10 ms for d: fresh while fresh(at) says
// so, failed otherwise.
func samplesOf(d time.Duration, fresh func(time.Duration) bool) []sample {
	var s []sample
	for at := time.Duration(0); at < d; at += 10 * time.Millisecond {
		x := sample{at: at}
		if !fresh(at) {
			x.err = errors.New("503")
		}
		s = append(s, x)
	}
	return s
}

func TestTimelineBuckets(t *testing.T) {
	tl := timeline(samplesOf(350*time.Millisecond, func(at time.Duration) bool { return at >= 150*time.Millisecond }))
	want := []Bucket{{0, 0, 10}, {100 * time.Millisecond, 5, 10}, {200 * time.Millisecond, 10, 10}, {300 * time.Millisecond, 5, 5}}
	if len(tl) != len(want) {
		t.Fatalf("timeline %v, want %v", tl, want)
	}
	for i := range want {
		if tl[i] != want[i] {
			t.Errorf("bucket %d = %+v, want %+v", i, tl[i], want[i])
		}
	}
}

func TestRecovery(t *testing.T) {
	end := time.Second
	for _, tc := range []struct {
		name     string
		back     time.Duration // fresh answers from end+back on
		level    float64
		want     time.Duration
		recovers bool
	}{
		{"at once", 0, 1, 0, true},
		{"within the first bucket", 30 * time.Millisecond, 1, 100 * time.Millisecond, true},
		{"a quarter second late", 250 * time.Millisecond, 1, 300 * time.Millisecond, true},
		{"never", 5 * time.Second, 1, 0, false},
		{"against a lower level", 30 * time.Millisecond, 0.7, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := timeline(samplesOf(2*time.Second, func(at time.Duration) bool { return at >= end+tc.back }))
			got, ok := recovery(tl, end, tc.level)
			if ok != tc.recovers || got != tc.want {
				t.Errorf("recovery = %v, %v; want %v, %v", got, ok, tc.want, tc.recovers)
			}
		})
	}
}

// TestResultsFileTimeline: the results file carries each arm's timeline
// and, for a fault that ends within the phase, its recovery (-1 when
// never).
func TestResultsFileTimeline(t *testing.T) {
	rows := fabricated()
	row := rows[0]
	row.Plan.Window = 100 * time.Millisecond
	for _, a := range Arms {
		row.Arms[a].Timeline = []Bucket{{0, 0, 10}, {BucketLength, 9, 10}}
		row.Arms[a].Recovered = a != Common
	}
	var b bytes.Buffer
	if err := NewReport(rows).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var f ResultsFile
	if err := json.Unmarshal(b.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	r := f.Results[0]
	if len(r.Timeline) != 2 || r.Timeline[1].AtMs != 100 || r.Timeline[1].Arms["resilient"] != (BucketFigures{OK: 9, Calls: 10}) {
		t.Errorf("timeline %+v", r.Timeline)
	}
	if r.RecoveryMs["resilient"] != 0 || r.RecoveryMs["common"] != -1 {
		t.Errorf("recoveryMs %v", r.RecoveryMs)
	}
}
