// Package fallbackcached is the golden case fallback-cached of oapi-
// resilient: a read answers from the last good response for a TTL, marked
// degraded; the write beside it has no fallback; a secured read whose
// answer is the same for every caller declares it shared.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package fallbackcached
