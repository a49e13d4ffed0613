// Package resolve gives every operation of an IR service its resilience
// policy. It layers the policy the front end decoded at each level of the
// input (x-resilience values, proto options) over the policy file and the
// built-in defaults with package policyspec, applies what the
// protocol adds ([HTTP]: a cached fallback on a secured operation must be
// shared; [RPC]: streams, static fallbacks, keys that mean nothing to
// grpc-go), and returns a [Service] in which each [Operation] is the IR's
// operation together with its resolved policy, so that no back end has to
// keep two lists in step.
//
// Problems come back as diagnostics pointing at the key that caused them,
// where the front end placed it: errors joined in the error, warnings in a
// slice. Everything here is a
// pure function of its inputs and safe for concurrent use.
package resolve
