package faults

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/resilientgo/resilient/examples/petstore"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/server"
)

// Op names one operation of the pet store.
type Op string

// The operations, in the order of the generated policy tables.
const (
	ListPets  Op = "ListPets"
	GetPet    Op = "GetPet"
	CreatePet Op = "CreatePet"
	UpdatePet Op = "UpdatePet"
	DeletePet Op = "DeletePet"
	AdoptPet  Op = "AdoptPet"
)

// Ops lists every operation.
var Ops = []Op{ListPets, GetPet, CreatePet, UpdatePet, DeletePet, AdoptPet}

// mixAll is the default call mix, one entry per call slot: reads first,
// with every write present, the non-idempotent adopt included.
var mixAll = []Op{GetPet, ListPets, CreatePet, GetPet, UpdatePet, AdoptPet, GetPet, DeletePet, ListPets, CreatePet}

// mixReads is the read path, hedged by the resilient clients.
var mixReads = []Op{GetPet, ListPets}

// Scenario is one fault and how callers meet it.
type Scenario struct {
	// ID numbers the scenario (1 to 9), in report order.
	ID int
	// Name is the scenario's short id, as in the results file: "slow",
	// "503-window", "black-hole", "reset", "429", "tail", "overload",
	// "spent-deadline", "retry-storm".
	Name string
	// Title says what is injected, in a few words.
	Title string
	// Mix is the sequence of operations calls cycle through.
	Mix []Op
	// Plan returns the run's parameters from the policy and the chosen
	// phase length.
	Plan func(p Policy, phase time.Duration) Plan
	// Inject applies the fault for the phase and returns when ctx ends;
	// it runs in its own goroutine, one per arm, on that arm's stack. The
	// stack's faults and toxics are cleared afterwards.
	Inject func(ctx context.Context, s *Stack, pl Plan) error
	// Network says that the fault is a network one, injected by Toxiproxy:
	// the scenario's stacks have a proxy. The others connect the clients
	// straight to the server, which costs the machine less.
	Network bool
}

// Plan is how one scenario runs.
type Plan struct {
	// Fault describes the injected fault with its figures.
	Fault string
	// Phase is how long the fault phase lasts (calls start throughout).
	Phase time.Duration
	// Rate is the number of calls started per second, whatever the
	// earlier calls are doing (open loop, as users arrive): each arm is
	// judged on the same calls, however fast it fails them.
	Rate float64
	// Deadline is the deadline each call's context has on entry.
	Deadline time.Duration
	// Shed is the store's load shedder.
	Shed server.ShedConfig
	// Value is the scenario's main figure (latency, window), for Inject.
	Value time.Duration
	// Window, when positive, is when the fault ends within the phase
	// (503-window, and retry-storm's trigger); the store is healthy for
	// the rest of the phase.
	Window time.Duration
	// Load is the store's load model during the phase (retry-storm); the
	// zero value leaves the store's capacity unmodelled.
	Load petstore.LoadModel
}

// stormLoad is retry-storm's load model: capacity twice the work in
// progress that rate brings at the p50, contention of 0.05 (each request
// beyond capacity takes 5 % more work per unit of overload), a server
// timeout of 5 × the p99, and abandoned work noticed after 10 × the p99.
//
// The figures make the failure metastable, as the pet store's own
// arithmetic shows (capacity 4, p50 5 ms, 400 calls/s, timeout 150 ms,
// notice 300 ms): healthy, the calls keep 2 requests in progress. Once
// the trigger has filled the store, every request is cut by the timeout
// or abandoned by its caller and still costs the store 150 + 300 ms, so
// that a caller sending every call keeps about 400 × 0.45 = 180 in
// progress; at that overload (45) a request would take 5 ms × 45 × 3.2,
// over 700 ms, and none is ever answered: the backlog sustains itself
// without the trigger. Work in progress falls back below the point of no
// return (about 84 in progress, where the full rate's requests are
// served as fast as they come) only if callers send much less for a
// while, as a client that refuses the excess of a shedding store does.
func stormLoad(p Policy, rate float64) petstore.LoadModel {
	wip := rate * p.Latency.P50.Seconds()
	return petstore.LoadModel{Capacity: max(2, int(math.Ceil(2*wip))), Contention: stormContention, Timeout: 5 * p.Latency.P99, Notice: 10 * p.Latency.P99}
}

// stormContention is the extra work per unit of overload of retry-storm's
// store (see stormLoad).
const stormContention = 0.05

// basePlan starts calls at the policy's measured request rate and gives
// them the longest operation timeout as their deadline.
func basePlan(p Policy, phase time.Duration) Plan {
	rps := p.Latency.RPS
	if rps <= 0 {
		rps = 200
	}
	return Plan{
		Phase:    phase,
		Rate:     rps,
		Deadline: p.MaxTimeout(),
		Shed:     shedFor(p),
	}
}

// shedFor sizes the store's shedder at twice the client's bulkhead, without
// a queue: one resilient client never reaches it, a naive one can.
func shedFor(p Policy) server.ShedConfig {
	return server.ShedConfig{MaxConcurrent: 2 * bulkheadSize(p), MaxQueue: -1}
}

func bulkheadSize(p Policy) int {
	if n := p.Shared.Bulkhead.MaxConcurrent; n > 0 {
		return n
	}
	return runtime.DefaultMaxConcurrent
}

// bulkheadWait is how long a call waits for a bulkhead permit.
func bulkheadWait(p Policy) time.Duration {
	if d := p.Shared.Bulkhead.MaxWait; d > 0 {
		return d
	}
	return runtime.DefaultMaxWait
}

func openFor(p Policy) time.Duration {
	if d := p.Shared.Breaker.OpenFor; d > 0 {
		return d
	}
	return runtime.DefaultOpenFor
}

// Scenarios returns the nine scenarios of the fault suite.
func Scenarios() []Scenario {
	return []Scenario{
		{
			ID: 1, Name: "slow", Title: "dependency slow at 2× its p99", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				pl := basePlan(p, phase)
				pl.Value = 2 * p.Latency.P99
				pl.Fault = fmt.Sprintf("store latency +%v (2 × p99 %v) on every request", pl.Value, p.Latency.P99)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetLatency(pl.Value)
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 2, Name: "503-window", Title: "503 for a window, then recovery", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// The outage outlasts one open period of the arms whose
				// breakers open on 503s (tuned's), so a half-open probe
				// meets it; the resilient client's throttle sends less
				// meanwhile and its breaker stays closed. The phase leaves
				// time after the outage to measure each arm's recovery.
				pl := basePlan(p, phase)
				pl.Value = openFor(p) * 3 / 2
				pl.Window = pl.Value
				pl.Phase = max(phase, pl.Value+openFor(p)+phase/2)
				pl.Fault = fmt.Sprintf("store answers 503 for %v (1.5 × open period %v), then healthy; phase %v", pl.Value, openFor(p), pl.Phase)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetStatus(503, 0)
				select {
				case <-ctx.Done():
				case <-time.After(pl.Value):
				}
				s.Faults.SetStatus(0, 0)
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 3, Name: "black-hole", Title: "black-holed connections", Mix: mixAll, Network: true,
			Plan: func(p Policy, phase time.Duration) Plan {
				pl := basePlan(p, phase)
				pl.Fault = "toxiproxy timeout 0: connections accepted, no byte ever returned"
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				if err := s.Toxic("hole", "timeout", 1, map[string]any{"timeout": 0}); err != nil {
					return err
				}
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 4, Name: "reset", Title: "connections reset mid-response, after the store applied the request", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// The answer is lost after the side effect happened: the
				// case where retrying a write repeats it.
				pl := basePlan(p, phase)
				pl.Fault = "1 request in 20 applied by the store, then its connection reset (HTTP: closed without an answer; gRPC: UNAVAILABLE, as a proxy reports it)"
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetLoseAnswers(0.05)
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 5, Name: "429", Title: "429 with Retry-After", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				pl := basePlan(p, phase)
				pl.Value = time.Second
				pl.Fault = fmt.Sprintf("store answers 429 with Retry-After %v (pushback for gRPC)", pl.Value)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetStatus(429, pl.Value)
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 6, Name: "tail", Title: "5% of calls at 10× the p99", Mix: mixReads,
			Plan: func(p Policy, phase time.Duration) Plan {
				// The slow requests take ten times the measured p99, not
				// ten times the store's own 5 ms: a tail of 50 ms vanishes
				// into a loaded machine's scheduling delay (a p90 of 100 ms
				// under ten busy loops), which the callers' latency, and so
				// the hedge delay that follows it, takes in; at 10 × the p99
				// the tail stands out of it as it does on a quiet machine.
				pl := basePlan(p, phase)
				pl.Value = 10 * p.Latency.P99
				pl.Fault = fmt.Sprintf("store makes 1 request in 20 take %v (10 × p99 %v; reads only)", pl.Value, p.Latency.P99)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetTail(0.05, float64(pl.Value)/float64(petstore.BaseLatency))
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 7, Name: "overload", Title: "demand about three times what the store can serve", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// The store slows to four times its p99 and serves at most
				// half the client's bulkhead at once, without a queue: the
				// calls the measured rate keeps in flight (rate × latency)
				// are about three times what it can take, and more than
				// the bulkhead admits.
				pl := basePlan(p, phase)
				pl.Value = 4 * p.Latency.P99
				pl.Shed.MaxConcurrent = max(1, bulkheadSize(p)/2)
				demand := pl.Rate * (pl.Value + p.Latency.P50).Seconds()
				pl.Fault = fmt.Sprintf("store latency +%v, %d requests served at once and no queue: %.0f in flight wanted, bulkhead %d",
					pl.Value, pl.Shed.MaxConcurrent, demand, bulkheadSize(p))
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetLatency(pl.Value)
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 8, Name: "spent-deadline", Title: "caller deadline nearly spent on entry", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				pl := basePlan(p, phase)
				pl.Deadline = max(time.Millisecond, p.Latency.P50/2)
				pl.Fault = fmt.Sprintf("every call enters with %v left (half the p50 %v)", pl.Deadline, p.Latency.P50)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 9, Name: "retry-storm", Title: "a one-second slowdown tips a load-sensitive store past its capacity", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// The store's capacity is real (petstore.LoadModel, see
				// stormLoad): twice the work in progress the measured rate
				// brings at the p50, every request slower beyond it and
				// its throughput falling with contention, a server timeout
				// that answers 503 at the hedge-free p99 × 5 while the work
				// goes on, and abandoned requests that cost until noticed.
				// For one second every request takes five times the p50
				// more: demand is then about three times the capacity, a
				// backlog builds, and whether it drains afterwards depends
				// on what the callers send.
				pl := basePlan(p, phase)
				pl.Load = stormLoad(p, pl.Rate)
				pl.Value = 5 * p.Latency.P50
				pl.Window = time.Second
				pl.Phase = max(phase, pl.Window+2*time.Second)
				pl.Shed = server.ShedConfig{MaxConcurrent: 1 << 16, MaxQueue: -1}
				pl.Fault = fmt.Sprintf("load-sensitive store (capacity %d in progress, contention %g, timeout %v, abandoned work noticed after %v); "+
					"latency +%v for the first %v, then healthy; phase %v",
					pl.Load.Capacity, pl.Load.Contention, pl.Load.Timeout, pl.Load.Notice, pl.Value, pl.Window, pl.Phase)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetLoad(pl.Load)
				s.Faults.SetLatency(pl.Value)
				select {
				case <-ctx.Done():
				case <-time.After(pl.Window):
				}
				s.Faults.SetLatency(0)
				<-ctx.Done()
				return nil
			},
		},
	}
}
