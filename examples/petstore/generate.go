package petstore

// The HTTP client from openapi.yaml, with its review.
//go:generate go tool oapi-resilient generate -package petstorehttp -o httpclient/client.gen.go -policy policy.yaml -review httpclient/REVIEW.md openapi.yaml

// The messages, the protoc-gen-go-grpc client and server, and the
// resilient client from petstore.proto, with its review; no protoc needed.
//go:generate go run ./internal/protogen
