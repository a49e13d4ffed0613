package faults

import (
	"math"
	"runtime/metrics"
	"time"
)

// schedLatencies is the runtime metric of how long goroutines waited,
// runnable, before they ran.
const schedLatencies = "/sched/latencies:seconds"

// readSched returns the process's histogram of scheduling latencies so
// far.
func readSched() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// schedQuantile returns the q-quantile of the scheduling latencies between
// the histograms before and after (the lower edge of the bucket it falls
// in), 0 when either is missing or nothing ran between them.
func schedQuantile(before, after *metrics.Float64Histogram, q float64) time.Duration {
	if before == nil || after == nil || len(before.Counts) != len(after.Counts) {
		return 0
	}
	var total uint64
	for i := range after.Counts {
		total += after.Counts[i] - before.Counts[i]
	}
	if total == 0 {
		return 0
	}
	want := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i := range after.Counts {
		seen += after.Counts[i] - before.Counts[i]
		if seen >= want {
			return time.Duration(max(after.Buckets[i], 0) * float64(time.Second))
		}
	}
	return 0
}
