// Package fallbackstore holds where the core runtime keeps the
// last-known-good answers of its cached fallbacks: the [Store] interface a
// dependency is given with the runtime's WithFallbackStore option (an
// external cache, shared by the replicas of a service, may implement it),
// and [Memory], the in-memory store a dependency uses when given none.
// It is to fallbacks what the fleetstore package is to the fleet's shared
// breaker and budget. Generated clients import it as fallbackstore, for
// the type of their WithFallbackStore option. It imports nothing of the
// runtime.
package fallbackstore
