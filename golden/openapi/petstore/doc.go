// Package petstore is the golden case petstore of oapi-resilient: a plain
// spec (the OAI v3.0 petstore, see README.md) gets a full client from the
// built-in defaults alone. Its three operations document the same error
// answer and so share one error type, APIError, which petstore_test.go
// calls against an httptest server.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package petstore
