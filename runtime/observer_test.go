package runtime_test

import (
	"sync"
	"sync/atomic"

	"github.com/resilientgo/resilient/runtime"
)

type countingObserver struct {
	runtime.NopObserver
	attempts, retries, hedges, rejected, degraded atomic.Int64

	mu          sync.Mutex
	transitions []string
}

func (o *countingObserver) Attempt(runtime.AttemptEvent)   { o.attempts.Add(1) }
func (o *countingObserver) Retry(runtime.RetryEvent)       { o.retries.Add(1) }
func (o *countingObserver) Hedge(runtime.HedgeEvent)       { o.hedges.Add(1) }
func (o *countingObserver) Rejected(runtime.RejectedEvent) { o.rejected.Add(1) }
func (o *countingObserver) Degraded(runtime.DegradedEvent) { o.degraded.Add(1) }
func (o *countingObserver) BreakerChange(e runtime.BreakerEvent) {
	o.mu.Lock()
	o.transitions = append(o.transitions, e.From.String()+"->"+e.To.String())
	o.mu.Unlock()
}
