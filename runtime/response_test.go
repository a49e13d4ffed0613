package runtime

import (
	"context"
	"errors"
	"net/http"
	"strconv"
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

func TestHeaderDecoder(t *testing.T) {
	resp := &http.Response{StatusCode: 200, Header: http.Header{
		"Etag":                   {`"a"`},
		"X-Rate-Limit-Remaining": {"12"},
		"X-Bad":                  {"twelve"},
	}}
	d := NewHeaderDecoder(resp)
	if got := d.Text("ETag", true); got != `"a"` {
		t.Errorf("Text(ETag) = %q", got)
	}
	if got := DecodeHeader(&d, "X-Rate-Limit-Remaining", false, strconv.Atoi); got == nil || *got != 12 {
		t.Errorf("DecodeHeader(X-Rate-Limit-Remaining) = %v, want 12", got)
	}
	if got := DecodeHeader(&d, "X-Absent", false, ParseInt64); got != nil || d.Err() != nil {
		t.Errorf("DecodeHeader(absent, optional) = %v, %v, want nil, nil", got, d.Err())
	}
	if got := DecodeHeader(&d, "X-Bad", false, strconv.Atoi); got != nil {
		t.Errorf("DecodeHeader(X-Bad) = %v, want nil", *got)
	}
	var he *HeaderError
	if err := d.Err(); !errors.As(err, &he) || he.Field != "X-Bad" || he.Status != 200 {
		t.Fatalf("Err() = %v, want a *HeaderError for X-Bad", err)
	}
	d2 := NewHeaderDecoder(resp)
	d2.Text("X-Required", true)
	if err := d2.Err(); !errors.As(err, &he) || he.Field != "X-Required" || he.Problem != "is absent" {
		t.Errorf("Err() = %v, want X-Required is absent", err)
	}
}

func TestHeaderParsers(t *testing.T) {
	if v, err := ParseInt32("-5"); v != -5 || err != nil {
		t.Errorf("ParseInt32 = %v, %v", v, err)
	}
	if _, err := ParseInt32("3000000000"); err == nil {
		t.Error("ParseInt32(3e9) did not fail")
	}
	if v, err := ParseUint64("18446744073709551615"); v != 1<<64-1 || err != nil {
		t.Errorf("ParseUint64 = %v, %v", v, err)
	}
	if _, err := ParseUint("-1"); err == nil {
		t.Error("ParseUint(-1) did not fail")
	}
	if v, err := ParseDateTime("2026-12-01T10:00:00Z"); err != nil || v.Day() != 1 {
		t.Errorf("ParseDateTime = %v, %v", v, err)
	}
	type kind string
	if v, _ := ParseText[kind]("cat"); v != "cat" {
		t.Errorf("ParseText = %q", v)
	}
}
