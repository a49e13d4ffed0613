// Package shapes is the golden case shapes of oapi-resilient: the generated
// HTTP client sends and reads what the spec says and applies its policy:
// shapes_test.go calls it against httptest servers on 127.0.0.1 (query,
// header and cookie encoding, path escaping, bodies, typed errors,
// idempotency keys, Retry-After, fallbacks, the policy table).
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package shapes
