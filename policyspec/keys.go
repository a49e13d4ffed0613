package policyspec

import (
	"strings"
	"unicode"
)

// keyKind says how a key's value is written and checked.
type keyKind uint8

const (
	kindBool         keyKind = iota
	kindHeader               // an HTTP header name
	kindDuration             // a Go duration string, > 0
	kindDurationZero         // a Go duration string, >= 0
	kindInt                  // an integer within [lo, hi]
	kindFloat                // a number within (lo, hi] or [lo, hi]
	kindRatio                // "10%" or 0.1, within (0, 1]
	kindFallbackKind         // cached | static | none
	kindAny                  // any JSON value
	kindHeaderSwitch         // true, false or an HTTP header name
	kindStoreName            // the name of a shared store: letters, digits, ".", "_", "-"
	kindKeyPrefix            // the start of key names in a shared store
)

// keyScope says at which levels a key may be written.
type keyScope uint8

const (
	scopeAny        keyScope = iota
	scopeDependency          // shared by all operations of a dependency
	scopeOperation           // describes one operation
)

// keyDef is one row of the key table, the single source of the policy
// vocabulary: decoding, the snake_case spelling, scope checks, merging and
// provenance all come from it.
type keyDef struct {
	name   string // dotted camelCase path, "retry.maxRetries"
	kind   keyKind
	scope  keyScope
	lo, hi float64 // bounds of kindInt and kindFloat
	loOpen bool    // lo itself is excluded
	field  func(*Spec) any
}

// keyTable returns the policy vocabulary in its documented order.
func keyTable() []keyDef {
	return []keyDef{
		{name: "idempotent", kind: kindBool, scope: scopeOperation, field: func(s *Spec) any { return &s.Idempotent }},
		{name: "idempotencyKey", kind: kindHeader, field: func(s *Spec) any { return &s.IdempotencyKey }},
		{name: "timeout", kind: kindDuration, field: func(s *Spec) any { return &s.Timeout }},
		{name: "attemptTimeout", kind: kindDuration, field: func(s *Spec) any { return &s.AttemptTimeout }},
		{name: "connectTimeout", kind: kindDuration, field: func(s *Spec) any { return &s.ConnectTimeout }},
		{name: "deadlineHeader", kind: kindHeaderSwitch, scope: scopeDependency, field: func(s *Spec) any { return &s.DeadlineHeader }},
		{name: "retry.maxRetries", kind: kindInt, lo: 0, hi: 5, field: func(s *Spec) any { return &s.Retry.MaxRetries }},
		{name: "retry.base", kind: kindDuration, field: func(s *Spec) any { return &s.Retry.Base }},
		{name: "retry.cap", kind: kindDuration, field: func(s *Spec) any { return &s.Retry.Cap }},
		{name: "retry.budget", kind: kindRatio, scope: scopeDependency, lo: 0, hi: 1, loOpen: true, field: func(s *Spec) any { return &s.Retry.Budget }},
		{name: "retry.minPerSecond", kind: kindFloat, scope: scopeDependency, lo: 0, hi: 1e6, field: func(s *Spec) any { return &s.Retry.MinPerSecond }},
		{name: "breaker.failureRate", kind: kindFloat, scope: scopeDependency, lo: 0, hi: 100, loOpen: true, field: func(s *Spec) any { return &s.Breaker.FailureRate }},
		{name: "breaker.minimumCalls", kind: kindInt, scope: scopeDependency, lo: 1, hi: 1e6, field: func(s *Spec) any { return &s.Breaker.MinimumCalls }},
		{name: "breaker.window", kind: kindDuration, scope: scopeDependency, field: func(s *Spec) any { return &s.Breaker.Window }},
		{name: "breaker.openFor", kind: kindDuration, scope: scopeDependency, field: func(s *Spec) any { return &s.Breaker.OpenFor }},
		{name: "breaker.halfOpenProbes", kind: kindInt, scope: scopeDependency, lo: 1, hi: 1000, field: func(s *Spec) any { return &s.Breaker.HalfOpenProbes }},
		{name: "bulkhead.maxConcurrent", kind: kindInt, scope: scopeDependency, lo: 1, hi: 1e6, field: func(s *Spec) any { return &s.Bulkhead.MaxConcurrent }},
		{name: "bulkhead.maxWait", kind: kindDurationZero, scope: scopeDependency, field: func(s *Spec) any { return &s.Bulkhead.MaxWait }},
		{name: "hedge.delay", kind: kindDuration, field: func(s *Spec) any { return &s.Hedge.Delay }},
		{name: "hedge.maxHedges", kind: kindInt, lo: 0, hi: 4, field: func(s *Spec) any { return &s.Hedge.MaxHedges }},
		{name: "fallback.kind", kind: kindFallbackKind, field: func(s *Spec) any { return &s.Fallback.Kind }},
		{name: "fallback.ttl", kind: kindDuration, field: func(s *Spec) any { return &s.Fallback.TTL }},
		{name: "fallback.value", kind: kindAny, field: func(s *Spec) any { return &s.Fallback.Value }},
		{name: "fallback.shared", kind: kindBool, field: func(s *Spec) any { return &s.Fallback.Shared }},
		{name: "fleet.store", kind: kindStoreName, scope: scopeDependency, field: func(s *Spec) any { return &s.Fleet.Store }},
		{name: "fleet.prefix", kind: kindKeyPrefix, scope: scopeDependency, field: func(s *Spec) any { return &s.Fleet.Prefix }},
		{name: "latency.p50", kind: kindDuration, field: func(s *Spec) any { return &s.Latency.P50 }},
		{name: "latency.p95", kind: kindDuration, field: func(s *Spec) any { return &s.Latency.P95 }},
		{name: "latency.p99", kind: kindDuration, field: func(s *Spec) any { return &s.Latency.P99 }},
		{name: "latency.p999", kind: kindDuration, field: func(s *Spec) any { return &s.Latency.P999 }},
		{name: "latency.rps", kind: kindFloat, lo: 0, hi: 1e9, loOpen: true, field: func(s *Spec) any { return &s.Latency.RPS }},
	}
}

// Keys returns every policy key as a dotted camelCase path, such as
// "retry.maxRetries", in the order of the vocabulary.
func Keys() []string {
	t := keyTable()
	names := make([]string, len(t))
	for i, k := range t {
		names[i] = k.name
	}
	return names
}

// SnakeCase returns the snake_case spelling of a camelCase key or dotted
// key path, as the proto options use it: "retry.maxRetries" becomes
// "retry.max_retries", "idempotencyKey" becomes "idempotency_key".
func SnakeCase(key string) string {
	var b strings.Builder
	for i, r := range key {
		if unicode.IsUpper(r) {
			if i > 0 && key[i-1] != '.' {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CamelCase returns the camelCase key of a snake_case key or dotted key
// path ("retry.max_retries" gives "retry.maxRetries") and whether it names a
// policy key or block. A key already in camelCase is returned as it is.
func CamelCase(snake string) (string, bool) {
	for _, name := range vocabulary() {
		if name == snake || SnakeCase(name) == snake {
			return name, true
		}
	}
	return "", false
}

// vocabulary returns every key path and every block name.
func vocabulary() []string {
	var names []string
	seen := map[string]bool{}
	for _, k := range keyTable() {
		if block, _, ok := strings.Cut(k.name, "."); ok && !seen[block] {
			seen[block] = true
			names = append(names, block)
		}
		names = append(names, k.name)
	}
	return names
}

// lookupKey returns the table row of a dotted camelCase key path.
func lookupKey(name string) (keyDef, bool) {
	for _, k := range keyTable() {
		if k.name == name {
			return k, true
		}
	}
	return keyDef{}, false
}

// childKeys returns the keys allowed directly inside block ("" for the top
// level), blocks included, in vocabulary order.
func childKeys(block string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range keyTable() {
		name := k.name
		if block != "" {
			rest, ok := strings.CutPrefix(name, block+".")
			if !ok {
				continue
			}
			name = rest
		}
		head, _, _ := strings.Cut(name, ".")
		if !seen[head] {
			seen[head] = true
			out = append(out, head)
		}
	}
	return out
}
