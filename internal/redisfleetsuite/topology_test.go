package redisfleetsuite_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/internal/testtier"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/fleetstore"
	"github.com/resilientgo/resilient/runtime/redisfleet"
)

// binary returns the path of a Redis binary, or fails t saying how to get
// it (.ci/run installs both; see testtier.Tool).
func binary(t *testing.T, name, pkg string) string {
	t.Helper()
	return testtier.Tool(t, name, "apt-get install -y "+pkg)
}

// proc is a Redis process of a topology test, killed when the test ends.
type proc struct {
	t      *testing.T
	name   string
	port   int
	dir    string
	cmd    *exec.Cmd
	exited chan error
}

func (p *proc) addr() string { return "127.0.0.1:" + strconv.Itoa(p.port) }

// kill stops the process at once and waits for it; it does nothing when
// it has stopped.
func (p *proc) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Kill()
	<-p.exited
	p.cmd = nil
}

// startRedis runs redis-server on port with args after the common ones,
// in its own temporary directory, and waits until it answers PING.
func startRedis(t *testing.T, name string, port int, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, port: port, dir: t.TempDir(), exited: make(chan error, 1)}
	all := append([]string{}, args...)
	all = append(all, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", p.dir,
		"--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no",
		"--logfile", filepath.Join(p.dir, "redis.log"))
	p.cmd = exec.Command(binary(t, "redis-server", "redis-server"), all...)
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(p.kill)
	c := redis.NewClient(&redis.Options{Addr: p.addr(), DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	for deadline := time.Now().Add(5 * time.Second); c.Ping(context.Background()).Err() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(p.dir, "redis.log"))
			t.Fatalf("%s did not answer PING on %s within 5 s: %s", name, p.addr(), lastLines(string(log), 3))
		}
	}
	return p
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

// freePorts returns n distinct free ports on 127.0.0.1 whose port+10000
// (a cluster node's bus) is free too.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var hold []net.Listener
	defer func() {
		for _, l := range hold {
			l.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries > 200 {
			t.Fatal("no free pair of ports (port, port+10000) on 127.0.0.1")
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if port+10000 > 65535 {
			l.Close()
			continue
		}
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		if err != nil {
			l.Close()
			continue
		}
		hold = append(hold, l, bus)
		ports = append(ports, port)
	}
	return ports
}

// TestCluster: a three-master Redis Cluster on loopback. Every
// dependency's keys hash to one slot (the script's three keys, whichever
// master holds them), and 20 replicas, each with its own ClusterClient,
// share one breaker through the cluster: they open together after at most
// twice the minimum calls and close after one round of probes.
func TestCluster(t *testing.T) {
	testtier.Slow(t)
	cli := binary(t, "redis-cli", "redis-tools")
	ports := freePorts(t, 3)
	var nodes []string
	for i, port := range ports {
		p := startRedis(t, fmt.Sprintf("cluster node %d", i), port,
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")
		nodes = append(nodes, p.addr())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	create := exec.CommandContext(ctx, cli, append(append([]string{"--cluster", "create"}, nodes...), "--cluster-replicas", "0", "--cluster-yes")...)
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, lastLines(string(out), 5))
	}
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: nodes, DialTimeout: 500 * time.Millisecond})
	defer admin.Close()
	waitFor(t, 15*time.Second, "the cluster's state ok on every node", func() bool {
		for _, n := range nodes {
			c := redis.NewClient(&redis.Options{Addr: n, MaxRetries: -1})
			info, err := c.ClusterInfo(ctx).Result()
			c.Close()
			if err != nil || !strings.Contains(info, "cluster_state:ok") {
				return false
			}
		}
		return true
	})
	// Each dependency's keys share a slot; the dependencies spread over
	// the masters.
	masters := map[string]bool{}
	for _, dep := range []string{"target", "inventory", "payments", "a", "b", "c", "d", "e"} {
		breaker, counts, budget, _ := redisfleet.Keys("cluster:", dep)
		var slots []int64
		for _, k := range []string{breaker, counts, budget} {
			s, err := admin.ClusterKeySlot(ctx, k).Result()
			if err != nil {
				t.Fatal(err)
			}
			slots = append(slots, s)
		}
		if slots[0] != slots[1] || slots[0] != slots[2] {
			t.Errorf("%s: keys in slots %v, want one", dep, slots)
		}
		s := redisfleet.New(admin)
		req := &fleetstore.Request{Prefix: "cluster:", Dependency: dep, Replica: "admin",
			Breaker: breakerRequest(),
			Budget:  fleetstore.BudgetRequest{Ratio: 0.1, MaxBalance: 100, MinPerSecond: 10}}
		req.Breaker.Successes = 1
		if _, err := s.Sync(ctx, req); err != nil {
			t.Errorf("%s: sync through the cluster: %v", dep, err)
		}
		m, err := admin.MasterForKey(ctx, breaker)
		if err != nil {
			t.Fatal(err)
		}
		masters[m.Options().Addr] = true
	}
	t.Logf("the dependencies' keys are held by %d of the 3 masters", len(masters))
	if len(masters) < 2 {
		t.Errorf("the dependencies' keys are held by %d master, want them spread", len(masters))
	}

	tg := newTarget(t)
	cfg := replicaConfig{Target: tg.srv.URL, Pace: pace, Policy: breakerPolicy(), Retries: -1, Cluster: nodes}
	cfg.Policy.Fleet.Prefix = "cluster:"
	down := time.Now()
	tg.down.Store(true)
	f := startFleet(t, replicas, cfg)
	res := outage(t, tg, down, true, f.all, func() []replicaStats {
		var s []replicaStats
		for _, r := range f.rs {
			s = append(s, r.stats())
		}
		return s
	})
	f.close()
	checkOutage(t, true, res, 0)
}

// TestSentinelFailover: a master, its replica and one sentinel on
// loopback; 10 replicas of the service use redis.NewFailoverClient. The
// master is killed: no call fails, the replicas go local within the
// staleness bound, share the state again once the sentinel has promoted
// the replica, and then open together when the dependency goes down.
func TestSentinelFailover(t *testing.T) {
	testtier.Slow(t)
	ports := freePorts(t, 3)
	master := startRedis(t, "master", ports[0])
	startRedis(t, "replica", ports[1], "--replicaof", "127.0.0.1", strconv.Itoa(ports[0]))
	dir := t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf")
	err := os.WriteFile(conf, []byte(fmt.Sprintf(`sentinel monitor fleet 127.0.0.1 %d 1
sentinel down-after-milliseconds fleet 1000
sentinel failover-timeout fleet 5000
sentinel parallel-syncs fleet 1
`, ports[0])), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	sentinel := startRedis(t, "sentinel", ports[2], conf, "--sentinel")
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinel.addr(), MaxRetries: -1})
	defer sc.Close()
	ctx := context.Background()
	masterAddr := func() string {
		a, err := sc.GetMasterAddrByName(ctx, "fleet").Result()
		if err != nil || len(a) != 2 {
			return ""
		}
		return a[0] + ":" + a[1]
	}
	waitFor(t, 15*time.Second, "the sentinel knows the replica", func() bool {
		rs, err := sc.Replicas(ctx, "fleet").Result()
		if err != nil || len(rs) != 1 {
			return false
		}
		return !strings.Contains(rs[0]["flags"], "down") && rs[0]["master-link-status"] == "ok"
	})

	tg := newTarget(t)
	p := breakerPolicy()
	cfg := replicaConfig{Target: tg.srv.URL, Pace: 20 * time.Millisecond, Policy: p, Retries: -1,
		Sentinels: []string{sentinel.addr()}, Master: "fleet"}
	cfg.Policy.Fleet.Prefix = "sentinel:"
	const n = 10
	f := startFleet(t, n, cfg)
	time.Sleep(time.Second)
	killed := time.Now()
	master.kill()
	all := func(shared bool) func() bool {
		return func() bool {
			for _, r := range f.rs {
				if r.dep.Fleet().Shared != shared {
					return false
				}
			}
			return true
		}
	}
	waitFor(t, p.Fleet.StaleAfter+p.Fleet.SyncInterval+time.Second, "every replica local", all(false))
	local := time.Since(killed)
	waitFor(t, 20*time.Second, "the sentinel promoted the replica", func() bool { return masterAddr() == "127.0.0.1:"+strconv.Itoa(ports[1]) })
	promoted := time.Since(killed)
	waitFor(t, 10*time.Second, "every replica shared again", all(true))
	shared := time.Since(killed)
	t.Logf("master killed: every replica local after %v, the replica promoted after %v, every replica shared again after %v",
		local.Round(time.Millisecond), promoted.Round(time.Millisecond), shared.Round(time.Millisecond))
	var calls, failed int64
	for _, r := range f.rs {
		s := r.stats()
		calls, failed = calls+s.Calls, failed+s.Failed
	}
	if failed != 0 {
		t.Errorf("%d of %d calls failed during the failover", failed, calls)
	}
	// Shared through the new master: the fleet's breaker opens, one
	// generation for every replica.
	down := time.Now()
	tg.down.Store(true)
	waitFor(t, 10*time.Second, "every replica's breaker open", func() bool { return f.all(runtime.BreakerOpen) })
	reached := tg.count(-1, down, time.Now())
	gens := map[uint64]int{}
	for i, r := range f.rs {
		st := r.dep.Fleet()
		if !st.Shared || st.State != runtime.BreakerOpen {
			t.Errorf("replica %d after the failover: shared %v, fleet breaker %v; want shared and open", i, st.Shared, st.State)
		}
		gens[st.Generation]++
	}
	f.close()
	var opened []int64
	for _, r := range f.rs {
		opened = append(opened, r.stats().Opened)
	}
	spreadOpen, _ := spread(opened)
	t.Logf("after the failover: %d requests reached the dependency (the window held the healthy calls) before every replica opened, within %v; fleet generations %v",
		reached, spreadOpen, gens)
	if len(gens) != 1 {
		t.Errorf("replicas at fleet generations %v, want one", gens)
	}
}
