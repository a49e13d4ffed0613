package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/resilientgo/resilient/internal/testtier"
)

// long skips the wall-clock run of the demo outside the slow tier (see
// internal/testtier) and under the race detector; it is the one place that gates it.
func long(t *testing.T) {
	t.Helper()
	testtier.Slow(t)
	if raceDetector {
		// The race detector makes every goroutine operation several times
		// slower: the latencies measured would be its own.
		t.Skip("measures wall-clock latency, which the race detector distorts; run it without -race: go test ./examples/petstore/faults ./examples/petstore/cmd/faultdemo")
	}
}

// TestRun runs two scenarios with a short phase and checks what the demo
// prints and writes: a summary under 100 columns, a progress line per row,
// the report's files in -out, and the results file in -json.
func TestRun(t *testing.T) {
	long(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	results := filepath.Join(dir, "results-copy.json")
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"-out", dir, "-json", results, "-duration", "400ms", "-scenarios", "slow,tail"}, &stdout, &stderr)
	if err != nil && !errors.Is(err, errCriteria) {
		t.Fatalf("run = %v\n%s", err, stderr.String())
	}
	if err != nil {
		t.Logf("run = %v (criteria are the fault suite's business)\n%s", err, stdout.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("stdout line of %d columns: %q", n, l)
		}
	}
	for _, want := range []string{"ok/answered %", "slow           http", "tail           grpc", "Report: "} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	// A row that the machine stalled is run again, and each run shows its
	// line: count the rows, not the lines.
	finished := map[string]bool{}
	for l := range strings.Lines(stderr.String()) {
		if row, _, ok := strings.Cut(l, "]"); ok && strings.Contains(l, " done ") {
			finished[row] = true
		}
	}
	if len(finished) != 4 {
		t.Errorf("progress shows %d finished rows, want 4 (2 scenarios × 2 transports):\n%s", len(finished), stderr.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), "level=") {
		t.Error("library log lines reached the terminal")
	}
	for _, f := range []string{reportFile, outcomesFile, requestsFile, latencyFile, resultsFile, logFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		DeadlineMs float64 `json:"deadlineMs"`
		Results    []struct {
			Scenario, Transport string
			Arms                map[string]map[string]float64
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.DeadlineMs <= 0 || len(f.Results) != 4 {
		t.Fatalf("results file: %v, %+v", err, f)
	}
	for _, r := range f.Results {
		for arm, a := range r.Arms {
			if a["calls"] == 0 || a["ok"]+a["degraded"]+a["failedFast"]+a["failedSlow"] != a["calls"] {
				t.Errorf("%s %s %s: %v; want calls made and split into the four outcomes", r.Scenario, r.Transport, arm, a)
			}
		}
	}
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-duration", "0s"}, {"-nope"}, {"extra"}, {"-scenarios", "slow,nope"}} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want usage error", args, err)
		}
	}
}

// TestFleetWithoutRedis: without redis-server on PATH the demo says in one
// line why the fleet section is missing and how to get it.
func TestFleetWithoutRedis(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	if err := runFleet(t.Context(), "", filepath.Join(t.TempDir(), "report.md"), &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	out := strings.TrimSpace(stdout.String())
	if strings.Count(out, "\n") != 0 || utf8.RuneCountInString(out) > 100 || !strings.Contains(out, "apt-get install redis-server") || !strings.Contains(out, "-redis HOST:PORT") {
		t.Errorf("without redis-server the demo printed %q, want one line saying how to get the fleet section", out)
	}
}
