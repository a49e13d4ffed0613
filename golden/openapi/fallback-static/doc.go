// Package fallbackstatic is the golden case fallback-static of oapi-
// resilient: a read answers with a static value of its response type, marked
// degraded.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package fallbackstatic
