// Package timeouts is the golden case timeouts of oapi-resilient: total,
// attempt and connect timeouts are layered document < path item < operation,
// and the document's deadlineHeader: false keeps the generated client from
// sending a deadline header (client_test.go).
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package timeouts
