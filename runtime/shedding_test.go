package runtime

import (
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/server"
	"go.uber.org/goleak"
)

// TestShedderWithDoHTTP: a client of the runtime package meets a shedding server:
// the 503's Retry-After is honoured when it fits the caller's deadline, and
// fails the call at once when it does not.
func TestShedderWithDoHTTP(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tests := []struct {
		name         string
		timeout      time.Duration
		wantAttempts int
		wantElapsed  time.Duration
	}{
		{"Retry-After fits: one retry after exactly 1s", 2 * time.Second, 2, time.Second},
		{"Retry-After beyond the deadline: fail at once", 800 * time.Millisecond, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := server.NewShedder(server.ShedConfig{MaxConcurrent: 1, MaxQueue: -1})
				app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/hog" {
						time.Sleep(500 * time.Millisecond)
						return
					}
					w.Write([]byte(`{"id":7}`))
				})
				rig := newHTTPRig(t, server.DeadlineMiddleware(s.Handler(app)))
				hog := make(chan struct{})
				go func() {
					defer close(hog)
					resp, err := rig.bodies.Do(rig.get(t, "/hog"))
					if err == nil {
						resp.Body.Close()
					}
				}()
				synctest.Wait()
				op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly, Timeout: tt.timeout})

				start := time.Now()
				p, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/7"), decodePet, nil)
				elapsed := time.Since(start)
				<-hog

				if elapsed != tt.wantElapsed {
					t.Errorf("DoHTTP took %v, want %v", elapsed, tt.wantElapsed)
				}
				if got := int(s.Stats().Shed) + int(s.Stats().Admitted) - 1; got != tt.wantAttempts {
					t.Errorf("server saw %d attempts, want %d", got, tt.wantAttempts)
				}
				if tt.wantAttempts == 2 {
					if err != nil || p.ID != 7 {
						t.Errorf("DoHTTP = %+v, %v, want pet 7", p, err)
					}
					return
				}
				var re *RemoteError
				if !errors.As(err, &re) || re.Status != 503 || re.RetryAfter != time.Second {
					t.Errorf("DoHTTP error = %v, want the 503 with Retry-After 1s", err)
				}
			})
		})
	}
}
