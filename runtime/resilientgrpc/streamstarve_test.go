package resilientgrpc_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// TestOpenStreamsDoNotDelayUnary: 100 server streams held open on one
// dependency (default policy: 32 permits) leave its unary calls alone:
// every stream opens, none holds a permit once open, and 20 concurrent
// unary calls, each served in 5 ms, take exactly as long with the streams
// open as without them, on the fake clock of testing/synctest (so that
// the comparison measures the pipeline, not the machine's load).
func TestOpenStreamsDoNotDelayUnary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const serve = 5 * time.Millisecond
		s := &echoServer{
			unary: func(_ context.Context, _ int, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
				time.Sleep(serve)
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
		cc := serveBufconn(t, s)
		d, err := runtime.NewDependency(service, runtime.DependencyPolicy{})
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
		const streams, callers = 100, 20
		// latencies runs callers concurrent unary calls and returns each
		// one's latency.
		latencies := func() []time.Duration {
			lat := make([]time.Duration, callers)
			var wg sync.WaitGroup
			for i := range callers {
				wg.Go(func() {
					start := time.Now()
					if _, err := resilientgrpc.Invoke[wrapperspb.StringValue](t.Context(), cc, unary, unaryMethod, wrapperspb.String("x")); err != nil {
						t.Errorf("unary call: %v", err)
					}
					lat[i] = time.Since(start)
				})
			}
			wg.Wait()
			return lat
		}
		without := latencies()

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
		if got := d.InFlight(); got != 0 {
			t.Errorf("InFlight() = %d with %d streams open, want 0", got, streams)
		}
		with := latencies()
		cancel()
		wg.Wait()

		slices.Sort(without)
		slices.Sort(with)
		if !slices.Equal(without, with) || with[callers-1] != serve {
			t.Errorf("unary latencies with %d streams open %v, without %v; want both %v", streams, with, without, serve)
		}
	})
}
