package behaviour

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// TestMain checks that no goroutine outlives the tests. Every test runs
// inside a testing/synctest bubble: the server listens on an in-memory
// bufconn listener, and the bubble's fake clock drives grpc-timeout,
// backoff, pushback and the bulkhead's wait, so durations are exact and
// nothing depends on the machine's speed.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// server is a Counter whose answers the test sets.
type server struct {
	UnimplementedCounterServer
	calls    atomic.Int64
	inFlight atomic.Int64
	maxSeen  atomic.Int64
	// answer returns the error of call n (from 1); nil answers.
	answer func(ctx context.Context, n int64) error
	// deadline is the remaining budget the last call saw.
	mu       sync.Mutex
	deadline time.Duration
	block    chan struct{}
}

func (s *server) handle(ctx context.Context) (*Reply, error) {
	n := s.calls.Add(1)
	cur := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxSeen.Load()
		if cur <= m || s.maxSeen.CompareAndSwap(m, cur) {
			break
		}
	}
	if d, ok := ctx.Deadline(); ok {
		s.mu.Lock()
		s.deadline = time.Until(d)
		s.mu.Unlock()
	}
	if s.block != nil {
		select {
		case <-s.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if s.answer != nil {
		if err := s.answer(ctx, n); err != nil {
			return nil, err
		}
	}
	return &Reply{N: n}, nil
}

func (s *server) Get(ctx context.Context, _ *Request) (*Reply, error) { return s.handle(ctx) }
func (s *server) Add(ctx context.Context, _ *Request) (*Reply, error) { return s.handle(ctx) }

func (s *server) Tail(_ *Request, st grpc.ServerStreamingServer[Reply]) error {
	for i := int64(1); i <= 3; i++ {
		if err := st.Send(&Reply{N: i}); err != nil {
			return err
		}
	}
	return nil
}

// start serves s on an in-memory listener and returns a resilient client
// of it; both are stopped at cleanup. Call it inside a synctest bubble.
func start(t *testing.T, s *server, opts ...CounterOption) CounterClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	RegisterCounterServer(gs, s)
	go gs.Serve(lis)
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	cc, err := grpc.NewClient("passthrough:///counter", append(resilientgrpc.DialOptions(),
		grpc.WithContextDialer(dial), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cc.Close()
		gs.Stop()
	})
	return NewResilientCounterClient(cc, opts...)
}

func unavailable(context.Context, int64) error { return status.Error(codes.Unavailable, "down") }

// broken answers INTERNAL: a hard failure, which the breaker counts (an
// UNAVAILABLE from the server is load shed, which the throttle handles).
func broken(context.Context, int64) error { return status.Error(codes.Internal, "broken") }

func TestIdempotentMethodRetriedUpToTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{answer: unavailable}
		c := start(t, s)
		_, err := c.Get(context.Background(), &Request{})
		if status.Code(err) != codes.Unavailable {
			t.Fatalf("Get: code = %v, want Unavailable (err %v)", status.Code(err), err)
		}
		if got := s.calls.Load(); got != 3 {
			t.Errorf("server saw %d calls, want 3 (1 + max_retries 2)", got)
		}
	})
}

func TestIdempotentMethodRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{answer: func(_ context.Context, n int64) error {
			if n < 3 {
				return status.Error(codes.Unavailable, "down")
			}
			return nil
		}}
		c := start(t, s)
		r, err := c.Get(context.Background(), &Request{})
		if err != nil || r.GetN() != 3 {
			t.Fatalf("Get = %v, %v; want N 3 after two retries", r, err)
		}
	})
}

func TestUnmarkedMethodNeverRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{answer: unavailable}
		c := start(t, s)
		if _, err := c.Add(context.Background(), &Request{}); status.Code(err) != codes.Unavailable {
			t.Fatalf("Add: %v, want Unavailable", err)
		}
		if got := s.calls.Load(); got != 1 {
			t.Errorf("server saw %d calls, want 1", got)
		}
	})
}

func TestServerDeadlineWithinCallerBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{}
		c := start(t, s)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if _, err := c.Get(ctx, &Request{}); err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		seen := s.deadline
		s.mu.Unlock()
		// No time passes on the fake clock: the caller's whole budget
		// arrives, and no more.
		if seen != 300*time.Millisecond {
			t.Errorf("server saw a budget of %v, want the caller's 300ms", seen)
		}
		// Without a caller deadline, the method's 2s timeout goes out.
		if _, err := c.Get(context.Background(), &Request{}); err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		seen = s.deadline
		s.mu.Unlock()
		if seen <= 0 || seen > 2*time.Second {
			t.Errorf("server saw a budget of %v, want at most the 2s timeout", seen)
		}
	})
}

func TestBreakerOpensAndFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{answer: broken}
		c := start(t, s)
		for i := 0; i < 4; i++ { // minimum_calls 4, failure_rate 50
			c.Add(context.Background(), &Request{})
		}
		before := s.calls.Load()
		start := time.Now()
		_, err := c.Add(context.Background(), &Request{})
		if !errors.Is(err, runtime.ErrCircuitOpen) {
			t.Fatalf("fifth call: %v, want ErrCircuitOpen", err)
		}
		if status.Code(err) != codes.Unavailable {
			t.Errorf("status.Code = %v, want Unavailable", status.Code(err))
		}
		if s.calls.Load() != before {
			t.Errorf("the server was called through an open breaker")
		}
		if el := time.Since(start); el != 0 {
			t.Errorf("failing fast took %v on the fake clock, want no wait", el)
		}
	})
}

func TestBulkheadBoundsConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{block: make(chan struct{})}
		c := start(t, s)
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.Add(context.Background(), &Request{})
			}()
		}
		synctest.Wait() // both calls are in the server
		if n := s.inFlight.Load(); n != 2 {
			t.Fatalf("%d calls in the server, want 2", n)
		}
		_, err := c.Add(context.Background(), &Request{})
		if !errors.Is(err, runtime.ErrBulkheadFull) {
			t.Errorf("third concurrent call: %v, want ErrBulkheadFull", err)
		}
		close(s.block)
		wg.Wait()
		if m := s.maxSeen.Load(); m > 2 {
			t.Errorf("server saw %d concurrent calls, bulkhead is 2", m)
		}
	})
}

func TestPushbackHonoured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{answer: func(ctx context.Context, n int64) error {
			if n == 1 {
				grpc.SetTrailer(ctx, metadata.Pairs("grpc-retry-pushback-ms", "80"))
				return status.Error(codes.Unavailable, "later")
			}
			return nil
		}}
		// A pushback longer than the backoff cap is never waited for: raise
		// the cap for this client.
		c := start(t, s, WithCounterPolicy(func(p *CounterPolicy) { p.Get.Retry.Cap = 200 * time.Millisecond }))
		begin := time.Now()
		if _, err := c.Get(context.Background(), &Request{}); err != nil {
			t.Fatal(err)
		}
		if el := time.Since(begin); el != 80*time.Millisecond {
			t.Errorf("retried after %v, want the 80ms pushback exactly", el)
		}
		if s.calls.Load() != 2 {
			t.Errorf("server saw %d calls, want 2", s.calls.Load())
		}
	})
}

func TestCallPolicyOverride(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{answer: unavailable}
		c := start(t, s)
		c.Get(context.Background(), &Request{}, resilientgrpc.CallPolicy(runtime.WithoutRetries()))
		if got := s.calls.Load(); got != 1 {
			t.Errorf("server saw %d calls with retries off for the call, want 1", got)
		}
	})
}

func TestServerStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{}
		c := start(t, s)
		st, err := c.Tail(context.Background(), &Request{})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for {
			r, err := st.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r.GetN())
		}
		if len(got) != 3 {
			t.Errorf("received %v, want 3 messages", got)
		}
	})
}

func TestInvalidPolicyFailsEveryCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &server{}
		c := start(t, s, WithCounterPolicy(func(p *CounterPolicy) { p.Add.Timeout = -time.Second }))
		if _, err := c.Add(context.Background(), &Request{}); err == nil {
			t.Fatal("Add with a negative timeout: no error")
		}
		if s.calls.Load() != 0 {
			t.Error("the server was called")
		}
	})
}

// attempts records the dependency and operation of every attempt.
type attempts struct {
	runtime.NopObserver
	mu   sync.Mutex
	seen []string
}

func (a *attempts) Attempt(e runtime.AttemptEvent) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, e.Dependency+" "+e.Operation)
}

// TestOptions: the options work as the HTTP client's do: a nil option is
// skipped, the observer sees every attempt under the dependency's name,
// which WithCounterDependencyName sets, and an invalid policy's error
// names the package.
func TestOptions(t *testing.T) {
	tests := []struct {
		name string
		opts []CounterOption
		want string
	}{
		{"the service's full name by default", nil, "golden.behaviour.Counter /golden.behaviour.Counter/Get"},
		{"the name given", []CounterOption{WithCounterDependencyName("counter-eu")}, "counter-eu /golden.behaviour.Counter/Get"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				obs := &attempts{}
				c := start(t, &server{}, append(tt.opts, nil, WithCounterObserver(obs))...)
				if _, err := c.Get(context.Background(), &Request{}); err != nil {
					t.Fatal(err)
				}
				obs.mu.Lock()
				defer obs.mu.Unlock()
				if len(obs.seen) != 1 || obs.seen[0] != tt.want {
					t.Errorf("attempts seen = %q, want [%q]", obs.seen, tt.want)
				}
			})
		})
	}
	synctest.Test(t, func(t *testing.T) {
		c := start(t, &server{}, WithCounterPolicy(func(p *CounterPolicy) { p.Dependency.Breaker.FailureRate = 200 }))
		if _, err := c.Get(context.Background(), &Request{}); err == nil || !strings.HasPrefix(err.Error(), "behaviour: ") {
			t.Errorf("Get with an invalid breaker policy: error %v, want one starting with the package name", err)
		}
	})
}
