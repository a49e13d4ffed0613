package pathescaping

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/resilientgo/resilient/runtime/codec"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// server records the method and escaped path of every request that
// reaches a handler. It routes with Go's ServeMux, which answers a path
// with dot segments by redirecting to the resolved path, as servers and
// proxies resolve them.
type server struct {
	mu   sync.Mutex
	seen []string
}

func (s *server) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// newClient serves a recording ServeMux on 127.0.0.1 and returns a
// client of it, with its own transport, closed at the end of the test.
func newClient(t *testing.T) (*Client, *server) {
	t.Helper()
	s := &server{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.EscapedPath())
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	tr := &http.Transport{}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	c, err := NewClient(srv.URL, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, s
}

// TestDotSegmentValuesAreRefused: a path value that forms a "." or ".."
// segment, alone or with its neighbours, in every style, is refused
// before anything is sent. Sent, DeleteFile("acme", "..") would reach
// DELETE /tenants/acme through the server's redirect.
func TestDotSegmentValuesAreRefused(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		call func(c *Client) error
	}{
		{"simple parent", func(c *Client) error { return c.DeleteFile(ctx, "acme", "..") }},
		{"simple current", func(c *Client) error { return c.DeleteFile(ctx, "acme", ".") }},
		{"first of two", func(c *Client) error { return c.DeleteFile(ctx, "..", "report") }},
		{"after a non-ASCII literal", func(c *Client) error { return c.DeleteCafeFile(ctx, "..") }},
		{"label of an empty value", func(c *Client) error { return c.GetLabel(ctx, "") }},
		{"label of a dot", func(c *Client) error { return c.GetLabel(ctx, ".") }},
		{"exploded label of empty values", func(c *Client) error { return c.GetLabels(ctx, []string{"", ""}) }},
		{"exploded label of a dot", func(c *Client) error { return c.GetLabels(ctx, []string{"."}) }},
		{"array element", func(c *Client) error { return c.GetList(ctx, []string{".."}) }},
		{"two values in one segment", func(c *Client) error { return c.GetPair(ctx, ".", ".") }},
		{"value after an escaped dot", func(c *Client) error { return c.GetDotted(ctx, ".") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s := newClient(t)
			err := tt.call(c)
			if !errors.Is(err, codec.ErrDotSegment) {
				t.Errorf("error = %v, want one matching codec.ErrDotSegment", err)
			}
			if got := s.requests(); len(got) > 0 {
				t.Errorf("the server saw %q, want no request", got)
			}
		})
	}
}

// TestValuesStayInTheirSegment: values that hold slashes and dots, sent
// along literal template text that is not plain ASCII, arrive as one
// segment, escaped as sent.
func TestValuesStayInTheirSegment(t *testing.T) {
	ctx := context.Background()
	const hostile = "../../admin/users/1"
	tests := []struct {
		name string
		call func(c *Client) error
		want string
	}{
		{"plain template", func(c *Client) error { return c.DeleteFile(ctx, "acme", hostile) },
			"DELETE /tenants/acme/files/..%2F..%2Fadmin%2Fusers%2F1"},
		{"non-ASCII literal", func(c *Client) error { return c.DeleteCafeFile(ctx, hostile) },
			"DELETE /files/caf%C3%A9/..%2F..%2Fadmin%2Fusers%2F1"},
		{"space, bar and caret in the literal", func(c *Client) error { return c.DeleteOddFile(ctx, hostile) },
			"DELETE /files/a%20b%7Cc%5Ed/..%2F..%2Fadmin%2Fusers%2F1"},
		{"escape in the literal kept as written", func(c *Client) error { return c.DeleteHalfFile(ctx, hostile) },
			"DELETE /files/50%25/..%2F..%2Fadmin%2Fusers%2F1"},
		{"matrix value", func(c *Client) error { return c.GetMatrix(ctx, "..") }, "GET /matrix/;name=.."},
		{"two values in one segment", func(c *Client) error { return c.GetPair(ctx, "a/", "b") }, "GET /pairs/a%2Fb"},
		{"value after an escaped dot", func(c *Client) error { return c.GetDotted(ctx, "x") }, "GET /dotted/%2Ex"},
		{"array elements", func(c *Client) error { return c.GetList(ctx, []string{"..", "a/b"}) }, "GET /lists/..,a%2Fb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s := newClient(t)
			if err := tt.call(c); err != nil {
				t.Fatalf("call: %v", err)
			}
			if got := s.requests(); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("the server saw %q, want [%q]", got, tt.want)
			}
		})
	}
}

// TestQueryValuesStayValues: query values (and a query key) holding "&",
// "=", "#", "%", "+", spaces and the delimiters of their own style arrive
// as the values they are, in every style.
func TestQueryValuesStayValues(t *testing.T) {
	const hostile = "a&b=c#d%e+f g|h[i]/;,"
	var got *url.URL
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.URL
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	tr := &http.Transport{}
	defer srv.Close()
	defer tr.CloseIdleConnections()
	c, err := NewClient(srv.URL, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	h := hostile
	err = c.Search(context.Background(), &SearchParams{
		Q:        &h,
		Tag:      []string{hostile, "x"},
		IDs:      []string{"1,2", "3"},
		Pipes:    []string{"a|b", "c"},
		Filter:   map[string]string{"k]": hostile},
		WeIrdKey: &h,
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	q := got.Query()
	for _, tt := range []struct {
		key  string
		want []string
	}{
		{"q", []string{hostile}},
		{"tag", []string{hostile, "x"}},
		{"ids", []string{"1,2,3"}},
		{"pipes", []string{"a|b|c"}},
		{"filter[k]]", []string{hostile}},
		{"we&ird=key", []string{hostile}},
	} {
		if !slices.Equal(q[tt.key], tt.want) {
			t.Errorf("query %q = %q, want %q (raw query %s)", tt.key, q[tt.key], tt.want, got.RawQuery)
		}
	}
	// The delimiters of non-exploded styles are told from those inside
	// values: a value's own comma or bar is escaped.
	for _, raw := range []string{"ids=1%2C2,3", "pipes=a%7Cb|c"} {
		if !strings.Contains(got.RawQuery, raw) {
			t.Errorf("raw query %s lacks %s", got.RawQuery, raw)
		}
	}
	if got.Fragment != "" || len(q) != 6 {
		t.Errorf("fragment %q and %d keys, want none and 6 (raw query %s)", got.Fragment, len(q), got.RawQuery)
	}
}

// TestFixedQueryInTheTemplate: a template that carries a fixed query
// ("/variants?beta=true", as some specs write operation variants) sends
// it with every request, before the query parameters; the path value
// stays in its segment.
func TestFixedQueryInTheTemplate(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.EscapedPath()+"?"+r.URL.RawQuery)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	tr := &http.Transport{}
	defer srv.Close()
	defer tr.CloseIdleConnections()
	c, err := NewClient(srv.URL, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	limit := 5
	if err := c.CreateVariantBeta(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.GetVariantBeta(ctx, "a/b?c", &GetVariantBetaParams{Limit: &limit}); err != nil {
		t.Fatal(err)
	}
	if err := c.GetVariantBeta(ctx, "x", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.GetVariantBeta(ctx, "..", nil); !errors.Is(err, codec.ErrDotSegment) {
		t.Errorf("GetVariantBeta(..) = %v, want codec.ErrDotSegment", err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"POST /variants?beta=true", "GET /variants/a%2Fb%3Fc?beta=true&limit=5", "GET /variants/x?beta=true"}
	if !slices.Equal(seen, want) {
		t.Errorf("the server saw %q, want %q", seen, want)
	}
}
