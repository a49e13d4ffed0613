package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/grpclog"

	"github.com/resilientgo/resilient/examples/petstore/faults"
)

// errUsage reports bad flags; the flag package has printed why.
var errUsage = errors.New("usage")

// errCriteria reports that an acceptance line or a suite criterion failed.
var errCriteria = errors.New("criteria not met")

// The report's files, in the -out folder.
const (
	reportFile   = "report.md"
	outcomesFile = "outcomes.svg"
	requestsFile = "requests.svg"
	latencyFile  = "latency.svg"
	resultsFile  = "results.json"
	logFile      = "log.txt"
)

// run parses args, runs the scenarios, prints the progress to stderr and
// the summary to stdout, and writes the report.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("faultdemo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", faults.ReportDir(), "folder for report.md, the charts, results.json and log.txt")
	jsonFile := fs.String("json", "", `also write the results file there ("-" for standard output)`)
	phase := fs.Duration("duration", 1500*time.Millisecond, "fault phase of each scenario")
	only := fs.String("scenarios", "", "comma-separated scenario ids to run (default all: "+strings.Join(faults.ScenarioNames(), ", ")+")")
	redisAddr := fs.String("redis", "", "address of a Redis for the fleet scenario (default: start redis-server from PATH)")
	fleet := fs.Bool("fleet", true, "run the fleet scenario: replicas sharing their breaker in Redis")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	var scenarios []string
	if *only != "" {
		for _, s := range strings.Split(*only, ",") {
			if s = strings.TrimSpace(s); !slices.Contains(faults.ScenarioNames(), s) {
				fmt.Fprintf(stderr, "faultdemo: -scenarios: unknown scenario %q; known: %s\n", s, strings.Join(faults.ScenarioNames(), ", "))
				return errUsage
			}
			scenarios = append(scenarios, strings.TrimSpace(s))
		}
	}
	if fs.NArg() > 0 || *phase <= 0 {
		fmt.Fprintln(stderr, "usage: faultdemo [-out DIR] [-json FILE] [-duration D] [-scenarios LIST] [-redis ADDR] [-fleet=false]")
		return errUsage
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}

	// The clients' log lines go to log.txt, grpc-go's warnings and errors
	// included, never to the terminal.
	var logBuf syncBuffer
	logger := slog.New(slog.NewTextHandler(&logBuf, nil))
	grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, &logBuf, &logBuf))

	start := time.Now()
	prog := newProgress(stderr)
	rows, err := faults.Run(ctx, faults.Options{Phase: *phase, Scenarios: scenarios, Logger: logger, Progress: prog.update})
	prog.finish()
	if err != nil {
		return err
	}
	took := time.Since(start)
	rep := faults.NewReport(rows)

	logLines := strings.Split(strings.TrimRight(logBuf.String(), "\n"), "\n")
	if len(logLines) == 1 && logLines[0] == "" {
		logLines = nil
	}
	run := fmt.Sprintf("Run with %s on %s/%s, %d CPUs; %d scenario rows, %s in all.",
		goruntime.Version(), goruntime.GOOS, goruntime.GOARCH, goruntime.NumCPU(), len(rows), took.Round(time.Second))
	files := map[string][]byte{}
	var goodput [][2]string
	for _, name := range faults.GoodputScenarios {
		if svg := rep.GoodputSVG(name); svg != "" {
			file := "goodput-" + name + ".svg"
			files[file] = []byte(svg)
			goodput = append(goodput, [2]string{name, file})
		}
	}
	maps.Copy(files, map[string][]byte{
		reportFile: []byte(rep.Markdown(faults.MarkdownOptions{
			OutcomesChart: outcomesFile, RequestsChart: requestsFile, LatencyChart: latencyFile, GoodputCharts: goodput,
			Run: run, LogFile: logFile, LogLines: len(logLines), LogHead: logLines[:min(len(logLines), 12)],
		})),
		outcomesFile: []byte(rep.OutcomesSVG()),
		requestsFile: []byte(rep.RequestsSVG()),
		latencyFile:  []byte(rep.LatencySVG()),
		logFile:      logBuf.Bytes(),
	})
	var results bytes.Buffer
	if err := rep.WriteJSON(&results); err != nil {
		return err
	}
	files[resultsFile] = results.Bytes()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
			return err
		}
	}
	switch *jsonFile {
	case "":
	case "-":
		if _, err := stdout.Write(results.Bytes()); err != nil {
			return err
		}
	default:
		if err := os.WriteFile(*jsonFile, results.Bytes(), 0o644); err != nil {
			return err
		}
	}
	table := io.Discard // standard output then holds the results file only
	if *jsonFile != "-" {
		rep.WriteSummary(stdout)
		table = stdout
	}
	if *fleet {
		if err := runFleet(ctx, *redisAddr, filepath.Join(*out, reportFile), table, stderr); err != nil {
			return err
		}
	}
	if *jsonFile != "-" {
		abs, _ := filepath.Abs(*out)
		fmt.Fprintf(stdout, "Report: %s (charts, results.json, log.txt beside it). Took %s.\n",
			filepath.Join(abs, reportFile), time.Since(start).Round(time.Second))
	}
	if n := len(faults.Failed(rep.Acceptance)) + len(faults.Failed(rep.Suite)); n > 0 {
		return fmt.Errorf("%w: %d (see %s)", errCriteria, n, filepath.Join(*out, reportFile))
	}
	return nil
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of the
// clients' loggers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// progress writes the run's progress to w: on a terminal one line
// rewritten in place, elsewhere one line per finished row.
type progress struct {
	w    io.Writer
	live bool
	last int
}

func newProgress(w io.Writer) *progress {
	live := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			live = true
		}
	}
	return &progress{w: bufio.NewWriter(w), live: live}
}

func (p *progress) update(pr faults.Progress) {
	calls := ""
	for _, a := range faults.Arms {
		calls += fmt.Sprintf(" %s %d", a, pr.Calls[a])
	}
	line := fmt.Sprintf("[%2d/%d] %-14s %-4s %-7s %4.1fs/%.1fs  calls:%s", pr.Row, pr.Rows, pr.Scenario.Name,
		strings.ToLower(string(pr.Transport)), pr.Stage, pr.Elapsed.Seconds(), pr.Phase.Seconds(), calls)
	switch {
	case p.live:
		fmt.Fprintf(p.w, "\r%-*s", max(p.last, len(line)), line)
		p.last = len(line)
	case pr.Stage == "done":
		fmt.Fprintln(p.w, line)
	}
	p.w.(*bufio.Writer).Flush()
}

func (p *progress) finish() {
	if p.live {
		fmt.Fprintln(p.w)
	}
	p.w.(*bufio.Writer).Flush()
}
