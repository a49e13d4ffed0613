// Package pathescaping is the golden case path-escaping of oapi-resilient:
// values stay where they belong. Literal template text is escaped at
// generation time, path values that would form a dot segment are refused
// before anything is sent, and query values and keys in every style arrive
// as values; client_test.go checks it against a test server.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package pathescaping
