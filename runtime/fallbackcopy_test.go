package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// petResult is a result as generated clients decode it: a struct with
// the status, the header and a pointer, a slice and a map.
type petResult struct {
	Status int
	Header http.Header
	Pet    *testPet
	Tags   []string
	Attrs  map[string]string
}

func decodePetResult(resp *http.Response) (*petResult, error) {
	var body struct {
		testPet
		Tags  []string          `json:"tags"`
		Attrs map[string]string `json:"attrs"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	return &petResult{Status: resp.StatusCode, Header: resp.Header, Pet: &body.testPet, Tags: body.Tags, Attrs: body.Attrs}, nil
}

// TestCachedFallbackNotShared: every caller a cached fallback answers
// gets a value of its own, as does the caller whose answer was cached:
// what one changes in its answer (the struct, a pointer, a slice, a map,
// the header) is not what the next one reads.
func TestCachedFallbackNotShared(t *testing.T) {
	const payload = `{"id":7,"name":"Rex","tags":["good"],"attrs":{"color":"brown"}}`
	var fail atomic.Bool
	doer := doerFunc(func(r *http.Request) (*http.Response, error) {
		if fail.Load() {
			return &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody}, nil
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Etag": {`"v1"`}},
			Body: io.NopCloser(bytes.NewReader([]byte(payload))), ContentLength: int64(len(payload))}, nil
	})
	d, err := NewDependency("pets", DependencyPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: time.Second,
		Retry: RetryPolicy{Disabled: true}, Fallback: FallbackPolicy{Kind: FallbackCached, TTL: time.Hour}})
	c := &HTTPClient{Doer: doer}
	req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)
	ctx := context.Background()

	mutate := func(r *petResult) {
		r.Status = 0
		r.Header.Set("Etag", "changed")
		r.Pet.Name = "changed"
		r.Tags[0] = "changed"
		r.Attrs["color"] = "changed"
	}
	check := func(what string, r *petResult) {
		t.Helper()
		if r == nil || r.Status != 200 || r.Header.Get("Etag") != `"v1"` || r.Pet.Name != "Rex" || r.Tags[0] != "good" || r.Attrs["color"] != "brown" {
			t.Errorf("%s = %+v, want the answer as the server sent it", what, r)
		}
	}

	first, err := DoHTTP(ctx, op, c, req, decodePetResult, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("the answer", first)
	mutate(first)

	fail.Store(true)
	var answers []*petResult
	for range 2 {
		r, err := DoHTTP(ctx, op, c, req, decodePetResult, nil)
		if !errors.Is(err, ErrDegraded) {
			t.Fatalf("a failed call: %v, want a degraded answer", err)
		}
		check("a cached answer", r)
		mutate(r)
		answers = append(answers, r)
	}
	if answers[0] == answers[1] || answers[0].Pet == answers[1].Pet || answers[0] == first {
		t.Errorf("two callers share one answer")
	}
}

// TestCachedFallbackResponseInfo: a cached answer is decoded without the
// call's response info, which stays empty: the answer did not come from
// this call.
func TestCachedFallbackResponseInfo(t *testing.T) {
	var fail atomic.Bool
	doer := doerFunc(func(r *http.Request) (*http.Response, error) {
		if fail.Load() {
			return nil, errors.New("connection refused")
		}
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader([]byte(`{"id":7}`)))}, nil
	})
	d, err := NewDependency("pets", DependencyPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: time.Second,
		Retry: RetryPolicy{Disabled: true}, Fallback: FallbackPolicy{Kind: FallbackCached, TTL: time.Hour}})
	c := &HTTPClient{Doer: doer}
	req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)
	var info ResponseInfo
	if _, err := DoHTTP(context.Background(), op.With(WithResponseInfo(&info)), c, req, decodePet, nil); err != nil || info.Status != 200 {
		t.Fatalf("DoHTTP: %v, info %+v", err, info)
	}
	fail.Store(true)
	p, err := DoHTTP(context.Background(), op.With(WithResponseInfo(&info)), c, req, decodePet, nil)
	if !errors.Is(err, ErrDegraded) || p.ID != 7 || info.Status != 0 {
		t.Errorf("degraded call: %+v, %v, info %+v; want pet 7, ErrDegraded and no response info", p, err, info)
	}
}

// TestStaticFallbackNotShared: every caller a static fallback answers
// gets a value of its own.
func TestStaticFallbackNotShared(t *testing.T) {
	doer := doerFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody}, nil
	})
	d, err := NewDependency("pets", DependencyPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	static := &petResult{Status: 200, Pet: &testPet{ID: 7, Name: "Rex"}, Tags: []string{"good"}}
	op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: time.Second,
		Retry: RetryPolicy{Disabled: true}, Fallback: FallbackPolicy{Kind: FallbackStatic, Static: static}})
	c := &HTTPClient{Doer: doer}
	req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)
	for i := range 2 {
		r, err := DoHTTP(context.Background(), op, c, req, decodePetResult, nil)
		if !errors.Is(err, ErrDegraded) || r == nil || r.Pet.Name != "Rex" || r.Tags[0] != "good" {
			t.Fatalf("degraded call %d: %+v, %v; want the static value", i, r, err)
		}
		r.Pet.Name, r.Tags[0] = "changed", "changed"
	}
	if static.Pet.Name != "Rex" || static.Tags[0] != "good" {
		t.Errorf("the policy's static value changed: %+v", static)
	}
}

// TestCachedFallbackConcurrent: callers answered fresh, whose answers the
// cache keeps, and callers answered from the cache at the same time each
// get and change a value of their own (run with -race).
func TestCachedFallbackConcurrent(t *testing.T) {
	const payload = `{"id":7,"name":"Rex","tags":["good"],"attrs":{"color":"brown"}}`
	var n atomic.Int64
	doer := doerFunc(func(r *http.Request) (*http.Response, error) {
		if n.Add(1)%2 == 0 {
			return &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody}, nil
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Etag": {`"v1"`}}, Body: io.NopCloser(bytes.NewReader([]byte(payload)))}, nil
	})
	d, err := NewDependency("pets", DependencyPolicy{Breaker: BreakerPolicy{Disabled: true}, Budget: BudgetPolicy{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	op := testOperation(t, d, OperationPolicy{Name: "GetPet", Idempotency: ReadOnly, Timeout: time.Second,
		Retry: RetryPolicy{Disabled: true}, Fallback: FallbackPolicy{Kind: FallbackCached, TTL: time.Hour}})
	c := &HTTPClient{Doer: doer}
	req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)
	if _, err := DoHTTP(context.Background(), op, c, req, decodePetResult, nil); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 16)
	for range 16 {
		go func() {
			for range 20 {
				// A request of its own: DoHTTP may write the header of the
				// one it is given.
				req, _ := http.NewRequest(http.MethodGet, "http://dep.test/pets/7", nil)
				r, err := DoHTTP(context.Background(), op, c, req, decodePetResult, nil)
				if err != nil && !errors.Is(err, ErrDegraded) {
					errs <- err
					return
				}
				if r.Pet.Name != "Rex" || r.Tags[0] != "good" || r.Attrs["color"] != "brown" || r.Header.Get("Etag") != `"v1"` {
					errs <- errors.New("an answer changed by another caller")
					return
				}
				r.Pet.Name, r.Tags[0], r.Attrs["color"] = "changed", "changed", "changed"
				r.Header.Set("Etag", "changed")
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
