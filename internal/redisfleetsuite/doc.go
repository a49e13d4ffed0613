// Package redisfleetsuite holds the tests and the benchmark of
// runtime/redisfleet against a real redis-server (the slow tier, see
// internal/testtier). They live in the repository's root module, not in
// the redisfleet module, because they share the root module's Redis
// harness (internal/redistest), and a module's test dependencies are in
// the module graph of everyone who requires it. It has no code of its own.
package redisfleetsuite
