package server

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"
)

// DeadlineOption configures [DeadlineMiddleware].
type DeadlineOption interface {
	applyDeadline(*deadlineHandler)
}

type deadlineOptionFunc func(*deadlineHandler)

func (f deadlineOptionFunc) applyDeadline(h *deadlineHandler) { f(h) }

// WithDeadlineHeader overrides the header the budget is read from, which is
// [DefaultDeadlineHeader] by default. It must match the callers'
// runtime.HTTPClient.DeadlineHeader.
func WithDeadlineHeader(name string) DeadlineOption {
	return deadlineOptionFunc(func(h *deadlineHandler) {
		if name != "" {
			h.header = http.CanonicalHeaderKey(name)
		}
	})
}

// DefaultMaxDeadline caps the budget [DeadlineMiddleware] accepts from a
// caller unless [WithMaxDeadline] says otherwise: a larger header value
// (a careless or hostile caller may send years) gives a deadline five
// minutes after the request's arrival.
const DefaultMaxDeadline = 5 * time.Minute

// WithMaxDeadline caps the budget a caller may ask for: a larger header
// value gives a deadline d after the request's arrival. Zero means
// [DefaultMaxDeadline]; a negative d means no cap. Requests without the
// header are not affected.
func WithMaxDeadline(d time.Duration) DeadlineOption {
	return deadlineOptionFunc(func(h *deadlineHandler) {
		switch {
		case d == 0:
			h.max = DefaultMaxDeadline
		case d < 0:
			h.max = 0
		default:
			h.max = d
		}
	})
}

// DeadlineMiddleware returns a handler that turns the caller's time budget,
// sent in a request header, into a deadline of the request's context, and
// then calls next.
//
// It is the inbound half of deadline propagation. A client of the runtime
// package (runtime.DoHTTP) sends, on every attempt, the attempt's remaining
// time minus a small margin (runtime.DefaultDeadlineMargin) as an integer number of
// milliseconds in [DefaultDeadlineHeader]. The value is relative, so clock
// skew between the hosts does not matter; the margin covers the transit and
// the writing of the answer, so the server stops before the caller stops
// waiting. This middleware sets the context deadline to the request's
// arrival plus that budget, capped at [DefaultMaxDeadline] unless
// [WithMaxDeadline] says otherwise; the handler's own
// outgoing calls made with r.Context() then pass on what is left, minus
// their own margin, hop after hop.
//
// A value of zero or less means the caller has already given up: the
// middleware answers 504 Gateway Timeout without calling next. A value that
// is not a decimal integer is ignored: the request is served as if the
// header were absent, with the context's deadline, if any, unchanged. An
// earlier deadline already on the context is kept.
//
// Put it outermost, before a [Shedder], which reads the deadline it sets.
func DeadlineMiddleware(next http.Handler, opts ...DeadlineOption) http.Handler {
	h := &deadlineHandler{next: next, header: DefaultDeadlineHeader, max: DefaultMaxDeadline}
	for _, o := range opts {
		o.applyDeadline(h)
	}
	return h
}

type deadlineHandler struct {
	next   http.Handler
	header string
	max    time.Duration
}

func (h *deadlineHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	budget, ok := parseBudget(r.Header.Get(h.header))
	if !ok {
		h.next.ServeHTTP(w, r)
		return
	}
	if budget <= 0 {
		http.Error(w, "resilient: deadline exceeded before the request arrived", http.StatusGatewayTimeout)
		return
	}
	if h.max > 0 && budget > h.max {
		budget = h.max
	}
	ctx, cancel := context.WithTimeout(r.Context(), budget)
	defer cancel()
	h.next.ServeHTTP(w, r.WithContext(ctx))
}

// parseBudget parses a deadline header value: a decimal number of
// milliseconds, possibly signed. It reports false for an absent or
// unparsable value; very large values are clamped rather than overflowing.
func parseBudget(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
		// Out of range: ms holds the nearest bound, kept by the clamp below.
	}
	const maxMs = math.MaxInt64 / int64(time.Millisecond)
	switch {
	case ms > maxMs:
		ms = maxMs
	case ms < 0:
		ms = 0
	}
	return time.Duration(ms) * time.Millisecond, true
}
