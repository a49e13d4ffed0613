// Command quickstart shows the resilient pipeline at work against a flaky
// dependency, all in one process: it starts an HTTP server on loopback that
// is healthy, then down (503), then healthy again, calls it through
// runtime.DoHTTP with a policy written the way teams write it, and prints
// the resilience review of that policy and what callers saw in each phase.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// policyFile is the policy of the "inventory" dependency, with the latency
// measured for it; timeouts and the bulkhead are derived from it.
const policyFile = `
dependencies:
  inventory:
    latency: {p50: 5ms, p95: 15ms, p99: 30ms, p999: 60ms, rps: 400}
    breaker: {failureRate: 50, minimumCalls: 20, window: 2s, openFor: 1s, halfOpenProbes: 3}
    operations:
      GetStock:
        fallback: {kind: cached, ttl: 1m}
`

// phase is one stretch of the run with the server in one mode.
type phase struct {
	name string
	down bool
	dur  time.Duration
}

var phases = []phase{
	{"healthy", false, 1500 * time.Millisecond},
	{"down (503)", true, 3 * time.Second},
	{"recovered", false, 2 * time.Second},
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(out io.Writer) error {
	dep, op, review, err := resolve()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, review)

	srv, err := newFlakyServer()
	if err != nil {
		return err
	}
	defer srv.close()

	client := &runtime.HTTPClient{Doer: &http.Client{Transport: runtime.NewTransport(op.ConnectTimeout(), dep.Policy().Bulkhead.MaxConcurrent)}}
	var rows []phaseResult
	for _, p := range phases {
		srv.down.Store(p.down)
		before := srv.requests.Load()
		fmt.Fprintf(out, "phase %-12s running for %v ...\n", p.name, p.dur)
		r := load(op, client, srv.url, p.dur)
		r.phase = p.name
		r.requests = srv.requests.Load() - before
		r.breaker = dep.BreakerState()
		rows = append(rows, r)
	}
	fmt.Fprintln(out)
	printResults(out, rows)
	return nil
}

// resolve turns the policy file into the runtime's dependency and operation.
func resolve() (*runtime.Dependency, *runtime.Operation, string, error) {
	file, err := policyspec.DecodeFile("policy.yaml", []byte(policyFile))
	if err != nil {
		return nil, nil, "", err
	}
	rd, err := policyspec.ResolveDependency("inventory", file.DependencyLayers("inventory")...)
	if err != nil {
		return nil, nil, "", err
	}
	ro, err := rd.ResolveOperation("GetStock", runtime.ReadOnly, file.OperationLayers("inventory", "GetStock")...)
	if err != nil {
		return nil, nil, "", err
	}
	review := policyspec.RenderReview("quickstart", []policyspec.ReviewDependency{{Dependency: rd, Protocol: "HTTP", Operations: []*policyspec.Operation{ro}}}, policyspec.ReviewPerOperation)
	dep, err := runtime.NewDependency("inventory", rd.Policy, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return nil, nil, "", err
	}
	op, err := dep.Operation(ro.Policy)
	if err != nil {
		return nil, nil, "", err
	}
	return dep, op, review, nil
}

// stock is the dependency's answer.
type stock struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// phaseResult is what callers saw during one phase.
type phaseResult struct {
	phase                                 string
	calls, ok, degraded, fastFail, failed int
	requests                              int64
	latencies                             []time.Duration
	breaker                               runtime.BreakerState
}

// load calls the dependency from 8 goroutines for d.
func load(op *runtime.Operation, client *runtime.HTTPClient, url string, d time.Duration) phaseResult {
	var (
		mu  sync.Mutex
		res phaseResult
		wg  sync.WaitGroup
	)
	stop := time.Now().Add(d)
	for w := range 8 {
		wg.Go(func() {
			sku := fmt.Sprintf("sku-%d", w)
			for time.Now().Before(stop) {
				start := time.Now()
				err := getStock(op, client, url, sku)
				el := time.Since(start)
				mu.Lock()
				res.calls++
				res.latencies = append(res.latencies, el)
				switch {
				case err == nil:
					res.ok++
				case runtime.IsDegraded(err):
					res.degraded++
				case errors.Is(err, runtime.ErrCircuitOpen), errors.Is(err, runtime.ErrBulkheadFull), errors.Is(err, runtime.ErrBudgetExhausted):
					res.fastFail++
				default:
					res.failed++
				}
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	return res
}

func getStock(op *runtime.Operation, client *runtime.HTTPClient, url, sku string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/stock/"+sku, nil)
	if err != nil {
		return err
	}
	_, err = runtime.DoHTTP(ctx, op, client, req, func(resp *http.Response) (stock, error) {
		var s stock
		err := json.NewDecoder(resp.Body).Decode(&s)
		return s, err
	}, nil)
	return err
}

func printResults(out io.Writer, rows []phaseResult) {
	fmt.Fprintln(out, "## What callers saw")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "phase\tcalls\tok\tdegraded (cached)\tfailed fast\tfailed\trequests/call\tp50\tp99\tbreaker at end")
	for _, r := range rows {
		slices.Sort(r.latencies)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2f\t%v\t%v\t%v\n", r.phase, r.calls, r.ok, r.degraded, r.fastFail, r.failed,
			float64(r.requests)/float64(max(r.calls, 1)), quantile(r.latencies, 0.50), quantile(r.latencies, 0.99), r.breaker)
	}
	tw.Flush()
	fmt.Fprintln(out, "\nOnce half the calls in the breaker's 2 s window fail (20 calls at least), it opens:")
	fmt.Fprintln(out, "callers get the last good stock level, marked degraded, in microseconds instead of")
	fmt.Fprintln(out, "waiting on a failing server, and retries stay within the budget. After the open")
	fmt.Fprintln(out, "period, probes close it again once the server is back.")
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1))].Round(time.Microsecond)
}

// flakyServer is the dependency: it answers stock levels, or 503 while down.
type flakyServer struct {
	url      string
	srv      *http.Server
	down     atomic.Bool
	requests atomic.Int64
}

func newFlakyServer() (*flakyServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &flakyServer{url: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		if s.down.Load() {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		time.Sleep(2 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(stock{SKU: r.URL.Path[len("/stock/"):], Quantity: 7})
	}), ReadHeaderTimeout: time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *flakyServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
}
