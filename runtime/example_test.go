package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// A dependency is made once per remote service and kept; zero fields of
// its policy take the package defaults.
func ExampleNewDependency() {
	dep, err := runtime.NewDependency("inventory", runtime.DependencyPolicy{
		Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 64},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := dep.Policy()
	fmt.Printf("bulkhead %d, breaker opens at %v%% of %d calls, open %v, retry budget %v%%\n",
		p.Bulkhead.MaxConcurrent, p.Breaker.FailureRate, p.Breaker.MinimumCalls, p.Breaker.OpenFor, p.Budget.Ratio*100)

	_, err = runtime.NewDependency("inventory", runtime.DependencyPolicy{Breaker: runtime.BreakerPolicy{FailureRate: 150}})
	fmt.Println(err)
	// Output:
	// bulkhead 64, breaker opens at 50% of 20 calls, open 30s, retry budget 10%
	// resilient: dependency "inventory": breaker failure rate 150% is outside (0, 100]
}

// Do runs any call through the pipeline: here an idempotent read that
// fails once with a transient error and then succeeds, and a rejection
// by the dependency, which is never retried.
func ExampleDo() {
	dep, _ := runtime.NewDependency("inventory", runtime.DependencyPolicy{}, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	getStock, _ := dep.Operation(runtime.OperationPolicy{
		Name:        "GetStock",
		Idempotency: runtime.ReadOnly,
		Timeout:     time.Second,
		Retry:       runtime.RetryPolicy{Base: time.Millisecond},
	})

	attempts := 0
	stock, err := runtime.Do(context.Background(), getStock, "sku-1", func(ctx context.Context) (int, error) {
		attempts++
		if attempts == 1 {
			return 0, &runtime.RemoteError{Status: 503, Class: outcome.Transient}
		}
		return 42, nil
	})
	fmt.Println(stock, err, "after", attempts, "attempts")

	_, err = runtime.Do(context.Background(), getStock, "sku-2", func(ctx context.Context) (int, error) {
		return 0, &runtime.RemoteError{Status: 404, Code: "Not Found", Class: outcome.Rejected}
	})
	var ce *runtime.CallError
	var re *runtime.RemoteError
	if errors.As(err, &ce) && errors.As(err, &re) {
		fmt.Printf("%s %s: %v after %d attempt, status %d\n", ce.Dependency, ce.Operation, ce.End, ce.Attempts, re.Status)
	}
	// Output:
	// 42 <nil> after 2 attempts
	// inventory GetStock: attempt failed after 1 attempt, status 404
}

// DoHTTP sends an HTTP request through the pipeline and decodes the
// answer; a status outside 2xx comes back as a *RemoteError inside the
// call's *CallError.
func ExampleDoHTTP() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/pets/7" {
			http.Error(w, "no such pet", http.StatusNotFound)
			return
		}
		fmt.Fprint(w, `{"id":7,"name":"Rex"}`)
	}))
	defer srv.Close()

	dep, _ := runtime.NewDependency("pets", runtime.DependencyPolicy{})
	getPet, _ := dep.Operation(runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second})
	transport := runtime.NewTransport(0, 0)
	defer transport.CloseIdleConnections()
	client := &runtime.HTTPClient{Doer: runtime.NewHTTPClient(transport)}
	type pet struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	decode := func(resp *http.Response) (pet, error) {
		var p pet
		err := json.NewDecoder(resp.Body).Decode(&p)
		return p, err
	}

	for _, path := range []string{"/pets/7", "/pets/8"} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+path, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		p, err := runtime.DoHTTP(context.Background(), getPet, client, req, decode, nil)
		var re *runtime.RemoteError
		switch {
		case err == nil:
			fmt.Printf("%d %s\n", p.ID, p.Name)
		case errors.As(err, &re):
			fmt.Println(re.Status, re.Message, "after", re.Attempts, "attempt")
		default:
			fmt.Println(err)
		}
	}
	// Output:
	// 7 Rex
	// 404 no such pet after 1 attempt
}
