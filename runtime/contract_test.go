package runtime

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// countingDoer is an *http.Client whose transport counts dials and fails
// them: a request that reaches it was not refused by net/http first.
func countingDoer(dials *atomic.Int64) Doer {
	return &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		dials.Add(1)
		return nil, errors.New("connection refused")
	}}}
}

type eventCounter struct {
	NopObserver
	attempts, rejected, degraded atomic.Int64
}

func (o *eventCounter) Attempt(AttemptEvent)   { o.attempts.Add(1) }
func (o *eventCounter) Rejected(RejectedEvent) { o.rejected.Add(1) }
func (o *eventCounter) Degraded(DegradedEvent) { o.degraded.Add(1) }

// TestDoHTTPInvalidRequest: a request net/http would refuse before sending
// anything is the caller's error: returned at once, typed, not sent, never
// retried, never counted by the breaker, never answered by the fallback,
// and without a bulkhead permit (the bulkhead here is full).
func TestDoHTTPInvalidRequest(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*http.Request)
		key   string // the operation's idempotency key header
		where string // in the error's message
	}{
		{name: "CR LF in a header value", edit: func(r *http.Request) { r.Header.Set("X-Note", "a\r\nX-Injected: 1") }, where: `"X-Note"`},
		{name: "NUL in a header value", edit: func(r *http.Request) { r.Header.Set("X-Note", "a\x00b") }, where: "0x00"},
		{name: "header name with a space", edit: func(r *http.Request) { r.Header["X Note"] = []string{"a"} }, where: `"X Note"`},
		{name: "LF in a cookie header", edit: func(r *http.Request) { r.Header.Set("Cookie", "session=a\nb") }, where: `"Cookie"`},
		{name: "LF in a trailer", edit: func(r *http.Request) { r.Trailer = http.Header{"X-Sum": {"1\n2"}} }, where: "trailer"},
		{name: "method not a token", edit: func(r *http.Request) { r.Method = "GE T" }, where: "method"},
		{name: "no host", edit: func(r *http.Request) { r.URL.Host = "" }, where: "no host"},
		{name: "not http", edit: func(r *http.Request) { r.URL.Scheme = "ftp" }, where: `"ftp"`},
		{name: "RequestURI set", edit: func(r *http.Request) { r.RequestURI = "/pets" }, where: "RequestURI"},
		{name: "idempotency key name not a token", key: "Idempotency Key", where: "idempotency key"},
		{name: "idempotency key name outside ASCII", key: "Idempotency-Schlüssel", where: "idempotency key"},
		{name: "host with a space", edit: func(r *http.Request) { r.Host = "pets test" }, where: "Host header"},
		{name: "host outside ASCII without an IDNA form", edit: func(r *http.Request) { r.Host = "bü cher.test" }, where: "Host header"},
		{name: "host outside ASCII with a bad port", edit: func(r *http.Request) { r.Host = "bücher.test:80 80" }, where: "Host header"},
		{name: "URL host with a slash", edit: func(r *http.Request) { r.Host, r.URL.Host = "", "pets.test/x" }, where: "Host header"},
		{name: "method outside ASCII", edit: func(r *http.Request) { r.Method = "GÉT" }, where: "method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				obs := &eventCounter{}
				d, err := NewDependency("pets", DependencyPolicy{Bulkhead: BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}},
					WithObserver(obs), WithLogger(slog.New(slog.DiscardHandler)))
				if err != nil {
					t.Fatal(err)
				}
				op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, IdempotencyKey: tt.key,
					Fallback: FallbackPolicy{Kind: FallbackStatic, Static: testPet{Name: "stale"}}})
				// Another call holds the only permit.
				_, release, err := DoHeld(t.Context(), testOperation(t, d, OperationPolicy{Name: "Hold"}), "",
					func(context.Context) (int, error) { return 1, nil })
				if err != nil {
					t.Fatal(err)
				}
				defer release()
				counts, seen := d.BreakerCounts(), obs.attempts.Load()

				var dials atomic.Int64
				req, _ := http.NewRequest(http.MethodGet, "http://pets.test/pets/1", nil)
				if tt.edit != nil {
					tt.edit(req)
				}
				v, err := DoHTTP(t.Context(), op, &HTTPClient{Doer: countingDoer(&dials)}, req, decodePet, nil)

				var ce *CallError
				var ie *InvalidRequestError
				switch {
				case !errors.Is(err, ErrInvalidRequest) || !errors.Is(err, ErrNotSent) || !errors.As(err, &ie):
					t.Fatalf("DoHTTP error = %v, want an invalid request, not sent", err)
				case IsDegraded(err) || v != (testPet{}):
					t.Errorf("DoHTTP = %v, %v: the fallback answered the caller's error", v, err)
				case !errors.As(err, &ce) || ce.End != EndInvalidRequest || ce.Attempts != 0 || ce.Dependency != "pets" || ce.Operation != "GetPet":
					t.Errorf("CallError = %+v, want EndInvalidRequest, 0 attempts, pets GetPet", ce)
				case !strings.Contains(err.Error(), tt.where):
					t.Errorf("error %q does not say where (%s)", err, tt.where)
				}
				if strings.Contains(err.Error(), "X-Injected") {
					t.Errorf("error %q quotes the header value", err)
				}
				if n := dials.Load(); n != 0 {
					t.Errorf("%d dials, want none", n)
				}
				if c := d.BreakerCounts(); c != counts {
					t.Errorf("breaker counts %+v, want %+v as before the call", c, counts)
				}
				if a, r, g := obs.attempts.Load()-seen, obs.rejected.Load(), obs.degraded.Load(); a+r+g != 0 {
					t.Errorf("observer saw %d attempts, %d rejections, %d degraded answers; want none", a, r, g)
				}
			})
		})
	}
}

// TestDoHTTPHostOutsideASCII: a host outside ASCII that has an IDNA form
// is no invalid request: net/http sends it as punycode, so it reaches the
// transport.
func TestDoHTTPHostOutsideASCII(t *testing.T) {
	for _, host := range []string{"bücher.test", "bücher.test:8080", "xn--bcher-kva.test", "[::1]:8080", "Pets.Test"} {
		t.Run(host, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := testDependency(t)
				op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Retry: RetryPolicy{Disabled: true}})
				var dials atomic.Int64
				req, _ := http.NewRequest(http.MethodGet, "http://pets.test/pets/1", nil)
				req.Host = host
				_, err := DoHTTP(t.Context(), op, &HTTPClient{Doer: countingDoer(&dials)}, req, decodePet, nil)
				if errors.Is(err, ErrInvalidRequest) {
					t.Fatalf("DoHTTP error = %v, want the request sent", err)
				}
				if n := dials.Load(); n != 1 {
					t.Errorf("%d dials, want 1 (err %v)", n, err)
				}
			})
		})
	}
}

// TestInvalidRequestsDoNotOpenTheBreaker: many invalid requests leave the
// breaker closed and the budget untouched for the valid calls after them.
func TestInvalidRequestsDoNotOpenTheBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := testDependency(t)
		op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly})
		var dials atomic.Int64
		c := &HTTPClient{Doer: countingDoer(&dials)}
		for range 50 {
			req, _ := http.NewRequest(http.MethodGet, "http://pets.test/pets/1", nil)
			req.Header.Set("Authorization", "Bearer a\r\nb")
			DoHTTP(t.Context(), op, c, req, decodePet, nil)
		}
		if s := d.BreakerState(); s != BreakerClosed {
			t.Errorf("breaker %v after invalid requests, want closed", s)
		}
		if n := dials.Load(); n != 0 {
			t.Errorf("%d dials, want none", n)
		}
	})
}

// TestDoHTTPNotIdempotentDelivery: a failed POST tells, from what was
// actually written, whether it never left (ErrNotSent, safe to send again),
// may have been applied (ErrOutcomeUnknown) or was answered.
func TestDoHTTPNotIdempotentDelivery(t *testing.T) {
	tests := []struct {
		name string
		// dial replaces the rig's dialer when set.
		dial    func(ctx context.Context, l *pipeListener) (net.Conn, error)
		handler http.HandlerFunc
		want    error // ErrNotSent or ErrOutcomeUnknown; nil: answered
		other   error // must not match
		// deadline: the error also matches context.DeadlineExceeded.
		deadline bool
	}{
		{
			name: "connection closed after the request was written",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.ReadAll(r.Body)
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
			},
			want: ErrOutcomeUnknown, other: ErrNotSent,
		},
		{
			name: "connection refused",
			dial: func(context.Context, *pipeListener) (net.Conn, error) { return nil, errors.New("connection refused") },
			want: ErrNotSent, other: ErrOutcomeUnknown,
		},
		{
			name: "attempt timeout while connecting",
			dial: func(ctx context.Context, _ *pipeListener) (net.Conn, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			},
			want: ErrNotSent, other: ErrOutcomeUnknown, deadline: true,
		},
		{
			name:    "attempt timeout after the request was written",
			handler: func(w http.ResponseWriter, r *http.Request) { io.ReadAll(r.Body); <-r.Context().Done() },
			want:    ErrOutcomeUnknown, other: ErrNotSent, deadline: true,
		},
		{
			name:    "answered 500",
			handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
			other:   ErrOutcomeUnknown,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			synctest.Test(t, func(t *testing.T) {
				h := tt.handler
				if h == nil {
					h = func(http.ResponseWriter, *http.Request) { t.Error("the server saw the request") }
				}
				rig := newHTTPRig(t, h)
				if tt.dial != nil {
					rig.tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) { return tt.dial(ctx, rig.l) }
				}
				op := testOperation(t, testDependency(t), OperationPolicy{Name: "CreateOrder", Idempotency: NotIdempotent,
					Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond})
				req, _ := http.NewRequest(http.MethodPost, rig.url+"/orders", strings.NewReader(`{"qty":1}`))
				_, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, nil)

				if tt.want != nil && !errors.Is(err, tt.want) {
					t.Errorf("error = %v, want it to match %v", err, tt.want)
				}
				if errors.Is(err, tt.other) {
					t.Errorf("error = %v, want it not to match %v", err, tt.other)
				}
				if tt.deadline && !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("error = %v, want it to match context.DeadlineExceeded", err)
				}
				var re *RemoteError
				if tt.want == nil && !errors.As(err, &re) {
					t.Errorf("error = %v, want the answer, a *RemoteError", err)
				}
				var ce *CallError
				if !errors.As(err, &ce) || ce.Attempts != 1 || ce.NotSent != (tt.want == ErrNotSent) {
					t.Errorf("CallError = %+v, want 1 attempt, NotSent %v", ce, tt.want == ErrNotSent)
				}
			})
		})
	}
}

// TestDoHTTPRetryAfterAboveTheCap: a Retry-After longer than the backoff
// cap is honoured when the deadline leaves time for it; otherwise the call
// fails at once with an error that says why.
func TestDoHTTPRetryAfterAboveTheCap(t *testing.T) {
	tests := []struct {
		name         string
		retryAfter   string
		wantAttempts int
		wantElapsed  time.Duration
		wantAsked    time.Duration // the typed error's; zero: success
	}{
		{name: "3s, cap 2s, 10s left: waits 3s", retryAfter: "3", wantAttempts: 2, wantElapsed: 3 * time.Second},
		{name: "30s, 10s left: fails at once", retryAfter: "30", wantAttempts: 1, wantAsked: 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := &scripted{statuses: []int{503, 200}, header: http.Header{"Retry-After": {tt.retryAfter}}}
				rig := newHTTPRig(t, srv)
				op := testOperation(t, testDependency(t), OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: 10 * time.Second,
					Retry: RetryPolicy{Cap: 2 * time.Second}})
				start := time.Now()
				_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)
				if got := int(srv.n.Load()); got != tt.wantAttempts {
					t.Errorf("server saw %d attempts, want %d", got, tt.wantAttempts)
				}
				if got := time.Since(start); got != tt.wantElapsed {
					t.Errorf("DoHTTP took %v, want %v", got, tt.wantElapsed)
				}
				if tt.wantAsked == 0 {
					if err != nil {
						t.Errorf("DoHTTP error = %v", err)
					}
					return
				}
				var ra *RetryAfterExceedsDeadlineError
				var re *RemoteError
				var ce *CallError
				switch {
				case !errors.Is(err, ErrRetryAfterExceedsDeadline) || !errors.As(err, &ra) || !errors.As(err, &re) || !errors.As(err, &ce):
					t.Errorf("DoHTTP error = %v, want a CallError with a RetryAfterExceedsDeadlineError and the 503", err)
				case ra.Asked != tt.wantAsked || ra.Left != 10*time.Second || re.Status != 503 || ce.End != EndRetryAfter:
					t.Errorf("asked %v, left %v, status %d, end %v; want %v, 10s, 503, %v", ra.Asked, ra.Left, re.Status, ce.End, tt.wantAsked, EndRetryAfter)
				case !strings.Contains(err.Error(), "asked to wait 30s, 10s left"):
					t.Errorf("error %q does not say why", err)
				}
			})
		})
	}
}

// zeros reads zeros for ever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestDoHTTPResponseBodyLimit: a success body above the client's limit is
// a ResponseTooLargeError: refused before reading when its Content-Length
// says so, else once decode reads past the limit; never retried, not a
// breaker failure, not answered by the fallback.
func TestDoHTTPResponseBodyLimit(t *testing.T) {
	tests := []struct {
		name       string
		limit      int64 // HTTPClient.MaxResponseBody
		length     int64 // Content-Length; -1 unknown
		body       int64 // bytes the body has
		wantRead   int64 // bytes decode may read at most
		wantErr    bool
		wantDecode bool // decode is called
	}{
		{name: "768 MiB declared, default limit", length: 768 << 20, body: 768 << 20, wantErr: true},
		{name: "declared above the limit", limit: 1024, length: 1025, body: 1025, wantErr: true},
		{name: "undeclared above the limit", limit: 1024, length: -1, body: 4096, wantRead: 1024, wantErr: true, wantDecode: true},
		{name: "exactly the limit", limit: 1024, length: -1, body: 1024, wantRead: 1024, wantDecode: true},
		{name: "no limit", limit: -1, length: -1, body: 64 << 20, wantRead: 64 << 20, wantDecode: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var sent atomic.Int64
				doer := doerFunc(func(r *http.Request) (*http.Response, error) {
					sent.Add(1)
					return &http.Response{StatusCode: 200, ContentLength: tt.length, Header: http.Header{},
						Body: io.NopCloser(io.LimitReader(zeros{}, tt.body)), Request: r}, nil
				})
				d := testDependency(t)
				op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly,
					Fallback: FallbackPolicy{Kind: FallbackStatic, Static: int64(-1)}})
				var read int64
				decoded := false
				decode := func(resp *http.Response) (int64, error) {
					decoded = true
					n, err := io.Copy(io.Discard, resp.Body)
					read = n
					return n, err
				}
				req, _ := http.NewRequest(http.MethodGet, "http://pets.test/pets", nil)
				v, err := DoHTTP(t.Context(), op, &HTTPClient{Doer: doer, MaxResponseBody: tt.limit}, req, decode, nil)
				if decoded != tt.wantDecode || read > tt.wantRead {
					t.Errorf("decode called %v, read %d bytes; want called %v, at most %d", decoded, read, tt.wantDecode, tt.wantRead)
				}
				if !tt.wantErr {
					if err != nil || v != tt.body {
						t.Errorf("DoHTTP = %d, %v; want %d", v, err, tt.body)
					}
					return
				}
				limit := tt.limit
				if limit == 0 {
					limit = DefaultMaxResponseBody
				}
				var tl *ResponseTooLargeError
				switch {
				case !errors.Is(err, ErrResponseTooLarge) || !errors.As(err, &tl) || IsDegraded(err):
					t.Fatalf("DoHTTP error = %v, want a ResponseTooLargeError, not degraded", err)
				case tl.Limit != limit || tl.Length != tt.length || tl.Status != 200:
					t.Errorf("ResponseTooLargeError = %+v, want limit %d, length %d", tl, limit, tt.length)
				}
				if n := sent.Load(); n != 1 {
					t.Errorf("%d attempts, want 1: the same request gets the same answer", n)
				}
				if c := d.BreakerCounts(); c.Failures != 0 {
					t.Errorf("breaker counted %d failures, want none", c.Failures)
				}
			})
		})
	}
}

// TestCheckRedirect: the default client follows a redirect only on the
// first request's origin and only for GET and HEAD; any other is answered
// with the 3xx, and nothing reaches the other host.
func TestCheckRedirect(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		url        string
		location   string
		wantStatus int // 0: followed, 200
	}{
		{name: "same origin GET", method: "GET", url: "http://a.test/pets", location: "/pets/"},
		{name: "same origin, default port", method: "GET", url: "http://a.test/pets", location: "http://a.test:80/pets/"},
		{name: "same origin HEAD", method: "HEAD", url: "http://a.test/pets", location: "/pets/"},
		{name: "same origin POST", method: "POST", url: "http://a.test/orders", location: "/orders/", wantStatus: 307},
		{name: "other host POST", method: "POST", url: "http://a.test/orders", location: "http://b.test/steal", wantStatus: 307},
		{name: "other host GET", method: "GET", url: "http://a.test/pets", location: "http://b.test/steal", wantStatus: 307},
		{name: "other port GET", method: "GET", url: "http://a.test/pets", location: "http://a.test:8080/pets/", wantStatus: 307},
		{name: "other scheme GET", method: "GET", url: "http://a.test/pets", location: "https://a.test/pets/", wantStatus: 307},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var stolen atomic.Int64
				rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					switch {
					case strings.TrimSuffix(r.Host, ":80") != "a.test":
						stolen.Add(1)
					case r.URL.Path == "/pets" || r.URL.Path == "/orders":
						w.Header().Set("Location", tt.location)
						w.WriteHeader(http.StatusTemporaryRedirect)
					default:
						w.Write([]byte(`{"id":7}`))
					}
				}))
				c := &HTTPClient{Doer: NewHTTPClient(rig.tr)}
				op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: NotIdempotent})
				req, _ := http.NewRequest(tt.method, tt.url, strings.NewReader(`{"secret":1}`))
				req.Header.Set("X-Api-Key", "k")
				_, err := DoHTTP(t.Context(), op, c, req, func(resp *http.Response) (int, error) { return resp.StatusCode, nil }, nil)
				var re *RemoteError
				switch {
				case tt.wantStatus == 0 && err != nil:
					t.Errorf("DoHTTP error = %v, want the redirect followed", err)
				case tt.wantStatus != 0 && (!errors.As(err, &re) || re.Status != tt.wantStatus || re.Header.Get("Location") != tt.location || re.Class != outcome.Rejected):
					t.Errorf("DoHTTP error = %v, want the %d answer with its Location", err, tt.wantStatus)
				}
				if n := stolen.Load(); n != 0 {
					t.Errorf("another host received %d requests", n)
				}
			})
		})
	}
}

// TestRemoteErrorMessageIsPrintable: control and formatting characters of
// an error body never reach RemoteError.Message.
func TestRemoteErrorMessageIsPrintable(t *testing.T) {
	tests := []struct{ body, want string }{
		{"bad request", "bad request"},
		{"bad\x1b[31m red\x07 bell", "bad[31m red bell"},
		{"tab\there", "tab here"},
		{"evil \u202egnp.exe", "evil gnp.exe"},
		{"zero\u200bwidth\u0085next", "zerowidthnext"},
		{"first line\r\nforged: log line", "first line"},
	}
	for _, tt := range tests {
		if got := excerpt([]byte(tt.body)); got != tt.want {
			t.Errorf("excerpt(%q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// BenchmarkCheckRequest: the request check of every DoHTTP call, for a
// request with a few headers as generated clients send them.
func BenchmarkCheckRequest(b *testing.B) {
	req, err := http.NewRequest(http.MethodPost, "https://pets.example.com:8443/v1/pets?limit=10", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.abc")
	req.Header.Set("User-Agent", "petstore-client/1.0")
	b.ReportAllocs()
	for b.Loop() {
		if err := checkRequest(req, "Idempotency-Key"); err != nil {
			b.Fatal(err)
		}
	}
}
