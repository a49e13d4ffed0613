package faults

import (
	"context"
	"fmt"
	"time"

	"github.com/resilientgo/resilient/runtime"
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
	// ID numbers the scenario (1 to 8).
	ID int
	// Name is a short name ("slow", "503-window" …).
	Name string
	// Title says what is injected, in a few words.
	Title string
	// Mix is the sequence of operations callers cycle through.
	Mix []Op
	// Plan returns the run's parameters from the policy and the chosen
	// phase length.
	Plan func(p Policy, phase time.Duration) Plan
	// Inject applies the fault for the phase and returns when ctx ends;
	// it runs in its own goroutine. The stack's faults and toxics are
	// cleared afterwards.
	Inject func(ctx context.Context, s *Stack, pl Plan) error
	// CompareHedging also runs the resilient client with hedging off.
	CompareHedging bool
}

// Plan is how one scenario runs.
type Plan struct {
	// Fault describes the injected fault with its figures.
	Fault string
	// Phase is how long the fault phase lasts (callers run throughout).
	Phase time.Duration
	// Callers is the number of concurrent callers.
	Callers int
	// Period is each caller's pacing: one call started per period at most.
	Period time.Duration
	// Deadline is the deadline each caller puts on its context.
	Deadline time.Duration
	// Shed is the store's load shedder.
	Shed runtime.ShedConfig
	// Value is the scenario's main figure (latency, window), for Inject.
	Value time.Duration
	// Burst is how long each reset burst lasts (scenario 4).
	Burst time.Duration
}

// basePlan paces the callers at the policy's measured request rate and
// gives them the longest operation timeout as their deadline.
func basePlan(p Policy, phase time.Duration) Plan {
	callers := 8
	rps := p.Latency.RPS
	if rps <= 0 {
		rps = 200
	}
	return Plan{
		Phase:    phase,
		Callers:  callers,
		Period:   time.Duration(float64(callers) / rps * float64(time.Second)),
		Deadline: p.MaxTimeout(),
		Shed:     shedFor(p),
	}
}

// shedFor sizes the store's shedder at twice the client's bulkhead, without
// a queue: one resilient client never reaches it, a naive one can.
func shedFor(p Policy) runtime.ShedConfig {
	return runtime.ShedConfig{MaxConcurrent: 2 * bulkheadSize(p), MaxQueue: -1}
}

func bulkheadSize(p Policy) int {
	if n := p.Shared.Bulkhead.MaxConcurrent; n > 0 {
		return n
	}
	return runtime.DefaultMaxConcurrent
}

func openFor(p Policy) time.Duration {
	if d := p.Shared.Breaker.OpenFor; d > 0 {
		return d
	}
	return runtime.DefaultOpenFor
}

// burst is how long the reset toxic stays on: twice the p50.
func burst(p Policy) time.Duration { return max(2*p.Latency.P50, time.Millisecond) }

// burstOf returns the burst of a reset plan.
func burstOf(pl Plan) time.Duration { return pl.Burst }

// Scenarios returns the eight scenarios of the fault suite.
func Scenarios() []Scenario {
	return []Scenario{
		{
			ID: 1, Name: "slow", Title: "dependency slow at 2× its p99", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				pl := basePlan(p, phase)
				pl.Value = 2 * p.Latency.P99
				pl.Fault = fmt.Sprintf("toxiproxy latency %v (2 × p99 %v) on every response", pl.Value, p.Latency.P99)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				if err := s.Toxic("slow", "latency", 1, map[string]any{"latency": pl.Value.Milliseconds()}); err != nil {
					return err
				}
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 2, Name: "503-window", Title: "503 for a window, then recovery", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// The outage outlasts one open period, so a half-open
				// probe meets it; the phase leaves time for the next
				// probes to find the store healthy and close the breaker.
				pl := basePlan(p, phase)
				pl.Value = openFor(p) * 3 / 2
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
			ID: 3, Name: "black-hole", Title: "black-holed connections", Mix: mixAll,
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
			ID: 4, Name: "reset", Title: "connections reset mid-response", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// Resets come in short bursts, twice the p50 long, so that
				// they cut responses in flight; a longer burst would also
				// cut every new connection's handshake, which is the
				// black hole's case, not this one.
				pl := basePlan(p, phase)
				pl.Value = 200 * time.Millisecond
				pl.Burst = burst(p)
				pl.Fault = fmt.Sprintf("toxiproxy reset_peer on responses for %v of every %v", burst(p), pl.Value)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				for {
					if err := s.Toxic("reset", "reset_peer", 1, map[string]any{"timeout": 0}); err != nil {
						return err
					}
					select {
					case <-ctx.Done():
						return nil
					case <-time.After(burstOf(pl)):
					}
					s.RemoveToxic("reset")
					select {
					case <-ctx.Done():
						return nil
					case <-time.After(pl.Value - burstOf(pl)):
					}
				}
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
			ID: 6, Name: "tail", Title: "5% of calls 10× slower", Mix: mixReads, CompareHedging: true,
			Plan: func(p Policy, phase time.Duration) Plan {
				pl := basePlan(p, phase)
				pl.Fault = "store makes 1 request in 20 ten times slower (reads only)"
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				s.Faults.SetTail(0.05, 10)
				<-ctx.Done()
				return nil
			},
		},
		{
			ID: 7, Name: "overload", Title: "overload beyond bulkhead and shedder", Mix: mixAll,
			Plan: func(p Policy, phase time.Duration) Plan {
				// Three callers per permit, each starting a call as soon
				// as the last one ended (at most one per ms), against a
				// store slowed to hold each request for the p99.
				pl := basePlan(p, phase)
				pl.Callers = 3 * bulkheadSize(p)
				pl.Period = time.Millisecond
				pl.Value = p.Latency.P99
				pl.Fault = fmt.Sprintf("%d closed-loop callers, store latency +%v; bulkhead %d, shedder %d without queue",
					pl.Callers, pl.Value, bulkheadSize(p), pl.Shed.MaxConcurrent)
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
				pl.Fault = fmt.Sprintf("every caller enters with %v left (half the p50 %v)", pl.Deadline, p.Latency.P50)
				return pl
			},
			Inject: func(ctx context.Context, s *Stack, pl Plan) error {
				<-ctx.Done()
				return nil
			},
		},
	}
}
