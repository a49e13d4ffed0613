// Package modulecheck holds the slow-tier test of what a user of the
// runtime inherits. For the core runtime and each of its subpackages, it
// makes a fresh module that imports that package alone and counts the
// modules go list -m all lists: at most 15 besides the user's own for the
// core runtime (a user of HTTP clients alone), gRPC, OpenTelemetry and
// Redis only with the subpackages that need them (runtime/resilientgrpc,
// runtime/otelobserver, runtime/oteltrace, runtime/redisfleet), and none
// of the generators', the examples' or the benchmarks' dependencies for
// anyone. It has no code of its own.
package modulecheck
