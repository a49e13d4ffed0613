// Package empty is the golden case empty of protoc-gen-resilient: a
// service that declares no rpcs gets a client that compiles, beside a
// service that has one.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package empty
