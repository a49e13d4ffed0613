// Package features is the golden case features of oapi-resilient: every
// construct of the front end (schemas, enums, unions, allOf, parameters,
// bodies, errors, x-resilience at three levels) gets a client;
// features_test.go round-trips the unions, enums and recursive types through
// encoding/json.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package features
