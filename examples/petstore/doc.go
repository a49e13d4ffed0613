// Package petstore is the end-to-end example: an annotated OpenAPI spec and
// .proto for a small pet store, the resilient clients generated from them,
// in-memory HTTP and gRPC servers, the fault-injection suite and the demo
// that shows what callers see when the store is slow or down.
//
// # What lives where
//
//	openapi.yaml          the HTTP API with x-resilience: cached fallback on
//	                      getPet, an Idempotency-Key on createPet, adoptPet
//	                      a plain POST that is never retried
//	petstore.proto        the same domain as petstore.v1.PetStore, with
//	                      idempotency_level and (resilient.v1.method) options
//	policy.yaml           measured latency and breaker of the HTTP
//	                      dependency "petstore"; reads hedged after the p95
//	policy.grpc.yaml      the same for petstore.v1.PetStore
//	httpclient/           generated: package petstorehttp and its REVIEW.md
//	petstorepb/           generated: messages, protoc-gen-go-grpc client and
//	                      server, the resilient client, and its REVIEW.md
//	internal/protogen/    the proto generator driver (no protoc needed)
//	contract.go           [Client], [Answer], [Faults], [Counters]
//	store.go              [Store]: the pets, the side-effect counting
//	faults.go, counters.go  the fault switches and the counters
//	server_http.go        [NewHTTPServer]: deadline middleware, shedder, handlers
//	server_grpc.go        [NewGRPCServer], [RegisterGRPC], [GRPCServerOptions]
//	clients.go            [NewResilientHTTP], [NewNaiveHTTP],
//	                      [NewResilientGRPC], [NewNaiveGRPC]
//	common.go             [NewCommonHTTP] (go-retryablehttp with its
//	                      defaults), [NewCommonGRPC] (a service config
//	                      retrying UNAVAILABLE for every method)
//	callid.go             [WithCallID]: the id of one logical call, sent by
//	                      every client on every attempt
//	faults/               the fault-injection scenarios
//	cmd/faultdemo/        the demo command
//
// # Regenerating
//
// From the repository root, go generate ./examples/... runs, in this folder,
//
//	go tool oapi-resilient generate -package petstorehttp -o httpclient/client.gen.go -policy policy.yaml -review httpclient/REVIEW.md openapi.yaml
//	go run ./internal/protogen
//
// The second compiles petstore.proto in-process (resilient/v1/resilient.proto
// from ../../annotations, the well-known types built in) and runs
// protoc-gen-go in-process, protoc-gen-go-grpc as the tool pinned in
// examples/go.mod and protoc-gen-resilient in-process. The output is
// byte-identical on every run; CI fails when the checked-in files differ.
//
// # Servers
//
// Both servers serve one [Store] and share its [Faults] and [Counters].
// Every request (the health check aside) sleeps [BaseLatency] plus the
// injected latency with its own context, so a caller that gives up frees
// the server at once. Creates are applied once per idempotency key;
// adopts are applied on every call and counted per pet and per call id
// ([CallIDHeader]), so that one call adopting twice shows as a duplicate
// ([CountersSnapshot.DuplicateEffects]). A server sheds load with
// a [server.Shedder]: HTTP answers 503 (or 429) with Retry-After, gRPC
// UNAVAILABLE (or RESOURCE_EXHAUSTED) with grpc-retry-pushback-ms.
//
// # Clients
//
// A degraded answer (a cached GetPet served while the store fails) is
// returned as Answer{Degraded: true} with a nil error. The naive clients
// have no timeout, retry, breaker or bulkhead of their own; only the
// caller's context bounds their calls. The common clients are what teams
// usually write instead: the naive clients' requests, retried by
// go-retryablehttp (HTTP) or by grpc-go's service-config retries (gRPC), on
// every method.
package petstore
