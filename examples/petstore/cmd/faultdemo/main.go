// Command faultdemo runs the pet store's fault scenarios in process against
// the naive and the resilient clients, HTTP and gRPC, and prints what
// callers saw: the resilience review of the clients' policies, the fault
// tests table and the verdict of every pass criterion. It writes the same
// report as report.md, with a latency chart (latency.svg), into -out.
//
//	go run ./examples/petstore/cmd/faultdemo [-out DIR] [-duration D]
//
// Flags:
//
//	-out DIR       where report.md and latency.svg go (default: a new
//	               temporary directory, printed)
//	-duration D    fault phase of each scenario (default 1.5s); the 503
//	               window stretches it to see the breaker close again
//
// It exits with status 1 when a pass criterion fails, 2 on bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp), errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "faultdemo:", err)
		os.Exit(1)
	}
}
