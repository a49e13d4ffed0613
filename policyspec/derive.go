package policyspec

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Figures of the derivation from measured latency, and the guesses made
// without it.
const (
	// AttemptTimeoutFactor multiplies the p99.9 latency (or the p99 when no
	// p99.9 is known) to give the attempt timeout: slightly above the
	// dependency's slowest normal answers.
	AttemptTimeoutFactor = 1.2
	// BulkheadHeadroom multiplies the concurrency of Little's law
	// (rps × p99) to size the bulkhead: the top of the usual 2–3×. A
	// dependency slowed to twice its p99, the resilience-patterns'
	// slow-dependency fault, already needs twice that figure in flight,
	// plus the retries and hedges of the slowdown's first moments; with
	// less, the bulkhead rather than the dependency fails the calls.
	BulkheadHeadroom = 3
	// GuessAttemptTimeout is the attempt timeout of an operation with no
	// timeout and no latency data. It is generous on purpose: a timeout
	// below the real p99 causes the outage it should prevent.
	GuessAttemptTimeout = 2 * time.Second
	// GuessConnectTimeout is the connect timeout when none is set: the top
	// of the usual 100 ms–1 s inside a region.
	GuessConnectTimeout = time.Second
)

// Latency is measured latency, resolved from the layers' latency blocks.
// Zero fields are unknown.
type Latency struct {
	P50, P95, P99, P999 time.Duration
	// RPS is the request rate in requests per second.
	RPS float64
}

// latencyOf returns the latency values of a merged spec.
func latencyOf(s LatencySpec) Latency {
	return Latency{P50: s.P50.Value, P95: s.P95.Value, P99: s.P99.Value, P999: s.P999.Value, RPS: s.RPS.Value}
}

// tail returns the latency an attempt timeout must sit above, p99.9 or else
// p99, with its name; zero when neither is known.
func (l Latency) tail() (time.Duration, string) {
	switch {
	case l.P999 > 0:
		return l.P999, "p99.9"
	case l.P99 > 0:
		return l.P99, "p99"
	}
	return 0, ""
}

// RoundUp rounds d up to a value a reviewer reads at a glance: to the next
// 10 ms below 1 s, the next 100 ms below 10 s, the next second above.
func RoundUp(d time.Duration) time.Duration {
	step := time.Second
	switch {
	case d < time.Second:
		step = 10 * time.Millisecond
	case d < 10*time.Second:
		step = 100 * time.Millisecond
	}
	if r := d % step; r != 0 {
		d += step - r
	}
	return d
}

// roundDown rounds d down with the steps of [RoundUp].
func roundDown(d time.Duration) time.Duration {
	step := time.Second
	switch {
	case d < time.Second:
		step = 10 * time.Millisecond
	case d < 10*time.Second:
		step = 100 * time.Millisecond
	}
	return d - d%step
}

// DeriveAttemptTimeout returns the attempt timeout for latency l:
// [AttemptTimeoutFactor] × p99.9 (or × p99), rounded up, with how it was
// computed. It returns 0 when neither percentile is known.
func DeriveAttemptTimeout(l Latency) (time.Duration, string) {
	t, name := l.tail()
	if t == 0 {
		return 0, ""
	}
	d := RoundUp(time.Duration(float64(t) * AttemptTimeoutFactor))
	return d, fmt.Sprintf("%s %s × %g, rounded up", name, t, AttemptTimeoutFactor)
}

// Backoff returns the longest total backoff of retries retries: the sum of
// min(cap, base·2^n) for n from 0.
func Backoff(retries int, base, cap time.Duration) time.Duration {
	var total time.Duration
	step := base
	for range retries {
		total += min(step, cap)
		if step < cap {
			step *= 2
		}
	}
	return total
}

// CoveringTimeout returns a total timeout that lets every attempt run to
// its attempt timeout: attempts × attempt + the longest backoff, plus the
// hedge delay when hedging (the last hedge must have time to answer),
// rounded up.
func CoveringTimeout(attempts int, attempt, backoff, hedgeDelay time.Duration) time.Duration {
	return RoundUp(time.Duration(attempts)*attempt + backoff + hedgeDelay)
}

// DeriveBulkhead returns the bulkhead size for latency l by Little's law:
// ceil(rps × p99) × [BulkheadHeadroom], with how it was computed. It returns
// 0 when the rate or the p99 is unknown.
func DeriveBulkhead(l Latency) (int, string) {
	if l.RPS <= 0 || l.P99 <= 0 {
		return 0, ""
	}
	need := math.Ceil(l.RPS * l.P99.Seconds())
	n := int(min(need*BulkheadHeadroom, 1e6))
	return n, fmt.Sprintf("%g rps × p99 %s = %g in flight, × %d headroom", l.RPS, l.P99, need, BulkheadHeadroom)
}

// coveringBasis describes CoveringTimeout's sum.
func coveringBasis(attempts int, attempt, backoff, hedgeDelay time.Duration) string {
	parts := []string{fmt.Sprintf("%d × attempt %s", attempts, attempt)}
	if backoff > 0 {
		parts = append(parts, fmt.Sprintf("backoff %s", backoff))
	}
	if hedgeDelay > 0 {
		parts = append(parts, fmt.Sprintf("hedge delay %s", hedgeDelay))
	}
	return strings.Join(parts, " + ") + ", rounded up"
}
