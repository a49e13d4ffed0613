package resilientgrpc_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
)

// TestGuessedTimeoutCallerDeadlineOverGRPC: over loopback, a caller's
// 30 s deadline on a method whose 2 s total is a guess reaches the server
// as a grpc-timeout of about 30 s; a declared 2 s total still caps it.
func TestGuessedTimeoutCallerDeadlineOverGRPC(t *testing.T) {
	for _, tt := range []struct {
		name     string
		keep     bool
		min, max time.Duration
	}{
		{name: "guess", keep: true, min: 29 * time.Second, max: 30 * time.Second},
		{name: "declared", keep: false, min: 1900 * time.Millisecond, max: 2 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &echoServer{unary: func(_ context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
				return in, nil
			}}
			cc := serveLoopback(t, s)
			op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.ReadOnly,
				Timeout: 2 * time.Second, KeepCallerDeadline: tt.keep})
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			if _, err := call(ctx, cc, op); err != nil {
				t.Fatal(err)
			}
			starts, deadlines := s.record()
			if len(deadlines) != 1 || deadlines[0].IsZero() {
				t.Fatalf("server saw deadlines %v, want one", deadlines)
			}
			if got := deadlines[0].Sub(starts[0]); got < tt.min || got > tt.max {
				t.Errorf("the server saw a deadline %v away, want %v to %v", got, tt.min, tt.max)
			}
		})
	}
}
