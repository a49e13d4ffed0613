// Package svcconfig reads gRPC service configs (the JSON form of
// grpc.service_config.ServiceConfig, as gapic's
// *_grpc_service_config.json files in googleapis write it) as a policy
// layer of the proto front end.
//
// [Parse] decodes one file strictly: protobuf JSON field names in
// lowerCamelCase or as in the .proto file, an error for an unknown field
// or a value of the wrong kind, each at its line and column. grpc-go
// exports no Go type of the message (its JSON types are unexported, its
// generated ones internal), so the decoder is this package's own, over
// encoding/json's tokens. What each
// methodConfig says is mapped onto the policy:
//
//   - timeout is the call's total timeout;
//   - retryPolicy.maxAttempts is one more than the retries (gRPC counts
//     more than 5 attempts as 5); without it, as in gapic's configs that
//     retry until the timeout, the built-in number applies;
//   - retryPolicy.initialBackoff and maxBackoff are the backoff's base
//     and cap (a maxBackoff not below the timeout is left out: it would
//     leave no time to retry);
//   - hedgingPolicy.maxAttempts is one more than the hedges (the built-in
//     number without it), its hedgingDelay the hedge delay.
//
// The rest has no counterpart in the client and is reported as left out
// (W-SVCCONFIG-IGNORED, once per file): backoffMultiplier (the client
// doubles its backoff), perAttemptRecvTimeout, waitForReady, message size
// limits, load balancing, health checking and retryThrottling (the
// client's retry budget and throttle bound its retries). The retryable
// status codes cannot narrow or widen what the client retries, which is
// UNAVAILABLE, DEADLINE_EXCEEDED sent by the server and RESOURCE_EXHAUSTED
// with a pushback (AIP-194); codes listed beyond those are reported
// (W-SVCCONFIG-CODES).
//
// [Apply] attaches each method's entry, chosen as gRPC chooses it (the
// entry naming the method, else its service, else the default {}), to the
// operation as an [ir.LevelServiceConfig] layer: above the built-in
// defaults and below the policy file and the .proto file's options, so
// that built-in < service config < policy file < proto options. Each
// value's origin says "service config" and the file's name. Once the
// policy is resolved, [Applied.Check] reports a retry or hedging policy an
// operation does not take up because it is not idempotent (or not a read,
// or its client streams): the resolution keeps such an operation to one
// attempt whatever a service config says.
//
// The generated client does the retrying; a service config given to
// grpc-go as well must leave its retryPolicy out, or the retries stack.
package svcconfig
