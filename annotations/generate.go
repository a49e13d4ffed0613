package annotations

// Regenerate resilient/v1/resilient.pb.go with protoc-gen-go's generator as
// pinned in go.mod, compiled in-process (no protoc needed):
//
//	go generate ./annotations/...
//
//go:generate go run ./internal/protogo resilient/v1/resilient.proto
