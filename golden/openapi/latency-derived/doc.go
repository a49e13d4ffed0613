// Package latencyderived is the golden case latency-derived of oapi-
// resilient: attempt and total timeouts and the bulkhead size are derived
// from measured latency in the policy file.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package latencyderived
