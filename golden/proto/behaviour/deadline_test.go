package behaviour

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// TestGuessedTimeoutKeepsCallerDeadline: Add declares no timeout, so its
// 2s total is a guess. Over loopback, a caller's 30 s deadline reaches the
// server as a grpc-timeout of about 30 s, and a call without a deadline
// gets the guessed 2 s; Get's declared 2 s total still caps a caller's
// 30 s.
func TestGuessedTimeoutKeepsCallerDeadline(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	s := &server{}
	RegisterCounterServer(gs, s)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	// Get without its attempt timeout, so that its one attempt carries
	// the whole total.
	c := NewResilientCounterClient(cc, WithCounterPolicy(func(p *CounterPolicy) { p.Get.AttemptTimeout = 0 }))
	seen := func() time.Duration {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.deadline
	}

	for _, tt := range []struct {
		name     string
		call     func(context.Context) error
		caller   time.Duration // zero: no deadline
		min, max time.Duration
	}{
		{"guess, caller 30s", func(ctx context.Context) error { _, err := c.Add(ctx, &Request{}); return err }, 30 * time.Second, 29 * time.Second, 30 * time.Second},
		{"guess, no caller deadline", func(ctx context.Context) error { _, err := c.Add(ctx, &Request{}); return err }, 0, 1900 * time.Millisecond, 2 * time.Second},
		{"declared, caller 30s", func(ctx context.Context) error { _, err := c.Get(ctx, &Request{}); return err }, 30 * time.Second, 1900 * time.Millisecond, 2 * time.Second},
	} {
		ctx := t.Context()
		if tt.caller > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, tt.caller)
			defer cancel()
		}
		if err := tt.call(ctx); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := seen(); got < tt.min || got > tt.max {
			t.Errorf("%s: the server saw a deadline %v away, want %v to %v", tt.name, got, tt.min, tt.max)
		}
	}
}
