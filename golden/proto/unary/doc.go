// Package unary is the golden case unary of protoc-gen-resilient: an
// unmarked unary method is sent once, a NO_SIDE_EFFECTS one retried; built-
// in defaults only.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package unary
