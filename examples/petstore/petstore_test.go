package petstore

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/resilientgo/resilient/examples/petstore/httpclient"
	"github.com/resilientgo/resilient/examples/petstore/petstorepb"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/server"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// env is a store served over HTTP and gRPC on loopback.
type env struct {
	store      *Store
	httpURL    string
	grpcTarget string
}

// setup starts both servers; wrap, when set, wraps the HTTP handler and
// unary, when set, is added before the gRPC interceptors.
func setup(t *testing.T, shed server.ShedConfig, wrap func(http.Handler) http.Handler, unary grpc.UnaryServerInterceptor) *env {
	t.Helper()
	store := NewStore(new(Faults), new(Counters))
	h := NewHTTPServer(store, shed)
	if wrap != nil {
		h = wrap(h)
	}
	hs := httptest.NewServer(h) // 127.0.0.1
	t.Cleanup(hs.Close)

	var opts []grpc.ServerOption
	if unary != nil {
		opts = append(opts, grpc.ChainUnaryInterceptor(unary))
	}
	gs := NewGRPCServer(store, shed, opts...)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = gs.Serve(lis)
	}()
	t.Cleanup(func() {
		gs.Stop()
		<-served
	})
	return &env{store: store, httpURL: hs.URL, grpcTarget: lis.Addr().String()}
}

// relaxed gives every operation generous timeouts, so that a busy race
// detector on a shared machine does not turn 5ms answers into attempt
// timeouts; retries, hedging and fallbacks stay as generated.
func relaxed() []ClientOption {
	ops := func(ps ...*runtime.OperationPolicy) {
		for _, p := range ps {
			p.AttemptTimeout = time.Second
			p.Timeout = 5 * time.Second
			if p.Hedge.Delay > 0 {
				p.Hedge.Delay = 200 * time.Millisecond
			}
		}
	}
	return []ClientOption{
		WithHTTPPolicy(func(p *petstorehttp.Policy) {
			ops(&p.ListPets, &p.GetPet, &p.CreatePet, &p.UpdatePet, &p.DeletePet, &p.AdoptPet)
		}),
		WithGRPCPolicy(func(p *petstorepb.PetStorePolicy) {
			ops(&p.ListPets, &p.GetPet, &p.CreatePet, &p.UpdatePet, &p.DeletePet, &p.AdoptPet, &p.WatchPets)
		}),
	}
}

// clients makes the four clients of e, closed at the end of the test.
func (e *env) clients(t *testing.T, opts ...ClientOption) []Client {
	t.Helper()
	rh, err := NewResilientHTTP(e.httpURL, append(relaxed(), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	rg, err := NewResilientGRPC(e.grpcTarget, append(relaxed(), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ng, err := NewNaiveGRPC(e.grpcTarget)
	if err != nil {
		t.Fatal(err)
	}
	cs := []Client{rh, NewNaiveHTTP(e.httpURL), rg, ng}
	for _, c := range cs {
		t.Cleanup(func() {
			if err := c.Close(); err != nil {
				t.Errorf("%s: Close: %v", c.Name(), err)
			}
		})
	}
	return cs
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestEveryOperation(t *testing.T) {
	e := setup(t, server.ShedConfig{}, nil, nil)
	ctx := ctxFor(t)
	for _, c := range e.clients(t) {
		t.Run(c.Name(), func(t *testing.T) {
			e.store.Counters().Reset()
			steps := []struct {
				op   string
				call func() (Answer, error)
			}{
				{OpListPets, func() (Answer, error) { return c.ListPets(ctx) }},
				{OpGetPet, func() (Answer, error) { return c.GetPet(ctx, "1") }},
				{OpCreatePet, func() (Answer, error) { return c.CreatePet(ctx, "Nemo") }},
				{OpUpdatePet, func() (Answer, error) { return c.UpdatePet(ctx, "1", "Rex II") }},
				{OpAdoptPet, func() (Answer, error) { return c.AdoptPet(ctx, "2") }},
				{OpDeletePet, func() (Answer, error) { return c.DeletePet(ctx, "no-such-pet") }},
			}
			for _, s := range steps {
				a, err := s.call()
				if err != nil || a.Degraded {
					t.Errorf("%s = %+v, %v, want a fresh answer", s.op, a, err)
				}
			}
			snap := e.store.Counters().Snapshot()
			for _, s := range steps {
				if got := snap.PerOperation[s.op]; got != 1 {
					t.Errorf("requests of %s = %d, want 1", s.op, got)
				}
			}
			if snap.MaxApplied() != 1 || snap.TotalAdopts() != 1 {
				t.Errorf("creates applied %v, adopts %v; want one each", snap.Applied, snap.Adopts)
			}
			if _, ok := snap.Applied[""]; ok {
				t.Errorf("a create was sent without an idempotency key: %v", snap.Applied)
			}
			if _, err := c.GetPet(ctx, "no-such-pet"); err == nil {
				t.Error("GetPet of an unknown id succeeded")
			}
			if snap := e.store.Counters().Snapshot(); snap.PerOperation[OpGetPet] != 2 {
				t.Errorf("a 404 was retried: %d requests", snap.PerOperation[OpGetPet])
			}
			if c.InFlight() != 0 {
				t.Errorf("InFlight() = %d after the calls, want 0", c.InFlight())
			}
		})
	}
}

// TestCreateRetriedAppliesOnce loses the answer of the first create after
// the store applied it: the resilient clients retry with the same key and
// get the first answer back, applied once.
func TestCreateRetriedAppliesOnce(t *testing.T) {
	var httpLost, grpcLost atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/pets" && httpLost.CompareAndSwap(false, true) {
				next.ServeHTTP(httptest.NewRecorder(), r)
				http.Error(w, "lost", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if info.FullMethod == petstorepb.PetStore_CreatePet_FullMethodName && grpcLost.CompareAndSwap(false, true) {
			_, _ = h(ctx, req)
			return nil, status.Error(codes.Unavailable, "lost")
		}
		return h(ctx, req)
	}
	e := setup(t, server.ShedConfig{}, wrap, unary)
	ctx := ctxFor(t)
	for _, c := range e.clients(t)[0:3:3] {
		if c.Name() == "naive HTTP" {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			e.store.Counters().Reset()
			if _, err := c.CreatePet(ctx, "Dory"); err != nil {
				t.Fatalf("CreatePet: %v", err)
			}
			snap := e.store.Counters().Snapshot()
			if snap.PerOperation[OpCreatePet] != 2 || len(snap.Applied) != 1 || snap.MaxApplied() != 1 {
				t.Errorf("requests %d, applied %v; want 2 requests and one create applied once", snap.PerOperation[OpCreatePet], snap.Applied)
			}
		})
	}
}

func TestStatusFault(t *testing.T) {
	e := setup(t, server.ShedConfig{}, nil, nil)
	ctx := ctxFor(t)
	for _, c := range e.clients(t) {
		resilient := c.Breaker() != "none"
		t.Run(c.Name(), func(t *testing.T) {
			f := e.store.Faults()
			if _, err := c.GetPet(ctx, "1"); err != nil { // fills the fallback cache
				t.Fatal(err)
			}
			e.store.Counters().Reset()
			f.SetStatus(http.StatusServiceUnavailable, 0)
			defer f.Reset()

			_, err := c.ListPets(ctx)
			if err == nil {
				t.Fatal("ListPets succeeded under a 503 fault")
			}
			want := int64(1)
			if resilient {
				want = 3 // 2 retries
			}
			if got := e.store.Counters().Snapshot().PerOperation[OpListPets]; got != want {
				t.Errorf("ListPets requests = %d, want %d", got, want)
			}

			a, err := c.GetPet(ctx, "1")
			switch {
			case resilient && (err != nil || !a.Degraded):
				t.Errorf("GetPet = %+v, %v; want the cached answer, degraded", a, err)
			case !resilient && err == nil:
				t.Errorf("naive GetPet succeeded under a 503 fault")
			}
		})
	}
}

// TestTransient503 answers 503 to the first GET only: the resilient
// clients retry and succeed, the naive ones fail.
func TestTransient503(t *testing.T) {
	var httpFailed, grpcFailed atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/pets" && httpFailed.CompareAndSwap(false, true) {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "unavailable", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if info.FullMethod == petstorepb.PetStore_ListPets_FullMethodName && grpcFailed.CompareAndSwap(false, true) {
			return nil, status.Error(codes.Unavailable, "unavailable")
		}
		return h(ctx, req)
	}
	ctx := ctxFor(t)
	for i, name := range []string{"resilient HTTP", "naive HTTP", "resilient gRPC", "naive gRPC"} {
		t.Run(name, func(t *testing.T) {
			httpFailed.Store(false)
			grpcFailed.Store(false)
			e := setup(t, server.ShedConfig{}, wrap, unary)
			c := e.clients(t)[i]
			_, err := c.ListPets(ctx)
			if resilient := i%2 == 0; resilient && err != nil {
				t.Errorf("ListPets: %v, want success after a retry", err)
			} else if !resilient && err == nil {
				t.Error("naive ListPets succeeded over a 503")
			}
		})
	}
}

// TestShedder saturates a server of one slot and no queue: the next
// request is shed at once, the health check still answers, and the slot
// is free again when the slow request ends.
func TestShedder(t *testing.T) {
	e := setup(t, server.ShedConfig{MaxConcurrent: 1, MaxQueue: -1, RetryAfter: time.Second}, nil, nil)
	ctx := ctxFor(t)
	cs := e.clients(t)
	for _, c := range []Client{cs[1], cs[3]} { // naive: no retries hide the shed
		t.Run(c.Name(), func(t *testing.T) {
			e.store.Counters().Reset()
			e.store.Faults().SetHang(true)
			defer e.store.Faults().Reset()
			slow, cancel := context.WithCancel(ctx)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := c.ListPets(slow)
				done <- err
			}()
			for e.store.Counters().Snapshot().InFlight < 1 {
				time.Sleep(time.Millisecond)
			}
			_, err := c.GetPet(ctx, "1")
			var se *StatusError
			switch {
			case errors.As(err, &se):
				if se.Status != http.StatusServiceUnavailable || se.RetryAfter != "1" {
					t.Errorf("shed answer %d Retry-After %q, want 503 and 1", se.Status, se.RetryAfter)
				}
			case status.Code(err) != codes.Unavailable:
				t.Errorf("GetPet = %v, want shed", err)
			}
			if snap := e.store.Counters().Snapshot(); snap.Shed != 1 || snap.MaxInFlight != 1 {
				t.Errorf("shed %d, max in flight %d; want 1, 1", snap.Shed, snap.MaxInFlight)
			}
			resp, err := http.Get(e.httpURL + HealthPath)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("health check under load: %v %v", resp, err)
			}
			if resp != nil {
				resp.Body.Close()
			}
			cancel()
			if err := <-done; err == nil {
				t.Error("a hung call succeeded")
			}
			for e.store.Counters().Snapshot().InFlight != 0 {
				time.Sleep(time.Millisecond)
			}
		})
	}
	http.DefaultClient.CloseIdleConnections()
}

// TestLatencyFollowsCancellation: an added latency is slept with the
// request's context, so a caller that gives up frees the server.
func TestLatencyFollowsCancellation(t *testing.T) {
	e := setup(t, server.ShedConfig{}, nil, nil)
	e.store.Faults().SetLatency(time.Hour)
	for _, c := range e.clients(t) {
		t.Run(c.Name(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
			defer cancel()
			if _, err := c.ListPets(ctx); err == nil {
				t.Fatal("ListPets succeeded within 100ms of an hour's latency")
			}
			deadline := time.Now().Add(5 * time.Second)
			for e.store.Counters().Snapshot().InFlight != 0 {
				if time.Now().After(deadline) {
					t.Fatal("the server kept working after the caller gave up")
				}
				time.Sleep(time.Millisecond)
			}
		})
	}
}

func TestFaultsTail(t *testing.T) {
	var f Faults
	f.SetTail(0.05, 10)
	slow := 0
	for range 100 {
		d, picked := f.delay(BaseLatency)
		if picked != (d == 10*BaseLatency) {
			t.Fatalf("delay = %v, slow = %v: a slow request must take ten times the base", d, picked)
		}
		if picked {
			slow++
		}
	}
	if slow < 4 || slow > 6 {
		t.Errorf("slow calls = %d of 100, want 5 ± 1", slow)
	}
}

// TestPickDoesNotAlias: the picked requests spread over a cycle of ten
// operations instead of always falling on the same one, and a twentieth of
// 10 000 requests are picked.
func TestPickDoesNotAlias(t *testing.T) {
	perSlot := make([]int, 10)
	total := 0
	for n := uint64(1); n <= 10_000; n++ {
		if pick(n, 0.05) {
			perSlot[n%10]++
			total++
		}
	}
	if total < 495 || total > 505 {
		t.Errorf("picked %d of 10000, want 500 ± 5", total)
	}
	for slot, c := range perSlot {
		if c < 30 || c > 70 {
			t.Errorf("slot %d of a ten-operation cycle got %d of the %d picks, want about a tenth", slot, c, total)
		}
	}
}
