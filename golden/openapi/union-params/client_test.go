package unionparams

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/codec"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// request is what the test server saw of one request.
type request struct {
	path, query, priority string
}

func newClient(t *testing.T) (*Client, func() request) {
	t.Helper()
	var last request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last = request{r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Get("X-Priority")}
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
	return c, func() request { return last }
}

// TestPlainForm: each union parameter goes out as the plain form of the
// variant it holds, escaped for its place, never as JSON text.
func TestPlainForm(t *testing.T) {
	c, last := newClient(t)
	ctx := context.Background()
	var file, number ListWorkflowRunsWorkflowID
	must(t, file.FromString("main yml/.github"))
	must(t, number.FromInt(42))
	var since ListWorkflowRunsSince
	must(t, since.FromDate(codec.Date{Year: 2026, Month: 12, Day: 1}))
	var flag ListWorkflowRunsFlag
	must(t, flag.FromFloat64(1.5))
	var high, three Priority
	must(t, high.FromPriorityVariant1(PriorityVariant1High))
	must(t, three.FromInt(3))

	tests := []struct {
		name   string
		id     ListWorkflowRunsWorkflowID
		params *ListWorkflowRunsParams
		want   request
	}{
		{"string path value", file, nil, request{path: "/workflows/main%20yml%2F.github/runs"}},
		{"integer path value", number, nil, request{path: "/workflows/42/runs"}},
		{"query and header values", number, &ListWorkflowRunsParams{Since: &since, Flag: &flag, XPriority: &high},
			request{path: "/workflows/42/runs", query: "since=2026-12-01&flag=1.5", priority: "high"}},
		{"integer header value", number, &ListWorkflowRunsParams{XPriority: &three}, request{path: "/workflows/42/runs", priority: "3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.ListWorkflowRuns(ctx, tt.id, tt.params); err != nil {
				t.Fatalf("ListWorkflowRuns: %v", err)
			}
			if got := last(); got != tt.want {
				t.Errorf("the server saw %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestUnsetUnionRefused: a union that holds no variant is the caller's
// error, and nothing is sent.
func TestUnsetUnionRefused(t *testing.T) {
	c, last := newClient(t)
	err := c.ListWorkflowRuns(context.Background(), ListWorkflowRunsWorkflowID{}, nil)
	if !errors.Is(err, runtime.ErrInvalidRequest) {
		t.Errorf("ListWorkflowRuns(unset) = %v, want runtime.ErrInvalidRequest", err)
	}
	if got := last(); got != (request{}) {
		t.Errorf("the server saw %+v, want nothing", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
