// Package pathnames is the golden case path-names of oapi-resilient: path
// parameters named like the request builder's own locals (segment_id,
// seg, seg0) keep their names, and the locals that hold array values
// take names no argument has; client_test.go checks the request line
// against a test server.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package pathnames
