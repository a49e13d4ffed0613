// Package protoir is the proto front end of the generator: it turns the
// services of a .proto file, as protogen presents them, into [ir.Service]
// values, one per service, that the Go back end emits a resilient client
// for.
//
// Each service is one dependency named by its full name
// ("helloworld.Greeter"). Each method becomes an [ir.Operation] carrying an
// [ir.RPC] (its gRPC path, streaming kind and Go message types) and an
// idempotency taken from what the .proto file says, in this order: its
// idempotency_level option (NO_SIDE_EFFECTS is [ir.ReadOnly], IDEMPOTENT
// is [ir.Idempotent]); else its google.api.http binding (GET is a read,
// PUT and DELETE are idempotent, also when they return a
// google.longrunning.Operation, POST, PATCH and custom are not); else,
// unbound, the standard methods of Google's API conventions, Get<X> with
// a Get<X>Request carrying a name (AIP-131) and List<Xs> with a
// List<Xs>Request carrying a parent or page_token and a List<Xs>Response
// (AIP-132), which are reads; anything else is [ir.NotIdempotent]. The
// basis goes into [ir.RPC].IdempotencyBasis for the review ("from
// google.api.http GET", "from AIP-131"); the resilience options' idempotent
// and idempotency_key override all of these. The binding is read with
// the google.api annotations of google.golang.org/genproto. The
// resilience options are read as typed values and
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
