// Package hedge is the golden case hedge of oapi-resilient: hedging starts
// after a given delay, and after the measured p95 from the policy file.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package hedge
