package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/internal/testtier"
)

// TestRun runs the whole demo with a short phase and checks that it prints
// the tables, writes the report and the chart, and passes.
func TestRun(t *testing.T) {
	testtier.Slow(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"-out", dir, "-duration", "400ms"}, &stdout, &stderr)
	if err != nil && !errors.Is(err, errCriteria) {
		t.Fatalf("run = %v\n%s", err, stderr.String())
	}
	if err != nil {
		t.Errorf("run = %v\n%s", err, stdout.String())
	}
	for _, want := range []string{"## Resilience review: Petstore", "## Fault tests run", "## Pass criteria"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	if n := strings.Count(stderr.String(), " done: "); n != 34 {
		t.Errorf("progress shows %d finished runs, want 34 (8 scenarios × 2 transports × naive and resilient, plus 2 without hedging)", n)
	}
	for _, f := range []string{"report.md", "latency.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-duration", "0s"}, {"-nope"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want usage error", args, err)
		}
	}
}
