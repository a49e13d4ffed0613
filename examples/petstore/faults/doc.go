// Package faults is the fault-injection harness of the pet store example:
// it runs the pet store's servers on loopback, puts an in-process Toxiproxy
// between each client and its server for network faults, switches the
// servers' application faults ([petstore.Faults]), drives calls through
// four clients side by side, and measures what their callers got and what
// reached the store.
//
// # Arms
//
// Each scenario runs over HTTP and gRPC against four [Arm]s: [Naive], a
// plain client with no retry, timeout or breaker of its own; [Resilient],
// the generated client with its reviewed policy; [Common], what teams
// usually write for retries (go-retryablehttp with its defaults; a gRPC
// service config retrying UNAVAILABLE for every method); and [Tuned], the
// plain client hand-wired with failsafe-go from the same measured latency
// (petstore.TunedConfig). The arms of a row
// run at the same time, each against its own servers and proxy, warmed up
// apart and put under the fault at the same moment, so that they meet the
// same machine.
//
// # Scenarios
//
// [Scenarios] lists the nine runs of the resilience-patterns verification:
// a slow dependency (latency at twice its measured p99), a 503 window then
// recovery, black-holed connections, answers lost after the store applied
// the request, 429 with Retry-After, tail latency, demand beyond what the
// store can serve, callers whose deadline is nearly spent on entry, and a
// retry storm: a store whose capacity is real ([petstore.LoadModel]) tipped
// past it by one second of slowdown, after which what the callers send
// decides whether it recovers.
// Calls arrive at the policy's measured rate whatever the earlier calls are
// doing (open loop), so that every arm is judged on the same calls however
// fast it fails them. Every figure a scenario uses (the p99, the bulkhead
// size, the breaker's open period, the request rate) is read from the
// resolved policy of the generated clients ([LoadPolicy]), never written
// here.
//
// # Measurements and criteria
//
// [Run] returns a [Row] per scenario and transport with a [Result] per arm:
// each call classed as ok, degraded (a marked fallback answer), failed fast
// (an error within a tenth of the deadline) or failed slow; p50 and p99;
// requests reaching the store per call; duplicate side effects (creates
// and adopts applied twice for one call, counted by the store per
// idempotency key and per call id); the resilient breaker's transitions;
// a timeline of fresh answers per 100 ms ([Result.Timeline]) and, where the
// fault ends within the phase, each arm's recovery ([Recovery]); goroutine
// and socket counts before and after. A row in which the
// machine stalled the harness (a call started well after its planned time,
// or the process's goroutines queued for a core) is run again
// ([Options.MaxStall]). The fault suite runs with one P per process the
// harness stands for ([Procs]), so that a machine loaded by other work
// gives it about the share of the clients and stores it packs together.
//
// [Check] judges a row by the fault suite's criteria: ordinal and ratio
// facts about the resilient arm against the others, which hold on a loaded
// machine. [Acceptance] holds the demo's absolute lines, judged on one
// run's figures. [Report] renders the terminal summary, the Markdown report,
// the charts and the results file.
//
// # Toxiproxy
//
// The proxy (github.com/Shopify/toxiproxy/v2) runs in process. Its toxics
// log through zerolog's global logger, which [Run] silences once per
// process; that is the only process-wide setting the harness changes.
package faults
