package resilientgrpc_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// TestOpenStreamsDoNotDelayUnary: 100 server streams held open on one
// dependency (default policy: 32 permits) leave its unary calls alone.
// Every stream opens, no unary call is refused, and the unary calls' p99
// with the streams open stays within 10 % of their p99 without them, on
// loopback. The two arms alternate, round after round, and each arm's p99
// is the median of its rounds' p99s, so that a burst of load on a shared
// machine does not decide; the comparison is tried up to five times.
func TestOpenStreamsDoNotDelayUnary(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test on loopback: skipped with -short")
	}
	s := &echoServer{
		unary: func(_ context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
			return in, nil
		},
		list: func(_ int, in *wrapperspb.StringValue, ss grpc.ServerStream) error {
			if err := ss.SendMsg(in); err != nil {
				return err
			}
			<-ss.Context().Done()
			return ss.Context().Err()
		},
	}
	cc := serveLoopback(t, s)
	d, err := runtime.NewDependency(service, runtime.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	unary, err := d.Operation(runtime.OperationPolicy{Name: "Unary", Idempotency: runtime.ReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	list, err := d.Operation(runtime.OperationPolicy{Name: "List", Idempotency: runtime.ReadOnly})
	if err != nil {
		t.Fatal(err)
	}

	const streams, calls, rounds = 100, 300, 9
	// p99 runs calls unary calls one after another and returns their p99.
	// Each arm starts after the work of opening or ending the streams has
	// settled (window updates, resets, server goroutines), with a few
	// calls left uncounted.
	p99 := func(t *testing.T) time.Duration {
		time.Sleep(50 * time.Millisecond)
		lat := make([]time.Duration, 0, calls)
		for i := range calls + 20 {
			start := time.Now()
			if _, err := resilientgrpc.Invoke[wrapperspb.StringValue](t.Context(), cc, unary, unaryMethod, wrapperspb.String("x")); err != nil {
				t.Fatalf("unary call: %v", err)
			}
			if i >= 20 {
				lat = append(lat, time.Since(start))
			}
		}
		slices.Sort(lat)
		return lat[len(lat)*99/100]
	}
	// open opens the streams and returns the function that ends them.
	open := func(t *testing.T) func() {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		for i := range streams {
			st, err := resilientgrpc.ServerStream[wrapperspb.StringValue](ctx, cc, list, listDesc(), listMethod, wrapperspb.String("s"))
			if err != nil {
				cancel()
				t.Fatalf("stream %d of %d did not open: %v", i+1, streams, err)
			}
			if _, err := st.Recv(); err != nil {
				cancel()
				t.Fatalf("stream %d: first message: %v", i+1, err)
			}
			wg.Go(func() {
				for {
					if _, err := st.Recv(); err != nil {
						return
					}
				}
			})
		}
		return func() { cancel(); wg.Wait() }
	}

	var without, with time.Duration
	for try := range 5 {
		var a, b []time.Duration
		for r := range rounds {
			if r%2 == 0 {
				a = append(a, p99(t))
			}
			end := open(t)
			if got := d.InFlight(); got != 0 {
				t.Errorf("InFlight() = %d with %d streams open, want 0", got, streams)
			}
			b = append(b, p99(t))
			end()
			if r%2 == 1 {
				a = append(a, p99(t))
			}
		}
		slices.Sort(a)
		slices.Sort(b)
		without, with = a[len(a)/2], b[len(b)/2]
		t.Logf("try %d: unary p99 %v without streams, %v with %d open (rounds: %v / %v)", try+1, without, with, streams, a, b)
		if float64(with) <= 1.10*float64(without) {
			return
		}
	}
	t.Errorf("unary p99 with %d streams open = %v, more than 10 %% above %v without", streams, with, without)
}
