package petstore

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/resilientgo/resilient/runtime/server"
)

// TestGuessedTimeoutKeepsCallerDeadline: CreatePets declares no timeout,
// so its 2s total is a guess. Over loopback, to a server behind
// server.DeadlineMiddleware, a caller's 30 s deadline arrives as about
// 30 s, and a call without a deadline gets the guessed 2 s. The spec does
// not declare that its server reads the deadline header, so none is sent
// unless WithDeadlineHeader names it.
func TestGuessedTimeoutKeepsCallerDeadline(t *testing.T) {
	if p := DefaultPolicy().CreatePets; !p.KeepCallerDeadline || p.Timeout != 2*time.Second {
		t.Fatalf("CreatePets' policy %+v: want a guessed 2s total that keeps the caller's deadline", p)
	}
	seen := make(chan time.Duration, 1)
	srv := httptest.NewServer(server.DeadlineMiddleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := r.Context().Deadline(); ok {
			seen <- time.Until(d)
		} else {
			seen <- 0
		}
		w.WriteHeader(http.StatusCreated)
	})))
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		name     string
		opts     []Option
		caller   time.Duration // zero: no deadline
		min, max time.Duration
	}{
		{"caller 30s, header declared by the caller", []Option{WithDeadlineHeader("X-Request-Deadline")}, 30 * time.Second, 29 * time.Second, 30 * time.Second},
		{"no caller deadline", []Option{WithDeadlineHeader("X-Request-Deadline")}, 0, 1900 * time.Millisecond, 2 * time.Second},
		{"caller 30s, no header", nil, 30 * time.Second, 0, 0},
	} {
		c, err := NewClient(srv.URL, tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		if tt.caller > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, tt.caller)
			defer cancel()
		}
		if err := c.CreatePets(ctx, Pet{ID: 1, Name: "Rex"}); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		// The server's deadline comes from the header only: none (0)
		// without it.
		if got := <-seen; got < tt.min || got > tt.max {
			t.Errorf("%s: the server saw a deadline %v away, want %v to %v", tt.name, got, tt.min, tt.max)
		}
	}
}
