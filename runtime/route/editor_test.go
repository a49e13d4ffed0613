package route

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

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/codec"
	"go.uber.org/goleak"
)

// TestTransportRequestEditors: the editors of Options run on
// every attempt of a matched request, after the credentials its
// operation carries and in the order given, on a copy of the request;
// an editor's error ends the call before anything of it is sent, as the
// caller's error, not retried.
func TestTransportRequestEditors(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		var (
			attempts atomic.Int64
			seen     []string
		)
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := attempts.Add(1)
			seen = append(seen, fmt.Sprintf("%s auth=%q order=%q attempt=%q", r.URL.Path,
				r.Header.Get("Authorization"), r.Header.Get("X-Order"), r.Header.Get("X-Attempt")))
			if n < 3 {
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, "ok")
		}))
		d := testDependency(t)
		var tokens atomic.Int64
		secured := testOperation(t, d, runtime.OperationPolicy{Name: "GET /pets/{id}", Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second,
			Retry: runtime.RetryPolicy{DisableJitter: true}}).With(runtime.WithCredentials([]runtime.Credential{{
			Scheme: "bearerAuth",
			Apply: codec.BearerToken(func(context.Context) (string, error) {
				return fmt.Sprintf("token-%d", tokens.Add(1)), nil
			}),
		}}))
		failing := testOperation(t, d, runtime.OperationPolicy{Name: "GET /owners/{id}", Idempotency: runtime.ReadOnly, Timeout: 2 * time.Second})
		var calls atomic.Int64
		errRefused := errors.New("no tenant for this owner")
		editors := []runtime.RequestEditor{
			func(_ context.Context, r *http.Request) error {
				calls.Add(1)
				// After the credential: it sees the token the attempt carries.
				r.Header.Set("X-Order", "first saw "+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
				if strings.HasPrefix(r.URL.Path, "/owners/") {
					return errRefused
				}
				return nil
			},
			func(_ context.Context, r *http.Request) error {
				r.Header.Set("X-Order", r.Header.Get("X-Order")+", then second")
				r.Header.Set("X-Attempt", fmt.Sprint(attempts.Load()+1))
				return nil
			},
		}
		rt, err := New([]Route{
			{Method: "GET", Path: "/pets/{id}", Operation: secured},
			{Method: "GET", Path: "/owners/{id}", Operation: failing},
		}, Options{Base: rig.tr, RequestEditors: editors})
		if err != nil {
			t.Fatal(err)
		}
		client := &http.Client{Transport: rt}

		req, _ := http.NewRequest("GET", "http://dep.test/pets/7", nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "ok" {
			t.Errorf("GET /pets/7: %d %q, want 200 ok", resp.StatusCode, b)
		}
		want := []string{
			`/pets/7 auth="Bearer token-1" order="first saw token-1, then second" attempt="1"`,
			`/pets/7 auth="Bearer token-2" order="first saw token-2, then second" attempt="2"`,
			`/pets/7 auth="Bearer token-3" order="first saw token-3, then second" attempt="3"`,
		}
		if fmt.Sprint(seen) != fmt.Sprint(want) {
			t.Errorf("server saw\n%q\nwant\n%q", seen, want)
		}
		if len(req.Header) != 0 {
			t.Errorf("the caller's request header is now %v, want it untouched", req.Header)
		}

		before, editorCalls := attempts.Load(), calls.Load()
		_, err = client.Get("http://dep.test/owners/9")
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.End != runtime.EndInvalidRequest || !errors.Is(err, errRefused) || !errors.Is(err, runtime.ErrNotSent) {
			t.Errorf("an editor's error: %v, want a CallError ending as an invalid request, wrapping it", err)
		}
		if attempts.Load() != before || calls.Load() != editorCalls+1 {
			t.Errorf("after an editor's error: %d requests sent, the editor ran %d times; want none sent and one run",
				attempts.Load()-before, calls.Load()-editorCalls)
		}
		if d.InFlight() != 0 {
			t.Errorf("InFlight = %d, want 0", d.InFlight())
		}
	})
}
