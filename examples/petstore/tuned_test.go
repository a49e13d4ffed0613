package petstore

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"
)

// flaky is a Client whose every call fails with err, counting the calls.
type flaky struct {
	err   error
	calls map[string]int
}

func (f *flaky) Name() string { return "flaky" }
func (f *flaky) op(name string) (Answer, error) {
	f.calls[name]++
	return Answer{}, f.err
}
func (f *flaky) ListPets(context.Context) (Answer, error)          { return f.op("list") }
func (f *flaky) GetPet(context.Context, string) (Answer, error)    { return f.op("get") }
func (f *flaky) CreatePet(context.Context, string) (Answer, error) { return f.op("create") }
func (f *flaky) UpdatePet(context.Context, string, string) (Answer, error) {
	return f.op("update")
}
func (f *flaky) DeletePet(context.Context, string) (Answer, error) { return f.op("delete") }
func (f *flaky) AdoptPet(context.Context, string) (Answer, error)  { return f.op("adopt") }
func (f *flaky) Breaker() string                                   { return "none" }
func (f *flaky) InFlight() int                                     { return 0 }
func (f *flaky) Close() error                                      { return nil }

// TestTunedRetriesIdempotentCallsOnly: the tuned client retries reads,
// updates and deletes, sends creates and adoptions once, never retries a
// caller's error, and its breaker opens on the store's failures.
func TestTunedRetriesIdempotentCallsOnly(t *testing.T) {
	ctx := context.Background()
	cfg := TunedConfig{Retries: 2, Backoff: time.Millisecond, MaxBackoff: time.Millisecond, MinimumCalls: 1000}
	f := &flaky{err: &StatusError{Method: "GET", Path: "/pets", Status: http.StatusServiceUnavailable}, calls: map[string]int{}}
	c := NewTuned(f, "tuned test", cfg)
	c.GetPet(ctx, "1")
	c.UpdatePet(ctx, "1", "x")
	c.CreatePet(ctx, "x")
	c.AdoptPet(ctx, "1")
	for op, want := range map[string]int{"get": 3, "update": 3, "create": 1, "adopt": 1} {
		if f.calls[op] != want {
			t.Errorf("%s sent %d times, want %d", op, f.calls[op], want)
		}
	}

	f = &flaky{err: &StatusError{Method: "GET", Path: "/pets/9", Status: http.StatusNotFound}, calls: map[string]int{}}
	c = NewTuned(f, "tuned test", cfg)
	if _, err := c.GetPet(ctx, "9"); f.calls["get"] != 1 || err == nil {
		t.Errorf("a 404 was sent %d times (err %v), want once", f.calls["get"], err)
	}

	f = &flaky{err: errors.New("connection refused"), calls: map[string]int{}}
	c = NewTuned(f, "tuned test", TunedConfig{MinimumCalls: 5, Retries: 1, Backoff: time.Millisecond, MaxBackoff: time.Millisecond})
	for range 10 {
		c.ListPets(ctx)
	}
	if c.Breaker() != "open" {
		t.Errorf("breaker %s after 10 failed calls, want open", c.Breaker())
	}
	if _, err := c.ListPets(ctx); !errors.Is(err, circuitbreaker.ErrOpen) {
		t.Errorf("call with the breaker open: %v, want circuit breaker open", err)
	}
}
