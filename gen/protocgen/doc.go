// Package protocgen runs the proto pipeline, the whole of
// protoc-gen-resilient: the proto front end (gen/protoir, on protogen)
// reads the CodeGeneratorRequest protoc sends, gRPC service configs and
// the policy file are layered (gen/svcconfig, gen/resolve), and the gRPC
// back end (gen/golang/grpcgen) emits each file's client and the review.
// It is to protos what gen/openapigen is to OpenAPI documents, and keeps
// protogen out of package gen's dependencies.
//
//	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{})
//
// [NewProtoSnapshot] runs the same pipeline for a spec-change diff
// (package gen/diff) and keeps what it built.
package protocgen
