// Package faults is the fault-injection harness of the pet store example:
// it runs the pet store's servers on loopback, puts an in-process Toxiproxy
// between each client and its server for network faults, switches the
// servers' application faults ([petstore.Faults]), drives concurrent callers
// through a resilient or a naive client, and measures what the callers see
// and what reaches the store.
//
// # Scenarios
//
// [Scenarios] lists the eight runs of the resilience-patterns verification:
// a slow dependency (latency at twice its measured p99), a 503 window then
// recovery, black-holed connections, connections reset mid-response, 429
// with Retry-After, tail latency (hedging on and off), overload beyond the
// bulkhead and the server's shedder, and a caller whose deadline is nearly
// spent on entry. Every figure a scenario uses (the p99, the bulkhead size,
// the breaker's open period, the request rate) is read from the resolved
// policy of the generated clients ([LoadPolicy]), never written here.
//
// # Measurements and criteria
//
// [Run] returns a [Result] per scenario, transport and client: caller
// latency (p50, p99), error, degraded and fast-fail shares, requests reaching
// the store per call, the store's peak in-flight requests against the
// bulkhead, duplicate side effects, the breaker's states, and goroutine and
// socket counts before and after. [Check] turns a resilient client's Result
// into pass or fail [Verdict] values (criteria.go); naive clients are measured
// for contrast only.
//
// # Toxiproxy
//
// The proxy (github.com/Shopify/toxiproxy/v2) runs in process. Its toxics
// log through zerolog's global logger, which [Run] silences once per
// process; that is the only process-wide setting the harness changes.
package faults
