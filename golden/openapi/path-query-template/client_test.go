package pathquerytemplate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/route"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// request is what the server received: method, escaped path and query.
type request struct {
	method, path string
	query        url.Values
}

type server struct {
	mu   sync.Mutex
	seen []request
}

func (s *server) last(t *testing.T) request {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		t.Fatal("no request reached the server")
	}
	return s.seen[len(s.seen)-1]
}

// newClient serves a recording handler on 127.0.0.1 and returns a client
// of it, with its own transport, closed at the end of the test.
func newClient(t *testing.T) (*Client, *server) {
	t.Helper()
	s := &server{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, request{r.Method, r.URL.EscapedPath(), r.URL.Query()})
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	tr := &http.Transport{}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	c, err := NewClient(srv.URL, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, s
}

// hostile are values that would change the URL if sent unescaped: a new
// pair, a new key, a fragment, other path segments.
var hostile = []string{"a&b=c", "=", "x#frag", "../../admin", "/", "..", "a+b c", "%41", "ü?q=1"}

func TestTemplateQueryValuesAreQueryValues(t *testing.T) {
	c, s := newClient(t)
	ctx := context.Background()
	for _, v := range hostile {
		t.Run(v, func(t *testing.T) {
			if err := c.GetAlertsByCity(ctx, &GetAlertsByCityParams{City: v}); err != nil {
				t.Fatal(err)
			}
			got := s.last(t)
			want := url.Values{"city": {v}, "units": {"metric"}}
			if got.method != http.MethodGet || got.path != "/alerts" || !equalValues(got.query, want) {
				t.Errorf("GetAlertsByCity(%q) reached %s %s %v, want GET /alerts %v", v, got.method, got.path, got.query, want)
			}

			if err := c.Search(ctx, &SearchParams{Query: v}); err != nil {
				t.Fatal(err)
			}
			got = s.last(t)
			if want := (url.Values{"q": {v}}); got.path != "/search" || !equalValues(got.query, want) {
				t.Errorf("Search(%q) reached %s %v, want /search %v", v, got.path, got.query, want)
			}

			if err := c.GetStationHistory(ctx, "st 1", &GetStationHistoryParams{Fields: []string{v, "temp"}}); err != nil {
				t.Fatal(err)
			}
			got = s.last(t)
			// The list is sent as the template would expand it: one value,
			// its elements joined by ",", each escaped.
			if got.path != "/stations/st%201/history" || len(got.query["fields"]) != 1 || got.query.Has("days") {
				t.Errorf("GetStationHistory(fields %q) reached %s %v", v, got.path, got.query)
			}
		})
	}
}

func TestTemplateQueryParameterTypes(t *testing.T) {
	c, s := newClient(t)
	ctx := context.Background()
	if err := c.GetAlertsByPosition(ctx, &GetAlertsByPositionParams{Lat: 48.85, Lon: -2.5}); err != nil {
		t.Fatal(err)
	}
	got := s.last(t)
	if want := (url.Values{"lat": {"48.85"}, "lon": {"-2.5"}}); got.path != "/alerts" || !equalValues(got.query, want) {
		t.Errorf("GetAlertsByPosition reached %s %v, want /alerts %v", got.path, got.query, want)
	}
	days := 3
	if err := c.GetStationHistory(ctx, "s", &GetStationHistoryParams{Days: &days, Fields: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	if got := s.last(t); !equalValues(got.query, url.Values{"days": {"3"}, "fields": {"a,b"}}) {
		t.Errorf("GetStationHistory sent the query %v, want days=3&fields=a,b", got.query)
	}
	// A variable that names no parameter became an optional one: not sent
	// when nil, sent under its key when set.
	if err := c.CreateRide(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := s.last(t); got.method != http.MethodPost || got.path != "/rides" || len(got.query) != 0 {
		t.Errorf("CreateRide(nil) reached %s %s %v, want POST /rides without a query", got.method, got.path, got.query)
	}
	page := "2&x=y"
	if err := c.CreateRide(ctx, &CreateRideParams{Page: &page}); err != nil {
		t.Fatal(err)
	}
	if got := s.last(t); !equalValues(got.query, url.Values{"page": {page}}) {
		t.Errorf("CreateRide(page %q) sent the query %v", page, got.query)
	}
}

// TestRoutesMatchTemplateQueries: the route table keeps the templates as
// the spec writes them, and a RouteTransport matches the requests of the
// client to their operation, including two that differ only in their
// query.
func TestRoutesMatchTemplateQueries(t *testing.T) {
	p := DefaultPolicy()
	dep, err := runtime.NewDependency("weather", p.Dependency)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dep.Close() })
	routes, err := Routes(dep, p)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := route.New(routes, route.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ops := map[*runtime.Operation]string{}
	for _, r := range routes {
		ops[r.Operation] = r.Method + " " + r.Path
	}
	c, err := NewClient("http://api.test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	page := "1"
	tests := []struct {
		req  func() (*http.Request, error)
		want string
	}{
		{func() (*http.Request, error) {
			return c.requestGetAlertsByCity(ctx, &GetAlertsByCityParams{City: "a&lat=1"})
		}, "GET /alerts?city={city}&units=metric"},
		{func() (*http.Request, error) {
			return c.requestGetAlertsByPosition(ctx, &GetAlertsByPositionParams{Lat: 1, Lon: 2})
		}, "GET /alerts?lat={lat}&lon={lon}"},
		{func() (*http.Request, error) { return c.requestCreateRide(ctx, nil) }, "POST /rides?page={page}"},
		{func() (*http.Request, error) { return c.requestCreateRide(ctx, &CreateRideParams{Page: &page}) }, "POST /rides?page={page}"},
		{func() (*http.Request, error) {
			return c.requestGetStationHistory(ctx, "s", &GetStationHistoryParams{Fields: []string{"a"}})
		}, "GET /stations/{id}/history?days={days}&fields={fields}"},
	}
	for _, tt := range tests {
		req, err := tt.req()
		if err != nil {
			t.Fatal(err)
		}
		if got := ops[rt.Match(req)]; got != tt.want {
			t.Errorf("%s %s matched %q, want %q", req.Method, req.URL, got, tt.want)
		}
	}
}

func equalValues(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
