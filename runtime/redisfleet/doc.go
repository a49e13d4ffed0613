// Package redisfleet keeps the circuit breaker and the retry budget of a
// dependency in Redis (or Valkey), shared by every replica of the service
// that calls it: a [fleetstore.Store] on github.com/redis/go-redis/v9.
// The fleetstore package defines the seam and runtime.WithFleet takes it;
// neither imports anything of Redis.
//
//	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"redis:6379"}})
//	dep, err := runtime.NewDependency("inventory", policy,
//		runtime.WithFleet(redisfleet.New(rdb)))
//
// A generated client whose policy declares "fleet" has a WithFleet option
// that takes the redis.UniversalClient and does this.
//
// The script reads the server's clock (TIME) before it writes, which
// needs Redis 5 or later (scripts replicated by their effects) or Valkey.
//
// # What is shared, and how
//
// Nothing is on a call's path: no call makes a Redis command. A call
// counts its outcome in memory; one goroutine per dependency runs
// [Store.Sync] every [runtime.FleetPolicy.SyncInterval] (200 ms by
// default), sooner after a failed attempt, a probe verdict, an empty
// retry lease or an announcement. Each Sync is one EVALSHA of a Lua
// script that runs the fleet's state machine atomically on the server,
// timed by the server's clock (TIME), so replicas' clocks never matter:
//
//   - the replica's successes and failures are added to a ring of
//     per-bucket counters over the breaker's window; when the fleet's
//     counts reach the minimum calls and the failure rate, the breaker
//     opens for everyone;
//   - after the open period the first Sync turns it half-open, and one
//     replica with calls waiting becomes the prober (for a lease of
//     StaleAfter, at least two sync intervals): its probes speak for the
//     fleet, and its verdict closes or reopens the breaker;
//   - the calls reported earn the fleet's retry balance (the ratio of
//     each, up to the maximum balance); a replica leases a few tokens at a
//     time, from the balance and then from the fleet-wide floor (a GCRA
//     token bucket of MinPerSecond), so that retries are paid without a
//     round trip.
//
// Every transition is published on the dependency's channel; a replica
// that hears it synchronises at once. A transition therefore reaches every
// replica about one round trip after the Sync that made it, and at worst
// one sync interval plus one round trip later when the announcement is
// lost (pub/sub does not queue for a subscriber that is reconnecting).
//
// # Keys
//
// For prefix "resilient:" and the dependency "inventory":
//
//	resilient:{inventory}:breaker   hash: gen, state, until, prober, lease
//	resilient:{inventory}:counts    hash: i<slot>, s<slot>, f<slot>
//	resilient:{inventory}:budget    hash: bal, tat
//	resilient:{inventory}:events    pub/sub channel
//
// The hash tag keeps a dependency's keys in one slot, so on one node of a
// Redis Cluster (TestCluster runs the fleet on three masters; Sentinel,
// through redis.NewFailoverClient, in TestSentinelFailover). Keys expire
// when no replica has synchronised for twice the window and the open
// period plus a minute.
//
// # When Redis is in trouble
//
// A Sync that fails, times out (half the staleness bound, at most one
// interval) or returns a reply the store cannot read is an error; when
// the replica has had no good answer for [runtime.FleetPolicy.StaleAfter]
// (1 s by default) it goes back to its local breaker and budget, logs it
// once and tells a [runtime.FleetObserver]; it rejoins at the first good
// answer.
//
// The timeout holds whatever the client's options: go-redis enforces a
// context's deadline only with ContextTimeoutEnabled, and otherwise waits
// for its ReadTimeout (3 s by default) and retries. The runtime gives a
// Sync up at its deadline and goes on with the next; the Sync itself
// carries its deadline, translated to the server's clock (as the last
// reply read it, so the replica's clock does not matter), and the script
// drops a request that reaches the server after it, as those written to
// a stalled server's socket do when it resumes. The outcomes a failed
// Sync carried are dropped, not sent again, and those counted while the
// replica was local are never sent: a stall does not replay old counts
// into the fleet's window.
//
// The script itself repairs what it cannot read: a key of another type (a
// string, a list, a set where a hash belongs) is deleted and rebuilt, a
// breaker field out of range resets the breaker to closed (a new
// generation), a budget field out of range resets the budget, so that no
// stray value can keep a breaker open or the replicas local.
//
// # Why not gobreaker's DistributedCircuitBreaker
//
// gobreaker/v2's DistributedCircuitBreaker reads the shared state, takes a
// lock in the store, runs the call and writes the state back, on every
// call: four round trips and a JSON encoding per call, under a lock that
// serialises the whole fleet's calls to the dependency. BenchmarkFleetCall
// in this package measures it beside the local pipeline and this store;
// the figures are in runtime/BENCHMARKS.md.
package redisfleet
