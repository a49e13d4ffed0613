package runtime

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
)

// TestAcceptStatus checks that a 304 is an error by default and a result
// with AcceptStatus, handed to decode with its header.
func TestAcceptStatus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusNotModified)
		})
		rig := newHTTPRig(t, h)
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly})
		status := func(resp *http.Response) (int, error) { return resp.StatusCode, nil }

		_, err := DoHTTP(context.Background(), op, rig.client, rig.get(t, "/pet"), status, nil)
		var re *RemoteError
		if !errors.As(err, &re) || re.Status != http.StatusNotModified {
			t.Fatalf("DoHTTP without AcceptStatus = %v, want a *RemoteError 304", err)
		}
		var info ResponseInfo
		got, err := DoHTTP(context.Background(), op.With(AcceptStatus(http.StatusNotModified), WithResponseInfo(&info)), rig.client, rig.get(t, "/pet"), status, nil)
		if err != nil || got != http.StatusNotModified {
			t.Fatalf("DoHTTP with AcceptStatus(304) = %d, %v, want 304, nil", got, err)
		}
		if info.Status != http.StatusNotModified || info.Header.Get("ETag") != `"v1"` {
			t.Errorf("ResponseInfo = %d %v, want 304 with the ETag", info.Status, info.Header)
		}
	})
}

// TestWithResponseInfo checks that the status and header of the answer
// that gave the result are recorded, after a retry too.
func TestWithResponseInfo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := &scripted{statuses: []int{503, 201}, header: http.Header{"X-Rate-Limit-Remaining": {"41"}}}
		rig := newHTTPRig(t, srv)
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly})
		info := ResponseInfo{Status: 999}
		p, err := DoHTTP(context.Background(), op.With(WithResponseInfo(&info)), rig.client, rig.get(t, "/pet"), decodePet, nil)
		if err != nil || p.Name != "Rex" {
			t.Fatalf("DoHTTP = %v, %v", p, err)
		}
		if info.Status != http.StatusCreated || info.Header.Get("X-Rate-Limit-Remaining") != "41" {
			t.Errorf("ResponseInfo = %d %v, want 201 with the header", info.Status, info.Header)
		}
	})
}
