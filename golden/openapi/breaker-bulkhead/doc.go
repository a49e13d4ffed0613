// Package breakerbulkhead is the golden case breaker-bulkhead of oapi-
// resilient: breaker settings come from the spec and the dependency-wide
// bulkhead from the policy file.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package breakerbulkhead
