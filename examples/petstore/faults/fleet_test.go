package faults

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/resilientgo/resilient/internal/testtier"
)

// TestRunFleet: with a shared breaker, fewer requests reach the failing
// store than the replicas' minimum calls together, and one round of probes
// closes every replica, where replicas alone each probe and ramp.
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
	// Alone, each replica probes and then ramps its traffic back, half-open
	// meanwhile; the fleet's breaker closes after one prober's round.
	if fleet.Probes != probes || local.Probes < int64(local.Replicas*probes) {
		t.Errorf("probes: local %d, fleet %d; want at least %d and %d", local.Probes, fleet.Probes, local.Replicas*probes, probes)
	}
	for _, r := range runs {
		if r.Failed != 0 {
			t.Errorf("fleet %v: %d calls failed after every replica closed", r.Fleet, r.Failed)
		}
	}
}

// TestWriteFleetTextWidth: the fleet table fits the 100 columns of the
// demo's terminal summary, with the widest numbers a run can print.
func TestWriteFleetTextWidth(t *testing.T) {
	var b strings.Builder
	WriteFleetText(&b, []FleetRun{
		{Replicas: 10, Reached: 123456, OpenSpread: 12*time.Second + 345*time.Millisecond, Probes: 12345, Failed: 12345},
		{Fleet: true, Replicas: 10, Reached: 123456, OpenSpread: 999 * time.Microsecond, Probes: 12345, Failed: 12345},
	})
	for _, l := range strings.Split(b.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.Contains(b.String(), "| fleet (redis, WithFleet) | 123456 |") {
		t.Errorf("no row of the fleet run:\n%s", b.String())
	}
}
