// Package protoir is the proto front end of the generator: it turns the
// services of a .proto file, as protogen presents them, into [ir.Service]
// values, one per service, that the Go back end emits a resilient client
// for.
//
// Each service is one dependency named by its full name
// ("helloworld.Greeter"). Each method becomes an [ir.Operation] carrying an
// [ir.RPC] (its gRPC path, streaming kind and Go message types) and the
// idempotency of its idempotency_level option: NO_SIDE_EFFECTS is
// [ir.ReadOnly], IDEMPOTENT is [ir.Idempotent], anything else is
// [ir.NotIdempotent]. The resilience options are read as typed values and
// decoded into policy layers ([ir.PolicyLayer]) with
// policyspec.DecodeWritten, each field located at the option statement that
// sets it and named as the author spelled it ("attempt_timeout"):
// (resilient.v1.file) at [ir.LevelDocument], (resilient.v1.service) at
// [ir.LevelService] and (resilient.v1.method) at [ir.LevelOperation].
//
// Problems that would make the generated code fail to compile (two methods
// with one Go name) or that the generator does not support (an edition
// above 2023) are reported as diagnostics that name the file, the service
// and the method; all of them, sorted. [Declarations] lists the Go names
// protoc-gen-go declares, for the back end to check with its own.
package protoir
