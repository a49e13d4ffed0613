// Package options is the golden case options of protoc-gen-resilient: every
// option at file, service and method level, an idempotency key and a policy
// file reach the client's policy table.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package options
