// Package behaviour is the golden case behaviour of protoc-gen-resilient:
// the generated gRPC client keeps its policy against a real grpc-go server:
// behaviour_test.go serves Counter over bufconn inside testing/synctest
// bubbles (retries of idempotent methods only, deadline propagation,
// breaker, bulkhead, pushback, per-call overrides, streams), on fake time.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package behaviour
