package faults

import (
	"fmt"
	"log/slog"

	"github.com/resilientgo/resilient/examples/petstore"
	"github.com/resilientgo/resilient/runtime"
)

// Arm is one way of writing the client a scenario runs against.
type Arm string

// The three arms, in report order.
const (
	// Naive is a plain client: one attempt, the caller's deadline only
	// (petstore.NewNaiveHTTP, petstore.NewNaiveGRPC).
	Naive Arm = "naive"
	// Resilient is the generated resilient client with its policy
	// (petstore.NewResilientHTTP, petstore.NewResilientGRPC).
	Resilient Arm = "resilient"
	// Common is what teams usually write for retries: go-retryablehttp
	// with its defaults, or a gRPC connection whose service config retries
	// UNAVAILABLE for every method (petstore.NewCommonHTTP,
	// petstore.NewCommonGRPC).
	Common Arm = "common"
	// Tuned is the plain client wrapped by hand in failsafe-go's timeout,
	// retry (idempotent calls only), circuit breaker and bulkhead,
	// configured from the policy's measured latency
	// (petstore.NewTuned, examples/petstore/tuned.go).
	Tuned Arm = "tuned"
)

// Arms lists the arms in report order.
var Arms = []Arm{Naive, Resilient, Common, Tuned}

// ClientConfig is what a client of one arm is made with.
type ClientConfig struct {
	// Addr is the proxy's host:port the client calls.
	Addr string
	// Logger receives the client's own log lines (breaker transitions,
	// go-retryablehttp's request lines); nil discards them.
	Logger *slog.Logger
	// Observer, for the resilient arm, sees its pipeline's events.
	Observer runtime.Observer
	// Tuned configures the tuned arm ([TunedConfig]).
	Tuned petstore.TunedConfig
}

// TunedConfig returns the tuned arm's configuration from the resilient
// client's policy p: the same measured latency, breaker and bulkhead.
func TunedConfig(p Policy) petstore.TunedConfig {
	b := p.Shared.Breaker
	return petstore.TunedConfigFor(p.Latency.P50, p.Latency.P99, p.Latency.P999, petstore.TunedConfig{
		FailureRate: b.FailureRate, MinimumCalls: uint(max(0, b.MinimumCalls)), Window: b.Window, OpenFor: openFor(p),
		HalfOpenProbes: uint(max(0, b.HalfOpenProbes)), Bulkhead: uint(bulkheadSize(p)), BulkheadWait: bulkheadWait(p),
	})
}

// NewClientFunc returns a client of arm a for transport t.
type NewClientFunc func(a Arm, t Transport, c ClientConfig) (petstore.Client, error)

// NewClient makes the pet store's clients of each arm.
func NewClient(a Arm, t Transport, c ClientConfig) (petstore.Client, error) {
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var opts []petstore.ClientOption
	if c.Observer != nil {
		opts = append(opts, petstore.WithObserver(c.Observer))
	}
	opts = append(opts, petstore.WithLogger(logger))
	switch {
	case t == HTTP && a == Naive:
		return petstore.NewNaiveHTTP("http://" + c.Addr), nil
	case t == HTTP && a == Resilient:
		return petstore.NewResilientHTTP("http://"+c.Addr, opts...)
	case t == HTTP && a == Common:
		return petstore.NewCommonHTTP("http://"+c.Addr, logger), nil
	case t == GRPC && a == Naive:
		return petstore.NewNaiveGRPC(c.Addr)
	case t == GRPC && a == Resilient:
		return petstore.NewResilientGRPC(c.Addr, opts...)
	case t == GRPC && a == Common:
		return petstore.NewCommonGRPC(c.Addr)
	case t == HTTP && a == Tuned:
		return petstore.NewTuned(petstore.NewNaiveHTTP("http://"+c.Addr), "tuned HTTP", c.Tuned), nil
	case t == GRPC && a == Tuned:
		inner, err := petstore.NewNaiveGRPC(c.Addr)
		if err != nil {
			return nil, err
		}
		return petstore.NewTuned(inner, "tuned gRPC", c.Tuned), nil
	}
	return nil, fmt.Errorf("faults: no client for arm %q over %q", a, t)
}
