package policyspec

import (
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// Summary is the one-line account of a resolved policy that generated
// code shows, for HTTP and gRPC clients alike: plain ([Summary.String]) in
// a method's doc comment, annotated with provenance
// ([Summary.Annotated]) above its entry of the generated policy table.
// Make one with [Operation.Summary] or [Dependency.Summary]; the zero
// value is empty.
type Summary struct {
	parts []summaryPart
}

// summaryPart is one item of a summary: its text, the note on where its
// value came from (empty for a value that was set) and the separator
// written before it.
type summaryPart struct {
	sep, text, note string
}

// String returns the summary without notes: "read-only, 3 attempts;
// timeout 2.1s, only without a caller deadline; attempt ≥500ms, only
// without a caller deadline, adaptive, last attempt to the deadline".
func (s Summary) String() string { return s.render(false) }

// Annotated returns the summary with a note after each value nobody
// wrote (see [Source.Note]): "read-only (GET), 3 attempts (default);
// timeout 2.1s, only without a caller deadline (guess); attempt ≥500ms,
// only without a caller deadline (guess), adaptive, last attempt to the
// deadline".
func (s Summary) Annotated() string { return s.render(true) }

func (s Summary) render(notes bool) string {
	var b strings.Builder
	for i, p := range s.parts {
		if i > 0 {
			b.WriteString(p.sep)
		}
		b.WriteString(p.text)
		if notes && p.note != "" {
			b.WriteString(" (" + p.note + ")")
		}
	}
	return b.String()
}

// add appends text, noted with the source of key in sources.
func (s *Summary) add(sep, text string, sources map[string]Source, key string) {
	s.parts = append(s.parts, summaryPart{sep: sep, text: text, note: sources[key].Note()})
}

// Note is how a summary marks a value by its source: "service config"
// and the file's name for a value a gRPC service config set
// ("service config pubsub_grpc_service_config.json"); empty for a value
// set otherwise; the basis of a derived value, or of a default whose
// basis the caller gave ("p99.9 350ms × 1.2, rounded up",
// "idempotency_level"); "default" or "guess" otherwise.
func (s Source) Note() string {
	switch {
	case s.Origin == OriginSet && s.Layer == LayerServiceConfig:
		return serviceConfigNote(s.Loc)
	case s.Origin == OriginSet:
		return ""
	case s.Basis != "" && (s.Origin == OriginDerived || s.Origin == OriginDefault):
		return s.Basis
	}
	return s.Origin.String()
}

// Attempts returns how many attempts a call of the operation makes at
// most, hedges not counted: one for an operation that is not idempotent
// or not retried, else one more than its retries.
func (o *Operation) Attempts() int {
	p := o.Policy
	switch {
	case p.Idempotency == runtime.NotIdempotent || p.Retry.Disabled:
		return 1
	case p.Retry.MaxRetries == 0:
		return 1 + runtime.DefaultMaxRetries
	}
	return 1 + p.Retry.MaxRetries
}

// Summary returns the summary of the operation's policy: its idempotency
// and attempts; its total timeout, which a guess applies only to calls
// without a caller deadline ([runtime.OperationPolicy.KeepCallerDeadline]);
// how attempts end, as the runtime's rules make them (an attempt timeout
// is a floor that follows the latency and cuts only an attempt that a
// retry can follow; the last attempt, the one attempt of an operation sent
// once and every hedged attempt run to the deadline); and, when they
// apply, the fallback and the idempotency key; groups separated by
// semicolons.
func (o *Operation) Summary() Summary {
	p, src := o.Policy, o.Sources
	var s Summary
	s.add("", p.Idempotency.String(), src, "idempotent")
	s.add(", ", plural(o.Attempts(), "attempt"), src, "retry.maxRetries")
	timeout := p.Timeout
	if timeout == 0 {
		timeout = runtime.DefaultTimeout
	}
	text := "timeout " + shortDuration(timeout)
	if p.KeepCallerDeadline || p.Timeout == 0 {
		text += ", only without a caller deadline"
	}
	s.add("; ", text, src, "timeout")
	switch {
	case p.Hedge.Delay > 0:
		s.add("; ", "hedged after ≥"+shortDuration(p.Hedge.Delay), src, "hedge.delay")
		s.parts = append(s.parts, summaryPart{sep: ", ", text: "every attempt to the deadline"})
	case o.Attempts() > 1 && p.AttemptTimeoutFits():
		attempt := "attempt ≥" + shortDuration(p.AttemptTimeout)
		if p.KeepCallerDeadline {
			// A guess as well: it cuts no attempt of a call with a
			// caller's deadline.
			attempt += ", only without a caller deadline"
		}
		s.add("; ", attempt, src, "attemptTimeout")
		s.parts = append(s.parts, summaryPart{sep: ", ", text: "adaptive, last attempt to the deadline"})
	}
	sep := "; "
	switch p.Fallback.Kind {
	case runtime.FallbackCached:
		ttl := p.Fallback.TTL
		if ttl == 0 {
			ttl = runtime.DefaultFallbackTTL
		}
		s.add(sep, "cached fallback "+shortDuration(ttl), src, "fallback.ttl")
		sep = ", "
		if p.Fallback.Shared {
			s.add(sep, "shared by all callers", src, "fallback.shared")
		}
	case runtime.FallbackStatic:
		s.add(sep, "static fallback", src, "fallback.kind")
		sep = ", "
	}
	if o.IdempotencyKey != "" {
		s.add(sep, "key in "+o.IdempotencyKey, src, "idempotencyKey")
	}
	return s
}

// Summary returns the summary of the dependency-wide policy: "breaker at
// 50% of 20 calls, open 30s; bulkhead 32; retry budget 10%", and when the
// policy declares a fleet, "; breaker and budget shared by the fleet in
// Redis store "sessions-redis"" (without the store's name when none is
// written).
func (d *Dependency) Summary() Summary {
	p, src := d.Policy, d.Sources
	var s Summary
	s.add("", "breaker at "+trimFloat(p.Breaker.FailureRate)+"% of "+strconv.Itoa(int(p.Breaker.MinimumCalls))+" calls", src, "breaker.failureRate")
	s.add(", ", "open "+shortDuration(p.Breaker.OpenFor), src, "breaker.openFor")
	s.add("; ", "bulkhead "+strconv.Itoa(p.Bulkhead.MaxConcurrent), src, "bulkhead.maxConcurrent")
	s.add("; ", "retry budget "+trimFloat(p.Budget.Ratio*100)+"%", src, "retry.budget")
	if d.HasFleet() {
		// Written, never a default: no note.
		text := "breaker and budget shared by the fleet in Redis"
		if p.Fleet.Store != "" {
			text += " store " + strconv.Quote(p.Fleet.Store)
		}
		s.parts = append(s.parts, summaryPart{sep: "; ", text: text})
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// shortDuration prints d as time.Duration does, without zero tails ("5m",
// not "5m0s").
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// trimFloat prints a percentage without trailing zeros.
func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// serviceConfigNote names the service config a value was set in by the
// last element of its file name: "service config x_grpc_service_config.json".
func serviceConfigNote(loc diag.Location) string {
	name := loc.File
	if i := strings.LastIndexAny(name, "/\\"); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSpace(LayerServiceConfig.String() + " " + name)
}
