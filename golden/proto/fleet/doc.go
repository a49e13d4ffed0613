// Package fleet is the golden case fleet of protoc-gen-resilient: the
// service option's fleet puts the breaker and the retry budget in Redis,
// shared by the replicas: the policy literal carries the store and the
// prefix, the client gains WithStockFleet, and the review says "fleet
// (redis)". fleet_test.go (slow tier, a redis-server on the loopback)
// checks that WithStockFleet makes the client's state the fleet's, and that
// closing the Redis client hands it back.
//
// The .proto files are the input; *_resilient.pb.go (and review.md when
// present) are the expected output, compared byte for byte by go test
// ./golden. The *.pb.go and *_grpc.pb.go beside them are protoc-gen-go's and
// protoc-gen-go-grpc's output at the versions pinned in go.mod; go test
// ./golden -update rewrites all of them.
package fleet
