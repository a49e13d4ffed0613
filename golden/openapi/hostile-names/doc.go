// Package hostilenames is the golden case hostile-names of oapi-resilient:
// spec text that would break naive generated code stays text. Comment
// closers and directives in descriptions, a NUL in a path, a property and a
// discriminator called "-", an int32 enum beyond 32 bits and a static
// fallback holding a NUL and a byte order mark, and a server whose URL,
// description and variable carry quotes, "%" and comment closers, all
// give a client that compiles and means what the spec says; client_test.go
// checks it against a test server.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package hostilenames
