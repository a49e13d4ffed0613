// Package annotations holds the resilience annotations that specs carry:
// the protobuf options of resilient/v1/resilient.proto (method, service and
// file options, with their generated Go code) and the JSON Schema of the
// OpenAPI extension x-resilience. Both use the vocabulary of the policy
// object described in package policyspec.
//
// # Importing resilient.proto
//
// The folder is a buf module (buf.yaml beside this file, named
// buf.build/resilientgo/resilient; buf lint's STANDARD rules pass), so
// that a .proto file of yours can say
//
//	import "resilient/v1/resilient.proto";
//
// without a copy of the file. Either depend on the module as published on
// the Buf Schema Registry (maintainers publish it with buf push, run in
// this folder), in your buf.yaml:
//
//	version: v2
//	deps:
//	  - buf.build/resilientgo/resilient
//
// then run buf dep update; or, without the registry, make this folder of
// a checkout of the repository (a git submodule, for example) a module of
// your buf workspace:
//
//	version: v2
//	modules:
//	  - path: proto
//	  - path: third_party/resilient/annotations
//
// With protoc, add the folder to the include path: -I
// third_party/resilient/annotations. The generated Go package of the
// options is github.com/resilientgo/resilient/annotations/resilient/v1,
// which protoc-gen-go's output for your file imports; it comes with the
// module github.com/resilientgo/resilient.
package annotations
