package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

// shedResult is what a client of a shedding handler saw, and when.
type shedResult struct {
	code       int
	retryAfter string
	at         time.Duration // since the test's start
}

// shedServe serves r with h on a new goroutine and delivers the result.
func shedServe(h http.Handler, r *http.Request, start time.Time) <-chan shedResult {
	ch := make(chan shedResult, 1)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		ch <- shedResult{w.Code, w.Header().Get("Retry-After"), time.Since(start)}
	}()
	return ch
}

// workHandler sleeps for the duration in the "work" query parameter.
var workHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if d, err := time.ParseDuration(r.URL.Query().Get("work")); err == nil {
		time.Sleep(d)
	}
})

func workRequest(work time.Duration) *http.Request {
	return httptest.NewRequest(http.MethodGet, "/pets?work="+work.String(), nil)
}

func TestShedderQueuesThenSheds(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		s := NewShedder(ShedConfig{MaxConcurrent: 1, MaxQueue: 1, MaxWait: time.Second})
		h := s.Handler(workHandler)
		start := time.Now()

		a := shedServe(h, workRequest(100*time.Millisecond), start)
		synctest.Wait() // a holds the slot
		b := shedServe(h, workRequest(100*time.Millisecond), start)
		synctest.Wait() // b waits in the queue
		if st := s.Stats(); st.InFlight != 1 || st.Waiting != 1 {
			t.Errorf("stats %+v, want 1 in flight and 1 waiting", st)
		}
		c := shedServe(h, workRequest(100*time.Millisecond), start)

		want := []shedResult{{200, "", 100 * time.Millisecond}, {200, "", 200 * time.Millisecond}, {503, "1", 0}}
		for i, ch := range []<-chan shedResult{a, b, c} {
			if got := <-ch; got != want[i] {
				t.Errorf("request %d: %+v, want %+v", i+1, got, want[i])
			}
		}
		want2 := ShedStats{Admitted: 2, Queued: 1, Shed: 1, ServiceTime: 100 * time.Millisecond}
		if st := s.Stats(); st != want2 {
			t.Errorf("stats %+v, want %+v", st, want2)
		}
	})
}

// TestShedderRespectsTheCallersDeadline: a queued request waits at most
// until its deadline (from DeadlineMiddleware) less the estimated service
// time, and at most MaxWait.
func TestShedderRespectsTheCallersDeadline(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name     string
		budget   string // X-Request-Deadline; "" none
		cancelAt time.Duration
		want     shedResult
	}{
		{name: "wait bounded by the deadline less the service time", budget: "300", want: shedResult{503, "1", 200 * time.Millisecond}},
		{name: "no time to wait: shed at once", budget: "80", want: shedResult{503, "1", 0}},
		{name: "wait bounded by MaxWait without a deadline", want: shedResult{503, "1", 500 * time.Millisecond}},
		{name: "wait bounded by MaxWait with a long deadline", budget: "5000", want: shedResult{503, "1", 500 * time.Millisecond}},
		{name: "client gone while queued", cancelAt: 50 * time.Millisecond, want: shedResult{503, "1", 50 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := NewShedder(ShedConfig{MaxConcurrent: 1, MaxWait: 500 * time.Millisecond})
				h := DeadlineMiddleware(s.Handler(workHandler))
				// One request of 100ms sets the service-time estimate.
				<-shedServe(h, workRequest(100*time.Millisecond), time.Now())
				start := time.Now()
				hog := shedServe(h, workRequest(time.Second), start)
				synctest.Wait()

				r := workRequest(0)
				if tt.budget != "" {
					r.Header.Set(DefaultDeadlineHeader, tt.budget)
				}
				if tt.cancelAt > 0 {
					ctx, cancel := context.WithCancel(r.Context())
					defer cancel()
					time.AfterFunc(tt.cancelAt, cancel)
					r = r.WithContext(ctx)
				}
				if got := <-shedServe(h, r, start); got != tt.want {
					t.Errorf("got %+v, want %+v", got, tt.want)
				}
				<-hog
				if st := s.Stats(); st.Shed != 1 || st.Admitted != 2 || st.Waiting != 0 || st.InFlight != 0 {
					t.Errorf("stats %+v, want 2 admitted and 1 shed, none left", st)
				}
			})
		})
	}
}

// TestShedderAdmitsWhenASlotFreesInTime: a queued request whose deadline
// allows it is served as soon as the slot frees.
func TestShedderAdmitsWhenASlotFreesInTime(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		s := NewShedder(ShedConfig{MaxConcurrent: 1, MaxWait: 2 * time.Second})
		h := DeadlineMiddleware(s.Handler(workHandler))
		start := time.Now()
		hog := shedServe(h, workRequest(time.Second), start)
		synctest.Wait()
		r := workRequest(10 * time.Millisecond)
		r.Header.Set(DefaultDeadlineHeader, "1500")
		if got, want := <-shedServe(h, r, start), (shedResult{200, "", 1010 * time.Millisecond}); got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
		<-hog
		if st := s.Stats(); st.Admitted != 2 || st.Queued != 1 || st.Shed != 0 {
			t.Errorf("stats %+v", st)
		}
	})
}

func TestShedderAnswer(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name           string
		status         int
		retryAfter     time.Duration
		wantStatus     int
		wantRetryAfter string
	}{
		{"defaults", 0, 0, 503, "1"},
		{"429", http.StatusTooManyRequests, 0, 429, "1"},
		{"other status means 503", http.StatusTeapot, 0, 503, "1"},
		{"Retry-After rounded up", 0, 1500 * time.Millisecond, 503, "2"},
		{"Retry-After in whole seconds", 0, 30 * time.Second, 503, "30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := NewShedder(ShedConfig{MaxConcurrent: 1, MaxQueue: -1, Status: tt.status, RetryAfter: tt.retryAfter})
				h := s.Handler(workHandler)
				start := time.Now()
				hog := shedServe(h, workRequest(time.Second), start)
				synctest.Wait()
				want := shedResult{tt.wantStatus, tt.wantRetryAfter, 0}
				if got := <-shedServe(h, workRequest(0), start); got != want {
					t.Errorf("got %+v, want %+v", got, want)
				}
				<-hog
			})
		})
	}
}

func TestShedderExemptsHealthChecks(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		s := NewShedder(ShedConfig{MaxConcurrent: 1, MaxQueue: -1, Exempt: ExemptPaths("/healthz", "/readyz")})
		h := s.Handler(workHandler)
		start := time.Now()
		hog := shedServe(h, workRequest(time.Second), start)
		synctest.Wait()

		health := <-shedServe(h, httptest.NewRequest(http.MethodGet, "/healthz", nil), start)
		pets := <-shedServe(h, workRequest(0), start)
		if health.code != 200 || pets.code != 503 {
			t.Errorf("while shedding: /healthz %d, /pets %d; want 200, 503", health.code, pets.code)
		}
		<-hog
		if st := s.Stats(); st.Exempt != 1 || st.Shed != 1 || st.Admitted != 1 {
			t.Errorf("stats %+v, want 1 exempt, 1 shed, 1 admitted", st)
		}
	})
}

func TestShedderAdmitRelease(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		s := NewShedder(ShedConfig{MaxConcurrent: 2, MaxQueue: -1})
		ctx := t.Context()
		at1, ok1 := s.Admit(ctx)
		_, ok2 := s.Admit(ctx)
		_, ok3 := s.Admit(ctx)
		if !ok1 || !ok2 || ok3 {
			t.Fatalf("Admit = %v, %v, %v; want true, true, false", ok1, ok2, ok3)
		}
		time.Sleep(40 * time.Millisecond)
		s.Release(at1)
		if _, ok := s.Admit(ctx); !ok {
			t.Error("Admit after Release = false, want true")
		}
		want := ShedStats{Admitted: 3, Shed: 1, InFlight: 2, ServiceTime: 40 * time.Millisecond}
		if st := s.Stats(); st != want {
			t.Errorf("stats %+v, want %+v", st, want)
		}
	})
}

func TestShedderServiceTimeIsEWMA(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewShedder(ShedConfig{})
		for i, d := range []time.Duration{80, 160, 0} {
			at, _ := s.Admit(t.Context())
			time.Sleep(d * time.Millisecond)
			s.Release(at)
			// 80; 80 + (160-80)/8 = 90; 90 + (0-90)/8 = 78.75
			want := []time.Duration{80 * time.Millisecond, 90 * time.Millisecond, 78750 * time.Microsecond}[i]
			if got := s.Stats().ServiceTime; got != want {
				t.Errorf("after %s: estimate %v, want %v", strconv.Itoa(int(d))+"ms", got, want)
			}
		}
	})
}
