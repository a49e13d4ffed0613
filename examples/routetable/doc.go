// Package routetable shows the route transport under a client that
// another tool generated: oapigen is the pet store's client as
// oapi-codegen v2.8.2 writes it, unmodified, and [NewTransport] gives it
// the pipeline of a resilient client (idempotency gate, total and attempt
// timeouts, bulkhead, breaker, retry budget, idempotency key, deadline
// header) by being the Transport of the http.Client it sends with:
//
//	rt, err := routetable.NewTransport(nil)
//	client, err := oapigen.NewClientWithResponses("https://pets.example.com",
//		oapigen.WithHTTPClient(&http.Client{Transport: rt}))
//
// The route table maps each operation of openapi.yaml, by method and path
// template, to its runtime.Operation with the policy the spec and
// policy.yaml give it.
package routetable
