// Package grpcgen is the gRPC back end of the generator: for the services
// of one .proto file, with their policy resolved by package resolve, it
// emits a resilient client per service that implements the
// <Service>Client interface of protoc-gen-go-grpc, into the same Go
// package as protoc-gen-go's output. [Emit] writes one file; [Names] lists
// the Go names the generated code of a service declares, and [CheckNames]
// reports those that the package already has. Reading the request and its
// parameters, building the IR and resolving the policy is the driver's
// work, protocgen.Proto.
//
// The emitted code, for a service Greeter (jennifer; "compute, then emit"):
//
//   - GreeterPolicy, a struct with the dependency-wide policy and one
//     runtime.OperationPolicy per method, and DefaultGreeterPolicy, its
//     resolved values as literals with their provenance in comments;
//   - GreeterOption with WithGreeterPolicy, WithGreeterObserver,
//     WithGreeterFallbackStore, WithGreeterLogger,
//     WithGreeterFallbackPartition and WithGreeterDependencyName, the
//     HTTP client's options in the same design (golang.StandardOptions),
//     and WithGreeterFleet when the policy declares a fleet
//     (golang.FleetOption), the only case in which Redis is imported;
//   - NewResilientGreeterClient(cc, opts...) GreeterClient, whose methods
//     call resilientgrpc.Invoke (unary), ServerStream, ClientStream or
//     BidiStream with the method's runtime.Operation; per-call overrides go
//     in as resilientgrpc.CallPolicy(...) among the grpc.CallOptions.
//
// The runtime is imported under the fixed name resilient and the gRPC glue
// as resilientgrpc.
package grpcgen
