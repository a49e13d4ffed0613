package faults

import "time"

// BucketLength is the span of one timeline bucket.
const BucketLength = 100 * time.Millisecond

// RecoveredShare is the share of its pre-fault level of fresh answers at
// which an arm counts as recovered.
const RecoveredShare = 0.9

// Bucket is what an arm's calls planned within one BucketLength of the
// fault phase got: At is the bucket's start since the phase began, Calls
// the calls planned in it, OK those answered fresh (not degraded).
type Bucket struct {
	At        time.Duration
	OK, Calls int
}

// timeline groups the samples by the bucket of their planned start.
func timeline(s []sample) []Bucket {
	var out []Bucket
	for _, x := range s {
		i := int(x.at / BucketLength)
		if x.at < 0 {
			i = 0
		}
		for len(out) <= i {
			out = append(out, Bucket{At: time.Duration(len(out)) * BucketLength})
		}
		out[i].Calls++
		if x.err == nil && !x.degraded {
			out[i].OK++
		}
	}
	return out
}

// okShare returns the share of the samples answered fresh, 0 for none.
func okShare(s []sample) float64 {
	if len(s) == 0 {
		return 0
	}
	ok := 0
	for _, x := range s {
		if x.err == nil && !x.degraded {
			ok++
		}
	}
	return float64(ok) / float64(len(s))
}

// recovery returns how long after the fault ended (end, since the phase
// began) an arm's fresh answers came back: the start of the first bucket
// that begins at or after end and whose share of fresh answers is at
// least RecoveredShare of level (the arm's share during the healthy
// warm-up), less end. It returns false when no bucket qualifies.
func recovery(tl []Bucket, end time.Duration, level float64) (time.Duration, bool) {
	for _, b := range tl {
		if b.At < end || b.Calls == 0 {
			continue
		}
		if float64(b.OK)/float64(b.Calls) >= RecoveredShare*level {
			return b.At - end, true
		}
	}
	return 0, false
}
