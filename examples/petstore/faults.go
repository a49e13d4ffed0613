package petstore

import (
	"context"
	"math"
	"net/http"
	"time"
)

// SetLatency adds d to every request's service time (0 removes it). The
// delay is slept with the request's context, so a cancelled request stops.
func (f *Faults) SetLatency(d time.Duration) { f.latency.Store(int64(d)) }

// Latency returns the added latency.
func (f *Faults) Latency() time.Duration { return time.Duration(f.latency.Load()) }

// SetStatus makes the servers answer every request with the HTTP status
// (503, 429, 500 …; gRPC maps it to the matching code) and, when
// retryAfter is positive, a Retry-After field (gRPC: grpc-retry-pushback-ms).
// SetStatus(0, 0) clears it.
func (f *Faults) SetStatus(status int, retryAfter time.Duration) {
	f.retryAfter.Store(int64(retryAfter))
	f.status.Store(int64(status))
}

// Status returns the forced status (0 for none) and its Retry-After.
func (f *Faults) Status() (status int, retryAfter time.Duration) {
	return int(f.status.Load()), time.Duration(f.retryAfter.Load())
}

// SetTail makes a fraction of requests (0..1) factor times slower than the
// base latency plus the added latency. The slow requests are chosen
// deterministically from a counter (see pick): with fraction 0.05, one
// request in 20, spread so that they do not line up with a cycle of
// operations. SetTail(0, 0) clears it.
func (f *Faults) SetTail(fraction, factor float64) {
	f.tailFactor.Store(math.Float64bits(factor))
	f.tailFraction.Store(math.Float64bits(fraction))
}

// Tail returns the tail fraction and factor.
func (f *Faults) Tail() (fraction, factor float64) {
	return math.Float64frombits(f.tailFraction.Load()), math.Float64frombits(f.tailFactor.Load())
}

// SetLoseAnswers makes a fraction of requests (0..1) lose their answer
// after the store applied them, as when the connection is reset
// mid-response: the HTTP server closes the connection without answering,
// the gRPC server answers UNAVAILABLE, as a proxy reports an upstream that
// reset after the request was forwarded. The requests are chosen
// deterministically from a counter (see pick): with fraction 0.05, one
// applied request in 20. SetLoseAnswers(0) clears it.
func (f *Faults) SetLoseAnswers(fraction float64) { f.lose.Store(math.Float64bits(fraction)) }

// loseAnswer reports whether the answer of a request the store has just
// applied is to be lost, advancing the counter.
func (f *Faults) loseAnswer() bool {
	frac := math.Float64frombits(f.lose.Load())
	return frac > 0 && pick(f.loseCounter.Add(1), frac)
}

// pick reports whether the n-th request belongs to a share frac of them:
// n times the golden ratio, modulo 1, below frac (a Weyl sequence). The
// picks are spread evenly, about frac × m in any m consecutive requests,
// and never fall into step with a cycle of operations, as every k-th
// request would (every 20th call of a ten-operation mix is the same
// operation).
func pick(n uint64, frac float64) bool {
	if frac >= 1 {
		return true
	}
	const golden = 0x9E3779B97F4A7C15 // 2^64 / φ
	return float64(n*golden) < frac*(1<<64)
}

// SetHang makes the servers never answer, until each request's context
// ends (the client gives up or the server shuts down).
func (f *Faults) SetHang(on bool) { f.hang.Store(on) }

// Hang reports whether the servers hang.
func (f *Faults) Hang() bool { return f.hang.Load() }

// LoadModel makes the store's capacity real (see [Faults.SetLoad]).
type LoadModel struct {
	// Capacity is the work in progress the store serves at full speed:
	// with more, every request's service time grows in proportion
	// (service time × work in progress / Capacity, as a CPU shared by
	// more threads than it has cores), and by Contention beyond that.
	// Zero turns the model off.
	Capacity int
	// Timeout, when positive, is the longest the store works on a request
	// before it answers 503 (gRPC UNAVAILABLE), as a server or proxy
	// timeout does; the work goes on until the store notices (Notice).
	Timeout time.Duration
	// Contention is how much more work each request takes per unit of
	// overload (work in progress / Capacity − 1): locks, caches and
	// memory fought over by more requests than the store can run at once
	// (the coherency term of the Universal Scalability Law). With it the
	// store's throughput peaks at Capacity and falls beyond it, Capacity /
	// (service time × (1 + Contention × overload)), so that a backlog, once
	// built, slows the store below the rate that built it. Zero leaves
	// the throughput flat beyond Capacity.
	Contention float64
	// Notice is how long a request abandoned by its caller (its context
	// ended) or cut by Timeout still counts as work in progress, at most
	// the rest of its service time: the store only notices at its next
	// check.
	Notice time.Duration
}

// SetLoad sets the store's load model; the zero LoadModel removes it.
// Requests already in progress keep the service time they were given.
func (f *Faults) SetLoad(m LoadModel) {
	f.loadTimeout.Store(int64(m.Timeout))
	f.loadNotice.Store(int64(m.Notice))
	f.loadContention.Store(math.Float64bits(m.Contention))
	f.loadCap.Store(int64(m.Capacity))
}

// Load returns the load model.
func (f *Faults) Load() LoadModel {
	return LoadModel{Capacity: int(f.loadCap.Load()), Contention: math.Float64frombits(f.loadContention.Load()),
		Timeout: time.Duration(f.loadTimeout.Load()), Notice: time.Duration(f.loadNotice.Load())}
}

// WorkInProgress returns the requests the load model counts as in
// progress, abandoned ones not yet noticed included.
func (f *Faults) WorkInProgress() int64 { return f.wip.Load() }

// serveLoaded serves a request of service time d under the load model m:
// it counts as work in progress, its service time grows with the work in
// progress beyond m.Capacity, and it is cut by m.Timeout (a 503) or by
// ctx. A cut request stays in progress for m.Notice more, at most the
// rest of its service time.
func (f *Faults) serveLoaded(ctx context.Context, d time.Duration, m LoadModel) error {
	wip := f.wip.Add(1)
	if over := float64(wip) / float64(m.Capacity); over > 1 {
		d = time.Duration(float64(d) * over * (1 + m.Contention*(over-1)))
	}
	leave := func() { f.wip.Add(-1) }
	linger := func(rest time.Duration) {
		if rest = min(rest, m.Notice); rest > 0 {
			time.AfterFunc(rest, leave)
			return
		}
		leave()
	}
	wait := d
	if m.Timeout > 0 && m.Timeout < d {
		wait = m.Timeout
	}
	start := time.Now()
	if !sleep(ctx, wait) {
		linger(d - time.Since(start))
		return ctx.Err()
	}
	if wait < d {
		linger(d - wait)
		return &FaultError{Status: http.StatusServiceUnavailable}
	}
	leave()
	return nil
}

// Reset clears every fault: the servers are healthy again.
func (f *Faults) Reset() {
	f.SetLoad(LoadModel{})
	f.SetLatency(0)
	f.SetStatus(0, 0)
	f.SetTail(0, 0)
	f.SetHang(false)
	f.SetLoseAnswers(0)
	f.tailCounter.Store(0)
	f.loseCounter.Store(0)
}

// delay returns how long a request with base service time base should take
// under the current faults, and whether the tail made it slow, advancing
// the tail counter.
func (f *Faults) delay(base time.Duration) (d time.Duration, slow bool) {
	d = base + f.Latency()
	frac, factor := f.Tail()
	if frac > 0 && factor > 1 && pick(f.tailCounter.Add(1), frac) {
		return time.Duration(float64(d) * factor), true
	}
	return d, false
}

// sleep waits d or until ctx ends, reporting whether it waited it all.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
