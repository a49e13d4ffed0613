package faults

import (
	"math"
	"time"
)

// BucketWidth is the width of a timeline bucket.
const BucketWidth = 100 * time.Millisecond

// recoveryShare is the share of its pre-fault ok share an arm must reach
// again, in one bucket, to count as recovered.
const recoveryShare = 0.9

// Bucket is what the calls started in one 100 ms slice of the fault phase
// got: OK of them a fresh answer, of Calls.
type Bucket struct {
	OK    int `json:"ok"`
	Calls int `json:"calls"`
}

// TimelineBucket is one bucket of a row's timeline in the results file:
// AtMs is its start since the fault phase began, Arms each arm's bucket.
type TimelineBucket struct {
	AtMs float64           `json:"atMs"`
	Arms map[string]Bucket `json:"arms"`
}

// timeline returns row's timeline for the results file, every arm that
// ran in each bucket.
func timeline(row *Row) []TimelineBucket {
	n := 0
	for _, r := range row.Arms {
		n = max(n, len(r.Timeline))
	}
	tl := make([]TimelineBucket, n)
	for i := range tl {
		tl[i] = TimelineBucket{AtMs: msFloat(time.Duration(i) * BucketWidth), Arms: map[string]Bucket{}}
		for _, a := range Arms {
			if r := row.Arms[a]; r != nil && i < len(r.Timeline) {
				tl[i].Arms[string(a)] = r.Timeline[i]
			}
		}
	}
	return tl
}

// recoveries returns each arm's recovery time in ms for the results
// file, nil when the row's scenario has no recovery.
func recoveries(row *Row) map[string]float64 {
	var m map[string]float64
	for _, a := range Arms {
		if v, ok := recoveryMs(row, row.Arms[a]); ok {
			if m == nil {
				m = map[string]float64{}
			}
			m[string(a)] = v
		}
	}
	return m
}

// Share returns OK/Calls, 0 for an empty bucket.
func (b Bucket) Share() float64 {
	if b.Calls == 0 {
		return 0
	}
	return float64(b.OK) / float64(b.Calls)
}

// bucketize splits samples by their planned start since the phase began
// into buckets of width, enough of them to cover phase; a sample past
// the last bucket goes into it.
func bucketize(s []sample, width, phase time.Duration) []Bucket {
	if width <= 0 || phase <= 0 {
		return nil
	}
	n := int((phase + width - 1) / width)
	bs := make([]Bucket, n)
	for _, x := range s {
		i := min(max(int(x.at/width), 0), n-1)
		bs[i].Calls++
		if x.err == nil && !x.degraded {
			bs[i].OK++
		}
	}
	return bs
}

// RecoveryNever is the recovery time of an arm that did not recover.
const RecoveryNever = -1 * time.Millisecond

// Recovery returns the time from the fault's end (faultEnd since the
// phase began) to the start of the first bucket, among those starting
// at or after it, whose ok share is at least 90 % of pre (the arm's ok
// share before the fault), and RecoveryNever when no bucket is. Empty
// buckets never count.
func Recovery(tl []Bucket, width, faultEnd time.Duration, pre float64) time.Duration {
	first := int((faultEnd + width - 1) / width)
	for i := max(first, 0); i < len(tl); i++ {
		if tl[i].Calls > 0 && tl[i].Share() >= recoveryShare*pre-1e-9 {
			return time.Duration(i)*width - faultEnd
		}
	}
	return RecoveryNever
}

// recoveryMs returns r's recovery time in the row in milliseconds, -1
// when it never recovered, and whether the row's scenario has a recovery.
func recoveryMs(row *Row, r *Result) (float64, bool) {
	if row.Plan.Window <= 0 || r == nil {
		return 0, false
	}
	d := Recovery(r.Timeline, BucketWidth, row.Plan.Window, r.PreFaultOK)
	if d < 0 {
		return -1, true
	}
	return math.Round(float64(d) / float64(time.Millisecond)), true
}
