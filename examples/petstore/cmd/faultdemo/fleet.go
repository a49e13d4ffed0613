package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/resilientgo/resilient/examples/petstore/faults"
)

// runFleet runs the fleet scenario, prints its table to stdout and
// appends it to the report at path. Without a Redis (none given, no
// redis-server on PATH) it says so, and how to get the section, in one
// line, and returns nil.
func runFleet(ctx context.Context, redisAddr, path string, stdout, stderr io.Writer) error {
	fmt.Fprintln(stderr, "fleet: replicas of the pet store's HTTP client against one failing store, without and with a shared breaker …")
	runs, err := faults.RunFleet(ctx, faults.FleetOptions{Redis: redisAddr})
	if errors.Is(err, faults.ErrNoRedis) {
		fmt.Fprintf(stdout, "\n%s\n", noRedisLine)
		return nil
	}
	if err != nil {
		return err
	}
	faults.WriteFleetText(stdout, runs)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	faults.WriteFleetText(f, runs)
	return f.Close()
}

// noRedisLine is what the demo prints without a Redis for the fleet
// scenario: why the section is missing and how to get it.
const noRedisLine = "Fleet scenario skipped, no redis-server on PATH: apt-get install redis-server, or -redis HOST:PORT"
