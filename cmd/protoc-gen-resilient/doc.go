// Command protoc-gen-resilient is a protoc and buf plugin that generates
// drop-in resilient gRPC clients. Beside the output of protoc-gen-go and
// protoc-gen-go-grpc it writes, for every .proto file with services, a
// <name>_resilient.pb.go in the same Go package with, per service,
// NewResilient<Service>Client(cc, opts...) <Service>Client: the interface
// protoc-gen-go-grpc generates, so adoption is one constructor change.
// Every RPC gets deadline propagation, a bulkhead, a circuit breaker and
// retries only where the proto says the method is idempotent.
//
// Idempotency is read from what the proto says, the first that applies:
// the (resilient.v1.method) option (idempotent, idempotency_key); the
// idempotency_level (NO_SIDE_EFFECTS is a read, IDEMPOTENT idempotent);
// the google.api.http binding (GET is a read; PUT and DELETE are
// idempotent, unless they return a google.longrunning.Operation, which
// stays sent once; POST, PATCH and custom are sent once); with no binding,
// a standard Get<X> (AIP-131) or List<Xs> (AIP-132) method with its
// standard request, a read. The review shows the basis: "yes (from
// google.api.http GET)", "yes (from AIP-131)". Retried status codes follow
// AIP-194: UNAVAILABLE, and RESOURCE_EXHAUSTED only with a retry pushback.
//
// With protoc:
//
//	protoc -I . \
//	  --go_out=. --go_opt=paths=source_relative \
//	  --go-grpc_out=. --go-grpc_opt=paths=source_relative \
//	  --resilient_out=. --resilient_opt=paths=source_relative,policy=resilience.yaml,review=REVIEW.md \
//	  petstore/v1/petstore.proto
//
// With buf (buf.gen.yaml, version v2):
//
//	version: v2
//	plugins:
//	  - local: protoc-gen-go
//	    out: gen
//	    opt: paths=source_relative
//	  - local: protoc-gen-go-grpc
//	    out: gen
//	    opt: paths=source_relative
//	  - local: protoc-gen-resilient
//	    out: gen
//	    opt:
//	      - paths=source_relative
//	      - policy=resilience.yaml
//
// Parameters (comma-separated, snake_case like protoc's):
//
//	paths=import|source_relative  where output goes, as for protoc-gen-go; default import
//	module=<prefix>                strip this Go import path prefix from output names; default none
//	M<file>=<import path>          the Go package of a .proto file without go_package; default none
//	policy=<file>                  policy file (YAML), read relative to the working directory,
//	                               only as a regular file of at most 4 MiB in its own folder
//	                               (a symbolic link out of that folder is refused);
//	                               default none (built-in defaults and the proto options only)
//	service_config=<file>          a gRPC service config (JSON, such as googleapis'
//	                               pubsub_grpc_service_config.json), read as policy=
//	                               is, relative to protoc's working directory;
//	                               repeatable; default none. The policy file may
//	                               list more in grpcServiceConfigs, relative to its
//	                               own folder.
//	review=<file>                  also write the Markdown resilience review of every service
//	                               generated in this run to <file> under the output directory:
//	                               a relative slash-separated path that stays inside it (an
//	                               absolute path, a ".." that climbs out, a backslash, a ":" or
//	                               a control character is an error); default none.
//	                               {package} in the name stands for the proto package:
//	                               each package gets its own review (reviews/{package}.md
//	                               gives reviews/google.pubsub.v1.md). A run that generates
//	                               no service writes no review. Under module= the name is
//	                               not prefixed: it is written as given.
//
// buf runs a local plugin once per directory by default, and each run
// would write the same review= name: name the review with {package}, or
// set strategy: all on the plugin in buf.gen.yaml for one review of
// everything.
//
// Policy layers, widest first: built-in defaults, the gRPC service
// config's entry for the method, the policy file's defaults, its entry
// for the service (named by its full name, such as "helloworld.Greeter")
// and its entry for the method (its rpc or Go name), the
// (resilient.v1.file) option, the (resilient.v1.service) option and the
// (resilient.v1.method) option. So built-in < service config < policy
// file < proto options: a service config, written for every client of an
// API, is what this client overrides.
//
// # gRPC service configs
//
// A service config's methodConfig applies to a method as gRPC picks it:
// the entry that names the method, else the one that names its service
// alone, else the default entry ({}). Its timeout is the call's total
// timeout; retryPolicy.maxAttempts is one more than the retries (more than
// 5 count as 5; without maxAttempts, as in gapic's configs that retry until
// the timeout, the built-in number applies); initialBackoff and maxBackoff
// are the backoff's base and cap; hedgingPolicy.maxAttempts is one more
// than the hedges, its hedgingDelay the hedge delay. Each value's origin
// is shown in the policy comment and the review: "timeout 1m (service
// config pubsub_grpc_service_config.json)". The file is read strictly
// (protobuf JSON names, in lowerCamelCase or as in the .proto file):
// malformed JSON, an unknown field, a value of the wrong type or a method
// named twice is E-SVCCONFIG at its line and column. What is not taken up
// is said, as a warning: a retry policy on a method that is not idempotent
// (a POST-bound method with no declaration, say) or whose client streams,
// and a hedging policy on a method that is not a read, are not applied
// (W-SVCCONFIG-UNSAFE: declare the method with idempotency_level or
// (resilient.v1.method).idempotency_key if repeating it is safe); codes in
// retryableStatusCodes that the client never retries, per AIP-194, are
// listed (W-SVCCONFIG-CODES: it retries UNAVAILABLE, DEADLINE_EXCEEDED sent
// by the server and RESOURCE_EXHAUSTED with a pushback, whatever the list
// says); a name that matches no method of a service or proto package
// generated is W-SVCCONFIG-UNUSED (names of other packages are for other
// runs); backoffMultiplier (the client doubles its backoff),
// perAttemptRecvTimeout, waitForReady, message size limits, load
// balancing, health checking and retryThrottling, and a maxBackoff not
// below the timeout, are left out (W-SVCCONFIG-IGNORED, once per file).
// Give grpc-go the same file, if at all, without its retry policies (see
// One retry layer).
//
// A cached fallback (fallback: {kind: FALLBACK_KIND_CACHED}) answers a
// failed call only with the last good answer to the same request and
// outgoing metadata; shared: true declares that every caller gets the same
// answer, so that any caller may be served it. Per-RPC credentials never
// reach the generated client's view of the call, so declare shared only
// when the answer does not depend on who asks.
//
// Supported inputs: proto2, proto3 and editions up to 2023 (the plugin
// declares FEATURE_PROTO3_OPTIONAL and FEATURE_SUPPORTS_EDITIONS, minimum
// edition PROTO2, maximum 2023); a later edition is E-EDITION-UNSUPPORTED.
// Bad input ends with every problem in the response's error field, sorted,
// each naming file, line, service and method: a missing go_package
// (protogen's wording plus the file and proto package), retries on a
// method that is not idempotent (E-RETRY-UNSAFE), a negative duration
// (E-DURATION), retry on a client or bidi stream (E-RETRY-STREAM), a
// static fallback, whose value a policy cannot spell as a message
// (E-FALLBACK-STATIC), fallback.shared on a fallback that is not cached
// (E-FALLBACK-KIND), Go name collisions (E-NAME-COLLISION), a Go
// import path (go_package or M) that would put the generated file outside
// the output directory, such as "..", with paths=import (E-OUTPUT-PATH).
// Warnings, such as a service without a proto package (W-NO-PACKAGE), or a
// connect_timeout (deprecated) or deadlineHeader written for a service,
// which mean nothing to a gRPC client and are left out (W-KEY-NOT-GRPC:
// grpc-go connects as the dial options say, and sends the deadline as
// grpc-timeout), go to standard error, one per line prefixed "warning: ",
// which protoc and buf show; the files are still generated.
//
// The command exits with status 0 whenever it writes a response, errors in
// it included, as protoc expects. It exits with status 1, saying why on
// standard error, when given a command-line argument (protoc and buf pass
// parameters in the request), when standard input is not a
// CodeGeneratorRequest, or when the response cannot be written.
// "protoc-gen-resilient --version" prints its name and module.
//
// File names, comments and service names from the .proto files reach the
// generated code only as "//" comment text, with control characters
// removed and a line starting "+build" escaped, and the Markdown review
// escaped, so that no input becomes code, a directive, a build constraint
// or review rows.
//
// # Rules
//
// Every diagnostic names its rule, E- for an error and W- for a warning;
// these are the rules protoc-gen-resilient reports (the catalogue is
// diag.Rules, in github.com/resilientgo/resilient/policyspec/diag):
//
//	E-READ                 a file that cannot be read: missing, not a regular file, too large, or a link out of its folder
//	E-YAML                 a file that is not valid YAML, or a mapping with a key written twice
//	E-INTERNAL             a failure of the generator itself; please report it with the input
//	E-EMIT                 generated code that does not format; please report it with the input
//	E-EXT-UNKNOWN          a key that is not part of the policy vocabulary, with a did-you-mean
//	E-TYPE                 a policy value of the wrong kind, such as a list where a number belongs
//	E-DURATION             a duration that does not parse, has no unit, or is negative, zero or too long
//	E-RANGE                a number out of range, base above cap, cap not below timeout, percentiles out of order
//	E-BREAKER-WINDOW       a breaker window that is not a positive whole number of seconds
//	E-SCOPE                a key written at a level where it has no meaning, such as a breaker on one operation
//	E-RETRY-UNSAFE         an operation that asks for retries but is not idempotent and sends no key
//	E-HEDGE-UNSAFE         an operation that asks for hedging but is not a read
//	E-HEDGE-DELAY          hedging without a delay or a measured p95, or a delay the attempt timeout never reaches
//	E-FALLBACK-UNSAFE      an operation that asks for a fallback but is not a read
//	E-FALLBACK-VALUE       a static fallback without a value, or whose value the response schema rejects
//	E-FALLBACK-KIND        a fallback setting its kind does not use: a value when not static, shared when not cached
//	E-FLEET-NAME           a fleet store name or key prefix that is empty, too long, of other characters, or an address or credential
//	E-TIMEOUT-ORDER        an attempt timeout not below the total timeout
//	E-TIMEOUT-BELOW-P99    a timeout or attempt timeout below the measured p99 latency
//	W-ATTEMPT-NEVER-CUT    a declared attempt timeout that never cuts an attempt: the operation is sent once, or the total leaves no room for a retry after it
//	E-POLICY-UNUSED        a policy file entry that names no dependency or operation of the input
//	W-SHADOWED             a policy file value that the spec or .proto file overrides, so that it does nothing
//	E-NAME-COLLISION       two things of the input that map to one Go name
//	E-NAME-RESERVED        a name of the input that the generated client uses for itself
//	E-REQUEST              a request from protoc that the plugin cannot read, such as one with invalid descriptors
//	E-PARAMETER            a plugin parameter that is unknown, or whose value is refused
//	E-GO-PACKAGE           a .proto file without a valid Go import path (go_package or an M parameter)
//	E-OUTPUT-PATH          a Go import path that would put the generated file outside the output directory
//	E-EDITION-UNSUPPORTED  an edition above 2023
//	E-OPTION               a resilience option that cannot be read
//	W-NO-PACKAGE           a service without a proto package
//	E-RETRY-STREAM         retry or hedge settings on a method whose client streams
//	E-FALLBACK-STATIC      a static fallback on an RPC, whose value a policy cannot spell as a message
//	E-FALLBACK-STREAM      a fallback on a streaming method
//	W-KEY-NOT-GRPC         connectTimeout or deadlineHeader written for a gRPC service, left out
//	E-METADATA-KEY         an idempotency key name that gRPC cannot send as a metadata key
//	E-SVCCONFIG            a gRPC service config that is not valid JSON, has an unknown field, a value of the wrong type, or names a method twice
//	W-SVCCONFIG-UNSAFE     a service config retry or hedging policy on a method that is not idempotent (or, for hedging, not a read), not applied
//	W-SVCCONFIG-CODES      service config retryable status codes the client never retries (AIP-194)
//	W-SVCCONFIG-UNUSED     a service config name, or an entry without one, that matches no method of the services generated
//	W-SVCCONFIG-IGNORED    a service config field the client has no counterpart for, or service configs named in an OpenAPI run, left out
//
// # One retry layer
//
// grpc-go can retry on its own from a service config's retryPolicy. Those
// retries would stack with the client's (attempts multiply) and bypass the
// idempotency gate, the retry budget and the breaker. The generated client
// commits every call so that grpc-go cannot retry it (a unary call once
// its request is sent, a stream as soon as it is open, before the caller's
// first message); dial with resilientgrpc.DialOptions() (which adds
// grpc.WithDisableRetry()) and keep retryPolicy out of the service config.
// resilientgrpc.CheckNoBuiltinRetry reports a retryPolicy it can see.
//
// # What a call returns
//
// A failed call returns a resilientgrpc.Error wrapping the runtime's
// CallError (what ended the call, attempts, the cause); status.Code works
// on it. Metadata grpc-go would refuse and messages that do not marshal
// fail as invalid requests (INVALID_ARGUMENT, never retried nor counted by
// the breaker); a non-idempotent call tells "not sent" from "outcome
// unknown". An operation with an idempotency key sends the caller's key
// when the outgoing metadata has one, else one new key per call. Cached
// fallback answers are kept per request message and outgoing metadata;
// With<Service>FallbackPartition partitions them further.
//
// # Fleet
//
// A service or file option that declares a fleet (fleet: {store: ...,
// prefix: ...}) gives the client With<Service>Fleet(rdb), which shares the
// breaker and retry budget with the service's other replicas through the
// go-redis client rdb; the option names the store and never holds an
// address or a credential (E-FLEET-NAME).
package main
