package faults

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/internal/testtier"
)

// TestRunFleet: with a shared breaker, fewer requests reach the failing
// store than the replicas' minimum calls together, and one round of probes
// closes every replica.
func TestRunFleet(t *testing.T) {
	testtier.Slow(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runs, err := RunFleet(ctx, FleetOptions{})
	if errors.Is(err, ErrNoRedis) {
		t.Skipf("%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteFleetText(&b, runs)
	t.Log(b.String())
	local, fleet := runs[0], runs[1]
	const minCalls, probes = 20, 5 // policy.yaml
	if local.Reached < int64(local.Replicas*minCalls) {
		t.Errorf("local: %d requests reached the store, want the replicas' minimum calls, %d", local.Reached, local.Replicas*minCalls)
	}
	if fleet.Reached > 2*minCalls {
		t.Errorf("fleet: %d requests reached the store, want at most %d", fleet.Reached, 2*minCalls)
	}
	if fleet.Probes != probes || local.Probes != int64(local.Replicas*probes) {
		t.Errorf("probes: local %d, fleet %d; want %d and %d", local.Probes, fleet.Probes, local.Replicas*probes, probes)
	}
	for _, r := range runs {
		if r.Failed != 0 {
			t.Errorf("fleet %v: %d calls failed after every replica closed", r.Fleet, r.Failed)
		}
	}
}
