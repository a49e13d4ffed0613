package pathnames

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestPathValuesInPlace: each argument lands in its own segment, arrays
// joined with commas, whatever the arguments and locals are called.
func TestPathValuesInPlace(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.EscapedPath()
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
	if err := c.GetSegment(context.Background(), []int{1, 2}, "zero", 3, "s/1", []string{"x", "y z"}); err != nil {
		t.Fatalf("GetSegment: %v", err)
	}
	if want := "/segments/1,2/zero/3/s%2F1/x,y%20z"; got != want {
		t.Errorf("path = %s, want %s", got, want)
	}
}
