package petstore

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/resilientgo/resilient/examples/petstore/petstorepb"
	"github.com/resilientgo/resilient/runtime/server"
)

// commonClients makes the two common clients of e, closed at the end of
// the test.
func (e *env) commonClients(t *testing.T) []Client {
	t.Helper()
	cg, err := NewCommonGRPC(e.grpcTarget)
	if err != nil {
		t.Fatal(err)
	}
	cs := []Client{NewCommonHTTP(e.httpURL, nil), cg}
	for _, c := range cs {
		t.Cleanup(func() {
			if err := c.Close(); err != nil {
				t.Errorf("%s: Close: %v", c.Name(), err)
			}
		})
	}
	return cs
}

func TestCommonClientsEveryOperation(t *testing.T) {
	e := setup(t, server.ShedConfig{}, nil, nil)
	ctx := ctxFor(t)
	for _, c := range e.commonClients(t) {
		t.Run(c.Name(), func(t *testing.T) {
			e.store.Counters().Reset()
			for _, call := range []func() (Answer, error){
				func() (Answer, error) { return c.ListPets(ctx) },
				func() (Answer, error) { return c.GetPet(ctx, "1") },
				func() (Answer, error) { return c.CreatePet(ctx, "Nemo") },
				func() (Answer, error) { return c.UpdatePet(ctx, "1", "Rex II") },
				func() (Answer, error) { return c.AdoptPet(WithCallID(ctx, "call-1"), "2") },
				func() (Answer, error) { return c.DeletePet(ctx, "no-such-pet") },
			} {
				if a, err := call(); err != nil || a.Degraded {
					t.Errorf("call = %+v, %v, want a fresh answer", a, err)
				}
			}
			snap := e.store.Counters().Snapshot()
			if snap.Requests != 6 || snap.MaxApplied() != 1 || snap.AdoptsByCall["call-1"] != 1 {
				t.Errorf("requests %d, creates applied %v, adopts by call %v; want 6, one create with a key, one adopt of call-1",
					snap.Requests, snap.Applied, snap.AdoptsByCall)
			}
			if _, ok := snap.Applied[""]; ok {
				t.Errorf("a create was sent without an idempotency key: %v", snap.Applied)
			}
		})
	}
}

// TestAdoptAnswerLostDuplicates loses the answer of the first adopt after
// the store applied it (503 / UNAVAILABLE). The common clients retry the
// POST and adopt twice for one call, which the store counts as a duplicate
// side effect by the call id; the resilient and naive clients never retry
// it.
func TestAdoptAnswerLostDuplicates(t *testing.T) {
	var httpLost, grpcLost atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/pets/2/adopt" && httpLost.CompareAndSwap(false, true) {
				next.ServeHTTP(httptest.NewRecorder(), r)
				http.Error(w, "lost", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if info.FullMethod == petstorepb.PetStore_AdoptPet_FullMethodName && grpcLost.CompareAndSwap(false, true) {
			_, _ = h(ctx, req)
			return nil, status.Error(codes.Unavailable, "lost")
		}
		return h(ctx, req)
	}
	e := setup(t, server.ShedConfig{}, wrap, unary)
	ctx := ctxFor(t)
	cs := append(e.commonClients(t), e.clients(t)...)
	for i, c := range cs {
		common := i < 2
		t.Run(c.Name(), func(t *testing.T) {
			httpLost.Store(false)
			grpcLost.Store(false)
			e.store.Counters().Reset()
			_, err := c.AdoptPet(WithCallID(ctx, "adopt-"+strconv.Itoa(i)), "2")
			snap := e.store.Counters().Snapshot()
			switch {
			case common && (err != nil || snap.DuplicateEffects() != 1):
				t.Errorf("AdoptPet = %v, duplicates %d (%v); want a retried success applied twice", err, snap.DuplicateEffects(), snap.AdoptsByCall)
			case !common && (err == nil || snap.DuplicateEffects() != 0 || snap.PerOperation[OpAdoptPet] != 1):
				t.Errorf("AdoptPet = %v, %d requests, duplicates %d; want the lost answer's error, one request, none", err, snap.PerOperation[OpAdoptPet], snap.DuplicateEffects())
			}
		})
	}
}

// TestLoseAnswers: with every answer lost after the store applied the
// request, the naive clients fail, the resilient clients never repeat an
// adopt (applied once, outcome unknown to the caller), and the store
// counts what each request did.
func TestLoseAnswers(t *testing.T) {
	e := setup(t, server.ShedConfig{}, nil, nil)
	ctx := ctxFor(t)
	for i, c := range e.clients(t) {
		t.Run(c.Name(), func(t *testing.T) {
			e.store.Counters().Reset()
			e.store.Faults().SetLoseAnswers(1)
			defer e.store.Faults().Reset()
			if _, err := c.AdoptPet(WithCallID(ctx, "lost-"+strconv.Itoa(i)), "3"); err == nil {
				t.Error("AdoptPet succeeded although its answer was lost")
			}
			snap := e.store.Counters().Snapshot()
			if snap.TotalAdopts() != 1 || snap.DuplicateEffects() != 0 {
				t.Errorf("adopts applied %d, duplicates %d; want the one adopt applied once", snap.TotalAdopts(), snap.DuplicateEffects())
			}
		})
	}
}
