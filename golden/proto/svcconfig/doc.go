// Package svcconfig is the golden case svcconfig of protoc-gen-resilient: a
// gRPC service config (service_config=catalog_grpc_service_config.json)
// gives timeouts, retries and a hedge below the policy file and the
// options, each value naming the file it came from in the policy comments
// and the review; warnings.txt holds what the plugin reports of it.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package svcconfig
