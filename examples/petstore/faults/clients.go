package faults

import (
	"fmt"

	"github.com/resilientgo/resilient/examples/petstore"
)

// NewClient makes the pet store's clients: the generated resilient clients
// (with hedging turned off for ResilientNoHedge) and the naive ones. addr is
// host:port.
func NewClient(kind Kind, t Transport, addr string) (petstore.Client, error) {
	var opts []petstore.ClientOption
	if kind == ResilientNoHedge {
		opts = append(opts, petstore.WithoutHedging())
	}
	switch {
	case t == HTTP && kind == Naive:
		return petstore.NewNaiveHTTP("http://" + addr), nil
	case t == HTTP:
		return petstore.NewResilientHTTP("http://"+addr, opts...)
	case t == GRPC && kind == Naive:
		return petstore.NewNaiveGRPC(addr)
	case t == GRPC:
		return petstore.NewResilientGRPC(addr, opts...)
	}
	return nil, fmt.Errorf("faults: unknown transport %q", t)
}
