package redisfleetsuite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/fleetstore"
)

const (
	replicas = 20
	// pace is the time between two calls of one replica: 10 calls a
	// second each, 200 for the fleet. What reaches a dependency before
	// the fleet has opened is the minimum calls plus what the fleet sends
	// while the last failures are pushed and the transition announced: a
	// few milliseconds, tens on a busy machine under -race.
	pace = 100 * time.Millisecond
)

// breakerPolicy is the seed's breaker, open for 3 s, synchronised every
// 200 ms, stale after 1 s.
func breakerPolicy() runtime.DependencyPolicy {
	return runtime.DependencyPolicy{
		Breaker: runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, Window: 10 * time.Second, OpenFor: 3 * time.Second, HalfOpenProbes: 5},
		Fleet:   runtime.FleetPolicy{Store: "test", SyncInterval: 200 * time.Millisecond, StaleAfter: time.Second},
	}
}

// breakerRequest is the breaker part of a synchronisation of a replica
// with breakerPolicy, at generation zero.
func breakerRequest() fleetstore.BreakerRequest {
	p := breakerPolicy().Breaker
	return fleetstore.BreakerRequest{FailureRate: p.FailureRate, MinimumCalls: p.MinimumCalls,
		Window: p.Window, OpenFor: p.OpenFor, Bucket: time.Second, ProbeLease: time.Second}
}

// fleet is a set of replicas running in this process.
type fleet struct {
	rs   []*replica
	stop chan struct{}
	wg   sync.WaitGroup
}

func startFleet(t *testing.T, n int, cfg replicaConfig) *fleet {
	t.Helper()
	f := &fleet{stop: make(chan struct{})}
	for i := range n {
		c := cfg
		c.ID = i
		r, err := newReplica(c)
		if err != nil {
			t.Fatal(err)
		}
		f.rs = append(f.rs, r)
	}
	t.Cleanup(f.close)
	if cfg.Redis != "" || cfg.Cluster != nil || cfg.Sentinels != nil {
		waitFor(t, 5*time.Second, "every replica shares the fleet state", func() bool {
			for _, r := range f.rs {
				if !r.dep.Fleet().Shared {
					return false
				}
			}
			return true
		})
	}
	for _, r := range f.rs {
		f.wg.Go(func() { r.run(f.stop) })
	}
	return f
}

func (f *fleet) close() {
	select {
	case <-f.stop:
		return
	default:
	}
	close(f.stop)
	f.wg.Wait()
	for _, r := range f.rs {
		r.close()
	}
}

func (f *fleet) all(s runtime.BreakerState) bool {
	for _, r := range f.rs {
		if r.dep.BreakerState() != s {
			return false
		}
	}
	return true
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
	}
}

// spread returns the time between the first and the last of ts (Unix
// ns), ignoring zeros, and how many were zero.
func spread(ts []int64) (time.Duration, int) {
	var lo, hi int64
	zero := 0
	for _, v := range ts {
		if v == 0 {
			zero++
			continue
		}
		if lo == 0 || v < lo {
			lo = v
		}
		hi = max(hi, v)
	}
	return time.Duration(hi - lo), zero
}

// outageResult is what one outage and recovery showed.
type outageResult struct {
	// reached is the number of requests that reached the dependency
	// while it was down, until every replica had opened.
	reached int
	// openSpread is the time between the first and the last replica
	// opening.
	openSpread time.Duration
	// probes is the number of requests replicas sent after recovery
	// before they themselves saw their breaker closed.
	probes int
}

// TestReplicasOpenTogether: 20 replicas in one process, each with its own
// Dependency and HTTP client, call a dependency that goes down. Without
// a fleet store each needs its own minimum calls (20 × 20 requests reach
// the dependency); with Redis the fleet opens together after at most
// twice the minimum calls, every replica within the propagation bound of
// the first, and closes after one round of probes.
func TestReplicasOpenTogether(t *testing.T) {
	srv, _ := newRedis(t)
	for _, tt := range []struct {
		name  string
		fleet bool
	}{{"local", false}, {"fleet", true}} {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTarget(t)
			cfg := replicaConfig{Target: tg.srv.URL, Pace: pace, Policy: breakerPolicy(), Retries: -1}
			if tt.fleet {
				cfg.Redis = srv.Addr()
				cfg.Policy.Fleet.Prefix = "open-together:"
			}
			down := time.Now()
			tg.down.Store(true) // down from the start
			f := startFleet(t, replicas, cfg)
			res := outage(t, tg, down, tt.fleet, f.all, func() []replicaStats {
				var s []replicaStats
				for _, r := range f.rs {
					s = append(s, r.stats())
				}
				return s
			})
			f.close()
			checkOutage(t, tt.fleet, res, 0)
		})
	}
}

// outage waits, the target down since down, until every replica is
// open, then brings it up until every replica is closed, and measures
// what happened.
func outage(t *testing.T, tg *target, down time.Time, fleet bool, all func(runtime.BreakerState) bool, stats func() []replicaStats) outageResult {
	t.Helper()
	waitFor(t, 10*time.Second, "every replica's breaker open", func() bool { return all(runtime.BreakerOpen) })
	time.Sleep(500 * time.Millisecond) // nothing more gets through
	up := time.Now()
	var res outageResult
	res.reached = tg.count(-1, down, up)
	tg.down.Store(false)
	waitFor(t, 15*time.Second, "every replica's breaker closed again", func() bool { return all(runtime.BreakerClosed) })
	// Processes are seen closed at their first probe: give their probe
	// rounds time to end, and a replica's own breaker its ramp back (one
	// open period), whose end records the close; a fleet's breaker
	// closes after its round of probes.
	settle := time.Second
	if !fleet {
		settle += breakerPolicy().Breaker.OpenFor
	}
	time.Sleep(settle)
	var opened []int64
	for i, s := range stats() {
		opened = append(opened, s.Opened)
		if s.Closed == 0 {
			t.Errorf("replica %d: no transition to closed recorded", i)
			continue
		}
		res.probes += tg.count(i, up, time.Unix(0, s.Closed))
	}
	var zero int
	res.openSpread, zero = spread(opened)
	if zero > 0 {
		t.Errorf("%d replicas recorded no transition to open", zero)
	}
	return res
}

// checkOutage checks an outage's figures; slack is added to the
// propagation bound for what the machine adds (scheduling).
func checkOutage(t *testing.T, fleet bool, res outageResult, slack time.Duration) {
	t.Helper()
	p := breakerPolicy()
	minCalls, probes := int(p.Breaker.MinimumCalls), int(p.Breaker.HalfOpenProbes)
	t.Logf("requests reaching the dependency before every replica opened: %d; replicas opened within %v; probes after recovery: %d",
		res.reached, res.openSpread, res.probes)
	if !fleet {
		if res.reached < replicas*minCalls {
			t.Errorf("local: %d requests reached the dependency, want %d × %d", res.reached, replicas, minCalls)
		}
		// Each replica's own breaker probes, then ramps traffic back over
		// one open period: at least its round of probes, at most that and
		// a call every pace for the ramp.
		most := replicas * (probes + int(p.Breaker.OpenFor/pace) + 1)
		if res.probes < replicas*probes || res.probes > most {
			t.Errorf("local: %d requests from recovery to close, want %d × %d to %d", res.probes, replicas, probes, most)
		}
		return
	}
	if res.reached < minCalls || res.reached > 2*minCalls {
		t.Errorf("fleet: %d requests reached the dependency, want between %d and %d", res.reached, minCalls, 2*minCalls)
	}
	// The bound: one sync interval (a lost announcement) and a round trip.
	if bound := p.Fleet.SyncInterval + 50*time.Millisecond + slack; res.openSpread > bound {
		t.Errorf("fleet: replicas opened within %v, want within %v", res.openSpread, bound)
	}
	if res.probes != probes {
		t.Errorf("fleet: %d probes, want one round of %d", res.probes, probes)
	}
}

// TestReplicaProcesses is TestReplicasOpenTogether with 20 replica
// processes (this test binary, run as a replica), each with its own Redis
// connections.
func TestReplicaProcesses(t *testing.T) {
	srv, _ := newRedis(t)
	for _, tt := range []struct {
		name  string
		fleet bool
	}{{"local", false}, {"fleet", true}} {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTarget(t)
			cfg := replicaConfig{Target: tg.srv.URL, Pace: pace, Policy: breakerPolicy(), Retries: -1}
			if tt.fleet {
				cfg.Redis = srv.Addr()
				cfg.Policy.Fleet.Prefix = "processes:"
			}
			down := time.Now()
			tg.down.Store(true) // down from the start
			ps := startProcesses(t, replicas, cfg)
			// The processes' breakers are seen through the target: a
			// replica is open when it has sent nothing for 3 paces while
			// the target is down, closed when it calls again.
			var ended []replicaStats
			res := outage(t, tg, down, tt.fleet, func(s runtime.BreakerState) bool {
				return ps.quiet(tg, s == runtime.BreakerOpen)
			}, func() []replicaStats {
				ended = ps.stop(t)
				return ended
			})
			// 20 processes (race-enabled ones in CI) on two cores: a
			// process may wait for a core a sync interval's worth.
			checkOutage(t, tt.fleet, res, breakerPolicy().Fleet.SyncInterval)
		})
	}
}

type processes struct {
	ready  time.Time // when every process was ready to call
	cmds   []*exec.Cmd
	stdins []io.WriteCloser
	outs   []*bufio.Reader
	stats  []replicaStats
}

func startProcesses(t *testing.T, n int, cfg replicaConfig) *processes {
	t.Helper()
	ps := &processes{}
	for i := range n {
		c := cfg
		c.ID = i
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), replicaEnv+"="+string(raw))
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ps.cmds, ps.stdins, ps.outs = append(ps.cmds, cmd), append(ps.stdins, in), append(ps.outs, bufio.NewReader(out))
	}
	t.Cleanup(func() {
		for _, c := range ps.cmds {
			if c.ProcessState == nil {
				c.Process.Kill()
				c.Wait()
			}
		}
	})
	for i, out := range ps.outs {
		line, err := out.ReadString('\n')
		if strings.TrimSpace(line) != "ready" {
			t.Fatalf("replica process %d: %q, %v", i, line, err)
		}
	}
	ps.ready = time.Now()
	return ps
}

// quiet reports whether every process is open (has sent nothing in the
// last three paces, four paces or more after every process was ready to
// call) or, with open false, closed (every one has sent something in the
// last three paces). With a fleet, a process may open without ever
// calling.
func (ps *processes) quiet(tg *target, open bool) bool {
	now := time.Now()
	if open && now.Before(ps.ready.Add(4*pace)) {
		return false
	}
	for i := range ps.cmds {
		sent := tg.count(i, now.Add(-3*pace), now) > 0
		if sent == open {
			return false
		}
	}
	return true
}

// stop ends the processes once and returns their stats.
func (ps *processes) stop(t *testing.T) []replicaStats {
	if ps.stats != nil {
		return ps.stats
	}
	for _, in := range ps.stdins {
		in.Close()
	}
	for i, cmd := range ps.cmds {
		var s replicaStats
		if err := json.NewDecoder(ps.outs[i]).Decode(&s); err != nil {
			t.Errorf("replica process %d: stats: %v", i, err)
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("replica process %d: %v", i, err)
		}
		ps.stats = append(ps.stats, s)
	}
	return ps.stats
}

// TestBudgetShared: 20 replicas retrying calls to a dependency that always
// fails, for 10 s, send at most (1 + ratio) × calls + floor × seconds (and
// one second of the floor's burst) with Redis; local budgets give every
// replica its own floor.
func TestBudgetShared(t *testing.T) {
	srv, _ := newRedis(t)
	const run = 10 * time.Second
	p := breakerPolicy()
	p.Breaker.Disabled = true
	p.Budget = runtime.BudgetPolicy{Ratio: 0.1, MinPerSecond: 10}
	for _, tt := range []struct {
		name  string
		fleet bool
	}{{"local", false}, {"fleet", true}} {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTarget(t)
			tg.down.Store(true)
			cfg := replicaConfig{Target: tg.srv.URL, Pace: 100 * time.Millisecond, Policy: p, Retries: 2}
			if tt.fleet {
				cfg.Redis = srv.Addr()
				cfg.Policy.Fleet.Prefix = "budget:"
			}
			start := time.Now()
			f := startFleet(t, replicas, cfg)
			time.Sleep(run)
			f.close()
			var calls int64
			for _, r := range f.rs {
				calls += r.stats().Calls
			}
			requests := tg.count(-1, start, time.Now())
			bound := (1+p.Budget.Ratio)*float64(calls) + p.Budget.MinPerSecond*(run.Seconds()+1)
			t.Logf("%s: %d calls, %d requests (%d retries); fleet bound %.0f", tt.name, calls, requests, int64(requests)-calls, bound)
			if tt.fleet && float64(requests) > bound {
				t.Errorf("fleet: %d requests for %d calls, want at most %.0f", requests, calls, bound)
			}
			if !tt.fleet && float64(requests) < float64(calls)+replicas*p.Budget.MinPerSecond*run.Seconds()/2 {
				t.Errorf("local: %d requests for %d calls, want about %d replicas' floors more", requests, calls, replicas)
			}
		})
	}
}

// TestRedisKilled: Redis killed in the middle of a run and restarted. No
// call fails; every replica goes local within the staleness bound and
// shares the state again after the restart; connections and goroutines go
// back to what they were.
func TestRedisKilled(t *testing.T) {
	srv, admin := newRedis(t)
	ignore := []goleak.Option{goleak.IgnoreCurrent(),
		// The restarted redis-server's reaper, ended by a later cleanup.
		goleak.IgnoreAnyFunction("github.com/resilientgo/resilient/internal/redistest.(*Server).start.func1")}
	t.Cleanup(func() { goleak.VerifyNone(t, ignore...) }) // after every other cleanup
	baseClients := connectedClients(t, admin)
	tg := newTarget(t)
	p := breakerPolicy()
	cfg := replicaConfig{Target: tg.srv.URL, Pace: 20 * time.Millisecond, Policy: p, Retries: 2, Redis: srv.Addr()}
	cfg.Policy.Fleet.Prefix = "killed:"
	f := startFleet(t, replicas, cfg)
	_, _, _, channel := redisfleetKeys(cfg.Policy.Fleet.Prefix, "target")
	if n := subscribers(t, admin, channel); n != replicas {
		t.Errorf("%d subscribers of %s, want %d", n, channel, replicas)
	}
	time.Sleep(time.Second)
	killed := time.Now()
	srv.Kill()
	waitFor(t, 3*time.Second, "every replica local", func() bool {
		for _, r := range f.rs {
			if r.dep.Fleet().Shared {
				return false
			}
		}
		return true
	})
	time.Sleep(time.Second)
	srv.Restart()
	restarted := time.Now()
	waitFor(t, 5*time.Second, "every replica shared again", func() bool {
		for _, r := range f.rs {
			if !r.dep.Fleet().Shared {
				return false
			}
		}
		return true
	})
	time.Sleep(500 * time.Millisecond)
	admin2 := newClient(srv.Addr())
	defer admin2.Close()
	waitFor(t, 3*time.Second, "every replica subscribed again", func() bool { return subscribers(t, admin2, channel) == replicas })
	f.close()
	var failed, calls int64
	var local, back []int64
	for i, r := range f.rs {
		s := r.stats()
		calls += s.Calls
		failed += s.Failed
		if len(s.Local) != 2 || len(s.Shared) != 2 {
			t.Errorf("replica %d: went local %d times and shared %d times, want twice (kill, Close) and twice (start, rejoin)", i, len(s.Local), len(s.Shared))
			continue
		}
		local = append(local, s.Local[0]-killed.UnixNano())
		back = append(back, s.Shared[1]-restarted.UnixNano())
	}
	if failed != 0 {
		t.Errorf("%d of %d calls failed", failed, calls)
	}
	slices.Sort(local)
	slices.Sort(back)
	if len(local) > 0 {
		if worst := time.Duration(local[len(local)-1]); worst > p.Fleet.StaleAfter+p.Fleet.SyncInterval {
			t.Errorf("the last replica went local %v after the kill, want within %v", worst, p.Fleet.StaleAfter+p.Fleet.SyncInterval)
		}
		t.Logf("%d calls, %d failed; went local %v to %v after the kill; shared again %v to %v after the restart",
			calls, failed, time.Duration(local[0]), time.Duration(local[len(local)-1]), time.Duration(back[0]), time.Duration(back[len(back)-1]))
	}
	waitFor(t, 3*time.Second, "the replicas' connections closed", func() bool { return connectedClients(t, admin2) <= baseClients })
	if n := subscribers(t, admin2, channel); n != 0 {
		t.Errorf("%d subscribers left on %s", n, channel)
	}
}

func redisfleetKeys(prefix, dep string) (string, string, string, string) {
	base := prefix + "{" + dep + "}"
	return base + ":breaker", base + ":counts", base + ":budget", base + ":events"
}

func connectedClients(t *testing.T, rdb *redis.Client) int {
	t.Helper()
	info, err := rdb.Info(context.Background(), "clients").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "connected_clients:"); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatalf("no connected_clients in %q", info)
	return 0
}

func subscribers(t *testing.T, rdb *redis.Client, channel string) int64 {
	t.Helper()
	m, err := rdb.PubSubNumSub(context.Background(), channel).Result()
	if err != nil {
		t.Fatal(err)
	}
	return m[channel]
}

// TestRedisPaused: Redis that accepts connections and answers nothing
// (CLIENT PAUSE, as a partition or an overloaded server looks): no call
// fails, the replicas go local within the staleness bound and rejoin when
// it answers again.
func TestRedisPaused(t *testing.T) {
	srv, admin := newRedis(t)
	tg := newTarget(t)
	p := breakerPolicy()
	cfg := replicaConfig{Target: tg.srv.URL, Pace: 20 * time.Millisecond, Policy: p, Retries: 2, Redis: srv.Addr()}
	cfg.Policy.Fleet.Prefix = "paused:"
	f := startFleet(t, 5, cfg)
	time.Sleep(500 * time.Millisecond)
	paused := time.Now()
	if err := admin.Do(context.Background(), "CLIENT", "PAUSE", "2500", "ALL").Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p.Fleet.StaleAfter+p.Fleet.SyncInterval+500*time.Millisecond, "every replica local", func() bool {
		for _, r := range f.rs {
			if r.dep.Fleet().Shared {
				return false
			}
		}
		return true
	})
	local := time.Since(paused)
	waitFor(t, 5*time.Second, "every replica shared again", func() bool {
		for _, r := range f.rs {
			if !r.dep.Fleet().Shared {
				return false
			}
		}
		return true
	})
	f.close()
	var failed, calls int64
	for _, r := range f.rs {
		s := r.stats()
		failed += s.Failed
		calls += s.Calls
	}
	t.Logf("%d calls, %d failed; every replica local %v after the pause", calls, failed, local.Round(time.Millisecond))
	if failed != 0 {
		t.Errorf("%d of %d calls failed while Redis was paused", failed, calls)
	}
}

// windowCount returns the attempts counted in the fleet's window of the
// dependency "target" under prefix: every bucket of the counts hash.
func windowCount(t *testing.T, rdb *redis.Client, prefix string) int64 {
	t.Helper()
	_, counts, _, _ := redisfleetKeys(prefix, "target")
	h, err := rdb.HGetAll(context.Background(), counts).Result()
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for k, v := range h {
		if strings.HasPrefix(k, "s") || strings.HasPrefix(k, "f") {
			x, _ := strconv.ParseInt(v, 10, 64)
			n += x
		}
	}
	return n
}

// TestRedisStopped: redis-server suspended (SIGSTOP) for 4 s under 20
// replicas whose go-redis clients have the default options, which do not
// enforce a context's deadline and retry a command after their 3 s read
// timeout. Each synchronisation is given up at its 200 ms deadline, no
// call fails, the replicas go local within the staleness bound; and when
// the server resumes, what they counted during the stall is not sent: the
// fleet's window gains at most the attempts made just before the stall and
// in the second after it.
func TestRedisStopped(t *testing.T) {
	srv, admin := newRedis(t)
	tg := newTarget(t)
	p := breakerPolicy()
	p.Breaker.Window = 30 * time.Second // the whole run in one window
	cfg := replicaConfig{Target: tg.srv.URL, Pace: 20 * time.Millisecond, Policy: p, Retries: 2, Redis: srv.Addr(), DefaultClient: true}
	cfg.Policy.Fleet.Prefix = "stopped:"
	f := startFleet(t, replicas, cfg)
	time.Sleep(time.Second)
	before := time.Now()
	counted := windowCount(t, admin, cfg.Policy.Fleet.Prefix)
	stopped := time.Now()
	srv.Stop()
	deadlineSeen := false
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		for _, r := range f.rs {
			st := r.dep.Fleet()
			if st.Err != nil && strings.Contains(st.Err.Error(), "did not answer within") {
				deadlineSeen = true
			}
		}
	}
	srv.Continue()
	resumed := time.Now()
	waitFor(t, 5*time.Second, "every replica shared again", func() bool {
		for _, r := range f.rs {
			if !r.dep.Fleet().Shared {
				return false
			}
		}
		return true
	})
	time.Sleep(time.Until(resumed.Add(time.Second)))
	added := windowCount(t, admin, cfg.Policy.Fleet.Prefix) - counted
	end := time.Now()
	f.close()
	// What may be counted: the attempts from one sync interval before the
	// first count was read to the stall, and those after it.
	around := tg.count(-1, before.Add(-p.Fleet.SyncInterval), stopped) + tg.count(-1, resumed, end)
	during := tg.count(-1, stopped, resumed)
	var calls, failed int64
	var local time.Duration
	for i, r := range f.rs {
		s := r.stats()
		calls, failed = calls+s.Calls, failed+s.Failed
		if len(s.Local) == 0 {
			t.Errorf("replica %d never went local during the stall", i)
			continue
		}
		local = max(local, time.Duration(s.Local[0]-stopped.UnixNano()))
	}
	if bound := p.Fleet.StaleAfter + p.Fleet.SyncInterval; local > bound {
		t.Errorf("the last replica went local %v after the stall began, want within %v", local, bound)
	}
	t.Logf("every replica local within %v of the stall", local.Round(time.Millisecond))
	t.Logf("stall of %v: %d attempts during it; the fleet's window gained %d outcomes in the stall and the %v after it, against %d attempts just before and after; %d calls, %d failed",
		resumed.Sub(stopped).Round(time.Millisecond), during, added, end.Sub(resumed).Round(time.Millisecond), around, calls, failed)
	if added > int64(around) {
		t.Errorf("the fleet's window gained %d outcomes, more than the %d attempts made outside the stall: outcomes counted while local were sent", added, around)
	}
	if !deadlineSeen {
		t.Error("no synchronisation was given up at its deadline: the client's stall blocked it")
	}
	if failed != 0 {
		t.Errorf("%d of %d calls failed", failed, calls)
	}
}

// TestWarmFleetOpensWithinBound: 20 replicas that retry (twice) call a
// healthy dependency long enough to fill the fleet's retry budget and
// every replica's lease, make no call for one breaker window, and then
// the dependency goes down. The fleet still opens after at most twice the
// minimum calls: a retry holds tokens, but no replica sends one before
// the fleet has counted the failure that caused it.
func TestWarmFleetOpensWithinBound(t *testing.T) {
	srv, _ := newRedis(t)
	tg := newTarget(t)
	p := breakerPolicy()
	p.Breaker.Window = 3 * time.Second
	cfg := replicaConfig{Target: tg.srv.URL, Pace: pace, Policy: p, Retries: 2, Redis: srv.Addr()}
	cfg.Policy.Fleet.Prefix = "warm:"
	f := startFleet(t, replicas, cfg)
	time.Sleep(6 * time.Second) // 1,200 calls: 120 tokens earned, the balance full
	var tokens int64
	for _, r := range f.rs {
		tokens += r.dep.Fleet().Tokens
	}
	for _, r := range f.rs {
		r.quiet.Store(true)
	}
	time.Sleep(p.Breaker.Window + 500*time.Millisecond)
	down := time.Now()
	tg.down.Store(true)
	for _, r := range f.rs {
		r.quiet.Store(false)
	}
	res := outage(t, tg, down, true, f.all, func() []replicaStats {
		var s []replicaStats
		for _, r := range f.rs {
			s = append(s, r.stats())
		}
		return s
	})
	f.close()
	t.Logf("warm: %d retry tokens leased by the replicas before the quiet window", tokens)
	checkOutage(t, true, res, 0)
}
