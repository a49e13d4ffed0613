package redisfleetsuite_test

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/fleetstore"
	"github.com/resilientgo/resilient/runtime/redisfleet"
)

// commandCounter counts the commands a client sends.
type commandCounter struct{ n atomic.Int64 }

func (c *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}
func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

// TestSuccessPathMakesNoCommand: with the fleet on, ten thousand
// successful calls make no Redis command; the background synchronisation
// makes the same number with them as without.
func TestSuccessPathMakesNoCommand(t *testing.T) {
	srv, _ := newRedis(t)
	for _, tt := range []struct {
		name     string
		interval time.Duration
		calls    int
	}{
		{name: "no sync due", interval: time.Hour, calls: 10000},
		{name: "idle, default interval", interval: runtime.DefaultFleetSyncInterval},
		{name: "busy, default interval", interval: runtime.DefaultFleetSyncInterval, calls: 10000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rdb := newClient(srv.Addr())
			defer rdb.Close()
			counter := &commandCounter{}
			rdb.AddHook(counter)
			p := breakerPolicy()
			p.Fleet = runtime.FleetPolicy{Prefix: "success:", SyncInterval: tt.interval, StaleAfter: 2 * tt.interval}
			dep, err := runtime.NewDependency("dep", p, runtime.WithFleet(redisfleet.New(rdb)), runtime.WithLogger(slog.New(slog.DiscardHandler)))
			if err != nil {
				t.Fatal(err)
			}
			defer dep.Close()
			op, err := dep.Operation(runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly})
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, 5*time.Second, "the state shared", func() bool { return dep.Fleet().Shared })
			before := counter.n.Load()
			start := time.Now()
			for range tt.calls {
				if _, err := runtime.Do(context.Background(), op, "", func(context.Context) (int, error) { return 1, nil }); err != nil {
					t.Fatal(err)
				}
			}
			if rest := time.Second - time.Since(start); rest > 0 {
				time.Sleep(rest)
			}
			elapsed := time.Since(start)
			got := counter.n.Load() - before
			// Periodic syncs only: one per interval, give or take one.
			want := int64(elapsed / tt.interval)
			t.Logf("%d successful calls in %v: %d Redis commands (%d sync intervals)", tt.calls, elapsed.Round(time.Millisecond), got, want)
			if got > want+1 {
				t.Errorf("%d commands, want at most %d: one per sync interval, none per call", got, want+1)
			}
		})
	}
}

// TestScript drives the script through Store.Sync the way replicas do and
// checks the shared state machine step by step.
func TestScript(t *testing.T) {
	_, rdb := newRedis(t)
	ctx := context.Background()
	s := redisfleet.New(rdb)
	p := breakerPolicy().Breaker
	p.OpenFor = 300 * time.Millisecond
	req := func(replica string, gen uint64) *fleetstore.Request {
		return &fleetstore.Request{Prefix: "script:", Dependency: "dep", Replica: replica,
			Breaker: fleetstore.BreakerRequest{Generation: gen, FailureRate: p.FailureRate, MinimumCalls: p.MinimumCalls,
				Window: p.Window, OpenFor: p.OpenFor, Bucket: time.Second, ProbeLease: time.Second},
			Budget: fleetstore.BudgetRequest{Ratio: 0.1, MaxBalance: 100, MinPerSecond: 2}}
	}
	sync := func(r *fleetstore.Request) fleetstore.Reply {
		t.Helper()
		rep, err := s.Sync(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// Closed: counts add up across replicas; 9 failures of 19 do not trip.
	a := req("a", 0)
	a.Breaker.Successes, a.Breaker.Failures = 10, 5
	if r := sync(a); r.State != fleetstore.Closed || r.Requests != 15 || r.Failures != 5 {
		t.Fatalf("after a: %+v, want closed with 15 requests, 5 failures", r)
	}
	b := req("b", 0)
	b.Breaker.Failures = 4
	if r := sync(b); r.State != fleetstore.Closed || r.Requests != 19 {
		t.Fatalf("after b: %+v, want closed with 19 requests", r)
	}
	// The 20th call, a failure: 10 of 20, 50 %: open, a new generation.
	c := req("c", 0)
	c.Breaker.Failures = 1
	r := sync(c)
	if r.State != fleetstore.Open || r.Generation != 1 || r.OpenLeft <= 0 || r.OpenLeft > p.OpenFor {
		t.Fatalf("after c: %+v, want open, generation 1, open at most %v", r, p.OpenFor)
	}
	// Counts of the closed generation are dropped now.
	old := req("a", 0)
	old.Breaker.Failures = 100
	if r := sync(old); r.State != fleetstore.Open || r.Generation != 1 {
		t.Fatalf("stale counts: %+v, want still open, generation 1", r)
	}
	time.Sleep(p.OpenFor)
	// Half-open: the first replica asking becomes the prober; others not.
	pa := req("a", 1)
	pa.Breaker.WantProbe = true
	if r := sync(pa); r.State != fleetstore.HalfOpen || !r.Prober || r.Generation != 2 {
		t.Fatalf("a after the open period: %+v, want half-open, prober, generation 2", r)
	}
	pb := req("b", 2)
	pb.Breaker.WantProbe = true
	if r := sync(pb); r.Prober {
		t.Fatalf("b: %+v, want not the prober while a's lease runs", r)
	}
	// Only the prober's verdict counts.
	vb := req("b", 2)
	vb.Breaker.Verdict = fleetstore.VerdictClose
	if r := sync(vb); r.State != fleetstore.HalfOpen {
		t.Fatalf("b's verdict: %+v, want ignored", r)
	}
	va := req("a", 2)
	va.Breaker.Verdict = fleetstore.VerdictClose
	if r := sync(va); r.State != fleetstore.Closed || r.Generation != 3 || r.Requests != 0 {
		t.Fatalf("a's verdict: %+v, want closed, generation 3, counts cleared", r)
	}
	// Budget: 100 calls earn 10 tokens; asking 15 with 2 on demand gives
	// 10 + 2 from the floor (its burst of 2); the floor then refills at 2/s.
	g := req("a", 3)
	g.Budget.Calls, g.Budget.Want, g.Budget.WantFloor = 100, 15, 2
	if r := sync(g); r.Granted != 12 {
		t.Fatalf("granted %d, want 12", r.Granted)
	}
	g = req("a", 3)
	g.Budget.Want, g.Budget.WantFloor = 5, 5
	if r := sync(g); r.Granted != 0 {
		t.Fatalf("granted %d right after, want 0", r.Granted)
	}
	time.Sleep(600 * time.Millisecond)
	if r := sync(g); r.Granted != 1 {
		t.Fatalf("granted %d after 0.6 s, want 1 (2 a second)", r.Granted)
	}
}

// TestGarbage: whatever is found under the keys, values out of range or
// keys of another type, no call fails, no breaker opens because of it,
// and the script repairs it: the replicas never go local.
func TestGarbage(t *testing.T) {
	srv, admin := newRedis(t)
	ctx := context.Background()
	breaker, counts, budget, _ := redisfleet.Keys("garbage:", "target")
	replace := func(key string, write func(redis.Pipeliner)) error {
		_, err := admin.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			write(p)
			return nil
		})
		return err
	}
	for _, tt := range []struct {
		name  string
		write func() error
	}{
		{name: "open for ever", write: func() error {
			return admin.HSet(ctx, breaker, "gen", 7, "state", 2, "until", "99999999999999999").Err()
		}},
		{name: "unknown state", write: func() error { return admin.HSet(ctx, breaker, "gen", 7, "state", "x").Err() }},
		{name: "counts full of failures", write: func() error {
			return admin.HSet(ctx, counts, "i0", "x", "f0", "-5", "s1", "1e400").Err()
		}},
		{name: "negative balance", write: func() error { return admin.HSet(ctx, budget, "bal", "-1e9", "tat", "nan").Err() }},
		// A key of another type replaces the script's, atomically.
		{name: "breaker a string", write: func() error {
			return replace(breaker, func(p redis.Pipeliner) { p.Set(ctx, breaker, "hello", 0) })
		}},
		{name: "breaker a list", write: func() error {
			return replace(breaker, func(p redis.Pipeliner) { p.RPush(ctx, breaker, "open", "open") })
		}},
		{name: "counts a set", write: func() error {
			return replace(counts, func(p redis.Pipeliner) { p.SAdd(ctx, counts, "f0", "f1") })
		}},
		{name: "budget a sorted set", write: func() error {
			return replace(budget, func(p redis.Pipeliner) { p.ZAdd(ctx, budget, redis.Z{Score: 1, Member: "bal"}) })
		}},
		{name: "budget a stream", write: func() error {
			return replace(budget, func(p redis.Pipeliner) { p.XAdd(ctx, &redis.XAddArgs{Stream: budget, Values: []any{"bal", 1}}) })
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			admin.Del(ctx, breaker, counts, budget)
			tg := newTarget(t)
			cfg := replicaConfig{Target: tg.srv.URL, Pace: 20 * time.Millisecond, Policy: breakerPolicy(), Retries: 2, Redis: srv.Addr()}
			cfg.Policy.Fleet.Prefix = "garbage:"
			f := startFleet(t, 3, cfg)
			if err := tt.write(); err != nil {
				t.Fatal(err)
			}
			// Past the staleness bound: a replica that could not use the
			// keys would have gone local by now.
			time.Sleep(breakerPolicy().Fleet.StaleAfter + 500*time.Millisecond)
			for i, r := range f.rs {
				if st := r.dep.Fleet(); !st.Shared || len(r.stats().Local) != 0 {
					t.Errorf("replica %d: shared %v, went local %d times (%v); want shared throughout", i, st.Shared, len(r.stats().Local), st.Err)
				}
			}
			for _, k := range []string{breaker, counts, budget} {
				if ty := admin.Type(ctx, k).Val(); ty != "hash" && ty != "none" {
					t.Errorf("%s is a %s after the repair, want a hash", k, ty)
				}
			}
			if s := f.rs[0].dep.BreakerState(); s != runtime.BreakerClosed {
				t.Errorf("breaker %v, want closed", s)
			}
			f.close()
			for i, r := range f.rs {
				if s := r.stats(); s.Failed != 0 {
					t.Errorf("replica %d: %d of %d calls failed", i, s.Failed, s.Calls)
				}
			}
		})
	}
}

// lateSender holds each command back for delay and then sends it
// whatever its context says, as a stalled connection does.
type lateSender struct{ delay atomic.Int64 }

func (l *lateSender) DialHook(next redis.DialHook) redis.DialHook { return next }
func (l *lateSender) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if d := time.Duration(l.delay.Load()); d > 0 {
			time.Sleep(d)
			ctx = context.WithoutCancel(ctx)
		}
		return next(ctx, cmd)
	}
}
func (l *lateSender) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestLateRequestDropped: a request that reaches the server after its
// context's deadline (by the server's clock, as the replica last read
// it) changes nothing: its counts were counted long ago, and its replica
// has given up on it.
func TestLateRequestDropped(t *testing.T) {
	_, rdb := newRedis(t)
	late := &lateSender{}
	rdb.AddHook(late)
	s := redisfleet.New(rdb)
	req := &fleetstore.Request{Prefix: "late:", Dependency: "dep", Replica: "a",
		Breaker: breakerRequest(),
		Budget:  fleetstore.BudgetRequest{Disabled: true}}
	sync := func(delay time.Duration, successes uint64) (fleetstore.Reply, error) {
		late.delay.Store(int64(delay))
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		req.Breaker.Successes = successes
		return s.Sync(ctx, req)
	}
	if _, err := sync(0, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := sync(300*time.Millisecond, 7); err == nil || !strings.Contains(err.Error(), "after its deadline") {
		t.Fatalf("a request sent 300 ms late with a 100 ms deadline: error %v, want dropped after its deadline", err)
	}
	r, err := sync(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 5 {
		t.Errorf("fleet window %d requests, want the 5 of the request in time (the 7 of the late one dropped)", r.Requests)
	}
}
