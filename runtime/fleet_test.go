package runtime_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/fleetstore"
)

// memFleet is a fleetstore.Store in memory that runs the shared state machine
// the way redisfleet's script does, on the (fake) clock of its caller.
// hook, when set, runs before each Sync: it can fail it, delay it, or
// replace its reply.
type memFleet struct {
	mu       sync.Mutex
	deps     map[string]*memDep
	watchers map[string]map[int]func()
	nextID   int
	syncs    atomic.Int64
	hook     atomic.Pointer[func(context.Context, *fleetstore.Reply) error]
	// late, when set, applies a request that arrives after its deadline,
	// as a store that cannot tell would.
	late atomic.Bool
}

type memDep struct {
	gen     uint64
	state   runtime.BreakerState
	until   time.Time
	prober  string
	lease   time.Time
	buckets map[int64][2]uint64
	balance int64 // milli-tokens
	tat     time.Time
}

func newMemFleet() *memFleet {
	return &memFleet{deps: map[string]*memDep{}, watchers: map[string]map[int]func(){}}
}

func (m *memFleet) setHook(h func(context.Context, *fleetstore.Reply) error) {
	if h == nil {
		m.hook.Store(nil)
		return
	}
	m.hook.Store(&h)
}

func (m *memFleet) Watch(prefix, dependency string, notify func()) func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := prefix + dependency
	if m.watchers[k] == nil {
		m.watchers[k] = map[int]func(){}
	}
	id := m.nextID
	m.nextID++
	m.watchers[k][id] = notify
	return sync.OnceFunc(func() {
		m.mu.Lock()
		delete(m.watchers[k], id)
		m.mu.Unlock()
	})
}

func (m *memFleet) Sync(ctx context.Context, req *fleetstore.Request) (fleetstore.Reply, error) {
	m.syncs.Add(1)
	var garbage fleetstore.Reply
	if h := m.hook.Load(); h != nil {
		if err := (*h)(ctx, &garbage); err != nil {
			return fleetstore.Reply{}, err
		}
		if garbage != (fleetstore.Reply{}) {
			return garbage, nil
		}
	}
	if err := ctx.Err(); err != nil && !m.late.Load() {
		// A request that arrives after its deadline is dropped.
		return fleetstore.Reply{}, err
	}
	m.mu.Lock()
	k := req.Prefix + req.Dependency
	d := m.deps[k]
	if d == nil {
		d = &memDep{buckets: map[int64][2]uint64{}}
		m.deps[k] = d
	}
	now := time.Now()
	br := req.Breaker
	p := &br
	changed := false
	to := func(s runtime.BreakerState) {
		d.state, d.gen, d.prober, changed = s, d.gen+1, "", true
		d.buckets = map[int64][2]uint64{}
		if s == runtime.BreakerOpen {
			d.until = now.Add(p.OpenFor)
		}
	}
	if d.state == runtime.BreakerOpen && !now.Before(d.until) {
		to(runtime.BreakerHalfOpen)
	}
	if br.Verdict != fleetstore.VerdictNone && br.Generation == d.gen && d.state == runtime.BreakerHalfOpen && d.prober == req.Replica {
		if br.Verdict == fleetstore.VerdictClose {
			to(runtime.BreakerClosed)
		} else {
			to(runtime.BreakerOpen)
		}
	}
	var reply fleetstore.Reply
	if d.state == runtime.BreakerClosed {
		idx := now.UnixNano() / int64(br.Bucket)
		if br.Generation == d.gen {
			c := d.buckets[idx]
			d.buckets[idx] = [2]uint64{c[0] + br.Successes, c[1] + br.Failures}
		}
		n := int64(p.Window / br.Bucket)
		for i, c := range d.buckets {
			if i <= idx-n {
				delete(d.buckets, i)
				continue
			}
			reply.Requests += c[0] + c[1]
			reply.Failures += c[1]
		}
		if reply.Requests >= uint64(p.MinimumCalls) && float64(reply.Failures)*100 >= p.FailureRate*float64(reply.Requests) {
			to(runtime.BreakerOpen)
			reply.Requests, reply.Failures = 0, 0
		}
	}
	if d.state == runtime.BreakerHalfOpen && br.WantProbe && (d.prober == "" || !now.Before(d.lease)) {
		d.prober, d.lease = req.Replica, now.Add(br.ProbeLease)
	}
	if bp := req.Budget; !bp.Disabled {
		deposit, top := int64(bp.Ratio*1000+0.5), int64(bp.MaxBalance*1000)
		d.balance = min(top, d.balance+int64(req.Budget.Calls)*deposit)
		take := min(req.Budget.Want, d.balance/1000)
		d.balance -= take * 1000
		reply.Granted = take
		if n := min(req.Budget.WantFloor, req.Budget.Want-take); n > 0 && bp.MinPerSecond > 0 {
			t := time.Duration(float64(time.Second) / bp.MinPerSecond)
			burst := max(1, int64(bp.MinPerSecond))
			if d.tat.Before(now) {
				d.tat = now
			}
			got := min(n, max(0, int64((time.Duration(burst)*t-d.tat.Sub(now))/t)))
			d.tat = d.tat.Add(time.Duration(got) * t)
			reply.Granted += got
		}
	}
	reply.Generation = d.gen
	reply.State = map[runtime.BreakerState]fleetstore.State{
		runtime.BreakerClosed: fleetstore.Closed, runtime.BreakerHalfOpen: fleetstore.HalfOpen, runtime.BreakerOpen: fleetstore.Open,
	}[d.state]
	if d.state == runtime.BreakerOpen {
		reply.OpenLeft = d.until.Sub(now)
	}
	reply.Prober = d.state == runtime.BreakerHalfOpen && d.prober == req.Replica
	var notify []func()
	if changed {
		for _, w := range m.watchers[k] {
			notify = append(notify, w)
		}
	}
	m.mu.Unlock()
	for _, n := range notify {
		n()
	}
	return reply, nil
}

// fleetEvents records FleetChange and fleet BreakerChange events.
type fleetEvents struct {
	runtime.NopObserver
	mu      sync.Mutex
	changes []runtime.FleetEvent
	opened  time.Time // first fleet transition to open
}

func (e *fleetEvents) FleetChange(ev runtime.FleetEvent) {
	e.mu.Lock()
	e.changes = append(e.changes, ev)
	e.mu.Unlock()
}

func (e *fleetEvents) BreakerChange(ev runtime.BreakerEvent) {
	e.mu.Lock()
	if ev.To == runtime.BreakerOpen && e.opened.IsZero() {
		e.opened = ev.At
	}
	e.mu.Unlock()
}

func (e *fleetEvents) shared() []bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	var s []bool
	for _, c := range e.changes {
		s = append(s, c.Shared)
	}
	return s
}

// fleetPolicy is the policy of the fleet tests: the seed's breaker, a
// 10 % budget with a floor of 10 a second, no retries unless asked.
func fleetPolicy() runtime.DependencyPolicy {
	return runtime.DependencyPolicy{
		Breaker: runtime.BreakerPolicy{FailureRate: 50, MinimumCalls: 20, Window: 10 * time.Second, OpenFor: 30 * time.Second, HalfOpenProbes: 5},
		Budget:  runtime.BudgetPolicy{Ratio: 0.1, MinPerSecond: 10},
		Fleet:   runtime.FleetPolicy{Store: "test", SyncInterval: 200 * time.Millisecond, StaleAfter: time.Second},
	}
}

var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// replica is one replica's dependency and its only operation.
type replica struct {
	dep    *runtime.Dependency
	op     *runtime.Operation
	events *fleetEvents
}

func newReplicas(t *testing.T, n int, p runtime.DependencyPolicy, store fleetstore.Store, op runtime.OperationPolicy) []*replica {
	t.Helper()
	rs := make([]*replica, n)
	for i := range rs {
		ev := &fleetEvents{}
		opts := []runtime.Option{runtime.WithLogger(quietLogger), runtime.WithObserver(ev)}
		if store != nil {
			opts = append(opts, runtime.WithFleet(store))
		}
		dep, err := runtime.NewDependency("inventory", p, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { dep.Close() })
		o, err := dep.Operation(op)
		if err != nil {
			t.Fatal(err)
		}
		rs[i] = &replica{dep: dep, op: o, events: ev}
	}
	return rs
}

// fakeDep is a dependency that is down or up, and counts the attempts
// that reach it.
type fakeDep struct {
	down     atomic.Bool
	attempts atomic.Int64
}

var errUnavailable = errors.New("503 service unavailable")

func (f *fakeDep) attempt(ctx context.Context) (int, error) {
	f.attempts.Add(1)
	time.Sleep(time.Millisecond)
	if f.down.Load() {
		return 0, errUnavailable
	}
	return 1, nil
}

// driveReplicas makes every replica call every pace until d has passed.
func driveReplicas(rs []*replica, dep *fakeDep, pace, d time.Duration) (calls, failed int64) {
	var wg sync.WaitGroup
	var c, f atomic.Int64
	end := time.Now().Add(d)
	for i, r := range rs {
		wg.Go(func() {
			time.Sleep(pace * time.Duration(i) / time.Duration(len(rs))) // spread the replicas
			for time.Now().Before(end) {
				c.Add(1)
				if _, err := runtime.Do(context.Background(), r.op, "", dep.attempt); err != nil {
					f.Add(1)
				}
				time.Sleep(pace)
			}
		})
	}
	wg.Wait()
	return c.Load(), f.Load()
}

func readOp() runtime.OperationPolicy {
	return runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly, Timeout: time.Second, Retry: runtime.RetryPolicy{Disabled: true}}
}

// TestFleetBreakerOpensTogether: replicas calling a dependency that is
// down send it about the minimum calls in total with a fleet store, and
// the minimum calls each without one; with the store, every replica
// refuses within the propagation bound after the first learns it is open.
func TestFleetBreakerOpensTogether(t *testing.T) {
	const replicas, pace = 10, 20 * time.Millisecond
	minCalls := int64(fleetPolicy().Breaker.MinimumCalls)
	for _, tt := range []struct {
		name     string
		fleet    bool
		lo, hi   int64
		maxSkew  time.Duration
		wantOpen bool
	}{
		{name: "local", fleet: false, lo: replicas * minCalls, hi: replicas * minCalls},
		{name: "fleet", fleet: true, lo: minCalls, hi: 2 * minCalls, maxSkew: fleetPolicy().Fleet.SyncInterval},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var store fleetstore.Store
				if tt.fleet {
					store = newMemFleet()
				}
				rs := newReplicas(t, replicas, fleetPolicy(), store, readOp())
				time.Sleep(time.Second) // every replica joins the fleet
				dep := &fakeDep{}
				dep.down.Store(true)
				driveReplicas(rs, dep, pace, 3*time.Second)
				got := dep.attempts.Load()
				if got < tt.lo || got > tt.hi {
					t.Errorf("attempts reaching the dependency = %d, want in [%d, %d]", got, tt.lo, tt.hi)
				}
				var first, last time.Time
				for i, r := range rs {
					if s := r.dep.BreakerState(); s != runtime.BreakerOpen {
						t.Errorf("replica %d: breaker %v, want open", i, s)
					}
					at := r.events.opened
					if first.IsZero() || at.Before(first) {
						first = at
					}
					if at.After(last) {
						last = at
					}
				}
				if tt.fleet && last.Sub(first) > tt.maxSkew {
					t.Errorf("replicas learnt the open breaker over %v, want within %v", last.Sub(first), tt.maxSkew)
				}
				t.Logf("%s: %d attempts reached the dependency; replicas opened within %v", tt.name, got, last.Sub(first))
			})
		})
	}
}

// TestFleetOneProbeRound: after the open period, the fleet's breaker
// closes after one prober's probes, not one round per replica (and the
// ramp each local breaker follows its round with).
func TestFleetOneProbeRound(t *testing.T) {
	const replicas, pace = 10, 20 * time.Millisecond
	probes := int64(fleetPolicy().Breaker.HalfOpenProbes)
	for _, tt := range []struct {
		name  string
		fleet bool
		want  int64
	}{
		// Each replica alone probes, then ramps its traffic back (its
		// breaker half-open meanwhile): a round and a ramp per replica.
		{name: "local", want: replicas * probes},
		{name: "fleet", fleet: true, want: probes},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var store fleetstore.Store
				if tt.fleet {
					store = newMemFleet()
				}
				p := fleetPolicy()
				p.Breaker.OpenFor = 2 * time.Second
				rs := newReplicas(t, replicas, p, store, readOp())
				time.Sleep(time.Second)
				dep := &fakeDep{}
				dep.down.Store(true)
				driveReplicas(rs, dep, pace, time.Second)
				for i, r := range rs {
					if s := r.dep.BreakerState(); s != runtime.BreakerOpen {
						t.Fatalf("replica %d: breaker %v, want open", i, s)
					}
				}
				dep.down.Store(false)
				// Until every replica is closed, count the attempts sent
				// while the sender's breaker was half-open: the probes.
				var wg sync.WaitGroup
				var probed atomic.Int64
				deadline := time.Now().Add(10 * time.Second)
				for _, r := range rs {
					attempt := func(ctx context.Context) (int, error) {
						if r.dep.BreakerState() == runtime.BreakerHalfOpen {
							probed.Add(1)
						}
						return dep.attempt(ctx)
					}
					wg.Go(func() {
						for time.Now().Before(deadline) && r.dep.BreakerState() != runtime.BreakerClosed {
							runtime.Do(context.Background(), r.op, "", attempt)
							time.Sleep(pace)
						}
					})
				}
				wg.Wait()
				for i, r := range rs {
					if s := r.dep.BreakerState(); s != runtime.BreakerClosed {
						t.Errorf("replica %d: breaker %v after recovery, want closed", i, s)
					}
				}
				if got := probed.Load(); got != tt.want && (tt.fleet || got < tt.want) {
					t.Errorf("probes until every replica closed = %d, want %d", got, tt.want)
				}
				t.Logf("%s: %d probes until every replica closed", tt.name, probed.Load())
			})
		})
	}
}

// TestFleetBudget: replicas calling a dependency that always fails retry
// at most the budget's ratio of the fleet's calls plus one fleet-wide
// floor, where local budgets give every replica its own floor.
func TestFleetBudget(t *testing.T) {
	const replicas, pace, run = 10, 50 * time.Millisecond, 10 * time.Second
	p := fleetPolicy()
	p.Breaker.Disabled = true // the budget alone bounds the retries
	op := runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly, Timeout: 5 * time.Second,
		Retry: runtime.RetryPolicy{MaxRetries: 2, Base: time.Millisecond, Cap: time.Millisecond}}
	floor := p.Budget.MinPerSecond * run.Seconds()
	for _, tt := range []struct {
		name  string
		fleet bool
	}{{"local", false}, {"fleet", true}} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var store fleetstore.Store
				if tt.fleet {
					store = newMemFleet()
				}
				rs := newReplicas(t, replicas, p, store, op)
				time.Sleep(time.Second)
				dep := &fakeDep{}
				dep.down.Store(true)
				calls, _ := driveReplicas(rs, dep, pace, run)
				retries := dep.attempts.Load() - calls
				// The floor's burst adds one second of it.
				fleetBound := p.Budget.Ratio*float64(calls) + floor + p.Budget.MinPerSecond
				t.Logf("%s: %d calls, %d retries; fleet bound %.0f", tt.name, calls, retries, fleetBound)
				if tt.fleet && float64(retries) > fleetBound {
					t.Errorf("retries = %d, want at most %.1f × %d calls + %.0f (floor) + %.0f (burst)", retries, p.Budget.Ratio, calls, floor, p.Budget.MinPerSecond)
				}
				if !tt.fleet && float64(retries) < float64(replicas)*floor/2 {
					t.Errorf("local retries = %d, want about %d replicas × %.0f floor", retries, replicas, floor)
				}
			})
		})
	}
}

// TestFleetStoreTrouble: whatever goes wrong with the store (down, slow,
// answering nonsense), no call fails because of it; the replica goes
// local within the staleness bound, says so once, and rejoins when the
// store is back.
func TestFleetStoreTrouble(t *testing.T) {
	down := func(context.Context, *fleetstore.Reply) error { return errors.New("connection refused") }
	slow := func(ctx context.Context, _ *fleetstore.Reply) error {
		time.Sleep(3 * time.Second) // past the request's deadline
		return ctx.Err()
	}
	tests := []struct {
		name string
		hook func(context.Context, *fleetstore.Reply) error
	}{
		{"down", down},
		{"slow", slow},
		{"bad state", func(_ context.Context, r *fleetstore.Reply) error { r.State = 7; return nil }},
		{"open forever", func(_ context.Context, r *fleetstore.Reply) error {
			r.State, r.OpenLeft, r.Generation = fleetstore.Open, 365*24*time.Hour, 99
			return nil
		}},
		{"tokens not asked for", func(_ context.Context, r *fleetstore.Reply) error { r.Granted = 1 << 40; return nil }},
		{"prober while closed", func(_ context.Context, r *fleetstore.Reply) error { r.Prober = true; return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := newMemFleet()
				p := fleetPolicy()
				rs := newReplicas(t, 3, p, store, readOp())
				time.Sleep(time.Second)
				for _, r := range rs {
					if !r.dep.Fleet().Shared {
						t.Fatalf("replica not sharing before the trouble: %+v", r.dep.Fleet())
					}
				}
				dep := &fakeDep{}
				store.setHook(tt.hook)
				start := time.Now()
				local := make(chan time.Duration, 1)
				go func() {
					for rs[0].dep.Fleet().Shared {
						time.Sleep(10 * time.Millisecond)
					}
					local <- time.Since(start)
				}()
				if _, failed := driveReplicas(rs, dep, 20*time.Millisecond, 3*time.Second); failed != 0 {
					t.Errorf("%d calls failed while the store was in trouble", failed)
				}
				if s := rs[0].dep.BreakerState(); s != runtime.BreakerClosed {
					t.Errorf("breaker %v, want closed: the store's answer must not be trusted", s)
				}
				bound := p.Fleet.StaleAfter + p.Fleet.SyncInterval
				wentLocal := <-local
				if wentLocal > bound {
					t.Errorf("went local after %v, want within %v", wentLocal, bound)
				}
				store.setHook(nil)
				time.Sleep(2 * p.Fleet.SyncInterval)
				for i, r := range rs {
					if got := r.events.shared(); !equalBools(got, []bool{true, false, true}) {
						t.Errorf("replica %d: fleet changes %v, want [true false true]: joined, went local once, rejoined", i, got)
					}
				}
				t.Logf("went local after %v", wentLocal)
			})
		})
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFleetOpenHonouredThenLocal: a fleet breaker known to be open stays
// open when the store goes away, until the end of its open period and no
// longer; then the local breaker decides.
func TestFleetOpenHonouredThenLocal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemFleet()
		p := fleetPolicy()
		p.Breaker.OpenFor = 5 * time.Second
		rs := newReplicas(t, 2, p, store, readOp())
		time.Sleep(time.Second)
		dep := &fakeDep{}
		dep.down.Store(true)
		driveReplicas(rs, dep, 20*time.Millisecond, time.Second)
		opened := rs[0].events.opened
		if opened.IsZero() {
			t.Fatal("the fleet breaker did not open")
		}
		store.setHook(func(context.Context, *fleetstore.Reply) error { return errors.New("down") })
		dep.down.Store(false)
		time.Sleep(time.Until(opened.Add(p.Breaker.OpenFor)) - 100*time.Millisecond)
		if s := rs[0].dep.BreakerState(); s != runtime.BreakerOpen {
			t.Errorf("before the end of the open period: breaker %v, want open", s)
		}
		time.Sleep(p.Fleet.SyncInterval + 200*time.Millisecond)
		if s := rs[0].dep.BreakerState(); s != runtime.BreakerClosed {
			t.Errorf("after the open period, store away: breaker %v, want the local one, closed", s)
		}
		if _, err := runtime.Do(context.Background(), rs[0].op, "", dep.attempt); err != nil {
			t.Errorf("call after the open period: %v", err)
		}
	})
}

// TestFleetSuccessPathSyncs: successful calls add nothing to the
// synchronisation: the periodic Syncs with two thousand calls as with
// none.
func TestFleetSuccessPathSyncs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemFleet()
		rs := newReplicas(t, 1, fleetPolicy(), store, readOp())
		time.Sleep(time.Second)
		dep := &fakeDep{}
		n0 := store.syncs.Load()
		time.Sleep(2 * time.Second)
		idle := store.syncs.Load() - n0
		n0 = store.syncs.Load()
		for range 2000 {
			if _, err := runtime.Do(context.Background(), rs[0].op, "", dep.attempt); err != nil {
				t.Fatal(err)
			}
		} // 2000 calls of 1 ms: two seconds
		busy := store.syncs.Load() - n0
		time.Sleep(2 * fleetPolicy().Fleet.SyncInterval) // the last counts pushed
		// Periodic syncs only: 2 s / 200 ms, give or take the one in
		// progress at either end.
		for _, n := range []int64{idle, busy} {
			if n < 9 || n > 11 {
				t.Errorf("syncs in 2 s: %d with 2000 successful calls, %d with none; want 10 ± 1 in both", busy, idle)
			}
		}
		if st := rs[0].dep.Fleet(); st.Requests != 2000 {
			t.Errorf("fleet window counts %d requests, want the 2000 calls", st.Requests)
		}
	})
}

// TestFleetClose: Close ends the synchronisation; the dependency goes on
// locally and a second Close does nothing.
func TestFleetClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemFleet()
		rs := newReplicas(t, 1, fleetPolicy(), store, readOp())
		time.Sleep(time.Second)
		rs[0].dep.Close()
		rs[0].dep.Close()
		n := store.syncs.Load()
		time.Sleep(time.Second)
		if store.syncs.Load() != n {
			t.Error("syncs after Close")
		}
		if rs[0].dep.Fleet().Shared {
			t.Error("still shared after Close")
		}
		if _, err := runtime.Do(context.Background(), rs[0].op, "", (&fakeDep{}).attempt); err != nil {
			t.Errorf("call after Close: %v", err)
		}
	})
}

// TestFleetRejoinDropsLocalCounts: what a replica counted while the store
// was away is not pushed into the fleet's window when it rejoins.
func TestFleetRejoinDropsLocalCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemFleet()
		rs := newReplicas(t, 1, fleetPolicy(), store, readOp())
		time.Sleep(time.Second)
		store.setHook(func(context.Context, *fleetstore.Reply) error { return errors.New("down") })
		time.Sleep(2 * time.Second)
		if rs[0].dep.Fleet().Shared {
			t.Fatal("still shared with the store down")
		}
		dep := &fakeDep{}
		dep.down.Store(true)
		for range 15 { // under the local minimum calls
			runtime.Do(context.Background(), rs[0].op, "", dep.attempt)
		}
		store.setHook(nil)
		time.Sleep(2 * fleetPolicy().Fleet.SyncInterval)
		st := rs[0].dep.Fleet()
		if !st.Shared || st.Requests != 0 {
			t.Errorf("after rejoining: shared %v, fleet window %d requests; want shared, 0 (the local failures stay local)", st.Shared, st.Requests)
		}
	})
}

// TestFleetStallDropsStaleCounts: a store whose client ignores the
// context's deadline (as go-redis does with its default options) stalls
// for 3 s. Each synchronisation is abandoned at its deadline and the next
// ones are still made; the replicas go local; and when the store answers
// again, none of the outcomes counted during the stall reach the fleet's
// window, neither through the synchronisations that were stuck nor
// through the first ones after.
func TestFleetStallDropsStaleCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemFleet()
		store.late.Store(true)
		p := fleetPolicy()
		rs := newReplicas(t, 2, p, store, readOp())
		time.Sleep(time.Second)
		release := make(chan struct{})
		var started atomic.Int64
		store.setHook(func(context.Context, *fleetstore.Reply) error {
			started.Add(1)
			<-release // the deadline is ignored
			return nil
		})
		dep := &fakeDep{}
		stalled, _ := driveReplicas(rs, dep, 20*time.Millisecond, 3*time.Second) // stalled from the start
		for i, r := range rs {
			if r.dep.Fleet().Shared {
				t.Errorf("replica %d still shared after a 3 s stall", i)
			}
		}
		store.setHook(nil)
		close(release)
		after, _ := driveReplicas(rs, dep, 20*time.Millisecond, time.Second)
		time.Sleep(2 * p.Fleet.SyncInterval)
		st := rs[0].dep.Fleet()
		t.Logf("%d synchronisations started during the stall; %d calls during it, %d after; fleet window %d requests", started.Load(), stalled, after, st.Requests)
		if n := started.Load(); n <= int64(len(rs)) {
			t.Errorf("%d synchronisations started during the stall by %d replicas: each blocked on its first", n, len(rs))
		}
		// The first synchronisation of the stall, applied when it ends,
		// carries the outcomes of one interval before the stall.
		bound := uint64(after) + uint64(len(rs))*uint64(p.Fleet.SyncInterval/(20*time.Millisecond)+1)
		if !st.Shared || st.Requests > bound {
			t.Errorf("after the stall: shared %v, fleet window %d requests; want shared, at most the %d calls made since and one interval before the stall (the %d of the stall stay local)", st.Shared, st.Requests, after, stalled)
		}
	})
}

// TestFleetWarmRetriesWithinBound: 20 replicas whose operation retries
// twice warm the fleet's budget with healthy calls, make none for one
// breaker window, and then all call at once a dependency that went down,
// with the store 4 ms away. At most twice the minimum calls reach it
// before the fleet is open (43 did when retries did not wait): a replica
// holds retry tokens, but sends no retry before the fleet has counted the
// failure before it.
func TestFleetWarmRetriesWithinBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const replicas = 20
		p := fleetPolicy()
		op := readOp()
		op.Retry = runtime.RetryPolicy{MaxRetries: 2, Base: 5 * time.Millisecond, Cap: 5 * time.Millisecond}
		store := newMemFleet()
		rs := newReplicas(t, replicas, p, store, op)
		time.Sleep(time.Second)
		dep := &fakeDep{}
		driveReplicas(rs, dep, 100*time.Millisecond, 6*time.Second)
		var tokens int64
		for _, r := range rs {
			tokens += r.dep.Fleet().Tokens
		}
		time.Sleep(p.Breaker.Window)
		// A round trip of 4 ms to the store, as on a busy machine.
		store.setHook(func(context.Context, *fleetstore.Reply) error { time.Sleep(4 * time.Millisecond); return nil })
		dep.down.Store(true)
		before := dep.attempts.Load()
		var wg sync.WaitGroup
		for _, r := range rs {
			wg.Go(func() {
				for range 10 {
					runtime.Do(context.Background(), r.op, "", dep.attempt)
					time.Sleep(100 * time.Millisecond)
				}
			})
		}
		wg.Wait()
		reached := dep.attempts.Load() - before
		for i, r := range rs {
			if s := r.dep.BreakerState(); s != runtime.BreakerOpen {
				t.Errorf("replica %d: breaker %v, want open", i, s)
			}
		}
		t.Logf("%d retry tokens held; %d attempts reached the dependency", tokens, reached)
		if bound := 2 * int64(p.Breaker.MinimumCalls); reached > bound {
			t.Errorf("%d attempts reached the dependency, want at most %d", reached, bound)
		}
	})
}
