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
)

// Arms lists the arms in report order.
var Arms = []Arm{Naive, Resilient, Common}

// ClientConfig is what a client of one arm is made with.
type ClientConfig struct {
	// Addr is the proxy's host:port the client calls.
	Addr string
	// Logger receives the client's own log lines (breaker transitions,
	// go-retryablehttp's request lines); nil discards them.
	Logger *slog.Logger
	// Observer, for the resilient arm, sees its pipeline's events.
	Observer runtime.Observer
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
	}
	return nil, fmt.Errorf("faults: no client for arm %q over %q", a, t)
}
