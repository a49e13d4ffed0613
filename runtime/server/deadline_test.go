package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

func TestDeadlineMiddleware(t *testing.T) {
	const far = time.Duration(1<<63 - 1) // a deadline that does not overflow
	tests := []struct {
		name       string
		opts       []DeadlineOption
		header     string        // header name; "" is the default
		value      string        // "" leaves the header out
		ctxTimeout time.Duration // a deadline already on the request, 0 none
		wantStatus int           // 0: the handler answers
		wantBudget time.Duration // handler's deadline from now; -1 none
		check      func(time.Duration) bool
	}{
		{name: "absent: no deadline", wantBudget: -1},
		{name: "budget becomes the deadline", value: "250", wantBudget: 250 * time.Millisecond},
		{name: "zero answers 504", value: "0", wantStatus: http.StatusGatewayTimeout},
		{name: "negative answers 504", value: "-5", wantStatus: http.StatusGatewayTimeout},
		{name: "unparsable is ignored", value: "soon", wantBudget: -1},
		{name: "fraction is ignored", value: "1.5", wantBudget: -1},
		{name: "list is ignored", value: "100,200", wantBudget: -1},
		{name: "unparsable keeps an existing deadline", value: "x", ctxTimeout: time.Second, wantBudget: time.Second},
		{name: "earlier existing deadline wins", value: "5000", ctxTimeout: time.Second, wantBudget: time.Second},
		{name: "earlier header wins", value: "300", ctxTimeout: time.Second, wantBudget: 300 * time.Millisecond},
		{name: "maximum caps the budget", opts: []DeadlineOption{WithMaxDeadline(100 * time.Millisecond)}, value: "250", wantBudget: 100 * time.Millisecond},
		{name: "maximum leaves smaller budgets", opts: []DeadlineOption{WithMaxDeadline(time.Second)}, value: "250", wantBudget: 250 * time.Millisecond},
		{name: "maximum does not apply without the header", opts: []DeadlineOption{WithMaxDeadline(time.Second)}, wantBudget: -1},
		{name: "custom header", opts: []DeadlineOption{WithDeadlineHeader("x-budget-ms")}, header: "X-Budget-Ms", value: "70", wantBudget: 70 * time.Millisecond},
		{name: "custom header ignores the default one", opts: []DeadlineOption{WithDeadlineHeader("X-Budget-Ms")}, value: "70", wantBudget: -1},
		{name: "huge value is capped by default", value: "99999999999999999999999", wantBudget: DefaultMaxDeadline},
		{name: "2,562,047 hours is capped by default", value: "9223372036854", wantBudget: DefaultMaxDeadline},
		{name: "a budget below the default cap is kept", value: "240000", wantBudget: 4 * time.Minute},
		{name: "zero maximum is the default cap", opts: []DeadlineOption{WithMaxDeadline(0)}, value: "600000", wantBudget: DefaultMaxDeadline},
		{name: "no cap: huge value does not overflow", opts: []DeadlineOption{WithMaxDeadline(-1)}, value: "99999999999999999999999",
			check: func(d time.Duration) bool { return d > 100*365*24*time.Hour && d < far }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				called := false
				budget := time.Duration(-1)
				h := DeadlineMiddleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					called = true
					if dl, ok := r.Context().Deadline(); ok {
						budget = time.Until(dl)
					}
				}), tt.opts...)
				r := httptest.NewRequest(http.MethodGet, "/pets/7", nil)
				if tt.value != "" {
					name := tt.header
					if name == "" {
						name = DefaultDeadlineHeader
					}
					r.Header.Set(name, tt.value)
				}
				if tt.ctxTimeout > 0 {
					ctx, cancel := context.WithTimeout(r.Context(), tt.ctxTimeout)
					defer cancel()
					r = r.WithContext(ctx)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)

				if tt.wantStatus != 0 {
					if called || w.Code != tt.wantStatus {
						t.Errorf("status %d, handler called %v; want %d without calling the handler", w.Code, called, tt.wantStatus)
					}
					return
				}
				if !called || w.Code != http.StatusOK {
					t.Fatalf("status %d, handler called %v; want the handler's answer", w.Code, called)
				}
				if tt.check != nil {
					if !tt.check(budget) {
						t.Errorf("handler deadline in %v", budget)
					}
				} else if budget != tt.wantBudget {
					t.Errorf("handler deadline in %v, want %v", budget, tt.wantBudget)
				}
			})
		})
	}
}

// TestDefaultDeadlineHeaderMatchesClient: the middleware reads by default
// the header the runtime's HTTP client sends by default.
func TestDefaultDeadlineHeaderMatchesClient(t *testing.T) {
	if DefaultDeadlineHeader != runtime.DefaultDeadlineHeader {
		t.Errorf("server reads %q, clients send %q", DefaultDeadlineHeader, runtime.DefaultDeadlineHeader)
	}
}
