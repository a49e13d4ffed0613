package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/fallbackstore"
)

// recordingStore is a fallbackstore.Memory that keeps the keys it was given.
type recordingStore struct {
	*fallbackstore.Memory
	mu   sync.Mutex
	keys []string
}

func (s *recordingStore) Store(key string, v any, at time.Time) {
	s.mu.Lock()
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	s.Memory.Store(key, v, at)
}

type partitionKey struct{}

// TestDoHTTPCachedFallbackNeverCrossesCallers: a cached answer is served
// only to a request identical in everything that can change it, or to any
// caller when the answer is declared shared; order, escaping and volatile
// headers do not split the cache.
func TestDoHTTPCachedFallbackNeverCrossesCallers(t *testing.T) {
	type call struct {
		url    string
		header http.Header
		opts   []CallOption
		user   string // the partition, in the context
	}
	alice := http.Header{"Authorization": {"Bearer alice-token"}}
	tests := []struct {
		name      string
		shared    bool
		partition bool // the dependency partitions by the context's user
		first     call // answered while the dependency is up
		then      call // made while it is down
		wantHit   bool
	}{
		{name: "another Authorization", first: call{url: "/me", header: alice},
			then: call{url: "/me", header: http.Header{"Authorization": {"Bearer bob-token"}}}},
		{name: "no Authorization", first: call{url: "/me", header: alice}, then: call{url: "/me"}},
		{name: "the same Authorization", first: call{url: "/me", header: alice}, then: call{url: "/me", header: alice}, wantHit: true},
		{name: "another API key header", first: call{url: "/me", header: http.Header{"X-Api-Key": {"k1"}}},
			then: call{url: "/me", header: http.Header{"X-Api-Key": {"k2"}}}},
		{name: "another session cookie", first: call{url: "/me", header: http.Header{"Cookie": {"session=a; theme=dark"}}},
			then: call{url: "/me", header: http.Header{"Cookie": {"session=b; theme=dark"}}}},
		{name: "cookies in another order", first: call{url: "/me", header: http.Header{"Cookie": {"session=a; theme=dark"}}},
			then: call{url: "/me", header: http.Header{"Cookie": {"theme=dark", "session=a"}}}, wantHit: true},
		{name: "query in another order and escaping", first: call{url: "/pets?kind=cat&tag=a%20b&tag=c"},
			then: call{url: "/pets?tag=a+b&kind=cat&tag=c"}, wantHit: true},
		{name: "values of one parameter in another order", first: call{url: "/pets?tag=a&tag=b"}, then: call{url: "/pets?tag=b&tag=a"}},
		{name: "another query value", first: call{url: "/pets?kind=cat"}, then: call{url: "/pets?kind=dog"}},
		{name: "another path", first: call{url: "/pets/1"}, then: call{url: "/pets/2"}},
		{name: "volatile headers differ", first: call{url: "/me", header: http.Header{"Authorization": {"Bearer alice-token"}, "Traceparent": {"00-1-1-01"}, "Idempotency-Key": {"k1"}}},
			then: call{url: "/me", header: http.Header{"Authorization": {"Bearer alice-token"}, "Traceparent": {"00-2-2-01"}, "Baggage": {"a=1"}, "Idempotency-Key": {"k2"}}}, wantHit: true},
		{name: "shared: another Authorization", shared: true, first: call{url: "/status", header: alice},
			then: call{url: "/status", header: http.Header{"Authorization": {"Bearer bob-token"}}}, wantHit: true},
		{name: "shared: another query", shared: true, first: call{url: "/status?region=eu"}, then: call{url: "/status?region=us"}},
		{name: "another fallback key", shared: true, first: call{url: "/status", opts: []CallOption{WithFallbackKey("tenant-a")}},
			then: call{url: "/status", opts: []CallOption{WithFallbackKey("tenant-b")}}},
		{name: "the same fallback key", first: call{url: "/status", opts: []CallOption{WithFallbackKey("tenant-a")}},
			then: call{url: "/status", opts: []CallOption{WithFallbackKey("tenant-a")}}, wantHit: true},
		{name: "another partition", shared: true, partition: true, first: call{url: "/status", user: "alice"}, then: call{url: "/status", user: "bob"}},
		{name: "the same partition", shared: true, partition: true, first: call{url: "/status", user: "alice"}, then: call{url: "/status", user: "alice"}, wantHit: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var down atomic.Bool
				rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if down.Load() {
						w.WriteHeader(http.StatusServiceUnavailable)
						return
					}
					json.NewEncoder(w).Encode(testPet{ID: 1, Name: "answer for " + r.Header.Get("Authorization")})
				}))
				store := &recordingStore{Memory: fallbackstore.NewMemory(16)}
				opts := []Option{WithFallbackStore(store)}
				if tt.partition {
					opts = append(opts, WithFallbackPartition(func(ctx context.Context) string { s, _ := ctx.Value(partitionKey{}).(string); return s }))
				}
				d, err := NewDependency("pets", DependencyPolicy{}, opts...)
				if err != nil {
					t.Fatal(err)
				}
				// Every call carries an idempotency key, new unless given.
				op := testOperation(t, d, OperationPolicy{Name: "Get", Idempotency: ReadOnly, IdempotencyKey: "Idempotency-Key", Retry: RetryPolicy{Disabled: true},
					Fallback: FallbackPolicy{Kind: FallbackCached, Shared: tt.shared}})
				do := func(c call) (testPet, error) {
					req, _ := http.NewRequest(http.MethodGet, rig.url+c.url, nil)
					for k, v := range c.header {
						req.Header[k] = v
					}
					ctx := context.WithValue(t.Context(), partitionKey{}, c.user)
					return DoHTTP(ctx, op.With(c.opts...), rig.client, req, decodePet, nil)
				}
				first, err := do(tt.first)
				if err != nil {
					t.Fatal(err)
				}
				down.Store(true)
				v, err := do(tt.then)
				switch {
				case tt.wantHit && (!IsDegraded(err) || v != first):
					t.Errorf("during the outage: %v, %v; want the cached %v, degraded", v, err, first)
				case !tt.wantHit && (IsDegraded(err) || v != testPet{}):
					t.Errorf("during the outage: %v, %v; another caller's cached answer was served", v, err)
				case !tt.wantHit && !errors.Is(err, ErrDegraded) && err == nil:
					t.Errorf("during the outage: no error")
				}
				keyShape := regexp.MustCompile(`^pets Get [0-9a-f]{64}$`)
				for _, k := range store.keys {
					if !keyShape.MatchString(k) || strings.Contains(k, "token") {
						t.Errorf("store key %q, want \"pets Get\" and a SHA-256 digest", k)
					}
				}
			})
		})
	}
}

// TestDoHTTPNoFallbackKeyWithoutCache: an operation that keeps no cache
// never reads the request for a key (and pays nothing for it).
func TestDoHTTPNoFallbackKeyWithoutCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &recordingStore{Memory: fallbackstore.NewMemory(16)}
		d, err := NewDependency("pets", DependencyPolicy{}, WithFallbackStore(store),
			WithFallbackPartition(func(context.Context) string { t.Error("partition asked for"); return "" }))
		if err != nil {
			t.Fatal(err)
		}
		rig := newHTTPRig(t, &scripted{statuses: []int{200}})
		op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly})
		if _, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets/1"), decodePet, nil); err != nil {
			t.Fatal(err)
		}
		if len(store.keys) != 0 {
			t.Errorf("stored %q, want nothing", store.keys)
		}
	})
}
