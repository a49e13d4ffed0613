// Package routetable shows the route transport under a client that
// another tool generated: oapigen is the pet store's client as
// oapi-codegen v2.8.2 writes it, unmodified, and [NewRouteTransport],
// which oapi-resilient generates into routes.gen.go from the same spec
// (../petstore/openapi.yaml) and this folder's policy.yaml, gives it the
// pipeline of a resilient client (idempotency gate, total and attempt
// timeouts, bulkhead, breaker, retry budget, idempotency key, deadline
// header) by being the Transport of the http.Client it sends with:
//
//	rt, err := routetable.NewRouteTransport("https://pets.example.com", nil)
//	client, err := oapigen.NewClientWithResponses("https://pets.example.com",
//		oapigen.WithHTTPClient(&http.Client{Transport: rt}))
//
// [Routes] is the route table itself: each operation of the spec, by
// method and path template, with its runtime.Operation and the policy the
// spec and policy.yaml give it (REVIEW.md). routes.gen.go also holds the
// resilient client of the same spec, unused here.
package routetable
