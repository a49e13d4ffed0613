// Package streaming is the golden case streaming of protoc-gen-resilient:
// each streaming kind maps to its glue helper; client and bidi streams are
// never retried.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package streaming
