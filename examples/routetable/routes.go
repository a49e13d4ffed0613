package routetable

import (
	"net/http"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// NewTransport returns the route transport of the pet store's operations,
// sending with base (nil: a transport from runtime.NewTransport sized for
// the bulkhead).
func NewTransport(base http.RoundTripper) (*runtime.RouteTransport, error) {
	dep, err := runtime.NewDependency("petstore", runtime.Policy{
		Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 16, MaxWait: 10 * time.Millisecond},
	})
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = runtime.NewTransport(100*time.Millisecond, 16)
	}
	read := runtime.OperationPolicy{Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second, AttemptTimeout: 300 * time.Millisecond}
	ops := []struct {
		method, path string
		p            runtime.OperationPolicy
	}{
		{"GET", "/pets", named("listPets", read)},
		{"POST", "/pets", runtime.OperationPolicy{Name: "createPet", Idempotency: runtime.Idempotent, IdempotencyKey: "Idempotency-Key", Timeout: 2 * time.Second, AttemptTimeout: 300 * time.Millisecond}},
		{"GET", "/pets/{id}", named("getPet", read)},
		{"PUT", "/pets/{id}", runtime.OperationPolicy{Name: "updatePet", Idempotency: runtime.Idempotent, Timeout: 2 * time.Second}},
		{"DELETE", "/pets/{id}", runtime.OperationPolicy{Name: "deletePet", Idempotency: runtime.Idempotent, Timeout: 2 * time.Second}},
		{"POST", "/pets/{id}/adopt", runtime.OperationPolicy{Name: "adoptPet", Idempotency: runtime.NotIdempotent, Timeout: 2 * time.Second}},
	}
	routes := make([]runtime.Route, 0, len(ops))
	for _, o := range ops {
		op, err := dep.Operation(o.p)
		if err != nil {
			return nil, err
		}
		routes = append(routes, runtime.Route{Method: o.method, Path: o.path, Operation: op})
	}
	return runtime.NewRouteTransport(routes, runtime.RouteOptions{Base: base})
}

func named(name string, p runtime.OperationPolicy) runtime.OperationPolicy {
	p.Name = name
	return p
}
