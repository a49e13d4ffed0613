package fleet

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestWithFleet: the generated option hands the Redis client to the
// dependency; with Redis unreachable the client works on its local state.
// Without the option the dependency has no fleet.
func TestWithFleet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"sku":"a","count":3}`)
	}))
	defer srv.Close()
	quiet := WithLogger(slog.New(slog.DiscardHandler))

	plain, err := NewClient(srv.URL, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Dependency().Fleet().Enabled {
		t.Error("without WithFleet: the dependency has a fleet store")
	}
	if got := plain.Dependency().Policy().Fleet; got.Store != "sessions-redis" || got.Prefix != "checkout:" {
		t.Errorf("policy fleet = %+v, want the spec's store and prefix", got)
	}

	// Nothing listens on port 1 of the loopback: Redis is unreachable.
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 50 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	c, err := NewClient(srv.URL, quiet, WithFleet(rdb))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Dependency().Close()
	if st := c.Dependency().Fleet(); !st.Enabled || st.Shared {
		t.Errorf("with WithFleet, Redis unreachable: %+v, want enabled, not shared", st)
	}
	got, err := c.GetStock(context.Background(), "a")
	if err != nil || got.Count == nil || *got.Count != 3 {
		t.Fatalf("GetStock = %+v, %v; want the stock, Redis or not", got, err)
	}
}
