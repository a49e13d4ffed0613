package petstore

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/bulkhead"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/failsafe-go/failsafe-go/timeout"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The tuned clients are what a careful engineer hand-wires with
// failsafe-go around the plain (naive) client, from the same measured
// latency the resilient client's policy (policy.yaml) is derived from:
// a per-attempt timeout, retries with a short jittered backoff for the
// idempotent calls only (reads, PUT, DELETE; CreatePet and AdoptPet are
// sent once, since the plain client's CreatePet draws a new idempotency
// key on each call), a circuit breaker and a bulkhead, composed as
// Retry(CircuitBreaker(Bulkhead(Timeout(call)))).

// TunedConfig configures a tuned client; [TunedConfigFor] derives it from
// measured latency, and a zero field takes that derivation's value for a
// store of [BaseLatency].
type TunedConfig struct {
	// AttemptTimeout cuts each attempt.
	AttemptTimeout time.Duration
	// Retries is the number of retries of an idempotent call; Backoff its
	// first wait, doubled up to MaxBackoff, with a jitter of half the wait.
	Retries             int
	Backoff, MaxBackoff time.Duration
	// FailureRate (percent) over at least MinimumCalls within Window opens
	// the breaker for OpenFor; HalfOpenProbes successes close it.
	FailureRate    float64
	MinimumCalls   uint
	Window         time.Duration
	OpenFor        time.Duration
	HalfOpenProbes uint
	// Bulkhead is the number of attempts in flight at once; a call waits
	// up to BulkheadWait for a permit.
	Bulkhead     uint
	BulkheadWait time.Duration
}

// TunedConfigFor derives a tuned client's configuration from measured
// latency, as an engineer would from the same dashboard: the attempt
// timeout at twice the p99.9, two retries waiting from the p50 to the
// p99, the breaker and bulkhead sized as the resilient client's
// (breaker: failure rate, minimum calls, window, open period and probes;
// bulkhead: size and wait), passed in as they are.
func TunedConfigFor(p50, p99, p999 time.Duration, c TunedConfig) TunedConfig {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	set(&c.AttemptTimeout, 2*p999)
	set(&c.Backoff, p50)
	set(&c.MaxBackoff, p99)
	set(&c.Window, 5*time.Second)
	set(&c.OpenFor, time.Second)
	set(&c.BulkheadWait, 10*time.Millisecond)
	if c.Retries <= 0 {
		c.Retries = 2
	}
	if c.FailureRate <= 0 {
		c.FailureRate = 50
	}
	if c.MinimumCalls == 0 {
		c.MinimumCalls = 20
	}
	if c.HalfOpenProbes == 0 {
		c.HalfOpenProbes = 5
	}
	if c.Bulkhead == 0 {
		c.Bulkhead = 24
	}
	return c
}

// tuned wraps a plain client with failsafe-go's policies.
type tuned struct {
	inner    Client
	name     string
	breaker  circuitbreaker.CircuitBreaker[Answer]
	once     failsafe.Executor[Answer] // breaker, bulkhead, timeout
	retrying failsafe.Executor[Answer] // retry around them
	inFlight atomic.Int64
}

// NewTuned returns inner wrapped in failsafe-go's timeout, retry, circuit
// breaker and bulkhead configured by cfg (zero fields derived as in
// [TunedConfigFor] for the store's base latency), named name ("tuned
// HTTP"). Close closes inner.
func NewTuned(inner Client, name string, cfg TunedConfig) Client {
	cfg = TunedConfigFor(BaseLatency, 6*BaseLatency, 10*BaseLatency, cfg)
	failure := func(_ Answer, err error) bool { return err != nil && !callerError(err) }
	cb := circuitbreaker.NewBuilder[Answer]().
		HandleIf(failure).
		WithFailureRateThreshold(min(cfg.FailureRate, 100)/100, cfg.MinimumCalls, cfg.Window).
		WithDelay(cfg.OpenFor).
		WithSuccessThreshold(cfg.HalfOpenProbes).
		Build()
	bh := bulkhead.NewBuilder[Answer](cfg.Bulkhead).WithMaxWaitTime(cfg.BulkheadWait).Build()
	to := timeout.New[Answer](cfg.AttemptTimeout)
	rp := retrypolicy.NewBuilder[Answer]().
		HandleIf(func(a Answer, err error) bool {
			return failure(a, err) && !errors.Is(err, circuitbreaker.ErrOpen) && !errors.Is(err, bulkhead.ErrFull)
		}).
		WithMaxRetries(cfg.Retries).
		WithBackoff(cfg.Backoff, cfg.MaxBackoff).
		WithJitterFactor(0.5).
		ReturnLastFailure().
		Build()
	return &tuned{inner: inner, name: name, breaker: cb,
		once: failsafe.With[Answer](cb, bh, to), retrying: failsafe.With[Answer](rp, cb, bh, to)}
}

// callerError reports an answer that says the request was wrong, not that
// the store failed: a 4xx other than 429, or its gRPC codes. It neither
// opens the breaker nor is retried.
func callerError(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status >= 400 && se.Status < 500 && se.Status != http.StatusTooManyRequests
	}
	switch status.Code(err) {
	case codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.FailedPrecondition, codes.PermissionDenied, codes.Unauthenticated:
		return true
	}
	return false
}

// do runs call under ex with the caller's ctx; each attempt gets its own
// context, cut by the attempt timeout.
func (t *tuned) do(ctx context.Context, ex failsafe.Executor[Answer], call func(context.Context) (Answer, error)) (Answer, error) {
	return ex.WithContext(ctx).GetWithExecution(func(e failsafe.Execution[Answer]) (Answer, error) {
		t.inFlight.Add(1)
		defer t.inFlight.Add(-1)
		return call(e.Context())
	})
}

func (t *tuned) Name() string { return t.name }

func (t *tuned) ListPets(ctx context.Context) (Answer, error) {
	return t.do(ctx, t.retrying, t.inner.ListPets)
}

func (t *tuned) GetPet(ctx context.Context, id string) (Answer, error) {
	return t.do(ctx, t.retrying, func(c context.Context) (Answer, error) { return t.inner.GetPet(c, id) })
}

func (t *tuned) CreatePet(ctx context.Context, name string) (Answer, error) {
	return t.do(ctx, t.once, func(c context.Context) (Answer, error) { return t.inner.CreatePet(c, name) })
}

func (t *tuned) UpdatePet(ctx context.Context, id, name string) (Answer, error) {
	return t.do(ctx, t.retrying, func(c context.Context) (Answer, error) { return t.inner.UpdatePet(c, id, name) })
}

func (t *tuned) DeletePet(ctx context.Context, id string) (Answer, error) {
	return t.do(ctx, t.retrying, func(c context.Context) (Answer, error) { return t.inner.DeletePet(c, id) })
}

func (t *tuned) AdoptPet(ctx context.Context, id string) (Answer, error) {
	return t.do(ctx, t.once, func(c context.Context) (Answer, error) { return t.inner.AdoptPet(c, id) })
}

func (t *tuned) Breaker() string { return t.breaker.State().String() }

func (t *tuned) InFlight() int { return int(t.inFlight.Load()) }

func (t *tuned) Close() error { return t.inner.Close() }
