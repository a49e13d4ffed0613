package route_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/route"
)

// A route transport under a plain http.Client: the GET matches its route
// and is retried past a 503; a path no route knows is refused.
func ExampleTransport() {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls++; calls == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{"id":"7"}`)
	}))
	defer srv.Close()
	dep, _ := runtime.NewDependency("petstore", runtime.DependencyPolicy{}, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	getPet, _ := dep.Operation(runtime.OperationPolicy{Name: "getPet", Idempotency: runtime.ReadOnly,
		Timeout: time.Second, Retry: runtime.RetryPolicy{Base: time.Millisecond}})
	rt, err := route.New([]route.Route{
		{Method: http.MethodGet, Path: "/pets/{id}", Operation: getPet},
	}, route.Options{Base: srv.Client().Transport})
	if err != nil {
		fmt.Println(err)
		return
	}
	client := &http.Client{Transport: rt}

	resp, err := client.Get(srv.URL + "/pets/7")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, string(body), "after", calls, "requests")

	_, err = client.Get(srv.URL + "/owners")
	fmt.Println(err != nil, errors.Is(err, route.ErrUnmatched))
	// Output:
	// 200 {"id":"7"} after 2 requests
	// true true
}
