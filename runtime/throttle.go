package runtime

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// ThrottlePolicy configures a dependency's adaptive throttle, the client
// side of load shedding (Google SRE book, "Handling Overload"): while the
// dependency sheds load (503, 429, gRPC RESOURCE_EXHAUSTED, UNAVAILABLE
// from a server the attempt reached), the client refuses locally the share
// of attempts the dependency would refuse anyway, and keeps sending about
// Ratio times what it accepts. The zero value takes every default.
type ThrottlePolicy struct {
	// Ratio (K) is how many attempts the client sends per attempt the
	// dependency accepted over the window: an attempt is refused locally
	// with probability max(0, (requests − Ratio·accepts) / (requests + 1)).
	// Above 1 so that the dependency always sees more than it accepts and
	// an increase of its capacity shows at once. Zero means
	// [DefaultThrottleRatio].
	Ratio float64
	// Window is how far back requests and accepts are counted. A short
	// window brings traffic back within about one window after the
	// dependency recovers. Zero means [DefaultThrottleWindow].
	Window time.Duration
	// MaxReject bounds the probability of a local refusal, in (0, 1), so
	// that some traffic always reaches a dependency that refuses
	// everything and its recovery is seen at once. Zero means
	// [DefaultThrottleMaxReject].
	MaxReject float64
	// MinRequests is how many attempts the window must hold before the
	// throttle refuses any: a few shed answers of a quiet dependency are
	// left to the retry budget and the backoff. Zero means
	// [DefaultThrottleMinRequests].
	MinRequests int
	// Disabled turns the throttle off: shed answers then only slow
	// retries down (by their Retry-After or pushback).
	Disabled bool
}

// throttleBuckets is how many buckets divide the window.
const throttleBuckets = 10

// recoveredAccepts is how many accepts in a row, with no shed answer for a
// third of the window, tell that the dependency recovered: the throttle
// then stops at once instead of letting the refusals of the outage age out
// of its window.
const recoveredAccepts = 3

// throttle is the adaptive throttle of one dependency. It counts nothing
// until the dependency sheds an attempt, and stops counting once a whole
// window passes without one, so that a healthy dependency costs one atomic
// load per attempt.
type throttle struct {
	ratio, maxReject float64
	minRequests      int64
	window, bucket   time.Duration

	// active: a shed answer came less than a window ago.
	active atomic.Bool
	// lastShed is when the last shed answer came, in Unix nanoseconds.
	lastShed atomic.Int64

	mu sync.Mutex
	// epoch is the bucket index (time / bucket) of buckets[epoch %
	// throttleBuckets]; older indexes hold counts of past epochs.
	epoch    int64
	requests [throttleBuckets]int64
	accepts  [throttleBuckets]int64
	// streak counts the accepts since the last shed answer.
	streak int64
}

func newThrottle(p ThrottlePolicy) *throttle {
	if p.Disabled {
		return nil
	}
	return &throttle{ratio: p.Ratio, maxReject: p.MaxReject, minRequests: int64(p.MinRequests), window: p.Window, bucket: p.Window / throttleBuckets}
}

// admit counts one attempt the caller wants to send and reports whether it
// may go; a refused one is counted too, as the SRE book counts requests.
func (t *throttle) admit() bool {
	if t == nil || !t.active.Load() {
		return true
	}
	now := time.Now().UnixNano()
	quiet := now - t.lastShed.Load()
	if quiet > int64(t.window) {
		t.active.Store(false)
		return true
	}
	t.mu.Lock()
	if quiet > int64(t.window)/3 && t.streak >= recoveredAccepts {
		t.active.Store(false)
		t.mu.Unlock()
		return true
	}
	t.requests[t.rotate(now)]++
	req, acc := t.sums()
	t.mu.Unlock()
	if req < t.minRequests {
		return true
	}
	p := rejectProbability(req, acc, t.ratio, t.maxReject)
	return p <= 0 || rand.Float64() >= p
}

// rejectProbability is the SRE book's client-side throttling formula,
// max(0, (requests − ratio·accepts) / (requests + 1)), bounded by max.
func rejectProbability(requests, accepts int64, ratio, max float64) float64 {
	p := (float64(requests) - ratio*float64(accepts)) / float64(requests+1)
	switch {
	case p <= 0:
		return 0
	case p > max:
		return max
	}
	return p
}

// record counts the outcome of an attempt admit let through: accepted
// when the dependency answered it with anything but a refusal for lack of
// capacity (a success, a 4xx, a 500), shed when it refused it so. An
// attempt that ended otherwise (a timeout, a reset) is neither.
func (t *throttle) record(accepted, shed bool) {
	if t == nil || !(shed || accepted && t.active.Load()) {
		return
	}
	now := time.Now().UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	if !shed {
		t.accepts[t.rotate(now)]++
		t.streak++
		return
	}
	t.lastShed.Store(now)
	t.streak = 0
	if !t.active.Load() {
		// Counting starts afresh: what happened before the dependency
		// began to shed says nothing of its capacity. The shed attempt
		// itself was a request.
		t.requests, t.accepts = [throttleBuckets]int64{}, [throttleBuckets]int64{}
		t.epoch = now / int64(t.bucket)
		t.requests[t.epoch%throttleBuckets]++
		t.active.Store(true)
	}
}

// sums returns the requests and accepts the window holds. t.mu is held.
func (t *throttle) sums() (req, acc int64) {
	for j := range throttleBuckets {
		req += t.requests[j]
		acc += t.accepts[j]
	}
	return req, acc
}

// rotate moves the window to now, clearing the buckets of epochs that
// left it, and returns the index of now's bucket. t.mu is held.
func (t *throttle) rotate(now int64) int64 {
	e := now / int64(t.bucket)
	if e > t.epoch {
		for k := t.epoch + 1; k <= e && k <= t.epoch+throttleBuckets; k++ {
			t.requests[k%throttleBuckets], t.accepts[k%throttleBuckets] = 0, 0
		}
		t.epoch = e
	}
	return e % throttleBuckets
}

// rejecting returns the probability with which the throttle refuses an
// attempt now, zero when it is idle.
func (t *throttle) rejecting() float64 {
	if t == nil || !t.active.Load() {
		return 0
	}
	t.mu.Lock()
	t.rotate(time.Now().UnixNano())
	req, acc := t.sums()
	t.mu.Unlock()
	if req < t.minRequests {
		return 0
	}
	return rejectProbability(req, acc, t.ratio, t.maxReject)
}
