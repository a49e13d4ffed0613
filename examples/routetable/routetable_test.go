package routetable_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/examples/routetable"
	"github.com/resilientgo/resilient/examples/routetable/oapigen"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/route"
)

// flakyStore is a pet store whose first answers to each operation are
// scripted failures: fail[op] 503s, or slow[op] answers 1s late.
type flakyStore struct {
	mu   sync.Mutex
	fail map[string]int
	slow map[string]int
	seen map[string][]http.Header
}

func (s *flakyStore) handler() http.Handler {
	mux := http.NewServeMux()
	handle := func(pattern, op string, answer func(w http.ResponseWriter, r *http.Request)) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.seen[op] = append(s.seen[op], r.Header.Clone())
			fail, slow := s.fail[op] > 0, s.slow[op] > 0
			if fail {
				s.fail[op]--
			} else if slow {
				s.slow[op]--
			}
			s.mu.Unlock()
			switch {
			case fail:
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				json.NewEncoder(w).Encode(oapigen.Error{Code: 503, Message: "busy"})
				return
			case slow:
				select {
				case <-time.After(time.Second):
				case <-r.Context().Done():
					return
				}
			}
			w.Header().Set("Content-Type", "application/json")
			answer(w, r)
		})
	}
	handle("GET /pets/{id}", "getPet", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(oapigen.Pet{Id: r.PathValue("id"), Name: "Rex"})
	})
	handle("POST /pets", "createPet", func(w http.ResponseWriter, r *http.Request) {
		var p oapigen.NewPet
		json.NewDecoder(r.Body).Decode(&p)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(oapigen.Pet{Id: "9", Name: p.Name})
	})
	handle("POST /pets/{id}/adopt", "adoptPet", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(oapigen.Pet{Id: r.PathValue("id"), Name: "Rex"})
	})
	return mux
}

func newStore(fail, slow map[string]int) *flakyStore {
	return &flakyStore{fail: fail, slow: slow, seen: map[string][]http.Header{}}
}

// client returns the unmodified oapi-codegen client over the generated
// route transport, against srv.
func client(t *testing.T, srv *httptest.Server, opts ...routetable.Option) *oapigen.ClientWithResponses {
	t.Helper()
	tr := srv.Client().Transport.(*http.Transport)
	t.Cleanup(tr.CloseIdleConnections)
	rt, err := routetable.NewRouteTransport(srv.URL, tr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := oapigen.NewClientWithResponses(srv.URL, oapigen.WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestOapiCodegenClientGetsThePipeline: the same calls of the oapi-codegen
// client, with and without the route transport, against a store that
// fails the first attempts.
func TestOapiCodegenClientGetsThePipeline(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx := context.Background()

	t.Run("a read retried past two 503s", func(t *testing.T) {
		store := newStore(map[string]int{"getPet": 2}, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		resp, err := client(t, srv).GetPetWithResponse(ctx, "7")
		if err != nil || resp.JSON200 == nil || resp.JSON200.Name != "Rex" {
			t.Fatalf("GetPet = %v, %v; want Rex", resp, err)
		}
		if n := len(store.seen["getPet"]); n != 3 {
			t.Errorf("the store saw %d requests, want 3", n)
		}
		if d := store.seen["getPet"][0].Get(runtime.DefaultDeadlineHeader); d == "" {
			t.Errorf("no deadline header on the request")
		}
	})

	t.Run("a read cut at its attempt timeout and retried", func(t *testing.T) {
		store := newStore(nil, map[string]int{"getPet": 1})
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		start := time.Now()
		resp, err := client(t, srv).GetPetWithResponse(ctx, "7")
		if err != nil || resp.JSON200 == nil {
			t.Fatalf("GetPet = %v, %v", resp, err)
		}
		if took := time.Since(start); took > 900*time.Millisecond {
			t.Errorf("GetPet took %v: the slow attempt was not cut at 300ms", took)
		}
	})

	t.Run("a plain write is sent once, its 503 reaches the client", func(t *testing.T) {
		store := newStore(map[string]int{"adoptPet": 1}, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		resp, err := client(t, srv).AdoptPetWithResponse(ctx, "7")
		if err != nil || resp.StatusCode() != http.StatusServiceUnavailable {
			t.Fatalf("AdoptPet = %v, %v; want the 503", resp, err)
		}
		if !strings.Contains(string(resp.Body), "busy") {
			t.Errorf("the 503's body %q did not reach the client", resp.Body)
		}
		if n := len(store.seen["adoptPet"]); n != 1 {
			t.Errorf("the store saw %d requests, want 1", n)
		}
	})

	t.Run("a create retried with one idempotency key", func(t *testing.T) {
		store := newStore(map[string]int{"createPet": 1}, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		resp, err := client(t, srv).CreatePetWithResponse(ctx, oapigen.NewPet{Name: "Rex"})
		if err != nil || resp.JSON201 == nil || resp.JSON201.Name != "Rex" {
			t.Fatalf("CreatePet = %v, %v; want the new Rex", resp, err)
		}
		seen := store.seen["createPet"]
		if len(seen) != 2 || seen[0].Get("Idempotency-Key") == "" || seen[0].Get("Idempotency-Key") != seen[1].Get("Idempotency-Key") {
			t.Errorf("the store saw %d creates, keys %q; want 2 with the same key", len(seen), keys(seen))
		}
	})

	t.Run("without the route transport, the same read fails", func(t *testing.T) {
		store := newStore(map[string]int{"getPet": 2}, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		defer srv.Client().CloseIdleConnections()
		c, err := oapigen.NewClientWithResponses(srv.URL, oapigen.WithHTTPClient(srv.Client()))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.GetPetWithResponse(ctx, "7")
		if err != nil || resp.StatusCode() != http.StatusServiceUnavailable {
			t.Errorf("GetPet = %v, %v; want the first 503", resp, err)
		}
	})

	t.Run("the breaker opens after its minimum of failed calls", func(t *testing.T) {
		// A 500 is a failure of the store; a 503 would be load shed, which
		// the throttle answers by sending less rather than the breaker by
		// sending nothing.
		var seen atomic.Int32
		mux := http.NewServeMux()
		mux.HandleFunc("POST /pets/{id}/adopt", func(w http.ResponseWriter, r *http.Request) {
			seen.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
			json.NewEncoder(w).Encode(oapigen.Error{Code: 500, Message: "broken"})
		})
		srv := httptest.NewServer(mux)
		defer srv.Close()
		c := client(t, srv)
		for i := range 20 {
			resp, err := c.AdoptPetWithResponse(ctx, "7")
			if err != nil || resp.StatusCode() != http.StatusInternalServerError {
				t.Fatalf("AdoptPet %d = %v, %v; want the 500", i, resp, err)
			}
		}
		_, err := c.AdoptPetWithResponse(ctx, "7")
		if !errors.Is(err, runtime.ErrCircuitOpen) {
			t.Errorf("AdoptPet after 20 failures = %v, want ErrCircuitOpen", err)
		}
		if n := seen.Load(); n != 20 {
			t.Errorf("the store saw %d requests, want 20: none once the breaker is open", n)
		}
	})

	t.Run("the bulkhead refuses calls beyond its permits", func(t *testing.T) {
		release := make(chan struct{})
		var arrived sync.WaitGroup
		arrived.Add(16)
		mux := http.NewServeMux()
		mux.HandleFunc("POST /pets/{id}/adopt", func(w http.ResponseWriter, r *http.Request) {
			arrived.Done()
			<-release
			json.NewEncoder(w).Encode(oapigen.Pet{Id: r.PathValue("id"), Name: "Rex"})
		})
		srv := httptest.NewServer(mux)
		defer srv.Close()
		c := client(t, srv)
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() { c.AdoptPetWithResponse(ctx, "7") })
		}
		arrived.Wait()
		_, err := c.AdoptPetWithResponse(ctx, "7")
		close(release)
		wg.Wait()
		if !errors.Is(err, runtime.ErrBulkheadFull) {
			t.Errorf("a 17th call in flight = %v, want ErrBulkheadFull", err)
		}
	})

	t.Run("a spent retry budget stops retries", func(t *testing.T) {
		store := newStore(map[string]int{"getPet": 2}, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		// No floor, and nothing banked yet: the first retry is refused.
		c := client(t, srv, routetable.WithPolicy(func(p *routetable.Policy) {
			p.Dependency.Budget = runtime.BudgetPolicy{Ratio: 0.1, DisableFloor: true}
		}))
		resp, err := c.GetPetWithResponse(ctx, "7")
		if err != nil || resp.StatusCode() != http.StatusServiceUnavailable {
			t.Errorf("GetPet = %v, %v; want the first 503, not retried", resp, err)
		}
		if n := len(store.seen["getPet"]); n != 1 {
			t.Errorf("the store saw %d requests, want 1", n)
		}
	})

	t.Run("a request editor runs on every attempt", func(t *testing.T) {
		store := newStore(map[string]int{"getPet": 1}, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		c := client(t, srv, routetable.WithRequestEditor(func(ctx context.Context, r *http.Request) error {
			r.Header.Set("X-Tenant", "acme")
			return nil
		}))
		if _, err := c.GetPetWithResponse(ctx, "7"); err != nil {
			t.Fatal(err)
		}
		for i, h := range store.seen["getPet"] {
			if h.Get("X-Tenant") != "acme" {
				t.Errorf("attempt %d had no X-Tenant", i+1)
			}
		}
	})

	t.Run("a call the route table lacks is refused", func(t *testing.T) {
		store := newStore(nil, nil)
		srv := httptest.NewServer(store.handler())
		defer srv.Close()
		_, err := client(t, srv).ListPetsWithResponse(ctx, func(_ context.Context, r *http.Request) error {
			r.URL.Path = "/owners" // a request the spec does not describe
			return nil
		})
		if !errors.Is(err, route.ErrUnmatched) {
			t.Errorf("ListPets to /owners = %v, want ErrUnmatchedRoute", err)
		}
	})
}

func keys(hs []http.Header) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Get("Idempotency-Key"))
	}
	return out
}
