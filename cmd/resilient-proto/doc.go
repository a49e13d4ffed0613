// Command resilient-proto compares two versions of a set of .proto files
// as the clients protoc-gen-go, protoc-gen-go-grpc and
// protoc-gen-resilient generate from them see it, and checks one version
// as protoc-gen-resilient would:
//
//	resilient-proto diff [-I DIR]... [-policy FILE] [-format text|markdown|json] [-fail-on risk|breaking|none] OLD NEW
//	resilient-proto check [-I DIR]... [-opt PARAMETERS]... FILE.proto|FOLDER...
//
// # check
//
// check compiles the .proto files, and every .proto file under a folder, with
// its imports found under the -I folders (default: the file's folder, or
// the folder itself; google/protobuf/*.proto and
// resilient/v1/resilient.proto are built in), runs protoc-gen-resilient's
// generator on them with the parameters -opt gives, exactly as
// --resilient_opt or buf's opt: would pass them (policy=, service_config=,
// M<file>=...; repeatable, joined with commas), and prints what the plugin
// reports, writing no file: the errors, one per line, then the warnings,
// each prefixed "warning: ", on standard output. Files are read relative to
// the current folder, as the plugin reads them relative to protoc's. The
// set is the plugin's own, so a lint in CI and a generation report the
// same findings (the rules are those of protoc-gen-resilient's
// documentation). It exits 0 without errors (warnings or not), 1 with
// errors, 2 for a file that does not compile or bad flags.
//
//	resilient-proto check -I proto -opt policy=resilience.yaml,service_config=proto/shop_grpc_service_config.json proto/shop/v1/shop.proto
//
// # diff
//
// OLD and NEW are each
//
//   - a descriptor set: protoc -o FILE --include_imports, or buf build -o
//     FILE.binpb (binary FileDescriptorSet);
//   - a .proto file, compiled in-process with its imports found under the
//     -I folders (default: the file's folder); google/protobuf/*.proto and
//     resilient/v1/resilient.proto are built in;
//   - a folder: every .proto file under it, compiled so (default -I: the
//     folder itself);
//   - git:REV:PATH, any of the above as it is at a git revision (PATH
//     relative to the current folder, inside its git work tree; a .proto
//     file's or folder's -I folders and the -policy file are read at REV
//     too; a PATH without an extension is a folder).
//
// The report has the three sections of oapi-resilient diff (package
// github.com/resilientgo/resilient/gen/diff lists every rule id and the
// JSON schema):
//
//   - Resilience: per RPC, every value of the resolved policy that changed
//     (from idempotency_level and the (resilient.v1.*) options, layered on
//     -policy as protoc-gen-resilient's policy= is, and on the gRPC service
//     configs its grpcServiceConfigs names, read relative to its folder,
//     at REV too for a git:REV: argument), with its origin, and the RISK-*
//     flags;
//   - Go API: protoc-gen-go's messages (struct fields with their Go types,
//     oneof wrappers, enum constants) of the files that define services,
//     protoc-gen-go-grpc's <Service>Client interfaces (a method added to
//     one is breaking for a test double that implements it) and
//     protoc-gen-resilient's constructors and options;
//   - Wire: RPCs removed or added, streaming, request and response types,
//     idempotency_level, and every message an RPC reaches, field by number
//     (removed with or without its number reserved, type within or across
//     wire encodings, name, cardinality, oneof), enum values by number; the
//     rules of buf breaking's FILE and WIRE categories that concern a
//     client, each rule naming buf's.
//
// # Why a command and not a plugin option
//
// A protoc or buf plugin receives one CodeGeneratorRequest: one version of
// the files. A diff needs two, the way buf breaking takes --against. So the
// diff is a command that reads what both tools write (descriptor sets),
// or the .proto files themselves, or either at a git revision; it fits
// beside buf breaking in CI:
//
//	buf build -o new.binpb
//	git show main:api.binpb > old.binpb   # or: buf build -o old.binpb on a checkout of main
//	resilient-proto diff -format markdown old.binpb new.binpb
//
//	resilient-proto diff -I proto -policy resilience.yaml git:main:proto/shop/v1/shop.proto proto/shop/v1/shop.proto
//
// Stale generated code is found with the generators themselves: run
// buf generate (or protoc) in CI and fail when git diff --exit-code finds a
// change (see docs/spec-changes.md).
//
// # Exit status
//
//	0  nothing -fail-on names was found
//	1  a breaking change or a flagged risk (-fail-on risk, the default),
//	   a breaking change (-fail-on breaking); never with -fail-on none
//	2  unusable input (an unreadable file, not a descriptor set, a .proto
//	   that does not compile, a policy that does not decode, an unknown git
//	   revision), with the file named, or bad flags
package main
