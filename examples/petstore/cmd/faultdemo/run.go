package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/resilientgo/resilient/examples/petstore/faults"
)

// errUsage reports bad flags; the flag package has printed why.
var errUsage = errors.New("usage")

// errCriteria reports that a pass criterion failed.
var errCriteria = errors.New("pass criteria failed")

// run parses args, runs every scenario, prints progress to stderr and the
// report to stdout, and writes report.md and latency.svg.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("faultdemo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for report.md and latency.svg (default: a new temporary directory)")
	phase := fs.Duration("duration", 1500*time.Millisecond, "fault phase of each scenario")
	redisAddr := fs.String("redis", "", "address of a Redis for the fleet scenario (default: start redis-server from PATH)")
	fleet := fs.Bool("fleet", true, "run the fleet scenario: replicas sharing their breaker in Redis")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 || *phase <= 0 {
		fmt.Fprintln(stderr, "usage: faultdemo [-out DIR] [-duration D] [-redis ADDR] [-fleet=false]")
		return errUsage
	}
	dir := *out
	if dir == "" {
		d, err := os.MkdirTemp("", "faultdemo-")
		if err != nil {
			return err
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}

	start := time.Now()
	results, err := faults.Run(ctx, faults.Options{
		Phase: *phase,
		Progress: func(r *faults.Result, done bool) {
			if !done {
				fmt.Fprintf(stderr, "%-44s %-5s %-22s … %s\n", scenarioName(r), r.Transport, r.Kind, r.Plan.Fault)
				return
			}
			if r.Err != nil {
				fmt.Fprintf(stderr, "%-44s %-5s %-22s failed: %v\n", scenarioName(r), r.Transport, r.Kind, r.Err)
				return
			}
			fmt.Fprintf(stderr, "%-44s %-5s %-22s done: %d calls, p99 %s, errors %.0f%%, %.2f requests/call\n",
				scenarioName(r), r.Transport, r.Kind, r.Calls, r.P99.Round(100*time.Microsecond), 100*r.ErrorRate(), r.PerCall())
		},
	})
	if err != nil {
		return err
	}
	rep := faults.NewReport(results)
	rep.WriteText(stdout)

	if err := os.WriteFile(filepath.Join(dir, "latency.svg"), []byte(rep.SVG()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(rep.Markdown("latency.svg")), 0o644); err != nil {
		return err
	}
	if *fleet {
		if err := runFleet(ctx, *redisAddr, filepath.Join(dir, "report.md"), stdout, stderr); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "\nReport: %s\nChart:  %s\nTook %s.\n", filepath.Join(dir, "report.md"), filepath.Join(dir, "latency.svg"), time.Since(start).Round(time.Second))
	if failed := rep.Failed(); len(failed) > 0 {
		return fmt.Errorf("%w: %d of %d", errCriteria, len(failed), len(rep.Verdicts))
	}
	return nil
}

func scenarioName(r *faults.Result) string {
	return fmt.Sprintf("%d %s", r.Scenario.ID, r.Scenario.Title)
}
