package redisfleetsuite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/internal/redistest"
	"github.com/resilientgo/resilient/internal/testtier"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/redisfleet"
)

// replicaEnv, when set, makes the test binary a replica process: it reads
// its configuration from the variable (JSON), calls until its standard
// input closes, and writes its stats to standard output.
const replicaEnv = "RESILIENT_FLEET_REPLICA"

func TestMain(m *testing.M) {
	if cfg := os.Getenv(replicaEnv); cfg != "" {
		os.Exit(replicaProcess(cfg))
	}
	redis.SetLogger(quietRedis{}) // the tests kill Redis on purpose
	goleak.VerifyTestMain(m,
		// go-redis starts it for a client with the default options
		// (maintenance notifications) and does not end it on Close.
		goleak.IgnoreTopFunction("github.com/redis/go-redis/v9/maintnotifications.(*CircuitBreakerManager).cleanupLoop"))
}

// quietRedis drops go-redis's own log lines.
type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

// newRedis starts a redis-server for a slow-tier test and returns a
// client of it with short timeouts, closed when the test ends.
func newRedis(t *testing.T) (*redistest.Server, *redis.Client) {
	t.Helper()
	testtier.Slow(t)
	srv := redistest.Start(t)
	rdb := newClient(srv.Addr())
	t.Cleanup(func() { rdb.Close() })
	return srv, rdb
}

func newClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr: addr, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
		MaxRetries: -1, PoolSize: 4,
	})
}

// target is the dependency the replicas call: an HTTP server on
// 127.0.0.1 that answers 502 while down and 200 otherwise, and counts the
// requests of each replica (header X-Replica).
type target struct {
	srv  *httptest.Server
	down atomic.Bool
	mu   sync.Mutex
	hits map[int][]time.Time
}

func newTarget(t testing.TB) *target {
	tg := &target{hits: map[int][]time.Time{}}
	tg.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.Header.Get("X-Replica"))
		tg.mu.Lock()
		tg.hits[id] = append(tg.hits[id], time.Now())
		tg.mu.Unlock()
		if tg.down.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(tg.srv.Close)
	return tg
}

// count returns the requests of replica id (all replicas when id < 0)
// that arrived in [from, to).
func (tg *target) count(id int, from, to time.Time) int {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	n := 0
	for r, hs := range tg.hits {
		if id >= 0 && r != id {
			continue
		}
		for _, h := range hs {
			if !h.Before(from) && h.Before(to) {
				n++
			}
		}
	}
	return n
}

// replicaConfig configures one replica.
type replicaConfig struct {
	ID     int
	Redis  string // empty: no fleet
	Target string
	Pace   time.Duration
	Policy runtime.DependencyPolicy
	// Retries is the operation's MaxRetries; negative for none.
	Retries int
	// DefaultClient gives the replica a go-redis client with the
	// default options (3 s read timeout, 3 retries, contexts' deadlines
	// not enforced) instead of the tests' short timeouts.
	DefaultClient bool
	// Cluster, when set, are the nodes of a Redis Cluster to use instead
	// of Redis.
	Cluster []string
	// Sentinels, when set, are the sentinels that know the master
	// named Master, to use instead of Redis.
	Sentinels []string
	Master    string
}

// replicaStats is what one replica saw.
type replicaStats struct {
	Calls, Failed int64
	// Opened and Closed are the times (Unix ns) of the first transition
	// of the replica's breaker (fleet or local) to open, and of the first
	// to closed after it; zero when none.
	Opened, Closed int64
	// Shared and Local list the times of the replica's fleet changes.
	Shared, Local []int64
	// NotShared is the number of calls made while the state was local.
	NotShared int64
}

// watcher is the replica's observer.
type watcher struct {
	runtime.NopObserver
	mu sync.Mutex
	st *replicaStats
}

func (w *watcher) BreakerChange(ev runtime.BreakerEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case ev.To == runtime.BreakerOpen && w.st.Opened == 0:
		w.st.Opened = ev.At.UnixNano()
	case ev.To == runtime.BreakerClosed && w.st.Opened != 0 && w.st.Closed == 0:
		w.st.Closed = ev.At.UnixNano()
	}
}

func (w *watcher) FleetChange(ev runtime.FleetEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ev.Shared {
		w.st.Shared = append(w.st.Shared, ev.At.UnixNano())
	} else {
		w.st.Local = append(w.st.Local, ev.At.UnixNano())
	}
}

// replica is one replica's dependency, HTTP client and operation.
type replica struct {
	cfg   replicaConfig
	dep   *runtime.Dependency
	op    *runtime.Operation
	httpc *runtime.HTTPClient
	w     *watcher
	st    replicaStats
	rdb   redis.UniversalClient
	quiet atomic.Bool // no calls while set
}

func newReplica(cfg replicaConfig) (*replica, error) {
	r := &replica{cfg: cfg}
	r.w = &watcher{st: &r.st}
	opts := []runtime.Option{runtime.WithObserver(r.w), runtime.WithLogger(slog.New(slog.DiscardHandler))}
	switch {
	case cfg.Cluster != nil:
		r.rdb = redis.NewClusterClient(&redis.ClusterOptions{Addrs: cfg.Cluster,
			DialTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
			MaxRetries: -1, PoolSize: 4})
	case cfg.Sentinels != nil:
		r.rdb = redis.NewFailoverClient(&redis.FailoverOptions{MasterName: cfg.Master, SentinelAddrs: cfg.Sentinels,
			DialTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
			MaxRetries: -1, PoolSize: 4})
	case cfg.DefaultClient:
		r.rdb = redis.NewClient(&redis.Options{Addr: cfg.Redis})
	case cfg.Redis != "":
		r.rdb = newClient(cfg.Redis)
	}
	if r.rdb != nil {
		opts = append(opts, runtime.WithFleet(redisfleet.New(r.rdb)))
	}
	dep, err := runtime.NewDependency("target", cfg.Policy, opts...)
	if err != nil {
		return nil, err
	}
	r.dep = dep
	r.op, err = dep.Operation(runtime.OperationPolicy{Name: "Get", Idempotency: runtime.ReadOnly, Timeout: time.Second,
		Retry: runtime.RetryPolicy{MaxRetries: max(cfg.Retries, 0), Disabled: cfg.Retries < 0, Base: 5 * time.Millisecond, Cap: 5 * time.Millisecond}})
	if err != nil {
		return nil, err
	}
	tr := runtime.NewTransport(time.Second, 8)
	r.httpc = &runtime.HTTPClient{Doer: runtime.NewHTTPClient(tr), DisableDeadlineHeader: true}
	return r, nil
}

// close stops the replica's synchronisation and closes its connections.
func (r *replica) close() {
	r.dep.Close()
	if r.rdb != nil {
		r.rdb.Close()
	}
	if c, ok := r.httpc.Doer.(*http.Client); ok {
		c.CloseIdleConnections()
	}
}

// call makes one GET.
func (r *replica) call(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.cfg.Target+"/item", nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Replica", strconv.Itoa(r.cfg.ID))
	_, err = runtime.DoHTTP(ctx, r.op, r.httpc, req, func(resp *http.Response) (struct{}, error) {
		_, err := io.Copy(io.Discard, resp.Body)
		return struct{}{}, err
	}, nil)
	return err
}

// run calls every Pace until stop is closed.
func (r *replica) run(stop <-chan struct{}) {
	t := time.NewTicker(r.cfg.Pace)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if r.quiet.Load() {
			continue
		}
		shared := r.dep.Fleet().Shared
		err := r.call(context.Background())
		r.w.mu.Lock()
		r.st.Calls++
		if err != nil {
			r.st.Failed++
		}
		if !shared {
			r.st.NotShared++
		}
		r.w.mu.Unlock()
	}
}

func (r *replica) stats() replicaStats {
	r.w.mu.Lock()
	defer r.w.mu.Unlock()
	s := r.st
	s.Shared = append([]int64(nil), s.Shared...)
	s.Local = append([]int64(nil), s.Local...)
	return s
}

// replicaProcess is the main of a replica process.
func replicaProcess(raw string) int {
	var cfg replicaConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	r, err := newReplica(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	// Ready once the state is shared (or at once without a fleet).
	for deadline := time.Now().Add(10 * time.Second); cfg.Redis != "" && !r.dep.Fleet().Shared; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "replica: the fleet state never became shared:", r.dep.Fleet().Err)
			return 2
		}
	}
	fmt.Println("ready")
	stop := make(chan struct{})
	go func() {
		io.Copy(io.Discard, bufio.NewReader(os.Stdin))
		close(stop)
	}()
	r.run(stop)
	r.close()
	if err := json.NewEncoder(os.Stdout).Encode(r.stats()); err != nil {
		return 2
	}
	return 0
}
