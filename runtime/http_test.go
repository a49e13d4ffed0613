package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
	"github.com/resilientgo/resilient/runtime/server"
	"go.uber.org/goleak"
)

// pipeListener is an in-memory listener: Dial hands one end of a net.Pipe
// to Accept. Inside a synctest bubble it gives real HTTP on the fake clock.
// It counts the server side's connections that are still open.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	dials atomic.Int64
	open  atomic.Int64
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- &countedConn{Conn: server, l: l}:
		l.dials.Add(1)
		l.open.Add(1)
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

type countedConn struct {
	net.Conn
	l    *pipeListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// bodyCounter is a Doer that counts the response bodies it hands out and
// those closed.
type bodyCounter struct {
	next           Doer
	opened, closed atomic.Int64
}

func (b *bodyCounter) Do(r *http.Request) (*http.Response, error) {
	resp, err := b.next.Do(r)
	if err == nil {
		b.opened.Add(1)
		resp.Body = &countedBody{ReadCloser: resp.Body, n: &b.closed}
	}
	return resp, err
}

type countedBody struct {
	io.ReadCloser
	n    *atomic.Int64
	once sync.Once
}

func (c *countedBody) Close() error {
	c.once.Do(func() { c.n.Add(1) })
	return c.ReadCloser.Close()
}

// httpRig is a server and a client talking over a pipeListener. Create it
// inside a synctest bubble; its cleanup checks that every response body
// was closed and that no connection is left in use.
type httpRig struct {
	l      *pipeListener
	tr     *http.Transport
	bodies *bodyCounter
	client *HTTPClient
	url    string
}

func newHTTPRig(t *testing.T, h http.Handler) *httpRig {
	t.Helper()
	l := newPipeListener()
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	tr := &http.Transport{DialContext: l.Dial}
	bodies := &bodyCounter{next: &http.Client{Transport: tr}}
	rig := &httpRig{l: l, tr: tr, bodies: bodies, client: &HTTPClient{Doer: bodies}, url: "http://dep.test"}
	t.Cleanup(func() {
		synctest.Wait() // let abandoned attempts finish
		if o, c := bodies.opened.Load(), bodies.closed.Load(); o != c {
			t.Errorf("response bodies: %d opened, %d closed", o, c)
		}
		tr.CloseIdleConnections()
		synctest.Wait()
		if n := l.open.Load(); n != 0 {
			t.Errorf("%d connections still open after closing idle ones", n)
		}
		srv.Close()
	})
	return rig
}

func (r *httpRig) get(t *testing.T, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, r.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

type testPet struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

func decodePet(resp *http.Response) (testPet, error) {
	var p testPet
	err := json.NewDecoder(resp.Body).Decode(&p)
	return p, err
}

func testDependency(t *testing.T) *Dependency {
	t.Helper()
	d, err := NewDependency("pets", DependencyPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testOperation(t *testing.T, d *Dependency, p OperationPolicy) *Operation {
	t.Helper()
	if p.Name == "" {
		p.Name = "op"
	}
	op, err := d.Operation(p)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// scripted answers attempt n (from 0) with statuses[n] (the last repeats),
// the JSON pet on 2xx, and counts attempts.
type scripted struct {
	statuses []int
	header   http.Header // added to every answer
	n        atomic.Int64
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.n.Add(1)) - 1
	status := s.statuses[min(n, len(s.statuses)-1)]
	for k, v := range s.header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	if status/100 == 2 {
		io.WriteString(w, `{"id":7,"name":"Rex"}`)
	} else {
		io.WriteString(w, `{"error":"nope"}`)
	}
}

func TestDoHTTPStatusClasses(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name         string
		idempotency  Idempotency
		statuses     []int
		wantAttempts int
		wantStatus   int // 0: success
		wantClass    outcome.Class
		wantFailures uint32 // breaker failures
	}{
		{"GET 503 twice then 200 is not a breaker failure", ReadOnly, []int{503, 503, 200}, 3, 0, 0, 0},
		{"GET 502 twice then 200", ReadOnly, []int{502, 502, 200}, 3, 0, 0, 2},
		{"GET 502 then 200", ReadOnly, []int{502, 200}, 2, 0, 0, 1},
		{"GET 504 then 200", ReadOnly, []int{504, 200}, 2, 0, 0, 1},
		{"GET 408 then 200", ReadOnly, []int{408, 200}, 2, 0, 0, 1},
		{"GET 429 then 200 is not a breaker failure", ReadOnly, []int{429, 200}, 2, 0, 0, 0},
		{"GET 503 until retries run out", ReadOnly, []int{503}, 3, 503, outcome.Overloaded, 0},
		{"GET 502 until retries run out", ReadOnly, []int{502}, 3, 502, outcome.Transient, 3},
		{"GET 404 is rejected once, not a breaker failure", ReadOnly, []int{404, 200}, 1, 404, outcome.Rejected, 0},
		{"GET 400 is rejected once", ReadOnly, []int{400, 200}, 1, 400, outcome.Rejected, 0},
		{"PUT 409 is rejected once", Idempotent, []int{409, 200}, 1, 409, outcome.Rejected, 0},
		{"GET 422 is rejected once", ReadOnly, []int{422, 200}, 1, 422, outcome.Rejected, 0},
		{"GET 500 fails once and counts", ReadOnly, []int{500, 200}, 1, 500, outcome.Failed, 1},
		{"GET 501 fails once and counts", ReadOnly, []int{501, 200}, 1, 501, outcome.Failed, 1},
		{"POST without key 503 is not retried", NotIdempotent, []int{503, 200}, 1, 503, outcome.Overloaded, 0},
		{"POST without key 502 is not retried", NotIdempotent, []int{502, 200}, 1, 502, outcome.Transient, 1},
		{"POST without key 429 is not retried", NotIdempotent, []int{429, 200}, 1, 429, outcome.Throttled, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := &scripted{statuses: tt.statuses}
				rig := newHTTPRig(t, srv)
				d := testDependency(t)
				op := testOperation(t, d, OperationPolicy{Idempotency: tt.idempotency, Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond})

				p, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)

				if got := int(srv.n.Load()); got != tt.wantAttempts {
					t.Errorf("server saw %d attempts, want %d", got, tt.wantAttempts)
				}
				if tt.wantStatus == 0 {
					if err != nil || p.ID != 7 {
						t.Fatalf("DoHTTP = %+v, %v, want pet 7", p, err)
					}
				} else {
					var re *RemoteError
					if !errors.As(err, &re) {
						t.Fatalf("DoHTTP error = %v, want a *RemoteError", err)
					}
					if re.Status != tt.wantStatus || re.Class != tt.wantClass || re.Attempts != tt.wantAttempts {
						t.Errorf("RemoteError = status %d class %v attempts %d, want %d %v %d",
							re.Status, re.Class, re.Attempts, tt.wantStatus, tt.wantClass, tt.wantAttempts)
					}
					if re.Code != http.StatusText(tt.wantStatus) || string(re.Body) != `{"error":"nope"}` || re.Header == nil {
						t.Errorf("RemoteError code %q body %q header %v", re.Code, re.Body, re.Header)
					}
				}
				if got := d.BreakerCounts().Failures; got != tt.wantFailures {
					t.Errorf("breaker failures = %d, want %d", got, tt.wantFailures)
				}
			})
		})
	}
}

func TestStatusClass(t *testing.T) {
	tests := []struct {
		status int
		want   outcome.Class
	}{
		{429, outcome.Throttled}, {408, outcome.Transient}, {502, outcome.Transient}, {503, outcome.Overloaded}, {504, outcome.Transient},
		{500, outcome.Failed}, {501, outcome.Failed}, {505, outcome.Failed}, {599, outcome.Failed},
		{400, outcome.Rejected}, {401, outcome.Rejected}, {403, outcome.Rejected}, {404, outcome.Rejected}, {409, outcome.Rejected}, {422, outcome.Rejected}, {304, outcome.Rejected},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			if got := outcome.StatusClass(tt.status); got != tt.want {
				t.Errorf("StatusClass(%d) = %v, want %v", tt.status, got, tt.want)
			}
		})
	}
}

// TestDoHTTPPostTimeoutIsOutcomeUnknown: a black-holed POST without an
// idempotency key is sent once, cut at the attempt timeout exactly, and its
// outcome is unknown.
func TestDoHTTPPostTimeoutIsOutcomeUnknown(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var attempts, cancelled atomic.Int64
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attempts.Add(1)
			io.ReadAll(r.Body) // the server notices a closed connection only once the body is read
			<-r.Context().Done()
			cancelled.Add(1)
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: NotIdempotent, Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond})
		req, _ := http.NewRequest(http.MethodPost, rig.url+"/orders", strings.NewReader(`{"qty":1}`))

		start := time.Now()
		_, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, nil)
		elapsed := time.Since(start)

		if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("DoHTTP error = %v, want ErrOutcomeUnknown and context.DeadlineExceeded", err)
		}
		// Sent once, the POST runs to its total: its attempt timeout would
		// only make room for a retry that never comes.
		if elapsed != 2*time.Second {
			t.Errorf("DoHTTP took %v, want the total timeout 2s", elapsed)
		}
		synctest.Wait()
		if a, c := attempts.Load(), cancelled.Load(); a != 1 || c != 1 {
			t.Errorf("server saw %d attempts, %d cancelled; want 1, 1", a, c)
		}
	})
}

// TestDoHTTPIdempotencyKeyKeptAcrossAttempts: a POST made idempotent by its
// key is retried with the same key and the same body, replayed through
// GetBody, and the deadline header on each attempt: the attempt timeout
// (minus the margin) while a retry can follow, the rest of the total on the
// last attempt.
func TestDoHTTPIdempotencyKeyKeptAcrossAttempts(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var (
			mu                      sync.Mutex
			keys, bodies, deadlines []string
		)
		srv := &scripted{statuses: []int{503, 503, 201}}
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			keys = append(keys, r.Header.Get("Idempotency-Key"))
			bodies = append(bodies, string(b))
			deadlines = append(deadlines, r.Header.Get(DefaultDeadlineHeader))
			mu.Unlock()
			srv.ServeHTTP(w, r)
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: Idempotent, Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond})
		req, _ := http.NewRequest(http.MethodPost, rig.url+"/orders", bytes.NewReader([]byte(`{"qty":1}`)))
		req.Header.Set("Idempotency-Key", `"8e03978e-40d5-43e8-bc93-6894a57f9324"`)

		p, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, nil)
		if err != nil || p.ID != 7 {
			t.Fatalf("DoHTTP = %+v, %v, want pet 7", p, err)
		}
		if len(keys) != 3 {
			t.Fatalf("server saw %d attempts, want 3", len(keys))
		}
		for i := range keys {
			if keys[i] != `"8e03978e-40d5-43e8-bc93-6894a57f9324"` || bodies[i] != `{"qty":1}` {
				t.Errorf("attempt %d: key %s, body %s; want the same key and body on every attempt", i+1, keys[i], bodies[i])
			}
		}
		if deadlines[0] != "490" || deadlines[1] != "490" {
			t.Errorf("deadline headers %q, want 490 on the attempts a retry could follow", deadlines)
		}
		// The last attempt started after two backoffs of at most 100ms and
		// 200ms: it has between 1.7s and 2s left, minus the margin.
		if ms, err := strconv.Atoi(deadlines[2]); err != nil || ms < 1690 || ms > 1990 {
			t.Errorf("deadline header of the last attempt = %q, want the rest of the total (1690 to 1990)", deadlines[2])
		}
	})
}

// TestDoHTTPBodyWithoutGetBodyIsSentOnce: a body that cannot be replayed
// gets one attempt, even for an idempotent operation.
func TestDoHTTPBodyWithoutGetBodyIsSentOnce(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var got []string
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			got = append(got, string(b))
			w.WriteHeader(http.StatusServiceUnavailable)
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: Idempotent, Timeout: 2 * time.Second})
		req, _ := http.NewRequest(http.MethodPut, rig.url+"/pets/7", nil)
		req.Body, req.ContentLength = io.NopCloser(strings.NewReader("rex")), 3

		_, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, nil)

		var re *RemoteError
		if !errors.As(err, &re) || re.Status != 503 || re.Attempts != 1 {
			t.Errorf("DoHTTP error = %v, want a 503 RemoteError after 1 attempt", err)
		}
		if len(got) != 1 || got[0] != "rex" {
			t.Errorf("server got bodies %q, want one %q", got, "rex")
		}
	})
}

// TestDoHTTPRetryAfter: a Retry-After is waited exactly when it fits the
// deadline, and fails the call at once, carrying the delay, when it does not.
func TestDoHTTPRetryAfter(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name         string
		status       int
		retryAfter   string
		wantAttempts int
		wantElapsed  time.Duration
		wantErr      bool
	}{
		{"429 Retry-After 1 waits exactly 1s", 429, "1", 2, time.Second, false},
		{"503 Retry-After 1 waits exactly 1s", 503, "1", 2, time.Second, false},
		{"429 Retry-After beyond the deadline fails fast", 429, "5", 1, 0, true},
		{"503 Retry-After one day fails fast", 503, "86400", 1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := &scripted{statuses: []int{tt.status, 200}, header: http.Header{"Retry-After": {tt.retryAfter}}}
				var arrivals []time.Time
				rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					arrivals = append(arrivals, time.Now())
					srv.ServeHTTP(w, r)
				}))
				d := testDependency(t)
				op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond})

				start := time.Now()
				_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)
				elapsed := time.Since(start)

				if len(arrivals) != tt.wantAttempts {
					t.Fatalf("server saw %d attempts, want %d", len(arrivals), tt.wantAttempts)
				}
				if elapsed != tt.wantElapsed {
					t.Errorf("DoHTTP took %v, want %v", elapsed, tt.wantElapsed)
				}
				if len(arrivals) == 2 {
					if gap := arrivals[1].Sub(arrivals[0]); gap != time.Second {
						t.Errorf("gap between attempts = %v, want exactly 1s", gap)
					}
				}
				if tt.wantErr {
					want, _ := strconv.Atoi(tt.retryAfter)
					var re *RemoteError
					if !errors.As(err, &re) || re.RetryAfter != time.Duration(want)*time.Second || re.Attempts != 1 {
						t.Errorf("DoHTTP error = %v, want a RemoteError with Retry-After %ds after 1 attempt", err, want)
					}
				} else if err != nil {
					t.Errorf("DoHTTP error = %v", err)
				}
				if tt.status == 429 && d.BreakerCounts().Failures != 0 {
					t.Errorf("breaker counted a 429 as a failure: %+v", d.BreakerCounts())
				}
			})
		})
	}
}

// TestDoHTTPDeadlineHeader: the server sees, on each attempt, the attempt's
// remaining time minus the margin: the attempt timeout while a retry could
// follow the attempt, the rest of the total on the last attempts, never
// more than the caller has left; DeadlineMiddleware turns it into the
// handler's deadline.
func TestDoHTTPDeadlineHeader(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		const (
			total   = time.Second
			attempt = 300 * time.Millisecond
		)
		work := []time.Duration{250 * time.Millisecond, 50 * time.Millisecond, 0}
		srv := &scripted{statuses: []int{503, 503, 200}}
		var (
			headers   []int64
			budgets   []time.Duration // the handler's context deadline, from now
			remaining []time.Duration // the caller's total deadline, from now
		)
		start := time.Now()
		rig := newHTTPRig(t, server.DeadlineMiddleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v, _ := strconv.ParseInt(r.Header.Get("X-Request-Deadline"), 10, 64)
			dl, _ := r.Context().Deadline()
			headers = append(headers, v)
			budgets = append(budgets, time.Until(dl))
			remaining = append(remaining, total-time.Since(start))
			time.Sleep(work[len(headers)-1])
			srv.ServeHTTP(w, r)
		})))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: total, AttemptTimeout: attempt,
			Retry: RetryPolicy{DisableJitter: true}})

		if _, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil); err != nil {
			t.Fatal(err)
		}
		// t=0: the attempt timeout, 300-10; t=250+100 backoff: the last
		// (after another 300ms and the 200ms backoff too little would be
		// left), 1000-350-10; t=400+200: the last retry, 1000-600-10.
		want := []int64{290, 640, 390}
		if fmt.Sprint(headers) != fmt.Sprint(want) {
			t.Errorf("deadline headers = %v, want %v", headers, want)
		}
		for i, h := range headers {
			ms := time.Duration(h) * time.Millisecond
			if ms > remaining[i]-DefaultDeadlineMargin || i == 0 && ms > attempt-DefaultDeadlineMargin {
				t.Errorf("attempt %d: header %v above the remaining %v (or, first, the attempt timeout), less the margin", i+1, ms, remaining[i])
			}
			if budgets[i] != ms {
				t.Errorf("attempt %d: handler deadline in %v, want %v", i+1, budgets[i], ms)
			}
		}
	})
}

func TestSetDeadlineHeader(t *testing.T) {
	tests := []struct {
		name     string
		timeout  time.Duration // 0: no deadline
		header   string
		margin   time.Duration
		want     string // "": absent
		wantSent bool
	}{
		{"no deadline, no header", 0, "", 0, "", true},
		{"default margin", time.Second, "", 0, "990", true},
		{"custom margin", time.Second, "", 100 * time.Millisecond, "900", true},
		{"negative margin means none", time.Second, "", -1, "1000", true},
		{"rounded down", 1500 * time.Microsecond * 10, "", 0, "5", true},
		{"custom header", time.Second, "x-budget-ms", 0, "990", true},
		{"margin eats the budget", 10 * time.Millisecond, "", 0, "", false},
		{"margin leaves under a millisecond", 10*time.Millisecond + 999*time.Microsecond, "", 0, "", false},
		{"one millisecond left", 11 * time.Millisecond, "", 0, "1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := context.Background()
				if tt.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.timeout)
					defer cancel()
				}
				h := http.Header{}
				err := setDeadlineHeader(ctx, h, tt.header, tt.margin)
				name := tt.header
				if name == "" {
					name = DefaultDeadlineHeader
				}
				if got := h.Get(name); got != tt.want || len(h) > 1 {
					t.Errorf("header %s = %q (all %v), want %q", name, got, h, tt.want)
				}
				if tt.wantSent != (err == nil) {
					t.Errorf("setDeadlineHeader error = %v, want sent %v", err, tt.wantSent)
				}
				if err != nil && (!errors.Is(err, context.DeadlineExceeded) || classify(err) != outcome.Permanent) {
					t.Errorf("error %v: want context.DeadlineExceeded, class permanent", err)
				}
			})
		})
	}
}

// TestDoHTTPMarginEatsTheBudget: an attempt whose budget the margin eats is
// not sent, and the dependency's breaker does not count it.
func TestDoHTTPMarginEatsTheBudget(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		srv := &scripted{statuses: []int{200}}
		rig := newHTTPRig(t, srv)
		d := testDependency(t)
		op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: 8 * time.Millisecond})

		_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)

		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("DoHTTP error = %v, want context.DeadlineExceeded", err)
		}
		if n := srv.n.Load(); n != 0 {
			t.Errorf("server saw %d attempts, want 0", n)
		}
		if c := d.BreakerCounts(); c.Failures != 0 {
			t.Errorf("breaker counts %+v, want no failure", c)
		}
	})
}

// TestDoHTTPSlowBodyHitsAttemptTimeout: headers arrive at once, the body
// never ends; the attempt timeout cuts the first attempt while decoding,
// and the last attempt, which no retry could follow, runs to the deadline.
func TestDoHTTPSlowBodyHitsAttemptTimeout(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var served []time.Duration
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			w.Header().Set("Content-Length", "1000")
			io.WriteString(w, `{"id":7,`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			served = append(served, time.Since(start))
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond,
			Retry: RetryPolicy{MaxRetries: 1, DisableJitter: true}})
		decoded := 0
		decode := func(resp *http.Response) (testPet, error) {
			decoded++
			return decodePet(resp)
		}

		start := time.Now()
		_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decode, nil)
		elapsed := time.Since(start)

		if !errors.Is(err, ErrResponseTruncated) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("DoHTTP error = %v, want ErrResponseTruncated and context.DeadlineExceeded", err)
		}
		// An attempt of 500ms, a backoff of 100ms, the last attempt to 2s.
		if want := 2 * time.Second; elapsed != want {
			t.Errorf("DoHTTP took %v, want %v", elapsed, want)
		}
		synctest.Wait()
		if decoded != 2 || fmt.Sprint(served) != "[500ms 1.4s]" {
			t.Errorf("decode ran %d times, server served %v; want attempts of 500ms and 1.4s", decoded, served)
		}
	})
}

// TestDoHTTPHedgeLoserIsClosed: the slow primary of a hedged read is
// cancelled when the hedge wins, its body is closed and its connection
// freed; the winner's connection goes back to the pool.
func TestDoHTTPHedgeLoserIsClosed(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var n, cancelled atomic.Int64
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 { // the primary: headers and half a body, then nothing
				w.Header().Set("Content-Length", "100")
				io.WriteString(w, `{"id":1,`)
				w.(http.Flusher).Flush()
				<-r.Context().Done()
				cancelled.Add(1)
				return
			}
			io.WriteString(w, `{"id":7,"name":"Rex"}`)
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second, AttemptTimeout: time.Second,
			Hedge: HedgePolicy{Delay: 50 * time.Millisecond}})

		start := time.Now()
		p, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)
		if err != nil || p.ID != 7 {
			t.Fatalf("DoHTTP = %+v, %v, want pet 7 from the hedge", p, err)
		}
		if elapsed := time.Since(start); elapsed != 50*time.Millisecond {
			t.Errorf("DoHTTP took %v, want the hedge delay 50ms", elapsed)
		}
		synctest.Wait()
		if n.Load() != 2 || cancelled.Load() != 1 {
			t.Errorf("server saw %d attempts, %d cancelled; want 2, 1", n.Load(), cancelled.Load())
		}
		if open := rig.l.open.Load(); open != 1 {
			t.Errorf("%d connections open, want 1 (the winner's, idle)", open)
		}
	})
}

// TestDoHTTPDrainsForReuse: a decoder that leaves part of the body, and an
// error body, do not cost the connection.
func TestDoHTTPDrainsForReuse(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		filler := strings.Repeat(" ", 4<<10)
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/missing" {
				w.WriteHeader(http.StatusNotFound)
			}
			io.WriteString(w, `{"id":7}`+filler)
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second})
		for i := range 5 {
			path := "/pets/7"
			if i%2 == 1 {
				path = "/missing"
			}
			DoHTTP(t.Context(), op, rig.client, rig.get(t, path), decodePet, nil)
		}
		if n := rig.l.dials.Load(); n != 1 {
			t.Errorf("%d connections dialled for 5 sequential calls, want 1", n)
		}
	})
}

// TestDoHTTPErrorBodyIsBounded: at most MaxErrorBody bytes are kept.
func TestDoHTTPErrorBodyIsBounded(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "bad request\n"+strings.Repeat("x", 1<<20))
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second})
		_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)
		var re *RemoteError
		if !errors.As(err, &re) || len(re.Body) != MaxErrorBody || re.Message != "bad request" {
			t.Fatalf("DoHTTP error = %v, want a RemoteError with %d body bytes and message %q", err, MaxErrorBody, "bad request")
		}
	})
}

// conflictError is a documented error answer of a test operation.
type conflictError struct {
	Reason string
	remote *RemoteError
}

func (e *conflictError) Error() string { return "conflict: " + e.Reason }
func (e *conflictError) Unwrap() error { return e.remote }

func decodeConflict(re *RemoteError) error {
	if re.Status != http.StatusConflict {
		return nil
	}
	var body struct{ Reason string }
	if json.Unmarshal(re.Body, &body) != nil {
		return nil
	}
	return &conflictError{Reason: body.Reason, remote: re}
}

func TestDoHTTPErrorDecoder(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name      string
		status    int
		body      string
		wantTyped bool
	}{
		{"documented answer becomes the typed error", 409, `{"reason":"taken"}`, true},
		{"undecodable body keeps the RemoteError", 409, `<html>`, false},
		{"other status keeps the RemoteError", 404, `{"reason":"taken"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.WriteHeader(tt.status)
					io.WriteString(w, tt.body)
				}))
				op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: Idempotent, Timeout: 2 * time.Second})
				req, _ := http.NewRequest(http.MethodPut, rig.url+"/pets/7", nil)

				_, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, decodeConflict)

				var re *RemoteError
				if !errors.As(err, &re) || re.Status != tt.status || re.Attempts != 1 || re.Class != outcome.Rejected {
					t.Fatalf("DoHTTP error = %v, want a rejected RemoteError %d after 1 attempt", err, tt.status)
				}
				var ce *conflictError
				if got := errors.As(err, &ce); got != tt.wantTyped {
					t.Errorf("errors.As(%v, *conflictError) = %v, want %v", err, got, tt.wantTyped)
				}
				if tt.wantTyped && ce.Reason != "taken" {
					t.Errorf("Reason = %q, want taken", ce.Reason)
				}
			})
		})
	}
}

// doerFunc is a scripted Doer (a fake transport).
type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// cutBody returns its data, then io.EOF or, when cut, the error of a
// connection cut mid-body.
type cutBody struct {
	data   *strings.Reader
	cut    bool
	closed bool
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.data.Len() == 0 {
		if b.cut {
			return 0, io.ErrUnexpectedEOF
		}
		return 0, io.EOF
	}
	return b.data.Read(p)
}

func (b *cutBody) Close() error { b.closed = true; return nil }

// TestDoHTTPDecodeFailures: a body cut mid-way is transient (a GET retries
// it, a POST returns it as truncated); a malformed body is permanent.
func TestDoHTTPDecodeFailures(t *testing.T) {
	tests := []struct {
		name         string
		idempotency  Idempotency
		bodies       []string // per attempt; "cut:" prefix cuts after the rest
		wantAttempts int
		wantErr      error // nil: success
		wantClass    outcome.Class
	}{
		{"GET cut mid-body is retried", ReadOnly, []string{`cut:{"id":7,`, `{"id":7}`}, 2, nil, 0},
		{"POST cut mid-body is truncated, not retried", NotIdempotent, []string{`cut:{"id":7,`, `{"id":7}`}, 1, ErrResponseTruncated, outcome.Transient},
		{"GET malformed body is permanent", ReadOnly, []string{`{"id":`, `{"id":7}`}, 1, nil, outcome.Permanent},
		{"GET wrong type is permanent", ReadOnly, []string{`{"id":"seven"}`, `{"id":7}`}, 1, nil, outcome.Permanent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var bodies []*cutBody
				doer := doerFunc(func(r *http.Request) (*http.Response, error) {
					s := tt.bodies[min(len(bodies), len(tt.bodies)-1)]
					rest, cut := strings.CutPrefix(s, "cut:")
					b := &cutBody{data: strings.NewReader(rest), cut: cut}
					bodies = append(bodies, b)
					return &http.Response{StatusCode: 200, Header: http.Header{}, Body: b}, nil
				})
				d := testDependency(t)
				op := testOperation(t, d, OperationPolicy{Idempotency: tt.idempotency, Timeout: 2 * time.Second})
				req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)

				p, err := DoHTTP(t.Context(), op, &HTTPClient{Doer: doer}, req, decodePet, nil)

				if len(bodies) != tt.wantAttempts {
					t.Errorf("%d attempts, want %d", len(bodies), tt.wantAttempts)
				}
				for i, b := range bodies {
					if !b.closed {
						t.Errorf("attempt %d: body not closed", i+1)
					}
				}
				switch {
				case tt.wantErr == nil && tt.wantClass == 0:
					if err != nil || p.ID != 7 {
						t.Errorf("DoHTTP = %+v, %v, want pet 7", p, err)
					}
				case tt.wantErr != nil:
					var te *ResponseTruncatedError
					if !errors.Is(err, tt.wantErr) || !errors.As(err, &te) || te.Status != 200 || !errors.Is(err, io.ErrUnexpectedEOF) {
						t.Errorf("DoHTTP error = %v, want %v with status 200", err, tt.wantErr)
					}
				default:
					if err == nil || classify(err) != tt.wantClass {
						t.Errorf("DoHTTP error = %v, want class %v", err, tt.wantClass)
					}
				}
				if c := d.BreakerCounts(); c.Failures != uint32(tt.wantAttempts-1) && tt.wantErr == nil {
					t.Errorf("breaker counts %+v", c)
				}
			})
		})
	}
}

// TestNewTransportBoundsConnections: on loopback, a transport for a
// bulkhead of 2 carries 4 requests at once, as many as the bulkhead admits
// once widened for a slow dependency, and never opens more than 4
// connections, whatever the load.
func TestNewTransportBoundsConnections(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var (
		conns, inside, maxInside atomic.Int64
		release                  = make(chan struct{})
	)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inside.Add(1)
		for m := maxInside.Load(); n > m && !maxInside.CompareAndSwap(m, n); m = maxInside.Load() {
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		inside.Add(-1)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	tr := NewTransport(300*time.Millisecond, 2)
	defer tr.CloseIdleConnections()
	if tr.MaxConnsPerHost != 4 || tr.MaxIdleConnsPerHost != 4 || tr.TLSHandshakeTimeout != 300*time.Millisecond || tr.DialContext == nil {
		t.Fatalf("transport %+v", tr)
	}
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
			if resp, err := client.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	for inside.Load() < 4 && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if c, m := conns.Load(), maxInside.Load(); c > 4 || m != 4 {
		t.Errorf("%d connections, %d concurrent requests; want at most 4 and exactly 4", c, m)
	}
}

func TestNewTransportDefaults(t *testing.T) {
	tr := NewTransport(0, 0)
	if tr.MaxConnsPerHost != 2*DefaultMaxConcurrent || tr.TLSHandshakeTimeout != DefaultConnectTimeout || tr.Proxy == nil || !tr.ForceAttemptHTTP2 {
		t.Errorf("NewTransport(0, 0) = %+v", tr)
	}
}

// BenchmarkDoHTTP measures the glue against the same request sent with the
// Doer directly and decoded by hand (the baseline), both over a canned
// in-memory response, so that the numbers are the glue's own cost.
func BenchmarkDoHTTP(b *testing.B) {
	payload := []byte(`{"id":7,"name":"Rex"}`)
	doer := doerFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(payload))}, nil
	})
	req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			resp, err := doer.Do(req.Clone(ctx))
			if err != nil {
				b.Fatal(err)
			}
			p, err := decodePet(resp)
			resp.Body.Close()
			cancel()
			if err != nil || p.ID != 7 {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("DoHTTP", func(b *testing.B) {
		d, _ := NewDependency("pets", DependencyPolicy{Budget: BudgetPolicy{Disabled: true}})
		op, _ := d.Operation(OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: time.Second})
		c := &HTTPClient{Doer: doer}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			p, err := DoHTTP(ctx, op, c, req, decodePet, nil)
			if err != nil || p.ID != 7 {
				b.Fatal(p, err)
			}
		}
	})
	// A read with a cached fallback: every success is kept for later
	// callers.
	decodePetPtr := func(resp *http.Response) (*testPet, error) {
		p, err := decodePet(resp)
		return &p, err
	}
	cached := func(doer Doer) (*Operation, *HTTPClient) {
		d, _ := NewDependency("pets", DependencyPolicy{Budget: BudgetPolicy{Disabled: true}, Breaker: BreakerPolicy{Disabled: true}})
		op, _ := d.Operation(OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: time.Second,
			Retry: RetryPolicy{Disabled: true}, Fallback: FallbackPolicy{Kind: FallbackCached, TTL: time.Hour}})
		return op, &HTTPClient{Doer: doer}
	}
	b.Run("DoHTTP-cached", func(b *testing.B) {
		op, c := cached(doer)
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			p, err := DoHTTP(ctx, op, c, req, decodePetPtr, nil)
			if err != nil || p.ID != 7 {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("DoHTTP-fallback", func(b *testing.B) {
		var fail atomic.Bool
		op, c := cached(doerFunc(func(r *http.Request) (*http.Response, error) {
			if fail.Load() {
				return &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody}, nil
			}
			return doer.Do(r)
		}))
		ctx := context.Background()
		if _, err := DoHTTP(ctx, op, c, req, decodePetPtr, nil); err != nil {
			b.Fatal(err)
		}
		fail.Store(true)
		b.ReportAllocs()
		for b.Loop() {
			p, err := DoHTTP(ctx, op, c, req, decodePetPtr, nil)
			if !errors.Is(err, ErrDegraded) || p.ID != 7 {
				b.Fatal(p, err)
			}
		}
	})
}

// TestDoHTTPRequestPerAttempt: the first attempt sends req itself when the
// caller's context is the attempt's, with the deadline header set in
// req.Header; a retry sends a copy with a header of its own, so that the
// first attempt's header is never written to once sent.
func TestDoHTTPRequestPerAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://dep.test/pets/7", nil)
		req.Header.Set("Accept", "application/json")
		type sent struct {
			req              *http.Request
			accept, deadline string
		}
		var got []sent
		doer := doerFunc(func(r *http.Request) (*http.Response, error) {
			got = append(got, sent{r, r.Header.Get("Accept"), r.Header.Get(DefaultDeadlineHeader)})
			time.Sleep(100 * time.Millisecond)
			if len(got) == 1 {
				return &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody}, nil
			}
			return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"id":7}`))}, nil
		})
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second,
			Retry: RetryPolicy{DisableJitter: true}})

		if p, err := DoHTTP(ctx, op, &HTTPClient{Doer: doer}, req, decodePet, nil); err != nil || p.ID != 7 {
			t.Fatalf("DoHTTP = %+v, %v, want pet 7", p, err)
		}
		if len(got) != 2 {
			t.Fatalf("%d attempts, want 2", len(got))
		}
		first, retry := got[0], got[1]
		if first.req != req || retry.req == req {
			t.Errorf("first attempt sent req: %v, retry sent req: %v; want true, false", first.req == req, retry.req == req)
		}
		// 500ms from the caller, less the margin; then 100ms of work and 100ms of backoff later.
		if first.deadline != "490" || retry.deadline != "290" || first.accept != "application/json" || retry.accept != "application/json" {
			t.Errorf("deadline headers %q, %q, Accept %q, %q; want 490, 290 and application/json on both",
				first.deadline, retry.deadline, first.accept, retry.accept)
		}
		if got := req.Header.Get(DefaultDeadlineHeader); got != "490" {
			t.Errorf("req's own header after the retry = %q, want the first attempt's 490", got)
		}
	})
}
