package runtimebench_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/budget"
	"github.com/failsafe-go/failsafe-go/bulkhead"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/failsafe-go/failsafe-go/timeout"
	"github.com/sony/gobreaker/v2"
	"golang.org/x/time/rate"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/codec"
	"github.com/resilientgo/resilient/runtime/fleetstore"
)

// The success-path overhead of one call through the pipeline, beside its
// baselines, so that one run compares them:
//
//	go test ./internal/runtimebench -run '^$' -bench 'Call|HTTP' -benchmem -count 6
//
// Every arm uses the same policy values and the same attempt function.
// See runtime/BENCHMARKS.md for the results and how to read them.
const (
	benchTimeout     = time.Second
	benchBulkhead    = 64
	benchMaxWait     = 10 * time.Millisecond
	benchFailureRate = 50 // percent
	benchMinCalls    = 20
	benchWindow      = 10 * time.Second
	benchBucket      = time.Second
	benchOpenFor     = 30 * time.Second
	benchProbes      = 5
	benchRetries     = 2
	benchBase        = 100 * time.Millisecond
	benchCap         = 2 * time.Second
	benchBudgetRatio = 0.10
)

// benchAttempt is the attempt of every arm: it succeeds at once.
func benchAttempt(context.Context) (int, error) { return 42, nil }

// benchSink keeps results alive so the compiler cannot drop the calls.
var benchSink atomic.Int64

// caller is one arm of the comparison: it makes one call with attempt.
type caller func(ctx context.Context, attempt func(context.Context) (int, error)) (int, error)

func BenchmarkCall(b *testing.B) {
	for _, arm := range benchArms(b) {
		b.Run(arm.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			var sum int64
			for b.Loop() {
				v, err := arm.call(ctx, benchAttempt)
				if err != nil {
					b.Fatal(err)
				}
				sum += int64(v)
			}
			benchSink.Add(sum)
		})
	}
}

func BenchmarkCallParallel(b *testing.B) {
	for _, arm := range benchArms(b) {
		b.Run(arm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				var sum int64
				for pb.Next() {
					v, err := arm.call(ctx, benchAttempt)
					if err != nil {
						b.Error(err)
						return
					}
					sum += int64(v)
				}
				benchSink.Add(sum)
			})
		})
	}
}

type benchArm struct {
	name string
	call caller
}

// benchArms returns the four arms, each with fresh state.
func benchArms(b *testing.B) []benchArm {
	return []benchArm{
		{"bare", func(ctx context.Context, attempt func(context.Context) (int, error)) (int, error) {
			return attempt(ctx)
		}},
		{"minimal", newMinimal().call},
		{"resilient", newResilientCaller(b)},
		{"failsafe", newFailsafeCaller()},
		{"fleet", newFleetCaller(b)},
	}
}

// newFleetCaller is newResilientCaller with the breaker and budget shared
// through a fleet store (quietFleet: nothing of the store is on a call's
// path, so which store does not matter here).
func newFleetCaller(tb testing.TB) caller {
	op := benchOperation(tb, runtime.WithFleet(quietFleet{}))
	return func(ctx context.Context, attempt func(context.Context) (int, error)) (int, error) {
		return runtime.Do(ctx, op, "", attempt)
	}
}

// quietFleet is the fleet store of the fleet arm: a fleet whose breaker
// stays closed with nothing counted against it, and which grants every
// retry token a replica asks for, the state of a healthy fleet.
type quietFleet struct{}

// Sync answers a closed breaker and grants all of req's budget request.
func (quietFleet) Sync(ctx context.Context, req *fleetstore.Request) (fleetstore.Reply, error) {
	if err := ctx.Err(); err != nil {
		return fleetstore.Reply{}, err
	}
	return fleetstore.Reply{State: fleetstore.Closed, Granted: req.Budget.Want}, nil
}

// Watch notifies of nothing: the fleet's state never changes.
func (quietFleet) Watch(prefix, dependency string, notify func()) (stop func()) {
	return func() {}
}

// newResilientCaller returns calls through [runtime.Do] of an idempotent
// operation with the shared policy values.
func newResilientCaller(tb testing.TB) caller {
	op := benchOperation(tb)
	return func(ctx context.Context, attempt func(context.Context) (int, error)) (int, error) {
		return runtime.Do(ctx, op, "", attempt)
	}
}

func benchOperation(tb testing.TB, opts ...runtime.Option) *runtime.Operation {
	tb.Helper()
	opts = append([]runtime.Option{runtime.WithLogger(slog.New(slog.DiscardHandler))}, opts...)
	dep, err := runtime.NewDependency("bench", runtime.DependencyPolicy{
		Breaker: runtime.BreakerPolicy{
			FailureRate:    benchFailureRate,
			MinimumCalls:   benchMinCalls,
			Window:         benchWindow,
			OpenFor:        benchOpenFor,
			HalfOpenProbes: benchProbes,
		},
		Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: benchBulkhead, MaxWait: benchMaxWait},
		Budget:   runtime.BudgetPolicy{Ratio: benchBudgetRatio},
	}, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { dep.Close() })
	op, err := dep.Operation(runtime.OperationPolicy{
		Name:        "Get",
		Idempotency: runtime.Idempotent,
		Timeout:     benchTimeout,
		Retry:       runtime.RetryPolicy{MaxRetries: benchRetries, Base: benchBase, Cap: benchCap},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return op
}

// minimal is the hand-assembled pipeline, the least a call with these
// policies can cost: a context with the total timeout, a channel semaphore
// with a bounded wait, a gobreaker two-step breaker with the same settings
// as the runtime's, and one retry check.
type minimal struct {
	sem    chan struct{}
	cb     *gobreaker.TwoStepCircuitBreaker[struct{}]
	budget atomic.Int64  // retry budget in milli-retries, filled by calls
	floor  *rate.Limiter // retries allowed whatever the traffic
}

// Budget of the minimal pipeline: every call deposits the ratio, a retry
// costs one, the balance holds at most 100 retries; a floor of 10 retries
// a second serves low traffic.
const (
	minimalDeposit = benchBudgetRatio * 1000
	minimalRetry   = 1000
	minimalMax     = 100 * minimalRetry
)

var errMinimalFull = errors.New("bulkhead full")

func newMinimal() *minimal {
	return &minimal{
		sem:   make(chan struct{}, benchBulkhead),
		floor: rate.NewLimiter(10, 10),
		cb: gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
			Name:         "bench",
			MaxRequests:  benchProbes,
			Interval:     benchWindow,
			BucketPeriod: benchBucket,
			Timeout:      benchOpenFor,
			ReadyToTrip: func(c gobreaker.Counts) bool {
				return c.Requests >= benchMinCalls && c.TotalFailures*100 >= benchFailureRate*c.Requests
			},
		}),
	}
}

func (m *minimal) call(ctx context.Context, attempt func(context.Context) (int, error)) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, benchTimeout)
	defer cancel()
	select {
	case m.sem <- struct{}{}:
	default:
		t := time.NewTimer(benchMaxWait)
		select {
		case m.sem <- struct{}{}:
			t.Stop()
		case <-t.C:
			return 0, errMinimalFull
		case <-ctx.Done():
			t.Stop()
			return 0, ctx.Err()
		}
	}
	defer func() { <-m.sem }()
	if m.budget.Load() < minimalMax {
		m.budget.Add(minimalDeposit)
	}
	for retry := 0; ; retry++ {
		done, err := m.cb.Allow()
		if err != nil {
			return 0, err
		}
		v, err := attempt(ctx)
		done(err)
		if err == nil {
			return v, nil
		}
		// The one retry check: attempts left, time left, budget left.
		if retry >= benchRetries || ctx.Err() != nil || !m.withdraw() {
			return 0, err
		}
		select {
		case <-time.After(benchBase << retry):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// withdraw takes one retry from the budget, or reports that it cannot.
func (m *minimal) withdraw() bool {
	if m.budget.Add(-minimalRetry) >= 0 {
		return true
	}
	m.budget.Add(minimalRetry)
	return m.floor.Allow()
}

// newFailsafeCaller returns calls through failsafe-go composed with the same
// policies, outermost first: timeout, bulkhead, retry (exponential backoff
// with jitter and a retry budget), circuit breaker. failsafe-go has no full
// jitter; a jitter factor of 1 spreads each delay over [0, 2·delay].
func newFailsafeCaller() caller {
	tmo := timeout.New[int](benchTimeout)
	bh := bulkhead.NewBuilder[int](benchBulkhead).WithMaxWaitTime(benchMaxWait).Build()
	rp := retrypolicy.NewBuilder[int]().
		WithMaxRetries(benchRetries).
		WithBackoff(benchBase, benchCap).
		WithJitterFactor(1).
		WithBudget(budget.NewBuilder().WithMaxRate(benchBudgetRatio).Build()).
		Build()
	cb := circuitbreaker.NewBuilder[int]().
		WithFailureRateThreshold(benchFailureRate/100.0, benchMinCalls, benchWindow).
		WithDelay(benchOpenFor).
		WithSuccessThreshold(benchProbes).
		Build()
	exec := failsafe.With[int](tmo, bh, rp, cb)
	return func(ctx context.Context, attempt func(context.Context) (int, error)) (int, error) {
		return exec.WithContext(ctx).GetWithExecution(func(e failsafe.Execution[int]) (int, error) {
			return attempt(e.Context())
		})
	}
}

// pet is the body the HTTP benchmark's server answers with.
type pet struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Tag  string `json:"tag"`
}

var benchBody = []byte(`{"id":7,"name":"Rex","tag":"dog"}`)

// decodePet is the decoding of both HTTP arms.
func decodePet(resp *http.Response) (pet, error) {
	var p pet
	err := json.NewDecoder(resp.Body).Decode(&p)
	return p, err
}

// newGetPet builds the request of both HTTP arms as a generated client
// does.
func newGetPet(ctx context.Context, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// getPet is the plain net/http arm: a GET decoded from JSON.
func getPet(ctx context.Context, client *http.Client, url string) (pet, error) {
	req, err := newGetPet(ctx, url)
	if err != nil {
		return pet{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return pet{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return pet{}, fmt.Errorf("status %d", resp.StatusCode)
	}
	return decodePet(resp)
}

// httpRig is the loopback set-up of the HTTP benchmarks: an httptest
// server on 127.0.0.1 answering a 33-byte JSON body, and one client for
// every arm. The client's transport is a clone of [http.DefaultTransport],
// as plain net/http uses, keeping as many idle connections as the bulkhead
// allows.
type httpRig struct {
	client *http.Client
	url    string
	op     *runtime.Operation
	hc     *runtime.HTTPClient
}

func newHTTPRig(b *testing.B) *httpRig {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(benchBody)
	}))
	b.Cleanup(srv.Close)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = benchBulkhead
	client := &http.Client{Transport: tr}
	b.Cleanup(client.CloseIdleConnections)
	return &httpRig{client: client, url: srv.URL + "/pets/7", op: benchOperation(b), hc: &runtime.HTTPClient{Doer: client}}
}

// An httpArm makes one GET of the rig, decoded, and checks the answer.
type httpArm func() error

// plain is the GET with plain client.Do under ctx.
func (r *httpRig) plain(ctx context.Context) error {
	return checkPet(getPet(ctx, r.client, r.url))
}

// resilient is the GET through runtime.DoHTTP under ctx: the pipeline, a
// shallow copy of the request per attempt and the deadline header.
func (r *httpRig) resilient(ctx context.Context) error {
	req, err := newGetPet(ctx, r.url)
	if err != nil {
		return err
	}
	return checkPet(runtime.DoHTTP(ctx, r.op, r.hc, req, decodePet, nil))
}

// arms returns the arms of the benchmarks:
//
//   - nethttp: plain client.Do, no deadline at all;
//   - nethttp-timeout: the least a client with a deadline does, the seed's
//     first example: context.WithTimeout around client.Do. net/http then
//     watches the context, which it does not without a deadline;
//   - resilient: runtime.DoHTTP from a context without a deadline; the
//     pipeline adds the operation's total timeout (1 s);
//   - resilient-timeout: runtime.DoHTTP under the same context as
//     nethttp-timeout, as a service calls a dependency while serving a
//     request that has a deadline; the pipeline keeps that deadline, the
//     earlier one, instead of making its own;
//   - resilient-bearer-timeout: resilient-timeout for an operation with a
//     bearer token (runtime.WithCredentials), applied to a copy of the
//     request's header and URL.
func (r *httpRig) arms() map[string]httpArm {
	withTimeout := func(call func(context.Context) error) httpArm {
		return func() error {
			ctx, cancel := context.WithTimeout(context.Background(), benchTimeout)
			defer cancel()
			return call(ctx)
		}
	}
	bearer := &httpRig{client: r.client, url: r.url, hc: r.hc,
		op: r.op.With(runtime.WithCredentials([]runtime.Credential{{Scheme: "bearerAuth",
			Apply: codec.BearerToken(func(context.Context) (string, error) { return "token", nil })}}))}
	return map[string]httpArm{
		"nethttp":                  func() error { return r.plain(context.Background()) },
		"nethttp-timeout":          withTimeout(r.plain),
		"resilient":                func() error { return r.resilient(context.Background()) },
		"resilient-timeout":        withTimeout(r.resilient),
		"resilient-bearer-timeout": withTimeout(bearer.resilient),
	}
}

func checkPet(p pet, err error) error {
	if err == nil && p.ID != 7 {
		err = fmt.Errorf("got pet %d, want 7", p.ID)
	}
	return err
}

// BenchmarkCallPaired compares the pipeline with the least a call with the
// same policies can cost, interleaved in blocks of calls as
// BenchmarkHTTPPaired does, so that a load spike on a shared machine hits
// both arms alike: base-ns/call is minimal, arm-ns/call resilient, and
// overhead-% the median of resilient over minimal, less one, per pair of
// blocks.
func BenchmarkCallPaired(b *testing.B) {
	ctx := context.Background()
	arm := func(call caller) httpArm {
		return func() error {
			v, err := call(ctx, benchAttempt)
			benchSink.Add(int64(v))
			return err
		}
	}
	pairedBlocks(b, arm(newMinimal().call), arm(newResilientCaller(b)))
}

// BenchmarkCallFleetPaired is [BenchmarkCallPaired] for the fleet arm
// against the local pipeline (resilient): what sharing the breaker and
// the budget costs a successful call.
func BenchmarkCallFleetPaired(b *testing.B) {
	ctx := context.Background()
	arm := func(call caller) httpArm {
		return func() error {
			v, err := call(ctx, benchAttempt)
			benchSink.Add(int64(v))
			return err
		}
	}
	pairedBlocks(b, arm(newResilientCaller(b)), arm(newFleetCaller(b)))
}

// BenchmarkHTTP measures each loopback arm on its own (see
// [httpRig.arms]).
func BenchmarkHTTP(b *testing.B) {
	arms := newHTTPRig(b).arms()
	for _, name := range []string{"nethttp", "nethttp-timeout", "resilient", "resilient-timeout"} {
		call := arms[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// httpBlock is the number of calls of one arm between two switches of
// BenchmarkHTTPPaired.
const httpBlock = 500

// BenchmarkHTTPPaired compares two arms in the same process, interleaved:
// blocks of [httpBlock] calls of each, in the order A B B A A B... A load
// spike on a shared machine then hits both alike, where separate
// benchmarks can each land in a different minute. A garbage collection
// starts when the bytes allocated since the last one reach a threshold, so
// it falls in a block with a chance proportional to what that block
// allocates: each arm pays for collections in proportion to its
// allocations. One iteration is one call of each arm; the metrics are
// medians over the blocks: the cost of a call of the baseline
// (base-ns/call) and of the arm (arm-ns/call), and overhead-%, the arm's
// time over the baseline's in each pair of blocks, less one.
//
//   - caller-deadline: resilient-timeout against nethttp-timeout. Both
//     calls honour the same deadline: the cost of the pipeline and the
//     deadline header.
//   - no-deadline: resilient against nethttp. The plain call has no
//     deadline at all; the resilient one also pays for the deadline it
//     adds.
//   - deadline-only: nethttp-timeout against nethttp, what a deadline alone
//     costs plain net/http.
//   - bearer-token: resilient-bearer-timeout against resilient-timeout,
//     what a credential applied on every attempt costs.
func BenchmarkHTTPPaired(b *testing.B) {
	arms := newHTTPRig(b).arms()
	for _, pair := range []struct{ name, base, arm string }{
		{"caller-deadline", "nethttp-timeout", "resilient-timeout"},
		{"no-deadline", "nethttp", "resilient"},
		{"deadline-only", "nethttp", "nethttp-timeout"},
		{"bearer-token", "resilient-timeout", "resilient-bearer-timeout"},
	} {
		b.Run(pair.name, func(b *testing.B) { pairedBlocks(b, arms[pair.base], arms[pair.arm]) })
	}
}

// pairedBlocks runs b.N calls of base and of arm interleaved in blocks and
// reports the medians described at [BenchmarkHTTPPaired], and cpu-%, the
// arm's process CPU time (user and system, all threads, the in-process
// server's included) over the baseline's, less one, summed over all blocks:
// on a machine shared with other work, time spent waiting for a core does
// not count there.
func pairedBlocks(b *testing.B, base, arm httpArm) {
	calls := [2]httpArm{base, arm}
	var perCall [2][]float64
	var overhead []float64
	var cpu [2]time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for done, pair := 0, 0; done < b.N; pair++ {
		n := min(httpBlock, b.N-done)
		var took [2]time.Duration
		for i := range 2 {
			which := i ^ pair&1
			cpuStart := processCPU()
			start := time.Now()
			for range n {
				if err := calls[which](); err != nil {
					b.Fatal(err)
				}
			}
			took[which] = time.Since(start)
			cpu[which] += processCPU() - cpuStart
		}
		for which := range 2 {
			perCall[which] = append(perCall[which], float64(took[which])/float64(n))
		}
		overhead = append(overhead, (float64(took[1])/float64(took[0])-1)*100)
		done += n
	}
	b.ReportMetric(median(perCall[0]), "base-ns/call")
	b.ReportMetric(median(perCall[1]), "arm-ns/call")
	b.ReportMetric(median(overhead), "overhead-%")
	b.ReportMetric((float64(cpu[1])/float64(cpu[0])-1)*100, "cpu-%")
}

// processCPU returns the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

// TestBenchArms checks that every arm answers the attempt's value and
// really retries a failing attempt, so that the benchmarks compare pipelines
// doing the same work. It runs in a synctest bubble: backoffs take no time.
func TestBenchArms(t *testing.T) {
	for _, name := range []string{"minimal", "resilient", "failsafe", "fleet"} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var call caller
				switch name {
				case "minimal":
					call = newMinimal().call
				case "resilient":
					call = newResilientCaller(t)
				case "failsafe":
					call = newFailsafeCaller()
				case "fleet":
					call = newFleetCaller(t)
				}
				if v, err := call(context.Background(), benchAttempt); v != 42 || err != nil {
					t.Fatalf("call = %d, %v, want 42, <nil>", v, err)
				}
				attempts := 0
				v, err := call(context.Background(), func(ctx context.Context) (int, error) {
					if attempts++; attempts == 1 {
						return 0, errors.New("connection reset")
					}
					return benchAttempt(ctx)
				})
				if v != 42 || err != nil || attempts != 2 {
					t.Fatalf("failing once: call = %d, %v after %d attempts, want 42, <nil> after 2", v, err, attempts)
				}
			})
		})
	}
}
