package faults

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/examples/petstore"
	"github.com/resilientgo/resilient/runtime"
)

// Options configure Run.
type Options struct {
	// Phase is the length of each scenario's fault phase; zero means 1.5 s.
	// The 503 window stretches it to see the breaker close again.
	Phase time.Duration
	// Warmup is the healthy period before the phase, which fills the
	// fallback caches, the connection pools and the latency estimates;
	// zero means 300 ms.
	Warmup time.Duration
	// Scenarios are the names of the scenarios to run; nil runs all.
	Scenarios []string
	// Transports to run; nil runs HTTP and gRPC.
	Transports []Transport
	// Arms to run in each row; nil runs them all ([Arms]).
	Arms []Arm
	// NewClient makes the clients; nil uses [NewClient].
	NewClient NewClientFunc
	// Logger receives the clients' own log lines, each with the scenario,
	// transport and arm; nil discards them.
	Logger *slog.Logger
	// Progress, when set, is called as each row starts, about every
	// quarter of a second while it runs, and when it is done.
	Progress func(Progress)
	// MaxStall is the most a call may start after its planned time, and
	// the most the process's goroutines may wait for a core at the p99
	// during the fault phase, for the row to count: more means the machine
	// stalled the harness, which distorts every arm's figures, so the row
	// is run again. The calls' dispatcher alone misses a process that
	// runs its timers on time but whose other goroutines queue for the
	// cores (the answers, the store's work); the scheduler's own record of
	// the waits ([runtime/metrics] /sched/latencies) sees it. Zero means a
	// quarter of the reference deadline.
	MaxStall time.Duration
	// Reruns is how many times a stalled row is run again; zero means 2,
	// a negative value none. A row still stalled is kept and marked.
	Reruns int
}

// Progress is where a run of the suite is.
type Progress struct {
	// Row counts the rows from 1; Rows is their number.
	Row, Rows int
	Scenario  Scenario
	Transport Transport
	// Stage is "warm-up", "fault", "rerun" (the machine stalled the
	// harness; the row runs again) or "done".
	Stage string
	// Elapsed is the time since the fault phase began, of Phase.
	Elapsed, Phase time.Duration
	// Calls counts each arm's calls in the phase so far.
	Calls map[Arm]int
}

// Run runs the selected scenarios over each transport, one row after the
// other. In a row the arms run side by side, each with its own servers,
// proxy and client, warmed up apart and then put under the same fault at
// the same moment, so that they meet the same machine. An error is
// returned only when the policy cannot be loaded or ctx ends; a run that
// fails carries its error in [Result.Err].
func Run(ctx context.Context, opts Options) ([]*Row, error) {
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
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	transports := cmpOr(opts.Transports, []Transport{HTTP, GRPC})
	arms := cmpOr(opts.Arms, Arms)
	var rows []*Row
	for _, sc := range Scenarios() {
		if opts.Scenarios != nil && !slices.Contains(opts.Scenarios, sc.Name) {
			continue
		}
		for _, t := range transports {
			pol := pols[t]
			rows = append(rows, &Row{Scenario: sc, Transport: t, Plan: sc.Plan(pol, opts.Phase), Policy: pol,
				Deadline: pol.MaxTimeout(), Arms: map[Arm]*Result{}})
		}
	}
	reruns := opts.Reruns
	switch {
	case reruns == 0:
		reruns = 2
	case reruns < 0:
		reruns = 0
	}
	for i, row := range rows {
		maxStall := opts.MaxStall
		if maxStall <= 0 {
			maxStall = row.Deadline / 4
		}
		for {
			if err := ctx.Err(); err != nil {
				return rows[:i], err
			}
			row.Runs++
			row.Arms = map[Arm]*Result{}
			runRow(ctx, row, arms, opts, i+1, len(rows))
			row.Stall = row.maxLate()
			stalled := row.Stall > maxStall || row.SchedP99 > maxStall
			if !stalled || row.Runs > reruns {
				row.Stalled = stalled
				break
			}
			if opts.Progress != nil {
				opts.Progress(Progress{Row: i + 1, Rows: len(rows), Scenario: row.Scenario, Transport: row.Transport,
					Stage: "rerun", Phase: row.Plan.Phase, Calls: map[Arm]int{}})
			}
		}
	}
	return rows, nil
}

// maxLate returns the latest start of a call after its planned time, over
// the row's arms.
func (row *Row) maxLate() time.Duration {
	var m time.Duration
	for _, r := range row.Arms {
		m = max(m, r.MaxLate)
	}
	return m
}

func cmpOr[T any](s, def []T) []T {
	if s == nil {
		return def
	}
	return s
}

// ScenarioNames returns the short ids of every scenario, in order.
func ScenarioNames() []string {
	var names []string
	for _, sc := range Scenarios() {
		names = append(names, sc.Name)
	}
	return names
}

// runRow runs the arms of row side by side.
func runRow(ctx context.Context, row *Row, arms []Arm, opts Options, n, total int) {
	row.GoroutinesBefore = ownGoroutines()
	row.SocketsBefore = openSockets()

	var (
		warmed  sync.WaitGroup
		done    sync.WaitGroup
		begin   = make(chan struct{})
		started time.Time // written before begin is closed
		mu      sync.Mutex
		live    = map[Arm]*atomic.Int64{}
	)
	for _, a := range arms {
		live[a] = new(atomic.Int64)
	}
	report := func(stage string) {
		if opts.Progress == nil {
			return
		}
		p := Progress{Row: n, Rows: total, Scenario: row.Scenario, Transport: row.Transport, Stage: stage,
			Phase: row.Plan.Phase, Calls: map[Arm]int{}}
		if stage != "warm-up" {
			p.Elapsed = min(time.Since(started), row.Plan.Phase)
		}
		for a, c := range live {
			p.Calls[a] = int(c.Load())
		}
		opts.Progress(p)
	}
	report("warm-up")
	warmed.Add(len(arms))
	for _, a := range arms {
		done.Go(func() {
			r := runArm(ctx, row, a, opts, &warmed, begin, &started, live[a])
			mu.Lock()
			row.Arms[a] = r
			mu.Unlock()
		})
	}
	warmed.Wait()
	started = time.Now()
	sched := readSched()
	close(begin)

	tick := time.NewTicker(250 * time.Millisecond)
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	for waiting := true; waiting; {
		select {
		case <-tick.C:
			report("fault")
		case <-finished:
			waiting = false
		}
	}
	tick.Stop()
	row.SchedP99 = schedQuantile(sched, readSched(), 0.99)
	row.GoroutinesAfter, row.SocketsAfter = settle(row.GoroutinesBefore, row.SocketsBefore)
	report("done")
}

// runArm runs one arm of row: its stack and client, the warm-up, then,
// once every arm is warm (warmed) and the phase begins (begin closed, at
// *started), the fault phase, and the teardown.
func runArm(ctx context.Context, row *Row, a Arm, opts Options, warmed *sync.WaitGroup, begin <-chan struct{}, started *time.Time, live *atomic.Int64) *Result {
	r := &Result{Arm: a, Breaker: "none"}
	ready := sync.OnceFunc(warmed.Done)
	defer ready()

	st, err := StartStack(row.Transport, row.Plan.Shed, row.Scenario.Network)
	if err != nil {
		r.Err = err
		return r
	}
	defer st.Close()
	bl := &breakerLog{}
	c, err := opts.NewClient(a, row.Transport, ClientConfig{
		Addr:     st.Addr,
		Logger:   opts.Logger.With("scenario", row.Scenario.Name, "transport", string(row.Transport), "arm", string(a)),
		Observer: bl,
		Tuned:    TunedConfig(row.Policy),
	})
	if err != nil {
		r.Err = fmt.Errorf("faults: %s client: %w", a, err)
		return r
	}
	defer c.Close()
	r.Client = c.Name()

	// Warm-up: the healthy store at the planned pace with the usual
	// deadline; fills caches, pools and latency estimates, and banks
	// retry budget.
	warm := row.Plan
	warm.Deadline = row.Deadline
	warmSamples := drive(ctx, c, row.Scenario.Mix, warm, opts.Warmup, string(a)+"-warm", nil)
	r.WarmupCalls = len(warmSamples)
	r.PreFaultOK = okShare(warmSamples)
	ready()
	<-begin

	st.Counters.Reset()
	fctx, stop := context.WithCancel(ctx)
	injected := make(chan error, 1)
	go func() { injected <- row.Scenario.Inject(fctx, st, row.Plan) }()
	samples := drive(ctx, c, row.Scenario.Mix, row.Plan, row.Plan.Phase, string(a), live)
	r.Elapsed = time.Since(*started)
	snap := st.Counters.Snapshot()
	if c.Breaker() != "none" {
		r.Breaker = c.Breaker()
	}
	stop()
	if err := <-injected; err != nil {
		r.Err = fmt.Errorf("faults: inject: %w", err)
	}
	st.Faults.Reset()

	r.fill(samples, row.Deadline)
	r.Timeline = bucketize(samples, BucketWidth, row.Plan.Phase)
	r.Requests = snap.Requests + snap.Shed
	r.Shed = snap.Shed
	r.MaxInFlight = snap.MaxInFlight
	r.SlowWaited, r.SlowCut = snap.SlowWaited, snap.SlowCut
	r.Duplicates = snap.DuplicateEffects()
	r.KeylessCreates = snap.Applied[""]
	r.Transitions = bl.since(*started)
	return r
}

// breakerLog records a resilient client's breaker transitions.
type breakerLog struct {
	runtime.NopObserver
	mu     sync.Mutex
	events []runtime.BreakerEvent
}

func (b *breakerLog) BreakerChange(e runtime.BreakerEvent) {
	b.mu.Lock()
	b.events = append(b.events, e)
	b.mu.Unlock()
}

// since returns the transitions at or after start, timed from it.
func (b *breakerLog) since(start time.Time) []Transition {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ts []Transition
	for _, e := range b.events {
		if !e.At.Before(start) {
			ts = append(ts, Transition{At: e.At.Sub(start), From: e.From, To: e.To})
		}
	}
	return ts
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
	// late is how long after its planned time the call started; at is its
	// planned start since the run of calls began.
	late, at time.Duration
}

// okShare returns the share of s answered fresh, 0 for none.
func okShare(s []sample) float64 {
	if len(s) == 0 {
		return 0
	}
	ok := 0
	for _, x := range s {
		if x.err == nil && !x.degraded {
			ok++
		}
	}
	return float64(ok) / float64(len(s))
}

// drive makes calls for d and returns them. Calls start at pl.Rate per
// second whatever the earlier ones are doing (open loop), each in its own
// goroutine, cycle through mix, and run under pl.Deadline with the call id
// prefix-k. live, when set, counts the calls as they end.
func drive(ctx context.Context, c petstore.Client, mix []Op, pl Plan, d time.Duration, prefix string, live *atomic.Int64) []sample {
	var (
		mu  sync.Mutex
		all []sample
		wg  sync.WaitGroup
	)
	start := time.Now()
	one := func(k int, planned time.Time) {
		late := time.Since(planned)
		op := mix[k%len(mix)]
		cctx, cancel := context.WithTimeout(ctx, pl.Deadline)
		cctx = petstore.WithCallID(cctx, prefix+"-"+strconv.Itoa(k))
		t0 := time.Now()
		a, err := call(cctx, c, op, k)
		lat := time.Since(t0)
		cancel()
		mu.Lock()
		all = append(all, sample{op: op, latency: lat, err: err, degraded: a.Degraded, late: late, at: planned.Sub(start)})
		mu.Unlock()
		if live != nil {
			live.Add(1)
		}
	}
	end := start.Add(d)
	wait := func(until time.Time) bool {
		if w := time.Until(until); w > 0 {
			t := time.NewTimer(w)
			defer t.Stop()
			select {
			case <-ctx.Done():
			case <-t.C:
			}
		}
		return ctx.Err() == nil && time.Now().Before(end)
	}
	interval := time.Duration(float64(time.Second) / pl.Rate)
	for k := 0; ; k++ {
		planned := start.Add(time.Duration(k) * interval)
		if !wait(planned) {
			break
		}
		wg.Go(func() { one(k, planned) })
	}
	wg.Wait()
	return all
}

// call makes one call of op, the k-th of its run. Reads, updates and
// adopts use the seeded pets; deletes use fresh ids (deleting a missing
// pet succeeds); creates fresh names.
func call(ctx context.Context, c petstore.Client, op Op, k int) (petstore.Answer, error) {
	seed := petstore.SeedPets[k%len(petstore.SeedPets)]
	tag := strconv.Itoa(k)
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

// refusedBeforeSending reports whether the pipeline failed a call before
// any attempt was sent: breaker open, throttled, bulkhead full, or the
// deadline too close to try.
func refusedBeforeSending(err error) bool {
	var co *runtime.CircuitOpenError
	if errors.As(err, &co) {
		return co.Attempts == 0
	}
	var te *runtime.ThrottledError
	if errors.As(err, &te) {
		return te.Attempts == 0
	}
	if errors.Is(err, runtime.ErrBulkheadFull) {
		return true
	}
	var de *runtime.DeadlineExceededError
	return errors.As(err, &de) && de.Attempts == 0
}

// fill computes r's caller-side figures from the samples; deadline is the
// reference deadline of the fast and slow failures.
func (r *Result) fill(s []sample, deadline time.Duration) {
	r.Calls = len(s)
	r.Errors = map[string]int{}
	lat := make([]time.Duration, 0, len(s))
	var refused, refusedWall []time.Duration
	byPlan := slices.SortedFunc(slices.Values(s), func(a, b sample) int { return cmp.Compare(a.at, b.at) })
	for _, x := range s {
		lat = append(lat, x.latency)
		r.MaxLate = max(r.MaxLate, x.late)
		switch {
		case x.err == nil && x.degraded:
			r.Degraded++
		case x.err == nil:
			r.OK++
		case x.latency < deadline/10:
			r.FailedFast++
		default:
			r.FailedSlow++
		}
		if x.err != nil {
			if refusedBeforeSending(x.err) {
				r.Refused++
				refused = append(refused, max(0, x.latency-stalledDuring(byPlan, x)))
				refusedWall = append(refusedWall, x.latency)
			}
			msg := x.err.Error()
			if len(msg) > 300 {
				msg = msg[:300]
			}
			r.Errors[msg]++
		}
	}
	slices.Sort(lat)
	slices.Sort(refused)
	slices.Sort(refusedWall)
	r.Latencies = lat
	r.P50 = percentile(lat, 0.50)
	r.P99 = percentile(lat, 0.99)
	r.RefusedP50 = percentile(refused, 0.50)
	r.RefusedP99 = percentile(refused, 0.99)
	r.RefusedWallP50 = percentile(refusedWall, 0.50)
}

// stalledDuring returns how long the process was stalled while the call x
// ran, as the calls' dispatcher saw it: the latest start after its planned
// time among the calls planned while x ran (byPlan holds the run's calls
// by planned start). The dispatcher wakes at every planned start (every
// 2.5 ms at 400 calls per second); a process that runs starts each within
// microseconds, one whose goroutines wait for a core starts the first call
// planned in the stall about as late as the stall lasted. Several stalls
// in one call count as the longest, so the figure never exceeds the
// stall.
func stalledDuring(byPlan []sample, x sample) time.Duration {
	from := x.at + x.late
	to := from + x.latency
	i, _ := slices.BinarySearchFunc(byPlan, from, func(y sample, t time.Duration) int { return cmp.Compare(y.at, t) })
	var stall time.Duration
	for _, y := range byPlan[i:] {
		if y.at > to {
			break
		}
		stall = max(stall, y.late)
	}
	return stall
}
