// Package runtimebench holds the benchmarks of the runtime's call path
// beside its baselines: a minimal hand-written pipeline, the same policy
// composed with failsafe-go, and the fleet arm. They live in the
// repository's root module, not in the runtime's, because the runtime
// module's requirements, those of its tests included, are every user's:
// failsafe-go stays out of their module graph. Results and how to read
// them are in runtime/BENCHMARKS.md. It has no code of its own.
package runtimebench
