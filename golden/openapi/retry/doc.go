// Package retry is the golden case retry of oapi-resilient: a document retry
// block says how to retry, path and operation blocks say how often; a plain
// POST stays unretried, idempotent: true opts a POST in.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package retry
