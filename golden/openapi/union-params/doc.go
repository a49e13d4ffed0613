// Package unionparams is the golden case union-params of oapi-resilient:
// a path, query or header parameter whose schema is a oneOf or anyOf of
// primitives is sent as the plain form of the variant it holds (a string
// as its text, main.yml and not "main.yml"; a number or boolean as
// written), escaped for its place, and an unset value is refused before
// anything is sent; client_test.go checks the wire form against a test
// server.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package unionparams
