package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// FallbackStore keeps last-known-good answers for [FallbackCached]
// operations. Keys are made by the pipeline: the dependency's and the
// operation's names, then the SHA-256, in hexadecimal, of the request key
// given to [Do] (which for [DoHTTP] and the gRPC glue holds the request's
// credentials unless the answer is shared), the call's [WithFallbackKey]
// and the dependency's partition ([WithFallbackPartition]). No request
// data is kept in clear in a key, so a store may be external.
// Implementations must be safe for concurrent use; Store is called after
// every success of such an operation, so it should be cheap. Values are
// what the pipeline hands over: [DoHTTP] stores a record of the answer
// (status, header, body bytes) rather than the decoded value, which it
// decodes afresh for each caller it serves.
type FallbackStore interface {
	// Load returns the value stored under key and when it was stored.
	Load(key string) (value any, stored time.Time, ok bool)
	// Store records value under key at time at.
	Store(key string, value any, at time.Time)
}

// MemoryStore is an in-memory [FallbackStore] holding at most a fixed number
// of entries; when full it evicts the oldest. It is safe for concurrent use.
// The zero value is not usable; call [NewMemoryStore].
type MemoryStore struct {
	mu      sync.Mutex
	max     int
	entries map[string]*memoryEntry
	order   []string // keys in insertion order, for eviction
}

type memoryEntry struct {
	value any
	at    time.Time
}

// NewMemoryStore returns a store holding at most max entries (at least 1).
func NewMemoryStore(max int) *MemoryStore {
	if max < 1 {
		max = 1
	}
	return &MemoryStore{max: max, entries: make(map[string]*memoryEntry)}
}

// Load returns the entry stored under key.
func (s *MemoryStore) Load(key string) (any, time.Time, bool) {
	s.mu.Lock()
	e, ok := s.entries[key]
	s.mu.Unlock()
	if !ok {
		return nil, time.Time{}, false
	}
	return e.value, e.at, true
}

// Store records value under key, evicting the oldest entry when full.
func (s *MemoryStore) Store(key string, value any, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.entries[key]; ok {
		// Replaced, not changed in place: Load reads an entry unlocked.
		s.entries[key] = &memoryEntry{value: value, at: at}
		return
	}
	for len(s.entries) >= s.max && len(s.order) > 0 {
		delete(s.entries, s.order[0])
		s.order = s.order[1:]
	}
	s.entries[key] = &memoryEntry{value: value, at: at}
	s.order = append(s.order, key)
}

// Len returns the number of entries.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// storeKey returns the key under which a cached answer of op for the
// request key is kept: "dependency operation digest", the digest covering
// the request key, the call's fallback key and the partition of ctx.
func (o *Operation) storeKey(ctx context.Context, key string) string {
	h := sha256.New()
	writeField(h, key)
	writeField(h, o.fallbackKey)
	if p := o.dep.partition; p != nil {
		writeField(h, p(ctx))
	} else {
		writeField(h, "")
	}
	var sum [sha256.Size]byte
	return o.dep.name + " " + o.name + " " + hex.EncodeToString(h.Sum(sum[:0]))
}

// writeField writes s to h behind its length, so that fields cannot run
// into each other.
func writeField(h hash.Hash, s string) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	h.Write([]byte(s))
}

// volatileHeaders are left out of an HTTP request's fallback key: they
// differ on every call without changing the answer. The deadline header
// and the operation's idempotency key header are left out too.
var volatileHeaders = [...]string{"Traceparent", "Tracestate", "Baggage"}

// httpFallbackKey returns the fallback key of req, a call of op sent with
// c: its method, scheme, host, escaped path and query parameters (sorted
// by name, the values of one name in their order), and, unless the answer
// is shared, every header field (cookies sorted by name, Authorization
// included) but the volatile ones. It is a SHA-256 digest: the key holds
// credentials.
func httpFallbackKey(req *http.Request, c *HTTPClient, op *Operation) string {
	h := sha256.New()
	writeField(h, req.Method)
	writeField(h, req.URL.Scheme)
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	writeField(h, strings.ToLower(host))
	writeField(h, req.URL.EscapedPath())
	writeQuery(h, req.URL.RawQuery)
	if !op.fallback.Shared {
		deadline := DefaultDeadlineHeader
		if c != nil && c.DeadlineHeader != "" {
			deadline = textproto.CanonicalMIMEHeaderKey(c.DeadlineHeader)
		}
		key := textproto.CanonicalMIMEHeaderKey(op.idempotencyKey)
		names := make([]string, 0, len(req.Header))
		for name := range req.Header {
			names = append(names, name)
		}
		for i, name := range names {
			names[i] = textproto.CanonicalMIMEHeaderKey(name)
		}
		slices.Sort(names)
		names = slices.Compact(names)
		for _, name := range names {
			if name == deadline || name == key || slices.Contains(volatileHeaders[:], name) {
				continue
			}
			values := headerValues(req.Header, name)
			if name == "Cookie" {
				values = cookiePairs(values)
			}
			writeField(h, name)
			writeField(h, strconv.Itoa(len(values)))
			for _, v := range values {
				writeField(h, v)
			}
		}
	}
	var sum [sha256.Size]byte
	return string(h.Sum(sum[:0]))
}

// headerValues returns the values of name in h, whatever the spelling of
// the keys that hold them, in key order.
func headerValues(h http.Header, name string) []string {
	var keys []string
	for k := range h {
		if textproto.CanonicalMIMEHeaderKey(k) == name {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		out = append(out, h[k]...)
	}
	return out
}

// cookiePairs returns the name=value pairs of Cookie header values, sorted
// by name (the values of one name in their order), so that the order in
// which cookies were added does not split the cache.
func cookiePairs(values []string) []string {
	var pairs []string
	for _, v := range values {
		for p := range strings.SplitSeq(v, ";") {
			if p = strings.TrimSpace(p); p != "" {
				pairs = append(pairs, p)
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b string) int {
		an, _, _ := strings.Cut(a, "=")
		bn, _, _ := strings.Cut(b, "=")
		return strings.Compare(an, bn)
	})
	return pairs
}

// writeQuery writes the query parameters of raw sorted by name, the values
// of one name in their order, unescaped, so that neither their order nor
// their escaping splits the cache. A query that does not parse (a bad
// escape, a ';' separator) is written as it is.
func writeQuery(h hash.Hash, raw string) {
	type param struct{ name, value string }
	var params []param
	for p := range strings.SplitSeq(raw, "&") {
		if p == "" {
			continue
		}
		name, value, _ := strings.Cut(p, "=")
		n, err1 := url.QueryUnescape(name)
		v, err2 := url.QueryUnescape(value)
		if err1 != nil || err2 != nil || strings.Contains(p, ";") {
			writeField(h, "raw")
			writeField(h, raw)
			return
		}
		params = append(params, param{n, v})
	}
	slices.SortStableFunc(params, func(a, b param) int { return strings.Compare(a.name, b.name) })
	writeField(h, "query")
	for _, p := range params {
		writeField(h, p.name)
		writeField(h, p.value)
	}
}

// fallback answers a failed call from the operation's fallback when one is
// configured and allowed for err, and returns err otherwise. No fallback
// answers the caller's own errors: a cancellation, an invalid request, or
// an answer of the dependency that rejects the request (4xx) or could not
// be used (an undecodable or too large body).
func fallback[T any](ctx context.Context, op *Operation, key string, err *CallError) (T, error) {
	var zero T
	if op.fallback.Kind == FallbackNone || errors.Is(ctx.Err(), context.Canceled) {
		return zero, err
	}
	switch err.End {
	case EndInvalidRequest, EndCanceled:
		return zero, err
	case EndAttempt:
		if c := classify(err.Err); c == outcome.Rejected || c == outcome.Permanent {
			return zero, err
		}
	}
	var (
		raw any
		age time.Duration
	)
	switch op.fallback.Kind {
	case FallbackStatic:
		raw = op.fallback.Static
	case FallbackCached:
		v, at, ok := op.dep.store.Load(op.storeKey(ctx, key))
		if !ok {
			return zero, err
		}
		if age = time.Since(at); age > op.fallback.TTL {
			return zero, err
		}
		raw = v
	}
	v, ok := raw.(T)
	if !ok {
		return zero, err
	}
	d := op.dep
	if d.observed {
		d.observer.Degraded(DegradedEvent{Dependency: d.name, Operation: op.name, Source: op.fallback.Kind, Age: age, Cause: err, Context: ctx})
	}
	return v, &DegradedError{Dependency: d.name, Operation: op.name, Source: op.fallback.Kind, Age: age, Cause: err}
}
