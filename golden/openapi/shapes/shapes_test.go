package shapes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// newServer serves h on 127.0.0.1 and returns a client of it.
func newServer(t *testing.T, h http.HandlerFunc, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, opts...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func ptr[T any](v T) *T { return &v }

func TestQueryHeaderAndCookieEncoding(t *testing.T) {
	const want = "tag=a&tag=b+c&ids=1,2&colors=red%20blue&sizes=1.5|2&filter[owner]=me&filter[minSize]=3&limit=10&since=2024-01-02T03%3A04%3A05Z"
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != want {
			t.Errorf("raw query = %s, want %s", r.URL.RawQuery, want)
		}
		if got := r.Header.Get("X-Trace"); got != "t-1" {
			t.Errorf("X-Trace = %q, want t-1", got)
		}
		if ck, err := r.Cookie("session"); err != nil || ck.Value != "s1" {
			t.Errorf("session cookie = %v, %v; want s1", ck, err)
		}
		writeJSON(w, 200, []Item{{ID: "1", Name: "one"}})
	})
	items, err := c.ListItems(context.Background(), &ListItemsParams{
		Tag:     []string{"a", "b c"},
		IDs:     []int64{1, 2},
		Colors:  []Color{ColorRed, ColorBlue},
		Sizes:   []float64{1.5, 2},
		Filter:  &Filter{Owner: ptr("me"), MinSize: ptr(3)},
		Limit:   ptr(10),
		Since:   ptr(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)),
		XTrace:  ptr("t-1"),
		Session: ptr("s1"),
	})
	if err != nil {
		t.Fatalf("ListItems: %v", err)
	}
	if len(items) != 1 || items[0].Name != "one" {
		t.Errorf("ListItems = %+v, want one item named one", items)
	}
}

func TestNilParamsSendNoQuery(t *testing.T) {
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			t.Errorf("raw query = %q, want none", r.URL.RawQuery)
		}
		writeJSON(w, 200, []Item{})
	})
	if _, err := c.ListItems(context.Background(), nil); err != nil {
		t.Fatalf("ListItems: %v", err)
	}
}

func TestRequiredQueryParameterIsNeverDropped(t *testing.T) {
	var calls int
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		calls++
		if got := r.URL.RawQuery; got != "q=cats" {
			t.Errorf("raw query = %q, want q=cats", got)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	if err := c.Search(context.Background(), nil); err == nil || !strings.Contains(err.Error(), `required query parameter "q"`) {
		t.Errorf("Search(nil) = %v, want an error naming the required parameter", err)
	}
	if err := c.Search(context.Background(), &SearchParams{Q: "cats"}); err != nil {
		t.Fatalf("Search: %v", err)
	}
	if calls != 1 {
		t.Errorf("requests = %d, want 1 (none for the nil params)", calls)
	}
}

func TestPutRoundTripsBodyAndEscapesPath(t *testing.T) {
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || r.URL.EscapedPath() != "/items/a%2Fb" {
			t.Errorf("request = %s %s, want PUT /items/a%%2Fb", r.Method, r.URL.EscapedPath())
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type = %q", ct)
		}
		var it Item
		if err := json.NewDecoder(r.Body).Decode(&it); err != nil {
			t.Errorf("decoding the body: %v", err)
		}
		it.Name += "!"
		writeJSON(w, 200, it)
	})
	got, err := c.PutItem(context.Background(), "a/b", Item{ID: "a/b", Name: "x", Size: ptr(2.5)})
	if err != nil {
		t.Fatalf("PutItem: %v", err)
	}
	if got.ID != "a/b" || got.Name != "x!" || got.Size == nil || *got.Size != 2.5 {
		t.Errorf("PutItem = %+v", got)
	}
}

func TestIdempotencyKeySameOnEveryAttempt(t *testing.T) {
	var (
		mu   sync.Mutex
		keys []string
	)
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		n := len(keys)
		mu.Unlock()
		io.Copy(io.Discard, r.Body)
		if n < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeJSON(w, 201, Item{ID: "1", Name: "made"})
	})
	got, err := c.CreateItem(context.Background(), nil, Item{ID: "1", Name: "made"})
	if err != nil {
		t.Fatalf("CreateItem: %v", err)
	}
	if got.Name != "made" {
		t.Errorf("CreateItem = %+v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(keys) != 3 || keys[0] == "" || keys[1] != keys[0] || keys[2] != keys[0] {
		t.Errorf("keys = %q, want three equal non-empty keys", keys)
	}
}

func TestCallerIdempotencyKeyWins(t *testing.T) {
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Idempotency-Key"); got != "mine" {
			t.Errorf("Idempotency-Key = %q, want mine", got)
		}
		writeJSON(w, 201, Item{ID: "1", Name: "n"})
	})
	if _, err := c.CreateItem(context.Background(), &CreateItemParams{IdempotencyKey: "mine"}, Item{ID: "1", Name: "n"}); err != nil {
		t.Fatalf("CreateItem: %v", err)
	}
}

func TestPostWithoutKeyIsSentOnce(t *testing.T) {
	var count atomic.Int32
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		if r.Header.Get("Content-Type") != "text/plain" {
			t.Errorf("Content-Type = %q", r.Header.Get("Content-Type"))
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	err := c.AddNote(context.Background(), "1", "hello")
	var re *runtime.RemoteError
	if !errors.As(err, &re) || re.Status != http.StatusServiceUnavailable {
		t.Fatalf("AddNote error = %v, want a 503 *RemoteError", err)
	}
	if n := count.Load(); n != 1 {
		t.Errorf("server saw %d requests after a 503, want 1", n)
	}
}

func TestPostWithoutKeyTimesOutOnceWithUnknownOutcome(t *testing.T) {
	var count atomic.Int32
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		// Reading the body to its end lets the server watch the
		// connection, so that the client's cancellation ends the
		// handler at once instead of after 5 s.
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}, WithPolicy(func(p *Policy) { p.AddNote.Timeout = 200 * time.Millisecond }))
	err := c.AddNote(context.Background(), "1", "hello")
	if !errors.Is(err, runtime.ErrOutcomeUnknown) {
		t.Fatalf("AddNote error = %v, want one matching ErrOutcomeUnknown", err)
	}
	if n := count.Load(); n != 1 {
		t.Errorf("server saw %d requests after a timeout, want 1", n)
	}
}

func TestDocumentedErrorIsTyped(t *testing.T) {
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/items/gone" {
			writeJSON(w, 404, Error{Code: "not_found", Message: "no such item"})
			return
		}
		writeJSON(w, 409, Error{Code: "conflict", Message: "busy"})
	})
	_, err := c.GetItem(context.Background(), "gone")
	var typed *GetItemError
	if !errors.As(err, &typed) || typed.NotFound == nil || typed.NotFound.Code != "not_found" || typed.StatusCode != 404 {
		t.Fatalf("GetItem error = %#v, want a *GetItemError with NotFound", err)
	}
	var re *runtime.RemoteError
	if !errors.As(err, &re) || re.Status != 404 || re.Attempts != 1 {
		t.Fatalf("GetItem error = %v, want a 404 *RemoteError after 1 attempt", err)
	}
	_, err = c.GetItem(context.Background(), "busy")
	if !errors.As(err, &typed) || typed.Default == nil || typed.Default.Code != "conflict" || typed.NotFound != nil {
		t.Fatalf("GetItem error = %#v, want a *GetItemError with Default", err)
	}
}

func TestNoContentReturnsOnlyError(t *testing.T) {
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodDelete || r.URL.Path != "/items/7" {
			t.Errorf("request = %s %s", r.Method, r.URL.Path)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	if err := c.DeleteItem(context.Background(), "7"); err != nil {
		t.Fatalf("DeleteItem: %v", err)
	}
}

func TestBinaryBodiesReplayAndRead(t *testing.T) {
	var count atomic.Int32
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			if data, _ := io.ReadAll(r.Body); string(data) != "payload" {
				t.Errorf("body = %q, want payload", data)
			}
			if count.Add(1) == 1 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Write([]byte("payload"))
	})
	if err := c.PutBlob(context.Background(), 3, bytes.NewReader([]byte("payload"))); err != nil {
		t.Fatalf("PutBlob: %v", err)
	}
	if n := count.Load(); n != 2 {
		t.Errorf("server saw %d PUTs, want 2 (a bytes.Reader body is replayed)", n)
	}
	body, err := c.GetBlob(context.Background(), 3)
	if err != nil {
		t.Fatalf("GetBlob: %v", err)
	}
	got, err := io.ReadAll(body)
	body.Close()
	if err != nil || string(got) != "payload" {
		t.Fatalf("GetBlob's body = %q, %v", got, err)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	var (
		mu    sync.Mutex
		times []time.Time
	)
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		n := len(times)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		writeJSON(w, 200, Quote{Symbol: "ABC", Price: 1})
	}, WithPolicy(func(p *Policy) {
		// Retry-After beyond the backoff cap fails fast; allow 1 s.
		p.GetQuote.Retry.Cap = 2 * time.Second
	}))
	q, err := c.GetQuote(context.Background(), "ABC")
	if err != nil || q.Symbol != "ABC" {
		t.Fatalf("GetQuote = %+v, %v", q, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 2 {
		t.Fatalf("server saw %d requests, want 2", len(times))
	}
	if gap := times[1].Sub(times[0]); gap < time.Second {
		t.Errorf("retry after %v, want at least the 1s of Retry-After", gap)
	}
}

func TestCachedFallbackIsMarkedDegraded(t *testing.T) {
	var failing atomic.Bool
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeJSON(w, 200, Quote{Symbol: "ABC", Price: 42})
	})
	if _, err := c.GetQuote(context.Background(), "ABC"); err != nil {
		t.Fatalf("GetQuote: %v", err)
	}
	failing.Store(true)
	q, err := c.GetQuote(context.Background(), "ABC")
	if !runtime.IsDegraded(err) {
		t.Fatalf("GetQuote error = %v, want a degraded answer", err)
	}
	if q.Price != 42 {
		t.Errorf("GetQuote = %+v, want the cached quote", q)
	}
	if _, err := c.GetQuote(context.Background(), "XYZ"); err == nil || runtime.IsDegraded(err) {
		t.Errorf("GetQuote(XYZ) error = %v, want a plain failure (nothing cached)", err)
	}
}

func TestStaticFallbackIsMarkedDegraded(t *testing.T) {
	var calls atomic.Int32
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	s, err := c.GetMarketStatus(context.Background())
	if !runtime.IsDegraded(err) {
		t.Fatalf("GetMarketStatus error = %v, want a degraded answer", err)
	}
	if s.Open || s.Note == nil || *s.Note != "status unknown" || len(s.Colors) != 1 || s.Colors[0] != ColorRed {
		t.Errorf("GetMarketStatus = %+v, want the spec's static value", s)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("server saw %d requests, want 2 (one retry) before the fallback", n)
	}
}

func TestStaticFallbackThatDoesNotDecode(t *testing.T) {
	_, err := NewClient("http://127.0.0.1:1", WithPolicy(func(p *Policy) {
		p.GetMarketStatus.Fallback.Static = json.RawMessage(`{"open":"yes"}`)
	}))
	if err == nil || !strings.Contains(err.Error(), `shapes: GetMarketStatus: static fallback {"open":"yes"}: json: cannot unmarshal`) {
		t.Errorf("NewClient error = %v, want the static fallback's decode error", err)
	}
	c, err := NewClient("http://127.0.0.1:1", WithPolicy(func(p *Policy) {
		p.GetMarketStatus.Fallback.Static = MarketStatus{Open: true}
	}))
	if err != nil || c == nil {
		t.Errorf("NewClient with a typed static value: %v", err)
	}
}

func TestPolicyTable(t *testing.T) {
	p := DefaultPolicy()
	if p.CreateItem.Idempotency != runtime.Idempotent || p.AddNote.Idempotency != runtime.NotIdempotent {
		t.Errorf("idempotency: CreateItem %v, AddNote %v", p.CreateItem.Idempotency, p.AddNote.Idempotency)
	}
	if p.GetQuote.Fallback.Kind != runtime.FallbackCached || p.GetQuote.Fallback.TTL != time.Minute {
		t.Errorf("GetQuote fallback = %+v", p.GetQuote.Fallback)
	}
	// Not idempotent, so never retried: the runtime knows, and the
	// literal writes no retry setting for it.
	if p.AddNote.Retry != (runtime.RetryPolicy{}) {
		t.Errorf("AddNote retry = %+v, want nothing written", p.AddNote.Retry)
	}
}

func TestNewClientRejectsRelativeURL(t *testing.T) {
	if _, err := NewClient("/relative"); err == nil {
		t.Error("NewClient(/relative) succeeded, want an error")
	}
}

// TestInvalidRequestIsTheCallersError: a request that cannot be sent as
// given (a cookie value a cookie cannot carry, a header value with CR LF,
// a body that does not marshal) fails at once as the caller's error; the
// server sees nothing.
func TestInvalidRequestIsTheCallersError(t *testing.T) {
	var seen atomic.Int32
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		writeJSON(w, 200, Item{ID: "1", Name: "one"})
	})
	calls := map[string]func() error{
		"cookie with ';'": func() error {
			_, err := c.ListItems(context.Background(), &ListItemsParams{Session: ptr("s1; admin=1")})
			return err
		},
		"header with CR LF": func() error {
			_, err := c.ListItems(context.Background(), &ListItemsParams{XTrace: ptr("t\r\nX-Admin: 1")})
			return err
		},
		"body that does not marshal": func() error {
			_, err := c.PutItem(context.Background(), "1", Item{ID: "1", Name: "x", Size: ptr(math.NaN())})
			return err
		},
	}
	for name, call := range calls {
		err := call()
		var ce *runtime.CallError
		if !errors.Is(err, runtime.ErrInvalidRequest) || !errors.As(err, &ce) || ce.Attempts != 0 {
			t.Errorf("%s: error = %v, want an invalid request, not sent", name, err)
		}
	}
	if n := seen.Load(); n != 0 {
		t.Errorf("server saw %d requests, want none", n)
	}
}

// TestNewClientRefusesBaseURLs: a base URL with a query, a fragment or
// userinfo is refused, and the error never shows the password.
func TestNewClientRefusesBaseURLs(t *testing.T) {
	for _, raw := range []string{
		"http://127.0.0.1:1/v1?debug=1",
		"http://127.0.0.1:1/v1#top",
		"http://admin:hunter2@127.0.0.1:1/v1",
		"ftp://127.0.0.1:1/v1",
	} {
		_, err := NewClient(raw)
		if err == nil || !strings.HasPrefix(err.Error(), "shapes: base URL") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("NewClient(%q) error = %v, want a base URL error without the password", raw, err)
		}
	}
	if _, err := NewClient("http://127.0.0.1:1/v1/"); err != nil {
		t.Errorf("NewClient with a path: %v", err)
	}
}

// TestRedirectsStayOnTheirOrigin: the default client follows a redirect
// of a GET on the same origin only; a 307 of a POST to another host is
// the answer, and that host never sees the body.
func TestRedirectsStayOnTheirOrigin(t *testing.T) {
	var stolen atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { stolen.Add(1) }))
	t.Cleanup(other.Close)
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/items/1/notes":
			w.Header().Set("Location", other.URL+"/collect")
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "/items/old":
			http.Redirect(w, r, "/items/new", http.StatusFound)
		case "/items/elsewhere":
			http.Redirect(w, r, other.URL+"/items/new", http.StatusFound)
		default:
			writeJSON(w, 200, Item{ID: "new", Name: "moved"})
		}
	})
	err := c.AddNote(context.Background(), "1", "secret note")
	var re *runtime.RemoteError
	if !errors.As(err, &re) || re.Status != http.StatusTemporaryRedirect || re.Header.Get("Location") != other.URL+"/collect" {
		t.Errorf("AddNote error = %v, want the 307 with its Location", err)
	}
	if item, err := c.GetItem(context.Background(), "old"); err != nil || item.ID != "new" {
		t.Errorf("GetItem(old) = %+v, %v; want the redirect on the same origin followed", item, err)
	}
	if _, err := c.GetItem(context.Background(), "elsewhere"); !errors.As(err, &re) || re.Status != http.StatusFound {
		t.Errorf("GetItem(elsewhere) error = %v, want the 302", err)
	}
	if n := stolen.Load(); n != 0 {
		t.Errorf("the other host saw %d requests, want none", n)
	}
}

// TestMaxResponseBody: a success body above the client's limit fails
// with a ResponseTooLargeError, never retried. A download (GetBlob) is a
// stream: the limit does not bound it.
func TestMaxResponseBody(t *testing.T) {
	var calls atomic.Int32
	blob := bytes.Repeat([]byte("x"), 2048)
	h := func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if strings.HasPrefix(r.URL.Path, "/blobs/") {
			w.Write(blob)
			return
		}
		fmt.Fprintf(w, `{"id":%q}`, blob)
	}
	small := newServer(t, h, WithMaxResponseBody(1024))
	if _, err := small.GetItem(context.Background(), "big"); !errors.Is(err, runtime.ErrResponseTooLarge) {
		t.Errorf("GetItem error = %v, want ErrResponseTooLarge", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
	if item, err := newServer(t, h).GetItem(context.Background(), "big"); err != nil || len(item.ID) != len(blob) {
		t.Errorf("GetItem with the default limit = %d bytes, %v", len(item.ID), err)
	}
	body, err := small.GetBlob(context.Background(), 1)
	if err != nil {
		t.Fatalf("GetBlob: %v", err)
	}
	defer body.Close()
	if got, err := io.ReadAll(body); err != nil || len(got) != len(blob) {
		t.Errorf("GetBlob's body = %d bytes, %v, want all %d", len(got), err, len(blob))
	}
}

// TestDeadlineHeaderOption: a spec that does not declare that its server
// reads a deadline header gets none, unless WithDeadlineHeader names one;
// empty, it turns it off.
func TestDeadlineHeaderOption(t *testing.T) {
	for _, tt := range []struct {
		opts []Option
		want string // the header that must carry the budget; "" none
	}{
		{nil, ""},
		{[]Option{WithDeadlineHeader("X-Request-Deadline")}, "X-Request-Deadline"},
		{[]Option{WithDeadlineHeader("X-Budget-Ms")}, "X-Budget-Ms"},
		{[]Option{WithDeadlineHeader("")}, ""},
	} {
		var got []string
		c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			for _, name := range []string{"X-Request-Deadline", "X-Budget-Ms"} {
				if r.Header.Get(name) != "" {
					got = append(got, name)
				}
			}
			writeJSON(w, 200, Item{ID: "1", Name: "one"})
		}, tt.opts...)
		if _, err := c.GetItem(context.Background(), "1"); err != nil {
			t.Fatal(err)
		}
		if want := []string{tt.want}; (tt.want == "" && len(got) != 0) || (tt.want != "" && (len(got) != 1 || got[0] != want[0])) {
			t.Errorf("deadline headers sent = %q, want %q", got, tt.want)
		}
	}
}

type userKey struct{}

// TestFallbackPartition: with WithFallbackPartition, one caller's cached
// answer is never served to another.
func TestFallbackPartition(t *testing.T) {
	var failing atomic.Bool
	c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeJSON(w, 200, Quote{Symbol: "ABC", Price: 42})
	}, WithFallbackPartition(func(ctx context.Context) string { u, _ := ctx.Value(userKey{}).(string); return u }))
	alice := context.WithValue(context.Background(), userKey{}, "alice")
	bob := context.WithValue(context.Background(), userKey{}, "bob")
	if _, err := c.GetQuote(alice, "ABC"); err != nil {
		t.Fatal(err)
	}
	failing.Store(true)
	if q, err := c.GetQuote(bob, "ABC"); err == nil || runtime.IsDegraded(err) {
		t.Errorf("GetQuote as bob = %+v, %v; want a failure, not alice's answer", q, err)
	}
	if q, err := c.GetQuote(alice, "ABC"); !runtime.IsDegraded(err) || q.Price != 42 {
		t.Errorf("GetQuote as alice = %+v, %v; want her cached answer", q, err)
	}
}
