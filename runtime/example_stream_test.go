package runtime_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/stream"
)

// DoHTTPStream returns once the response header is in; the events are
// read after, each as soon as it arrives, and the stream's end gives the
// bulkhead permit back.
func ExampleDoHTTPStream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: price\ndata: {\"sku\":\"a\",\"cents\":120}\n\n")
		w.(http.Flusher).Flush()
		io.WriteString(w, "event: price\nid: 2\ndata: {\"sku\":\"b\",\"cents\":99}\n\n")
	}))
	defer srv.Close()
	dep, _ := runtime.NewDependency("prices", runtime.DependencyPolicy{}, runtime.WithLogger(slog.New(slog.DiscardHandler)))
	watch, _ := dep.Operation(runtime.OperationPolicy{Name: "WatchPrices", Idempotency: runtime.ReadOnly,
		Timeout: time.Second, AttemptTimeout: 200 * time.Millisecond})
	hc := &runtime.HTTPClient{Doer: srv.Client()}

	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/prices", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := runtime.DoHTTPStream(context.Background(), watch, hc, req, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	type price struct {
		SKU   string `json:"sku"`
		Cents int    `json:"cents"`
	}
	for ev, err := range stream.NewEvents[price](resp, nil).All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %q: %s %d\n", ev.Type, ev.ID, ev.Data.SKU, ev.Data.Cents)
	}
	fmt.Println("permits held:", dep.InFlight())
	// Output:
	// price "": a 120
	// price "2": b 99
	// permits held: 0
}
