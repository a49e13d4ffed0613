// Package idempotencykey is the golden case idempotency-key of oapi-
// resilient: a POST with idempotencyKey retries with one key for all
// attempts; a POST without one never retries.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package idempotencykey
