// Package petstore is the end-to-end example: an annotated OpenAPI spec and
// .proto for a small pet store, the resilient clients generated from them,
// in-memory HTTP and gRPC servers, the fault-injection suite and the demo
// that shows what callers see when the store is slow or down.
package petstore
