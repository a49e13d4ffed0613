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
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

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
