// Package policyspec is how people write resilience policy, and how that
// policy becomes the [runtime.DependencyPolicy] of a dependency and the
// [runtime.OperationPolicy] of each of its operations.
//
// # The policy object
//
// One vocabulary is used everywhere: in x-resilience (OpenAPI document,
// path item, operation), in the policy file (defaults, dependency,
// operation) and, in snake_case, in the proto options. [Keys] lists the
// keys; [SnakeCase] and [CamelCase] convert between the two spellings. Every
// key is optional; durations are Go duration strings with a unit ("800ms").
// A [Spec] holds one object; each of its [Field] values remembers where it
// was written. [DecodeNode] decodes one from the YAML node (of YAML or
// JSON) the front end holds, each key at its line and column;
// [DecodeWritten] from typed values with their own locations, such as the
// fields of a proto option, naming keys in messages as the author spelled
// them; [DecodeValue] from a plain Go value whose positions are unknown,
// every key at the object's location.
//
// # Absent, default and off
//
// An absent key takes its default: the built-in one, or the one a wider
// layer wrote. A written key is a value, zero included, and for the keys
// whose feature is on by default, zero turns it off:
//
//	retry:
//	  maxRetries: 0      # no retries
//	  minPerSecond: 0    # no floor under the retry budget
//	bulkhead:
//	  maxWait: 0s        # a full bulkhead rejects at once
//	hedge:
//	  maxHedges: 0       # no hedging, whatever a wider layer asked
//
// What is off by default is turned on by writing it: hedging by a hedge
// block, a fallback by its kind, an idempotency key by its header, the
// fleet by its store. The runtime reads zero the same way, as its default
// (see [runtime.DependencyPolicy]), and says "off" with a flag:
// [Dependency.Minimal] and [Operation.Minimal] give the resolved policy as
// a generated client writes it, the values written or derived and every
// other field zero, each zero written above as the runtime's flag
// (RetryPolicy.Disabled, BulkheadPolicy.DisableWait,
// BudgetPolicy.DisableFloor).
//
// # The policy file
//
// A YAML file with two optional keys: "defaults", a policy applied to every
// dependency, and "dependencies", a map from dependency name (the OpenAPI
// client name, or the proto service's full name) to a policy that may also
// hold "operations", a map from operation name (operationId or rpc name) to
// a policy:
//
//	defaults:
//	  connectTimeout: 300ms
//	  retry:
//	    budget: 10%
//	dependencies:
//	  inventory:
//	    latency: {p50: 20ms, p95: 90ms, p99: 180ms, p999: 350ms, rps: 200}
//	    breaker: {failureRate: 50, minimumCalls: 20, window: 10s, openFor: 30s}
//	    operations:
//	      GetItem:
//	        hedge: {maxHedges: 1}        # delay: the p95, 90ms
//	        fallback: {kind: cached, ttl: 5m}
//	      ReserveItem:
//	        idempotencyKey: Idempotency-Key
//	        retry: {maxRetries: 2}
//
// A third key, "grpcServiceConfigs", is read by proto runs only: a list of
// gRPC service config JSON files (gapic's *_grpc_service_config.json),
// relative to the policy file's folder, whose methodConfig timeouts,
// retryPolicy and hedgingPolicy become the service config layer:
//
//	grpcServiceConfigs: [pubsub_grpc_service_config.json]
//
// [DecodeFile] decodes it; [File.DependencyLayers] and
// [File.OperationLayers] give its layers, and [File.CheckNames] reports
// entries that name nothing.
//
// # Layering
//
// Policy is merged field by field from these layers, each overriding the
// ones before it ([LayerKind] is in this order):
//
//  1. built-in defaults (the resilience-patterns table, [runtime] defaults)
//  2. gRPC service config (proto only: the methodConfig that names the
//     method, else its service, else the default one)
//  3. policy file "defaults"
//  4. policy file dependency entry
//  5. policy file operation entry
//  6. spec root (OpenAPI document x-resilience, proto file option)
//  7. service (proto service option)
//  8. path item (OpenAPI path item x-resilience)
//  9. operation (OpenAPI operation x-resilience, proto method option)
//
// Within each source, narrower wins; between sources, the whole policy file
// sits below the specification, as the design says, and a service config,
// written for every client of the API, below the policy file, written for
// this one: built-in < service config < policy file < proto options. A policy file value of
// a dependency or operation entry that the specification overrides is
// reported as a W-SHADOWED warning, so that a file entry never silently does
// nothing.
//
// Dependency-wide keys (breaker, bulkhead, retry.budget,
// retry.minPerSecond, deadlineHeader, fleet) may be written only at
// layers 3, 4, 6 and 7: a dependency has one breaker, one bulkhead, one
// retry budget and one way of sending its deadline, resolved once by
// [ResolveDependency] and shared by all its operations
// ([Dependency.ResolveOperation]).
//
// "fleet" (dependency level) shares the dependency's breaker and retry
// budget with the other replicas of the service: "fleet.store" names the
// Redis (or Valkey) for the reader, and "fleet.prefix" starts the names of
// its keys ([runtime.DefaultFleetPrefix] by default). The policy never
// holds an address or a credential (E-FLEET-NAME refuses one, and any
// other value that is not a short name): the application gives the Redis
// client to the generated client's WithFleet (gRPC: With<Service>Fleet)
// option, and without it the state stays local. Writing either key fills
// [runtime.DependencyPolicy].Fleet ([Dependency.HasFleet]); the summary
// notes the fleet, and the review shows "fleet (redis)" beside the breaker and the
// budget.
//
// "deadlineHeader" declares that the server reads each attempt's
// remaining budget, and in which header an HTTP client sends it: true
// (X-Request-Deadline, the convention of the runtime's
// DeadlineMiddleware: write it once for a dependency whose server uses
// that middleware), or a header name. Without it, or with false, none is
// sent: a third-party API has no use for the caller's budget, and should
// not learn it. It may be written in the spec's root x-resilience (the API
// says its server reads it) or in the policy file (the caller knows it
// does). [Dependency.DeadlineHeader] holds the result and the review
// shows it. It and "connectTimeout" mean nothing to
// a gRPC client (the deadline goes out as grpc-timeout; connections are
// set up as the dial options say): the generator warns when either is
// written for a gRPC service, and leaves it out. "idempotent" may be written only on one
// operation (layers 4 and 8): a wide "idempotent: true" would make every
// POST retry. Elsewhere they are E-SCOPE errors.
//
// # Idempotency, the gate
//
// The caller gives each operation's idempotency from its HTTP method or
// proto idempotency_level. "idempotent: false" makes any operation not
// idempotent; "idempotent: true" makes it idempotent (a read stays a read);
// an "idempotencyKey" header makes a non-idempotent operation idempotent.
// Retry settings inherited from a wider level say only how to retry; they
// never make a plain POST retry, and wider hedge and fallback settings apply
// to reads only. Only an operation that itself (layers 4 and 8) asks for
// retries while not idempotent (E-RETRY-UNSAFE), or for hedging or a
// fallback while not a read (E-HEDGE-UNSAFE, E-FALLBACK-UNSAFE), is an
// error.
//
// # Derivation from latency
//
// When latency is known (the "latency" block at any level):
//
//   - attemptTimeout = p99.9 × [AttemptTimeoutFactor] (or p99 × it),
//     rounded up by [RoundUp];
//   - timeout, when not set, covers every attempt: attempts × attemptTimeout,
//     plus the longest backoff, plus the hedge delay ([CoveringTimeout]); when
//     timeout is set and attemptTimeout is not, the derived attempt timeout
//     is used if it is below the timeout, else the timeout after backoff is
//     shared equally between attempts;
//   - bulkhead.maxConcurrent = ceil(rps × p99) × [BulkheadHeadroom] (Little's
//     law), from the dependency's own latency;
//   - bulkhead.maxWait = p95: a call waits for a permit about as long as a
//     read waits before hedging, long enough to ride out the short bursts
//     over the bulkhead that a slowdown's first retries cause, short enough
//     to fail fast behind a stuck dependency;
//   - hedge.delay = p95, when hedging is asked for without a delay;
//   - retry.minAttempt = p50.
//
// The derived attempt timeout sits just above the p99.9 on purpose; the
// runtime treats it as a floor (it follows the observed latency upwards and
// cuts an attempt only when a retry can follow, see the runtime's package
// documentation). An operation sent once (not idempotent, or maxRetries 0)
// and not hedged is never cut before its total, so its total must not be
// that tight figure: when latency is known it gets the total it would have
// if retried by default (3 × attemptTimeout + the backoff), and keeps the
// derived attempt timeout as the runtime's reference for counting an
// unanswered attempt as a breaker failure. Without latency data the
// attempt timeout is [GuessAttemptTimeout] (a single attempt's total), the
// connect timeout [GuessConnectTimeout] and the bulkhead the runtime
// default; the provenance ([Source]) marks them as guesses, and so does the
// review, whose "≥" marks the floors the runtime may lengthen. A guessed
// total timeout bounds only the calls that arrive without a deadline
// ([runtime.OperationPolicy.KeepCallerDeadline]): a guess never cuts a
// caller's longer deadline short, while a declared or derived total caps
// every call.
//
// # Diagnostics
//
// Every problem is collected, never only the first, as a [diag.Diagnostic]
// reading "file:line:col: E-RULE: what (where); fix"; errors come back as
// a [diag.List], sorted by location, and warnings (W-SHADOWED) in the
// resolved values' Warnings. The rules this package reports are those of
// the policy vocabulary in the catalogue of package diag ([diag.Rules]):
// E-YAML, E-EXT-UNKNOWN, E-TYPE, E-DURATION, E-RANGE, E-BREAKER-WINDOW,
// E-SCOPE, E-RETRY-UNSAFE, E-HEDGE-UNSAFE, E-HEDGE-DELAY,
// E-FALLBACK-UNSAFE, E-FALLBACK-VALUE, E-FALLBACK-KIND, E-FLEET-NAME,
// E-TIMEOUT-ORDER (by the runtime's own rule,
// [runtime.OperationPolicy.AttemptTimeoutFits]), E-TIMEOUT-BELOW-P99,
// E-POLICY-UNUSED, W-SHADOWED and W-ATTEMPT-NEVER-CUT (a declared attempt
// timeout that never cuts an attempt: the operation is sent once, or the
// total leaves no room for a retry after it).
//
// # Review
//
// [RenderReview] renders the resolved policies as the resilience review
// table of the resilience-patterns output template, one row per operation
// or per dependency, marking built-in defaults and guesses.
// [Operation.Summary] and [Dependency.Summary] give the one-line account
// of a resolved policy that generated clients show, HTTP and gRPC alike,
// in doc comments and above the entries of their policy tables.
//
// Everything in this package is a pure function of its inputs; there is no
// package state, and all of it is safe for concurrent use.
package policyspec
