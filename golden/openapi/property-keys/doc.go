// Package propertykeys is the golden case property-keys of oapi-resilient:
// properties whose names no Go struct tag can spell (a comma, quotes, the
// empty name) are kept, required or not: the struct's own MarshalJSON and
// UnmarshalJSON write and read them under their exact names, beside the
// fields its tags name. keys_test.go sends and reads them through a test
// server.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package propertykeys
