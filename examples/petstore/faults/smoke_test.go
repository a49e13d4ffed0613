package faults

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	res, err := Run(context.Background(), Options{Phase: time.Second, Scenarios: []int{1, 2, 3, 4, 5, 6, 7, 8},
		Progress: func(r *Result, done bool) {
			if !done {
				return
			}
			fmt.Printf("%d %-14s %-5s %-22s calls %5d ok %4d deg %4d ff %4d err %4d p50 %6s p99 %6s req/call %.2f maxIF %3d brk %v %s g %d→%d s %d→%d err=%v\n",
				r.Scenario.ID, r.Scenario.Name, r.Transport, r.Kind, r.Calls, r.OK, r.Degraded, r.FastFail, r.Errors, ms(r.P50), ms(r.P99), r.PerCall(), r.MaxInFlight, r.BreakerSeen, r.Breaker,
				r.GoroutinesBefore, r.GoroutinesAfter, r.SocketsBefore, r.SocketsAfter, r.Err)
			if r.Kind != Naive {
				for _, v := range Check(r) {
					if !v.Pass {
						fmt.Println("   FAIL", v.Criterion, v.Detail)
					}
				}
				for m, n := range r.ErrorSamples {
					fmt.Println("     ", n, m)
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	_ = res
}
