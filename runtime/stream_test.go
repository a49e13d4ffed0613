package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/stream"
	"go.uber.org/goleak"
)

// sseServer answers with the events it is given, one per step, waiting
// for step before each (so the test decides when the server sends) and
// flushing each one.
type sseServer struct {
	events []string
	step   chan struct{}
	sent   atomic.Int64 // events started
	reqs   atomic.Int64
	// deadlines are the deadline headers seen.
	deadlines chan string
}

func (s *sseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.reqs.Add(1)
	if s.deadlines != nil {
		s.deadlines <- r.Header.Get(DefaultDeadlineHeader)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for _, ev := range s.events {
		if s.step != nil {
			select {
			case <-s.step:
			case <-r.Context().Done():
				return
			}
		}
		s.sent.Add(1)
		io.WriteString(w, ev)
		w.(http.Flusher).Flush()
	}
}

type tick struct {
	N int `json:"n"`
}

// TestDoHTTPStreamDeliversIncrementally: each event reaches the caller
// before the server sends the next one, and the last only once sent.
func TestDoHTTPStreamDeliversIncrementally(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		srv := &sseServer{events: []string{"data: {\"n\":1}\n\n", "event: tick\ndata: {\"n\":2}\n\n", "id: 3\ndata: {\"n\":3}\n\n"}, step: make(chan struct{})}
		rig := newHTTPRig(t, srv)
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second, AttemptTimeout: 200 * time.Millisecond})

		resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := stream.NewEvents[tick](resp, nil)
		defer s.Close()
		if resp.Header.Get("Content-Type") != "text/event-stream" || s.Response() != resp {
			t.Errorf("Response header %v", resp.Header)
		}
		for i, want := range []stream.Event[tick]{{Type: "message", Data: tick{1}}, {Type: "tick", Data: tick{2}}, {Type: "message", ID: "3", Data: tick{3}}} {
			srv.step <- struct{}{}
			if !s.Next() {
				t.Fatalf("Next = false before event %d: %v", i+1, s.Err())
			}
			if got := s.Current(); got != want {
				t.Errorf("event %d = %+v, want %+v", i+1, got, want)
			}
			if sent := srv.sent.Load(); sent != int64(i+1) {
				t.Errorf("event %d read when the server had sent %d", i+1, sent)
			}
		}
		if s.Next() || s.Err() != nil {
			t.Errorf("Next after the last = true or error %v, want the end", s.Err())
		}
		if n := op.Dependency().InFlight(); n != 0 {
			t.Errorf("%d permits held after the end of the stream, want 0", n)
		}
	})
}

// TestDoHTTPStreamOutlivesTimeouts: the attempt timeout and the total
// timeout bound the wait for the header only; the stream goes on for as
// long as the caller's context lets it, and the deadline header carries
// that context's time, not the attempt's.
func TestDoHTTPStreamOutlivesTimeouts(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name         string
		callerTime   time.Duration // 0: no deadline
		wantDeadline string
	}{
		{"caller without deadline: no header", 0, ""},
		{"caller deadline 10s: its time in the header", 10 * time.Second, "9990"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := &sseServer{deadlines: make(chan string, 1)}
				for i := range 5 {
					srv.events = append(srv.events, fmt.Sprintf("data: {\"n\":%d}\n\n", i))
				}
				rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					// One event a second: the stream lasts 5s, past both
					// timeouts.
					srv.step = make(chan struct{})
					go func() {
						for range srv.events {
							time.Sleep(time.Second)
							select {
							case srv.step <- struct{}{}:
							case <-r.Context().Done():
								return
							}
						}
					}()
					srv.ServeHTTP(w, r)
				}))
				op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second, AttemptTimeout: 200 * time.Millisecond})
				ctx := t.Context()
				if tt.callerTime > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.callerTime)
					defer cancel()
				}
				start := time.Now()
				resp, err := DoHTTPStream(ctx, op, rig.client, rig.get(t, "/ticks"), nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := <-srv.deadlines; got != tt.wantDeadline {
					t.Errorf("deadline header %q, want %q", got, tt.wantDeadline)
				}
				n := 0
				for ev, err := range stream.NewEvents[tick](resp, nil).All() {
					if err != nil {
						t.Fatalf("after %d events: %v", n, err)
					}
					if ev.Data.N != n {
						t.Errorf("event %d has n=%d", n, ev.Data.N)
					}
					n++
				}
				if n != 5 || time.Since(start) != 5*time.Second {
					t.Errorf("%d events in %v, want 5 in 5s", n, time.Since(start))
				}
			})
		})
	}
}

// TestDoHTTPStreamRetriesOnlyBeforeTheHeader: a header slower than the
// attempt timeout, or a 503, is retried for an idempotent operation; a
// stream cut after its first event is not: the caller gets the event and
// then the error, and the server sees one request.
func TestDoHTTPStreamRetriesOnlyBeforeTheHeader(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	t.Run("slow header, then 503, then a stream", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var n atomic.Int64
			rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch n.Add(1) {
				case 1:
					select {
					case <-time.After(time.Second):
					case <-r.Context().Done():
					}
					return
				case 2:
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				io.WriteString(w, "data: {\"n\":1}\n\n")
			}))
			op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second, AttemptTimeout: 200 * time.Millisecond,
				Retry: RetryPolicy{DisableJitter: true}})
			resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil)
			if err != nil {
				t.Fatal(err)
			}
			s := stream.NewEvents[tick](resp, nil)
			if !s.Next() || s.Current().Data.N != 1 || s.Next() || s.Err() != nil {
				t.Errorf("stream: %+v, %v; want one event, then the end", s.Current(), s.Err())
			}
			if n.Load() != 3 {
				t.Errorf("server saw %d requests, want 3", n.Load())
			}
		})
	})
	t.Run("cut after the first event", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var n atomic.Int64
			rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				w.Header().Set("Content-Length", "1000")
				io.WriteString(w, "data: {\"n\":1}\n\n")
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler) // the connection is cut
			}))
			d := testDependency(t)
			op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: 2 * time.Second})
			resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil)
			if err != nil {
				t.Fatal(err)
			}
			s := stream.NewEvents[tick](resp, nil)
			if !s.Next() || s.Current().Data.N != 1 {
				t.Fatalf("first event: %+v, %v", s.Current(), s.Err())
			}
			if s.Next() {
				t.Fatalf("second Next = true, want the cut")
			}
			var se *stream.Error
			if !errors.As(s.Err(), &se) || se.Item != 2 || !errors.Is(s.Err(), io.ErrUnexpectedEOF) {
				t.Errorf("Err = %v, want a stream.Error for item 2 matching io.ErrUnexpectedEOF", s.Err())
			}
			synctest.Wait()
			if n.Load() != 1 {
				t.Errorf("server saw %d requests, want 1: a stream is never retried once handed over", n.Load())
			}
			if c := d.BreakerCounts(); c.Successes != 1 || c.Failures != 0 {
				t.Errorf("breaker counts %+v, want the one success of the header", c)
			}
			if d.InFlight() != 0 {
				t.Errorf("%d permits held after the cut, want 0", d.InFlight())
			}
		})
	})
}

// TestDoHTTPStreamHoldsItsPermit: a stream holds a bulkhead permit until
// it is closed, read to its end, or its context is done.
func TestDoHTTPStreamHoldsItsPermit(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ends := []struct {
		name string
		end  func(s *stream.Stream[stream.Event[tick]], cancel context.CancelFunc, srv *sseServer)
	}{
		{"Close", func(s *stream.Stream[stream.Event[tick]], _ context.CancelFunc, _ *sseServer) { s.Close() }},
		{"read to the end", func(s *stream.Stream[stream.Event[tick]], _ context.CancelFunc, srv *sseServer) {
			close(srv.step)
			for s.Next() {
			}
		}},
		{"context cancelled, never closed", func(_ *stream.Stream[stream.Event[tick]], cancel context.CancelFunc, _ *sseServer) { cancel() }},
	}
	for _, tt := range ends {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := &sseServer{events: []string{"data: {}\n\n"}, step: make(chan struct{})}
				rig := newHTTPRig(t, srv)
				d, err := NewDependency("pets", DependencyPolicy{Bulkhead: BulkheadPolicy{MaxConcurrent: 1, DisableWait: true}})
				if err != nil {
					t.Fatal(err)
				}
				op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second})
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				resp, err := DoHTTPStream(ctx, op, rig.client, rig.get(t, "/ticks"), nil)
				if err != nil {
					t.Fatal(err)
				}
				s := stream.NewEvents[tick](resp, nil)
				if d.InFlight() != 1 {
					t.Errorf("InFlight = %d while the stream is open, want 1", d.InFlight())
				}
				if _, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil); !errors.Is(err, ErrBulkheadFull) {
					t.Errorf("second stream: %v, want ErrBulkheadFull", err)
				}
				tt.end(s, cancel, srv)
				synctest.Wait()
				if d.InFlight() != 0 {
					t.Errorf("InFlight = %d after the end, want 0", d.InFlight())
				}
			})
		})
	}
}

// TestDoHTTPStreamErrors: an answer outside 2xx is the call's error, with
// its body, as for DoHTTP; a download's body is the response's.
func TestDoHTTPStreamErrors(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/missing" {
				http.Error(w, "no such file", http.StatusNotFound)
				return
			}
			io.WriteString(w, strings.Repeat("0123456789", 1000))
		}))
		d := testDependency(t)
		op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second})
		_, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/missing"), nil)
		var re *RemoteError
		if !errors.As(err, &re) || re.Status != 404 || re.Message != "no such file" || re.Attempts != 1 {
			t.Errorf("DoHTTPStream error = %v, want a 404 RemoteError with its message", err)
		}
		resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/file"), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || len(b) != 10000 {
			t.Errorf("download: %d bytes, %v; want 10000", len(b), err)
		}
		if d.InFlight() != 0 {
			t.Errorf("InFlight = %d, want 0", d.InFlight())
		}
	})
}

// TestStreamDecodeError: an item that does not decode ends the stream with
// a stream.Error naming it; the body is closed.
func TestStreamDecodeError(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "{\"n\":1}\n{\"n\":\"two\"}\n{\"n\":3}\n")
		}))
		d := testDependency(t)
		op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second})
		resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		var last error
		for v, err := range stream.NewJSONLines[tick](resp, nil).All() {
			if err != nil {
				last = err
				break
			}
			got = append(got, v.N)
		}
		var se *stream.Error
		if fmt.Sprint(got) != "[1]" || !errors.As(last, &se) || se.Item != 2 {
			t.Errorf("items %v, error %v; want [1] then a stream.Error for item 2", got, last)
		}
		if d.InFlight() != 0 {
			t.Errorf("InFlight = %d, want 0", d.InFlight())
		}
	})
}

// TestDoHTTPStreamItemLimit: the stream readers bound each item of a body
// from DoHTTPStream by its client's MaxResponseBody, not by the stream
// package's default: a line within it is read, the next, above it, ends
// the stream with stream.ErrItemTooLarge, and the permit comes back.
func TestDoHTTPStreamItemLimit(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "{\"n\":1}\n{\"n\":"+strings.Repeat("2", 40)+"}\n")
		}))
		rig.client.MaxResponseBody = 16
		d := testDependency(t)
		op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly, Timeout: time.Second})
		resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		var last error
		for v, err := range stream.NewJSONLines[tick](resp, nil).All() {
			if err != nil {
				last = err
				break
			}
			got = append(got, v.N)
		}
		if fmt.Sprint(got) != "[1]" || !errors.Is(last, stream.ErrItemTooLarge) {
			t.Errorf("items %v, error %v; want [1] then stream.ErrItemTooLarge", got, last)
		}
		if d.InFlight() != 0 {
			t.Errorf("InFlight = %d, want 0", d.InFlight())
		}
	})
}
