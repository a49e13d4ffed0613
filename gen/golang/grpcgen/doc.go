// Package grpcgen is the gRPC back end of the generator and the engine of
// protoc-gen-resilient: for every service of a .proto file it emits a
// resilient client that implements the <Service>Client interface of
// protoc-gen-go-grpc, into the same Go package as protoc-gen-go's output.
//
// [Run] is the whole plugin as a pure function from a
// CodeGeneratorRequest to a CodeGeneratorResponse: it reads the
// parameters, builds the IR with package protoir, resolves each service's
// policy with package resolve (policy file < file option < service option <
// method option), and emits one <name>_resilient.pb.go per .proto file that
// has services, plus an optional Markdown review. Every problem ends up in
// the response's error, naming file, service and method, never a panic.
//
// The emitted code, for a service Greeter (jennifer; "compute, then emit"):
//
//   - GreeterPolicy, a struct with the dependency-wide policy and one
//     runtime.OperationPolicy per method, and DefaultGreeterPolicy, its
//     resolved values as literals with their provenance in comments;
//   - GreeterOption with WithGreeterPolicy, WithGreeterObserver,
//     WithGreeterLogger and WithGreeterFallbackStore;
//   - NewResilientGreeterClient(cc, opts...) GreeterClient, whose methods
//     call resilientgrpc.Invoke (unary), ServerStream, ClientStream or
//     BidiStream with the method's runtime.Operation; per-call overrides go
//     in as resilientgrpc.CallPolicy(...) among the grpc.CallOptions.
//
// The runtime is imported under the fixed name resilient and the gRPC glue
// as resilientgrpc.
package grpcgen
