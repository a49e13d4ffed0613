package faults

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/examples/petstore"
	petstorehttp "github.com/resilientgo/resilient/examples/petstore/httpclient"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/server"
)

// FleetOptions configures [RunFleet].
type FleetOptions struct {
	// Redis is the address of the Redis the replicas share; empty starts a
	// redis-server found on PATH on a free loopback port, without
	// persistence, for the run.
	Redis string
	// Replicas is the number of replicas of the pet store's client. Zero
	// means 10.
	Replicas int
	// Pace is the time between two calls of one replica. Zero means
	// 50 ms: 20 calls a second each.
	Pace time.Duration
}

// ErrNoRedis is returned by [RunFleet] when no Redis was given and no
// redis-server could be started.
var ErrNoRedis = errors.New("faults: no Redis for the fleet scenario")

// FleetRun is what one run of the fleet scenario saw.
type FleetRun struct {
	// Fleet is true when the replicas shared their breaker and budget in
	// Redis (the generated client's WithFleet), false when each kept its
	// own.
	Fleet bool
	// Replicas is the number of replicas.
	Replicas int
	// Reached is the number of requests that reached the store while it
	// was down, until every replica's breaker was open.
	Reached int64
	// OpenSpread is the time between the first and the last replica
	// seeing its breaker open.
	OpenSpread time.Duration
	// Probes is the number of requests that replicas whose breaker was
	// half-open sent and the store answered, after it recovered, until
	// every replica had closed.
	Probes int64
	// Failed is the number of calls that failed after every replica closed
	// again (there should be none).
	Failed int64
}

// RunFleet runs the fleet scenario twice, without and with a shared
// breaker: several replicas of the pet store's generated HTTP client (each
// its own client, HTTP transport and Redis connection) call GetPet on one
// store that answers 500, then recovers.
func RunFleet(ctx context.Context, opts FleetOptions) ([]FleetRun, error) {
	if opts.Replicas <= 0 {
		opts.Replicas = 10
	}
	if opts.Pace <= 0 {
		opts.Pace = 50 * time.Millisecond
	}
	addr := opts.Redis
	if addr == "" {
		a, stop, err := startRedis()
		if err != nil {
			return nil, fmt.Errorf("%w: %v; install redis-server or pass the address of one", ErrNoRedis, err)
		}
		defer stop()
		addr = a
	}
	var runs []FleetRun
	for _, fleet := range []bool{false, true} {
		r, err := runFleetOnce(ctx, addr, fleet, opts)
		if err != nil {
			return runs, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// fleetReplica is one replica of the pet store's client.
type fleetReplica struct {
	client *petstorehttp.Client
	rdb    *redis.Client
	mu     sync.Mutex
	opened time.Time
}

func (r *fleetReplica) BreakerChange(ev runtime.BreakerEvent) {
	r.mu.Lock()
	if ev.To == runtime.BreakerOpen && r.opened.IsZero() {
		r.opened = ev.At
	}
	r.mu.Unlock()
}

// observer adapts a replica to runtime.Observer.
type replicaObserver struct {
	runtime.NopObserver
	r *fleetReplica
}

func (o replicaObserver) BreakerChange(ev runtime.BreakerEvent) { o.r.BreakerChange(ev) }

// probeCounter counts the requests a replica sends while its breaker is
// half-open and the store answers: its successful probes.
type probeCounter struct {
	next   http.RoundTripper
	r      *fleetReplica
	probes *atomic.Int64
}

func (p probeCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	c := p.r.client
	halfOpen := c != nil && c.Dependency().BreakerState() == runtime.BreakerHalfOpen
	resp, err := p.next.RoundTrip(req)
	// Only probes the store answered count: a probe sent just before the
	// store recovered fails, reopens the breaker and is followed by a
	// round of its own, which says nothing about how many rounds a
	// recovered store needs.
	if halfOpen && err == nil && resp.StatusCode < http.StatusInternalServerError {
		p.probes.Add(1)
	}
	return resp, err
}

func runFleetOnce(ctx context.Context, addr string, fleet bool, opts FleetOptions) (FleetRun, error) {
	run := FleetRun{Fleet: fleet, Replicas: opts.Replicas}
	store := petstore.NewStore(nil, nil)
	var reached atomic.Int64
	handler := petstore.NewHTTPServer(store, server.ShedConfig{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return run, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		reached.Add(1)
		handler.ServeHTTP(w, req)
	})}
	go srv.Serve(l)
	defer srv.Close()
	base := "http://" + l.Addr().String()

	// Keys of this run only: the two runs and earlier demos never meet.
	prefix := "faultdemo:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	var probes atomic.Int64
	replicas := make([]*fleetReplica, opts.Replicas)
	for i := range replicas {
		r := &fleetReplica{}
		tr := runtime.NewTransport(100*time.Millisecond, 8)
		hc := runtime.NewHTTPClient(probeCounter{next: tr, r: r, probes: &probes})
		copts := []petstorehttp.Option{
			petstorehttp.WithHTTPClient(hc),
			petstorehttp.WithLogger(slog.New(slog.DiscardHandler)),
			petstorehttp.WithObserver(replicaObserver{r: r}),
			petstorehttp.WithPolicy(func(p *petstorehttp.Policy) { p.Dependency.Fleet.Prefix = prefix }),
		}
		if fleet {
			r.rdb = redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1, PoolSize: 2})
			copts = append(copts, petstorehttp.WithFleet(r.rdb))
		}
		c, err := petstorehttp.NewClient(base, copts...)
		if err != nil {
			return run, err
		}
		r.client = c
		replicas[i] = r
		defer func() {
			c.Dependency().Close()
			if r.rdb != nil {
				r.rdb.Close()
			}
			tr.CloseIdleConnections()
		}()
	}
	if fleet {
		deadline := time.Now().Add(5 * time.Second)
		for _, r := range replicas {
			for !r.client.Dependency().Fleet().Shared {
				if time.Now().After(deadline) {
					return run, fmt.Errorf("faults: the replicas could not share their state in Redis at %s: %v", addr, r.client.Dependency().Fleet().Err)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}

	all := func(s runtime.BreakerState) bool {
		for _, r := range replicas {
			if r.client.Dependency().BreakerState() != s {
				return false
			}
		}
		return true
	}
	wait := func(what string, d time.Duration, cond func() bool) error {
		for deadline := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("faults: fleet scenario: not within %v: %s", d, what)
			}
		}
		return nil
	}

	store.Faults().SetStatus(http.StatusInternalServerError, 0) // down from the start
	stop := make(chan struct{})
	var failedAfter atomic.Int64
	var recovered atomic.Bool
	var wg sync.WaitGroup
	for i, r := range replicas {
		wg.Go(func() {
			time.Sleep(opts.Pace * time.Duration(i) / time.Duration(len(replicas)))
			t := time.NewTicker(opts.Pace)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				cctx, cancel := context.WithTimeout(ctx, time.Second)
				_, err := r.client.GetPet(cctx, "1", runtime.WithoutFallback())
				cancel()
				if err != nil && recovered.Load() {
					failedAfter.Add(1)
				}
			}
		})
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
			wg.Wait()
		}
	}()
	if err := wait("every replica's breaker open", 10*time.Second, func() bool { return all(runtime.BreakerOpen) }); err != nil {
		return run, err
	}
	time.Sleep(200 * time.Millisecond)
	run.Reached = reached.Load()
	var first, last time.Time
	for _, r := range replicas {
		r.mu.Lock()
		at := r.opened
		r.mu.Unlock()
		if first.IsZero() || at.Before(first) {
			first = at
		}
		if at.After(last) {
			last = at
		}
	}
	run.OpenSpread = last.Sub(first)

	probes.Store(0)
	store.Faults().Reset()
	if err := wait("every replica's breaker closed again", 15*time.Second, func() bool { return all(runtime.BreakerClosed) }); err != nil {
		return run, err
	}
	run.Probes = probes.Load()
	recovered.Store(true)
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	run.Failed = failedAfter.Load()
	return run, nil
}

// WriteFleetText writes the fleet scenario's table in Markdown, each line
// at most 100 columns wide so that it reads in a terminal as in the
// report: short column names, then a list that says what each counts.
func WriteFleetText(w io.Writer, runs []FleetRun) {
	if len(runs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Fleet: %d replicas of the pet store's HTTP client, one store answering 500\n\n", runs[0].Replicas)
	fmt.Fprintln(w, "| Breaker and budget | Reached the store | All open within | Probes | Failed after |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range runs {
		mode := "local (each replica its own)"
		if r.Fleet {
			mode = "fleet (redis, WithFleet)"
		}
		fmt.Fprintf(w, "| %s | %d | %s | %d | %d |\n", mode, r.Reached, r.OpenSpread.Round(100*time.Microsecond), r.Probes, r.Failed)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "- Reached the store: requests sent to the failing store until every replica's breaker opened.")
	fmt.Fprintln(w, "- All open within: from the first to the last replica seeing its breaker open.")
	fmt.Fprintln(w, "- Probes: answered requests of half-open replicas after the store recovered, until all had closed")
	fmt.Fprintln(w, "  (alone, a replica stays half-open while it ramps its traffic back: its count includes the ramp).")
	fmt.Fprintln(w, "- Failed after: calls that failed once every replica had closed again (there should be none).")
}

// startRedis starts a redis-server from PATH on a free loopback port in a
// temporary directory, without persistence, and returns its address and a
// function that stops it and removes the directory.
func startRedis() (addr string, stop func(), err error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir, err := os.MkdirTemp("", "faultdemo-redis-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", dir, "--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
	}
	addr = "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if pong(addr) {
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("redis-server did not answer on %s within 5 s", addr)
		}
	}
}

func pong(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}
