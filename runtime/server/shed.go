package server

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Defaults applied by [NewShedder] to zero fields of a [ShedConfig].
const (
	DefaultShedConcurrent = 100
	DefaultShedWait       = 500 * time.Millisecond
	DefaultShedRetryAfter = time.Second
)

// ShedConfig configures a [Shedder]. The zero value is usable: every zero
// field takes its documented default.
type ShedConfig struct {
	// MaxConcurrent is the number of requests served at once. Zero means
	// [DefaultShedConcurrent].
	MaxConcurrent int
	// MaxQueue is the number of requests that may wait for a slot when all
	// are taken; a request arriving when the queue is full is shed at once.
	// Zero means MaxConcurrent; a negative value means no queue.
	MaxQueue int
	// MaxWait is the longest a request waits in the queue. A request whose
	// context has a deadline (see [DeadlineMiddleware]) waits no longer than
	// that deadline minus the estimated service time, since an answer after
	// the deadline is waste. Zero means [DefaultShedWait].
	MaxWait time.Duration
	// Status is the status of a shed answer: [http.StatusServiceUnavailable]
	// or [http.StatusTooManyRequests]. Zero, or any other value, means 503.
	Status int
	// RetryAfter is the delay sent in the Retry-After field of a shed
	// answer, rounded up to whole seconds. Zero means
	// [DefaultShedRetryAfter].
	RetryAfter time.Duration
	// Exempt reports the requests that bypass the shedder, such as health
	// checks, which must keep answering while the service sheds load (see
	// [ExemptPaths]). They take no slot and are never shed. Nil exempts
	// nothing.
	Exempt func(*http.Request) bool
}

// ExemptPaths returns a [ShedConfig.Exempt] predicate matching requests
// whose URL path is exactly one of paths, such as "/healthz".
func ExemptPaths(paths ...string) func(*http.Request) bool {
	set := make(map[string]struct{}, len(paths))
	for _, p := range paths {
		set[p] = struct{}{}
	}
	return func(r *http.Request) bool {
		_, ok := set[r.URL.Path]
		return ok
	}
}

// Shedder is a load shedder for the edge of a service: it serves at most a
// fixed number of requests at once and queues a bounded number of others,
// each for a bounded time, so that overload gives fast 503 (or 429) answers
// with Retry-After instead of a growing queue and answers nobody waits for.
//
// A request that finds every slot taken waits in the queue at most
// [ShedConfig.MaxWait], and never past its own deadline minus the estimated
// service time (an exponentially weighted moving average, weight 1/8, of
// the time admitted requests took). It is shed at once when the queue is
// full or when that leaves no time to wait; it is shed after waiting when no
// slot became free in time. Waiting requests get slots in arrival order.
//
// A Shedder is safe for concurrent use. One Shedder may guard several
// handlers, which then share its slots.
type Shedder struct {
	slots      chan struct{}
	maxQueue   int64
	maxWait    time.Duration
	status     int
	retryAfter string // seconds
	exempt     func(*http.Request) bool

	waiting  atomic.Int64
	service  atomic.Int64 // EWMA of service times, ns; 0 before the first
	admitted atomic.Uint64
	queued   atomic.Uint64
	shed     atomic.Uint64
	exempted atomic.Uint64
}

// ShedStats are a [Shedder]'s counters since it was created, and its
// current load.
type ShedStats struct {
	// Admitted counts requests admitted, at once or after waiting.
	Admitted uint64
	// Queued counts the admitted requests that had to wait.
	Queued uint64
	// Shed counts requests answered 503 or 429.
	Shed uint64
	// Exempt counts requests that bypassed the shedder.
	Exempt uint64
	// InFlight is the number of requests holding a slot now.
	InFlight int
	// Waiting is the number of requests in the queue now.
	Waiting int
	// ServiceTime is the current estimate of a request's service time.
	ServiceTime time.Duration
}

// NewShedder returns a shedder configured by c, whose zero fields take the
// defaults.
func NewShedder(c ShedConfig) *Shedder {
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultShedConcurrent
	}
	switch {
	case c.MaxQueue == 0:
		c.MaxQueue = c.MaxConcurrent
	case c.MaxQueue < 0:
		c.MaxQueue = 0
	}
	if c.MaxWait <= 0 {
		c.MaxWait = DefaultShedWait
	}
	if c.Status != http.StatusTooManyRequests {
		c.Status = http.StatusServiceUnavailable
	}
	if c.RetryAfter <= 0 {
		c.RetryAfter = DefaultShedRetryAfter
	}
	return &Shedder{
		slots:      make(chan struct{}, c.MaxConcurrent),
		maxQueue:   int64(c.MaxQueue),
		maxWait:    c.MaxWait,
		status:     c.Status,
		retryAfter: strconv.FormatInt(int64((c.RetryAfter+time.Second-1)/time.Second), 10),
		exempt:     c.Exempt,
	}
}

// Handler returns a handler that admits each request to next, or answers it
// with the shed status and Retry-After. Exempt requests go straight to next.
func (s *Shedder) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.exempt != nil && s.exempt(r) {
			s.exempted.Add(1)
			next.ServeHTTP(w, r)
			return
		}
		at, ok := s.Admit(r.Context())
		if !ok {
			w.Header().Set("Retry-After", s.retryAfter)
			http.Error(w, "resilient: overloaded, retry later", s.status)
			return
		}
		defer s.Release(at)
		next.ServeHTTP(w, r)
	})
}

// Admit asks for a slot for one request whose context is ctx, waiting in
// the queue as described on [Shedder]. It reports whether the request was
// admitted and, if so, when; an admitted request must call [Shedder.Release]
// with that time once served. [Shedder.Handler] does both; Admit is for
// other servers (a gRPC interceptor).
func (s *Shedder) Admit(ctx context.Context) (time.Time, bool) {
	select {
	case s.slots <- struct{}{}:
		s.admitted.Add(1)
		return time.Now(), true
	default:
	}
	if !s.wait(ctx) {
		s.shed.Add(1)
		return time.Time{}, false
	}
	s.admitted.Add(1)
	s.queued.Add(1)
	return time.Now(), true
}

// wait queues for a slot and reports whether it got one.
func (s *Shedder) wait(ctx context.Context) bool {
	wait := s.maxWait
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl) - time.Duration(s.service.Load()); left < wait {
			wait = left
		}
	}
	if wait <= 0 || ctx.Err() != nil {
		return false
	}
	if s.waiting.Add(1) > s.maxQueue {
		s.waiting.Add(-1)
		return false
	}
	defer s.waiting.Add(-1)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// Release frees the slot of a request admitted at time at and adds its
// service time to the estimate.
func (s *Shedder) Release(at time.Time) {
	<-s.slots
	d := int64(time.Since(at))
	for {
		old := s.service.Load()
		v := d
		if old != 0 {
			v = old + (d-old)/8
		}
		if s.service.CompareAndSwap(old, v) {
			return
		}
	}
}

// Stats returns the shedder's counters and current load.
func (s *Shedder) Stats() ShedStats {
	return ShedStats{
		Admitted:    s.admitted.Load(),
		Queued:      s.queued.Load(),
		Shed:        s.shed.Load(),
		Exempt:      s.exempted.Load(),
		InFlight:    len(s.slots),
		Waiting:     int(s.waiting.Load()),
		ServiceTime: time.Duration(s.service.Load()),
	}
}
