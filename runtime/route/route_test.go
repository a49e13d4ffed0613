package route

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"go.uber.org/goleak"
)

func TestRouteMatch(t *testing.T) {
	d := testDependency(t)
	templates := []string{
		"GET /pets",
		"POST /pets",
		"GET /pets/{petId}",
		"DELETE /pets/{petId}",
		"GET /pets/mine",
		"GET /pets/{petId}/photos",
		"GET /pets/mine/photos/{n}",
		"GET /files/{name}.{ext}",
		"GET /files/{name}",
		"GET /files/{name}.json",
		"GET /users/{id}:activate",
		"GET /search?kind=pets",
		"GET /search?kind=pets&sort=name",
		"GET /search",
		"GET /",
		"GET /a%20b",
		"GET /alerts?lat={lat}&lon={lon}",
		"GET /alerts?city={city}",
		"GET /alerts",
	}
	var routes []Route
	ops := map[*runtime.Operation]string{}
	for _, tpl := range templates {
		method, path, _ := strings.Cut(tpl, " ")
		op := testOperation(t, d, runtime.OperationPolicy{Name: tpl})
		ops[op] = tpl
		routes = append(routes, Route{Method: method, Path: path, Operation: op})
	}
	rt, err := New(routes, Options{PathPrefix: "/v1/"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, url, want string
	}{
		{"GET", "/v1/pets", "GET /pets"},
		{"POST", "/v1/pets", "POST /pets"},
		{"GET", "/v1/pets/7", "GET /pets/{petId}"},
		{"GET", "/v1/pets/mine", "GET /pets/mine"},
		{"DELETE", "/v1/pets/mine", "DELETE /pets/{petId}"}, // the literal has no DELETE: back to the variable
		{"GET", "/v1/pets/mine/photos", "GET /pets/{petId}/photos"},
		{"GET", "/v1/pets/mine/photos/3", "GET /pets/mine/photos/{n}"},
		{"GET", "/v1/pets/a%2Fb", "GET /pets/{petId}"}, // an escaped slash stays in its segment
		{"GET", "/v1/files/report.json", "GET /files/{name}.json"},
		{"GET", "/v1/files/report.tar.gz", "GET /files/{name}.{ext}"},
		{"GET", "/v1/files/report", "GET /files/{name}"},
		{"GET", "/v1/users/42:activate", "GET /users/{id}:activate"},
		{"GET", "/v1/search?sort=name&kind=pets", "GET /search?kind=pets&sort=name"},
		{"GET", "/v1/search?kind=pets", "GET /search?kind=pets"},
		{"GET", "/v1/search?kind=cats", "GET /search"},
		{"GET", "/v1/", "GET /"},
		{"GET", "/v1", "GET /"},
		{"GET", "/v1/a%20b", "GET /a%20b"},
		{"GET", "/v1/alerts?lon=2&lat=1", "GET /alerts?lat={lat}&lon={lon}"}, // a variable pair matches any value
		{"GET", "/v1/alerts?lat=&lon=%7Blon%7D", "GET /alerts?lat={lat}&lon={lon}"},
		{"GET", "/v1/alerts?city=Paris", "GET /alerts?city={city}"},
		{"GET", "/v1/alerts?lat=1", "GET /alerts?lat={lat}&lon={lon}"}, // a variable may be absent
		{"GET", "/v1/alerts", "GET /alerts"},                           // none present: the route without variables
		{"GET", "/v1/alerts?other=1", "GET /alerts"},
		{"", "/v1/pets", "GET /pets"},
		{"PUT", "/v1/pets", ""},
		{"GET", "/v1/pets/", ""},                        // an empty segment is no variable
		{"GET", "/v1/pets/7/toys", ""},                  // no such template
		{"GET", "/v2/pets", ""},                         // outside the prefix
		{"GET", "/v1pets", ""},                          // the prefix ends at a segment
		{"GET", "/v1/files/.json", "GET /files/{name}"}, // "{name}.json" needs a non-empty name
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.url, func(t *testing.T) {
			u, err := url.Parse("http://api.test" + tt.url)
			if err != nil {
				t.Fatal(err)
			}
			got := ops[rt.Match(&http.Request{Method: tt.method, URL: u})]
			if got != tt.want {
				t.Errorf("Match(%s %s) = %q, want %q", tt.method, tt.url, got, tt.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	d := testDependency(t)
	op := testOperation(t, d, runtime.OperationPolicy{})
	tests := []struct {
		name   string
		routes []Route
		want   string
	}{
		{"duplicate", []Route{{Method: "GET", Path: "/pets/{id}", Operation: op}, {Method: "GET", Path: "/pets/{petId}", Operation: op}}, "route 1 (GET /pets/{petId}): same method and template as GET /pets/{id}"},
		{"unclosed", []Route{{Method: "GET", Path: "/pets/{id", Operation: op}}, `route 0 (GET /pets/{id): "{" without "}"`},
		{"side by side", []Route{{Method: "GET", Path: "/f/{a}{b}", Operation: op}}, "two variables side by side"},
		{"repeated name", []Route{{Method: "GET", Path: "/f/{a}/{a}", Operation: op}}, `variable "a" appears twice`},
		{"relative", []Route{{Method: "GET", Path: "pets", Operation: op}}, `must start with "/"`},
		{"no operation", []Route{{Method: "GET", Path: "/pets", Operation: nil}}, "no operation"},
		{"bad method", []Route{{Method: "GE T", Path: "/pets", Operation: op}}, "not an HTTP token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.routes, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// routeRig is a route transport over the pipe listener, under an
// http.Client as a third-party client would use it.
func routeRig(t *testing.T, h http.Handler, policy runtime.DependencyPolicy, unmatched Unmatched, ops ...runtime.OperationPolicy) (*http.Client, *runtime.Dependency) {
	t.Helper()
	rig := newHTTPRig(t, h)
	d, err := runtime.NewDependency("pets", policy)
	if err != nil {
		t.Fatal(err)
	}
	var routes []Route
	for _, p := range ops {
		method, path, _ := strings.Cut(p.Name, " ")
		routes = append(routes, Route{Method: method, Path: path, Operation: testOperation(t, d, p)})
	}
	rt, err := New(routes, Options{Base: rig.tr, Unmatched: unmatched})
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: rt}, d
}

// TestTransport: a matched request runs through its operation's
// pipeline: a GET is retried, a POST is not; every answer reaches the
// client as the server sent it; the request itself is not changed.
func TestTransport(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var gets, posts atomic.Int64
		var deadlines []string
		client, d := routeRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			deadlines = append(deadlines, r.Header.Get(runtime.DefaultDeadlineHeader))
			switch {
			case r.Method == "GET" && r.URL.Path == "/pets/7":
				if gets.Add(1) < 3 {
					http.Error(w, "busy", http.StatusServiceUnavailable)
					return
				}
				io.WriteString(w, `{"id":7}`)
			case r.Method == "POST":
				posts.Add(1)
				io.ReadAll(r.Body)
				http.Error(w, "busy", http.StatusServiceUnavailable)
			default:
				http.Error(w, "no such pet", http.StatusNotFound)
			}
		}), runtime.DependencyPolicy{}, RefuseUnmatched,
			runtime.OperationPolicy{Name: "GET /pets/{id}", Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second, AttemptTimeout: 500 * time.Millisecond,
				Retry: runtime.RetryPolicy{DisableJitter: true}},
			runtime.OperationPolicy{Name: "POST /pets", Idempotency: runtime.NotIdempotent, Timeout: 2 * time.Second})

		req, _ := http.NewRequest("GET", "http://dep.test/pets/7", nil)
		req.Header.Set("X-Caller", "test")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != `{"id":7}` || gets.Load() != 3 {
			t.Errorf("GET: %d %s after %d attempts, want 200 after 3", resp.StatusCode, b, gets.Load())
		}
		if len(req.Header) != 1 || deadlines[0] != "490" || deadlines[1] != "490" {
			t.Errorf("the request's header is now %v (want it untouched); deadline header sent %q", req.Header, deadlines[0])
		}

		resp, err = client.Post("http://dep.test/pets", "application/json", strings.NewReader(`{"name":"Rex"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || string(b) != "busy\n" || posts.Load() != 1 {
			t.Errorf("POST: %d %q after %d attempts, want the 503 and its body after 1", resp.StatusCode, b, posts.Load())
		}

		resp, err = client.Get("http://dep.test/pets/8")
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || string(b) != "no such pet\n" {
			t.Errorf("GET a missing pet: %d %q, want the 404 and its body", resp.StatusCode, b)
		}

		_, err = client.Get("http://dep.test/owners")
		var ue *UnmatchedError
		if !errors.As(err, &ue) || !errors.Is(err, runtime.ErrNotSent) || ue.Path != "/owners" {
			t.Errorf("unmatched GET: %v, want an UnmatchedError", err)
		}
		if d.InFlight() != 0 {
			t.Errorf("InFlight = %d, want 0", d.InFlight())
		}
	})
}

// TestTransportPipelineErrors: a call the pipeline ends without an
// answer returns its CallError through http.Client; a body holds its
// permit until closed; an unmatched request passes through when asked.
func TestTransportPipelineErrors(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int64
		client, d := routeRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			if r.URL.Path == "/slow" {
				<-r.Context().Done()
				return
			}
			io.WriteString(w, "ok")
		}), runtime.DependencyPolicy{Bulkhead: runtime.BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}}, PassUnmatched,
			runtime.OperationPolicy{Name: "GET /pets", Idempotency: runtime.ReadOnly, Timeout: time.Second},
			runtime.OperationPolicy{Name: "GET /slow", Idempotency: runtime.ReadOnly, Timeout: time.Second, Retry: runtime.RetryPolicy{Disabled: true}})

		resp, err := client.Get("http://dep.test/pets")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.Get("http://dep.test/pets"); !errors.Is(err, runtime.ErrBulkheadFull) {
			t.Errorf("a second call while the first body is open: %v, want ErrBulkheadFull", err)
		}
		resp.Body.Close()
		_, err = client.Get("http://dep.test/slow")
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.End != runtime.EndDeadline || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("slow GET: %v, want a CallError ending at the deadline", err)
		}
		resp, err = client.Get("http://dep.test/health")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("unmatched GET passed through: %v", err)
		}
		resp.Body.Close()
		if d.InFlight() != 0 || n.Load() != 3 {
			t.Errorf("InFlight = %d, server saw %d; want 0 and 3", d.InFlight(), n.Load())
		}
	})
}
