package faults

import (
	"context"
	"errors"
	"fmt"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/examples/petstore"
	"github.com/resilientgo/resilient/runtime"
)

// Kind says which client a run drives.
type Kind string

// The clients a scenario runs against.
const (
	// Resilient is the generated resilient client with its policy.
	Resilient Kind = "resilient"
	// ResilientNoHedge is the resilient client with hedging turned off.
	ResilientNoHedge Kind = "resilient, no hedging"
	// Naive is a plain client: one attempt, the caller's deadline only.
	Naive Kind = "naive"
)

// Options configure Run.
type Options struct {
	// Phase is the length of each scenario's fault phase; zero means 1.5 s.
	// Some scenarios stretch it to see their fault through (the 503
	// window needs the breaker's open period and a probe round).
	Phase time.Duration
	// Warmup is the healthy period before the phase, which fills the
	// fallback cache and the connection pools; zero means 300 ms.
	Warmup time.Duration
	// Scenarios are the scenario IDs to run; nil runs all.
	Scenarios []int
	// Transports to run; nil runs HTTP and gRPC.
	Transports []Transport
	// Kinds to run; nil runs Resilient and Naive (and ResilientNoHedge where
	// a scenario compares hedging).
	Kinds []Kind
	// NewClient makes the clients; nil uses the pet store's constructors.
	NewClient NewClientFunc
	// Progress, when set, is called as each run starts (r.Calls == 0 and
	// done false) and finishes.
	Progress func(r *Result, done bool)
}

// NewClientFunc returns a client of kind for transport that calls the store
// at addr (host:port).
type NewClientFunc func(kind Kind, t Transport, addr string) (petstore.Client, error)

// Run runs the selected scenarios, each against each transport and client
// kind, one after the other, and returns their results in that order.
// Each run has its own servers, proxy and client. An error is returned only
// when the policy cannot be loaded or ctx ends; a run that fails carries its
// error in Result.Err.
func Run(ctx context.Context, opts Options) ([]*Result, error) {
	pols, err := LoadPolicy()
	if err != nil {
		return nil, err
	}
	if opts.Phase <= 0 {
		opts.Phase = 1500 * time.Millisecond
	}
	if opts.Warmup <= 0 {
		opts.Warmup = 300 * time.Millisecond
	}
	if opts.NewClient == nil {
		opts.NewClient = NewClient
	}
	transports := opts.Transports
	if transports == nil {
		transports = []Transport{HTTP, GRPC}
	}
	var out []*Result
	for _, sc := range Scenarios() {
		if opts.Scenarios != nil && !containsInt(opts.Scenarios, sc.ID) {
			continue
		}
		for _, t := range transports {
			for _, k := range kindsFor(sc, opts.Kinds) {
				if err := ctx.Err(); err != nil {
					return out, err
				}
				r := &Result{Scenario: sc, Transport: t, Kind: k, Policy: pols[t]}
				r.Plan = sc.Plan(r.Policy, opts.Phase)
				if opts.Progress != nil {
					opts.Progress(r, false)
				}
				runOne(ctx, r, opts)
				if opts.Progress != nil {
					opts.Progress(r, true)
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}

func kindsFor(sc Scenario, want []Kind) []Kind {
	all := []Kind{Resilient, Naive}
	if sc.CompareHedging {
		all = []Kind{Resilient, ResilientNoHedge, Naive}
	}
	if want == nil {
		return all
	}
	var ks []Kind
	for _, k := range all {
		for _, w := range want {
			if k == w {
				ks = append(ks, k)
			}
		}
	}
	return ks
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// runOne runs r's scenario: baseline counts, stack, client, warm-up,
// fault phase, teardown, and the counts after.
func runOne(ctx context.Context, r *Result, opts Options) {
	r.GoroutinesBefore = ownGoroutines()
	r.SocketsBefore = openSockets()
	defer func() {
		r.GoroutinesAfter, r.SocketsAfter = settle(r.GoroutinesBefore, r.SocketsBefore)
	}()

	st, err := StartStack(r.Transport, r.Plan.Shed)
	if err != nil {
		r.Err = err
		return
	}
	defer st.Close()
	c, err := opts.NewClient(r.Kind, r.Transport, st.Addr)
	if err != nil {
		r.Err = fmt.Errorf("faults: client: %w", err)
		return
	}
	defer c.Close()
	r.Client = c.Name()

	// Warm-up: the healthy store, callers at the planned pace, with the
	// usual deadline; fills caches and pools, and banks retry budget.
	warm := r.Plan
	warm.Callers = min(warm.Callers, 8)
	warm.Deadline = r.Policy.MaxTimeout()
	ws := drive(ctx, c, r.Scenario.Mix, warm, opts.Warmup)
	r.WarmupCalls = len(ws.samples)

	st.Counters.Reset()
	fctx, stop := context.WithCancel(ctx)
	injected := make(chan error, 1)
	go func() { injected <- r.Scenario.Inject(fctx, st, r.Plan) }()

	seen := watchBreaker(fctx, c)
	start := time.Now()
	s := drive(ctx, c, r.Scenario.Mix, r.Plan, r.Plan.Phase)
	r.Elapsed = time.Since(start)
	snap := st.Counters.Snapshot()
	r.ServerConns = st.OpenConns()
	r.Breaker = c.Breaker()
	stop()
	if err := <-injected; err != nil {
		r.Err = fmt.Errorf("faults: inject: %w", err)
	}
	r.BreakerSeen = <-seen
	st.Faults.Reset()

	s.fill(r)
	r.Requests = snap.Requests + snap.Shed
	r.Shed = snap.Shed
	r.MaxInFlight = snap.MaxInFlight
	r.KeysApplied = len(snap.Applied)
	r.MaxApplied = snap.MaxApplied()
	r.KeylessCreates = snap.Applied[""]
	if r.KeylessCreates > 0 {
		r.KeysApplied--
	}
	r.AdoptRequests = snap.PerOperation[petstore.OpAdoptPet]
	r.AdoptsApplied = snap.TotalAdopts()
}

// watchBreaker samples c's breaker state every few milliseconds until ctx
// ends, and sends the states seen, repeats collapsed.
func watchBreaker(ctx context.Context, c petstore.Client) <-chan []string {
	out := make(chan []string, 1)
	go func() {
		var seen []string
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			s := c.Breaker()
			if len(seen) == 0 || seen[len(seen)-1] != s {
				seen = append(seen, s)
			}
			select {
			case <-ctx.Done():
				out <- seen
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// settle waits up to 3 s for the goroutine and socket counts to come back
// to their baselines, and returns the last counts.
func settle(goroutines, sockets int) (int, int) {
	deadline := time.Now().Add(3 * time.Second)
	for {
		g, s := ownGoroutines(), openSockets()
		if (g <= goroutines && s <= sockets) || time.Now().After(deadline) {
			return g, s
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// toxicPipe is where goroutines of Toxiproxy v2.5.0 stay blocked, sending
// into a toxic chain that a reset_peer toxic has torn down, after the
// proxy is stopped. They belong to the fault injector, not to the clients
// or servers under test, and are left out of the counts (and of goleak's
// checks in the tests).
const toxicPipe = "github.com/Shopify/toxiproxy/v2/toxics.(*NoopToxic).Pipe"

// ownGoroutines counts the process's goroutines except Toxiproxy's
// blocked toxic pipes.
func ownGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := goruntime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\ngoroutine ") {
		if !strings.Contains(g, toxicPipe) {
			count++
		}
	}
	return count
}

// openSockets counts the process's open sockets (Linux /proc); -1 when it
// cannot tell.
func openSockets() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

// sample is one call as its caller saw it.
type sample struct {
	op       Op
	latency  time.Duration
	err      error
	degraded bool
}

type samples struct {
	samples []sample
}

// drive runs pl.Callers callers for d, each starting a call every
// pl.Period (or as soon as the last one ended, if later), cycling through
// mix, each call under pl.Deadline.
func drive(ctx context.Context, c petstore.Client, mix []Op, pl Plan, d time.Duration) samples {
	var (
		mu  sync.Mutex
		all []sample
		wg  sync.WaitGroup
	)
	start := time.Now()
	end := start.Add(d)
	for i := range pl.Callers {
		wg.Go(func() {
			var mine []sample
			offset := pl.Period * time.Duration(i) / time.Duration(pl.Callers)
			for k := 0; ; k++ {
				next := start.Add(offset + time.Duration(k)*pl.Period)
				if wait := time.Until(next); wait > 0 {
					select {
					case <-ctx.Done():
					case <-time.After(wait):
					}
				}
				if ctx.Err() != nil || !time.Now().Before(end) {
					break
				}
				op := mix[(i+k*pl.Callers)%len(mix)]
				cctx, cancel := context.WithTimeout(ctx, pl.Deadline)
				t0 := time.Now()
				a, err := call(cctx, c, op, i, k)
				lat := time.Since(t0)
				cancel()
				mine = append(mine, sample{op: op, latency: lat, err: err, degraded: a.Degraded})
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return samples{samples: all}
}

// call makes one call of op. Reads, updates and adopts use the seeded pets;
// deletes use fresh ids (deleting a missing pet succeeds); creates fresh
// names.
func call(ctx context.Context, c petstore.Client, op Op, caller, k int) (petstore.Answer, error) {
	seed := petstore.SeedPets[(caller+k)%len(petstore.SeedPets)]
	tag := strconv.Itoa(caller) + "-" + strconv.Itoa(k)
	switch op {
	case ListPets:
		return c.ListPets(ctx)
	case GetPet:
		return c.GetPet(ctx, seed)
	case CreatePet:
		return c.CreatePet(ctx, "pet-"+tag)
	case UpdatePet:
		return c.UpdatePet(ctx, seed, "renamed-"+tag)
	case DeletePet:
		return c.DeletePet(ctx, "gone-"+tag)
	case AdoptPet:
		return c.AdoptPet(ctx, seed)
	}
	return petstore.Answer{}, fmt.Errorf("faults: unknown operation %q", op)
}

// fastFail reports whether err is a fast failure of the pipeline.
func fastFail(err error) bool {
	return errors.Is(err, runtime.ErrCircuitOpen) || errors.Is(err, runtime.ErrBulkheadFull) || errors.Is(err, runtime.ErrBudgetExhausted)
}

// attemptsBefore returns how many attempts a fast-failed call had sent
// before it was refused.
func attemptsBefore(err error) int {
	var co *runtime.CircuitOpenError
	if errors.As(err, &co) {
		return co.Attempts
	}
	var be *runtime.BudgetExhaustedError
	if errors.As(err, &be) {
		return be.Attempts
	}
	return 0
}

// fill computes r's caller-side figures from the samples.
func (s samples) fill(r *Result) {
	r.Calls = len(s.samples)
	r.DegradedByOp = map[Op]int{}
	r.ErrorSamples = map[string]int{}
	lat := make([]time.Duration, 0, len(s.samples))
	var ff []time.Duration
	for _, x := range s.samples {
		lat = append(lat, x.latency)
		switch x.op {
		case CreatePet:
			r.CreatesSent++
			if x.err == nil {
				r.CreatesOK++
			}
		case AdoptPet:
			r.AdoptsSent++
		}
		switch {
		case x.err == nil && x.degraded:
			r.Degraded++
			r.DegradedByOp[x.op]++
		case x.err == nil:
			r.OK++
		case fastFail(x.err):
			r.FastFail++
			if attemptsBefore(x.err) == 0 {
				ff = append(ff, x.latency)
			}
		default:
			r.Errors++
		}
		if x.err != nil {
			msg := x.err.Error()
			if len(msg) > 80 {
				msg = msg[:80]
			}
			r.ErrorSamples[msg]++
		}
	}
	r.Latencies = sortedCopy(lat)
	r.P50 = percentile(r.Latencies, 0.50)
	r.P99 = percentile(r.Latencies, 0.99)
	r.FastFailP99 = percentile(sortedCopy(ff), 0.99)
}
