package timeouts

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestNoDeadlineHeader: the document's deadlineHeader: false reaches the
// generated client: no request carries a deadline header, whatever the
// caller's deadline, unless WithDeadlineHeader names one.
func TestNoDeadlineHeader(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []Option
		want string // the header that must carry the budget; "" none
	}{
		{"policy", nil, ""},
		{"WithDeadlineHeader", []Option{WithDeadlineHeader("X-Budget-Ms")}, "X-Budget-Ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var (
				mu   sync.Mutex
				sent []string
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				for _, name := range []string{"X-Request-Deadline", "X-Budget-Ms"} {
					if r.Header.Get(name) != "" {
						sent = append(sent, r.URL.Path+" "+name)
					}
				}
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`["a"]`))
			}))
			t.Cleanup(srv.Close)
			c, err := NewClient(srv.URL, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5e9)
			defer cancel()
			if _, err := c.Search(ctx, &SearchParams{Q: "x"}); err != nil {
				t.Fatal(err)
			}
			if err := c.Suggest(ctx); err != nil {
				t.Fatal(err)
			}
			var want []string
			if tt.want != "" {
				want = []string{"/search " + tt.want, "/suggest " + tt.want}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(sent) != len(want) || (len(want) > 0 && (sent[0] != want[0] || sent[1] != want[1])) {
				t.Errorf("deadline headers sent = %q, want %q", sent, want)
			}
		})
	}
}
