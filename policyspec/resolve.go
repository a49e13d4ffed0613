package policyspec

import (
	"fmt"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// Dependency is the resolved dependency-wide policy of one dependency. It
// is resolved once, and every operation of the dependency is resolved from
// it, so all of them share the same [runtime.DependencyPolicy].
type Dependency struct {
	// Name names the dependency.
	Name string
	// Policy is the dependency-wide policy, every field explicit (what a
	// written zero turns off has its Disable flag set). [Dependency.Minimal]
	// gives the part a generated client writes.
	Policy runtime.DependencyPolicy
	// Latency is the dependency's measured latency, if any.
	Latency Latency
	// DeadlineHeader is the header in which an HTTP client sends each
	// attempt's remaining budget: empty, none sent, unless
	// "deadlineHeader" declares that the server reads one (true for
	// [runtime.DefaultDeadlineHeader], the convention of
	// [runtime.DeadlineMiddleware], or a header name). (A gRPC client
	// sends grpc-timeout; the generator empties it there.)
	DeadlineHeader string
	// Sources gives the provenance of each value of Policy, by key path
	// ("breaker.failureRate", "bulkhead.maxConcurrent", "retry.budget",
	// "deadlineHeader", "fleet.store" when the fleet is declared, …).
	// Policy.Fleet is zero unless a "fleet" key is written
	// ([Dependency.HasFleet]).
	Sources map[string]Source
	// Warnings are problems that do not fail generation.
	Warnings diag.List

	layers []Layer
}

// Operation is the resolved policy of one operation.
type Operation struct {
	// Name names the operation.
	Name string
	// Dependency names its dependency.
	Dependency string
	// Policy is the operation's policy, every field explicit (no retries
	// is Retry.Disabled). [Operation.Minimal] gives the part a generated
	// client writes.
	Policy runtime.OperationPolicy
	// IdempotencyKey is the header that carries the idempotency key, or ""
	// when none is sent.
	IdempotencyKey string
	// Latency is the operation's measured latency, the dependency's unless
	// the operation has its own.
	Latency Latency
	// Sources gives the provenance of each value of Policy, by key path
	// ("timeout", "retry.maxRetries", "hedge.delay", …; "retry.minAttempt"
	// for [runtime.RetryPolicy.MinAttempt]).
	Sources map[string]Source
	// Warnings are problems that do not fail generation.
	Warnings diag.List
}

// ResolveDependency resolves the dependency-wide policy of the dependency
// named name from its layers: the policy file's (see
// [File.DependencyLayers]), the spec root and, for gRPC, the service option.
// Layers may come in any order; their kinds give precedence. Every problem
// is returned as [diag.List]; the Dependency is usable for the review
// even then. A layer of an operation kind is a programming error.
func ResolveDependency(name string, layers ...Layer) (*Dependency, error) {
	var ds diag.List
	for _, l := range layers {
		if !l.Kind.dependencyWide() {
			return nil, fmt.Errorf("policyspec: dependency %s: a %s layer belongs to an operation; pass it to ResolveOperation", name, l.Kind)
		}
		ds = append(ds, checkScope(l)...)
	}
	m := mergeLayers(layers)
	s := m.spec
	d := &Dependency{Name: name, Latency: latencyOf(s.Latency), Sources: map[string]Source{}, Warnings: m.warnings.Sorted(), layers: layers}
	ds = append(ds, checkLatency(s.Latency)...)

	b := &d.Policy.Breaker
	b.FailureRate = setOr(d, "breaker.failureRate", &s.Breaker.FailureRate, runtime.DefaultFailureRate)
	b.MinimumCalls = uint32(setOr(d, "breaker.minimumCalls", &s.Breaker.MinimumCalls, runtime.DefaultMinimumCalls))
	b.Window = setOr(d, "breaker.window", &s.Breaker.Window, runtime.DefaultBreakerWindow)
	b.OpenFor = setOr(d, "breaker.openFor", &s.Breaker.OpenFor, runtime.DefaultOpenFor)
	b.HalfOpenProbes = uint32(setOr(d, "breaker.halfOpenProbes", &s.Breaker.HalfOpenProbes, runtime.DefaultHalfOpenProbes))

	d.Policy.Bulkhead.MaxConcurrent = d.bulkheadSize(&s.Bulkhead.MaxConcurrent)
	d.Policy.Bulkhead.MaxWait = setOr(d, "bulkhead.maxWait", &s.Bulkhead.MaxWait, runtime.DefaultMaxWait)
	switch {
	case s.Bulkhead.MaxWait.Set && s.Bulkhead.MaxWait.Value == 0:
		d.Policy.Bulkhead.MaxWait, d.Policy.Bulkhead.DisableWait = 0, true
	case !s.Bulkhead.MaxWait.Set && d.Latency.P95 > 0:
		d.Policy.Bulkhead.MaxWait = d.Latency.P95
		d.Sources["bulkhead.maxWait"] = Source{Origin: OriginDerived, Basis: "p95 " + d.Latency.P95.String()}
	}

	d.Policy.Budget.Ratio = setOr(d, "retry.budget", &s.Retry.Budget, runtime.DefaultBudgetRatio)
	d.Policy.Budget.MinPerSecond = setOr(d, "retry.minPerSecond", &s.Retry.MinPerSecond, runtime.DefaultBudgetMinPerSec)
	if s.Retry.MinPerSecond.Set && s.Retry.MinPerSecond.Value == 0 {
		d.Policy.Budget.DisableFloor = true
	}
	d.Policy.Budget.MaxBalance = runtime.DefaultBudgetMaxBalance
	d.Sources["retry.maxBalance"] = Source{Origin: OriginDefault}

	if s.Fleet.Store.Set || s.Fleet.Prefix.Set {
		d.Policy.Fleet.Store = string(setOr(d, "fleet.store", &s.Fleet.Store, ""))
		d.Policy.Fleet.Prefix = string(setOr(d, "fleet.prefix", &s.Fleet.Prefix, runtime.DefaultFleetPrefix))
	}

	// The deadline header goes only to a server declared to read it: a
	// third-party API has no use for the caller's budget.
	h := setOr(d, "deadlineHeader", &s.DeadlineHeader, HeaderSwitch{Off: true})
	switch {
	case h.Off:
	case h.Name != "":
		d.DeadlineHeader = h.Name
	default:
		d.DeadlineHeader = runtime.DefaultDeadlineHeader
	}
	return d, ds.Err()
}

// setOr returns f's value when set, else def, recording the source under
// key in d.
func setOr[T any](d *Dependency, key string, f *Field[T], def T) T {
	d.Sources[key] = sourceOf(f)
	return f.Or(def)
}

// HasFleet reports whether the policy declares a fleet (a "fleet.store"
// or "fleet.prefix" is written): the dependency shares its breaker and
// retry budget with the service's other replicas once the generated
// client is given a Redis client, and Policy.Fleet is not zero.
func (d *Dependency) HasFleet() bool { return d.Policy.Fleet != (runtime.FleetPolicy{}) }

// bulkheadSize returns the bulkhead size: as set, else by Little's law,
// else the default marked as a guess.
func (d *Dependency) bulkheadSize(f *Field[int]) int {
	const key = "bulkhead.maxConcurrent"
	if f.Set {
		d.Sources[key] = sourceOf(f)
		return f.Value
	}
	if n, basis := DeriveBulkhead(d.Latency); n > 0 {
		d.Sources[key] = Source{Origin: OriginDerived, Basis: basis}
		return n
	}
	d.Sources[key] = Source{Origin: OriginGuess, Basis: "no rps and p99 for Little's law"}
	return runtime.DefaultMaxConcurrent
}

// ResolveOperation resolves the policy of operation name of d. idem is the
// operation's idempotency by its HTTP method or proto idempotency_level;
// layers are the operation's own: path item, operation and the policy
// file's entry (see [File.OperationLayers]), in any order. Every problem is
// returned as [diag.List], sorted; the Operation is usable for the review
// even then. A layer of a dependency-wide kind is a programming error.
func (d *Dependency) ResolveOperation(name string, idem runtime.Idempotency, layers ...Layer) (*Operation, error) {
	var ds diag.List
	for _, l := range layers {
		if l.Kind.dependencyWide() || l.Kind == LayerBuiltin {
			return nil, fmt.Errorf("policyspec: operation %s: a %s layer belongs to the dependency; pass it to ResolveDependency", name, l.Kind)
		}
		ds = append(ds, checkScope(l)...)
	}
	m := mergeLayers(append(append([]Layer(nil), d.layers...), layers...))
	r := &resolution{s: m.spec, op: &Operation{Name: name, Dependency: d.Name, Sources: map[string]Source{}}}
	r.op.Warnings = m.warnings.Sorted()
	r.op.Policy.Name = name
	r.op.Latency = latencyOf(r.s.Latency)
	ds = append(ds, checkLatency(r.s.Latency)...)

	r.idempotency(idem)
	r.retry()
	r.hedge()
	r.fallback()
	r.timeouts()
	r.op.Warnings = r.op.Warnings.Sorted()
	ds = append(ds, r.diags...)
	return r.op, ds.Err()
}

// resolution holds the state of resolving one operation.
type resolution struct {
	s     Spec
	op    *Operation
	diags diag.List

	retries int  // effective retries
	hedging bool // hedging is on
}

func (r *resolution) add(loc diag.Location, rule diag.Rule, msg, fix string) {
	r.diags = append(r.diags, diag.Diagnostic{Location: loc, Rule: rule, Message: msg, Fix: fix})
}

// warn records a warning, which does not fail the resolution, in the
// operation's Warnings.
func (r *resolution) warn(loc diag.Location, rule diag.Rule, msg, fix string) {
	r.op.Warnings = append(r.op.Warnings, diag.Diagnostic{Location: loc, Rule: rule, Severity: diag.Warning, Message: msg, Fix: fix})
}

func (r *resolution) source(key string, f field) { r.op.Sources[key] = sourceOf(f) }

// methodBasis is the basis of an idempotency taken from the method until
// the front end names what it was taken from.
const methodBasis = "from the method"

// idempotency applies "idempotent" and "idempotencyKey" to the method's
// idempotency: idempotent: false makes any operation not idempotent,
// idempotent: true makes a non-idempotent one idempotent (a read stays a
// read), and a key makes a non-idempotent operation idempotent.
func (r *resolution) idempotency(idem runtime.Idempotency) {
	src := Source{Origin: OriginDefault, Basis: methodBasis}
	if f := r.s.Idempotent; f.Set {
		src = sourceOf(&f)
		switch {
		case !f.Value:
			idem = runtime.NotIdempotent
		case idem == runtime.NotIdempotent:
			idem = runtime.Idempotent
		}
	}
	if f := r.s.IdempotencyKey; f.Set {
		r.op.IdempotencyKey = f.Value
		r.op.Policy.IdempotencyKey = f.Value
		r.source("idempotencyKey", &f)
		if idem == runtime.NotIdempotent {
			idem = runtime.Idempotent
			src = sourceOf(&f)
		}
	}
	r.op.Policy.Idempotency = idem
	r.op.Sources["idempotent"] = src
}

// askedByOperation returns the first of fields that the operation itself
// set, and whether there is one.
func askedByOperation(fields ...field) (diag.Location, bool) {
	for _, f := range fields {
		if loc, set := f.where(); set && f.from().ownsOperation() {
			return loc, true
		}
	}
	return diag.Location{}, false
}

// retry resolves how, and whether, the operation is retried.
func (r *resolution) retry() {
	rs := &r.s.Retry
	p := &r.op.Policy.Retry
	n := rs.MaxRetries.Or(runtime.DefaultMaxRetries)
	p.Base = rs.Base.Or(runtime.DefaultBackoffBase)
	p.Cap = rs.Cap.Or(runtime.DefaultBackoffCap)
	r.source("retry.base", &rs.Base)
	r.source("retry.cap", &rs.Cap)
	r.source("retry.maxRetries", &rs.MaxRetries)
	r.fitServiceConfigCap()
	checkBaseCap(r, rs)

	if r.op.Policy.Idempotency == runtime.NotIdempotent {
		if loc, asked := askedByOperation(&rs.MaxRetries, &rs.Base, &rs.Cap); asked && n > 0 {
			r.add(loc, diag.RuleRetryUnsafe,
				fmt.Sprintf("operation %s asks for retries but is not idempotent: a retried request may repeat its side effect (RFC 9110 §9.2.2)", r.op.Name),
				"set idempotencyKey: Idempotency-Key if the server deduplicates by key, idempotent: true if repeating is harmless, or remove the retry settings")
		}
		n = 0
		r.op.Sources["retry.maxRetries"] = Source{Origin: OriginDerived, Basis: "not idempotent: never retried"}
	}
	r.retries = n
	p.MaxRetries = n
	p.Disabled = n == 0
	if r.op.Latency.P50 > 0 {
		p.MinAttempt = r.op.Latency.P50
		r.op.Sources["retry.minAttempt"] = Source{Origin: OriginDerived, Basis: "p50 " + r.op.Latency.P50.String()}
	} else {
		r.op.Sources["retry.minAttempt"] = Source{Origin: OriginGuess, Basis: "no p50: any remaining time"}
	}
}

// hedge resolves hedging: asked for by writing a hedge key, and on only
// for reads.
func (r *resolution) hedge() {
	hs := &r.s.Hedge
	p := &r.op.Policy.Hedge
	maxHedges := hs.MaxHedges.Or(runtime.DefaultMaxHedges)
	wanted := (hs.Delay.Set || hs.MaxHedges.Set) && maxHedges > 0
	r.source("hedge.maxHedges", &hs.MaxHedges)
	r.source("hedge.delay", &hs.Delay)
	if !wanted {
		return
	}
	if r.op.Policy.Idempotency != runtime.ReadOnly {
		if loc, asked := askedByOperation(&hs.Delay, &hs.MaxHedges); asked {
			r.add(loc, diag.RuleHedgeUnsafe,
				fmt.Sprintf("operation %s asks for hedging but is %s: only reads (GET, HEAD, OPTIONS, NO_SIDE_EFFECTS) may be sent twice at once", r.op.Name, r.op.Policy.Idempotency),
				"remove the hedge block, or retry instead if the operation is idempotent")
		}
		r.op.Sources["hedge.delay"] = Source{Origin: OriginDerived, Basis: "not a read: never hedged"}
		return
	}
	r.hedging = true
	p.MaxHedges = maxHedges
	switch {
	case hs.Delay.Set:
		p.Delay = hs.Delay.Value
	case r.op.Latency.P95 > 0:
		p.Delay = r.op.Latency.P95
		r.op.Sources["hedge.delay"] = Source{Origin: OriginDerived, Basis: "p95 " + r.op.Latency.P95.String()}
	default:
		loc, _ := hs.MaxHedges.where()
		r.add(loc, diag.RuleHedgeDelay,
			fmt.Sprintf("operation %s asks for hedging without a delay, and no p95 latency is known", r.op.Name),
			`set hedge.delay (usually the p95, e.g. "120ms") or latency.p95`)
		r.hedging, p.MaxHedges = false, 0
	}
}

// fallback resolves the fallback: on only for reads.
func (r *resolution) fallback() {
	fs := &r.s.Fallback
	p := &r.op.Policy.Fallback
	kind := fs.Kind.Or(runtime.FallbackNone)
	r.source("fallback.kind", &fs.Kind)
	r.source("fallback.ttl", &fs.TTL)
	r.source("fallback.shared", &fs.Shared)
	p.TTL = fs.TTL.Or(runtime.DefaultFallbackTTL)
	checkFallbackValue(r, fs, kind)
	if kind == runtime.FallbackNone {
		return
	}
	if r.op.Policy.Idempotency != runtime.ReadOnly {
		if loc, asked := askedByOperation(&fs.Kind); asked {
			r.add(loc, diag.RuleFallbackUnsafe,
				fmt.Sprintf("operation %s asks for a %s fallback but is %s: a write must report its failure, not a made-up answer", r.op.Name, kind, r.op.Policy.Idempotency),
				"remove the fallback, or queue the write for later in the caller")
		}
		r.op.Sources["fallback.kind"] = Source{Origin: OriginDerived, Basis: "not a read: no fallback"}
		return
	}
	p.Kind = kind
	switch kind {
	case runtime.FallbackStatic:
		p.Static = fs.Value.Value
		r.source("fallback.value", &fs.Value)
	case runtime.FallbackCached:
		p.Shared = fs.Shared.Or(false)
	}
}

// timeouts resolves the connect, attempt and total timeouts, deriving what
// is not set (see the package documentation).
func (r *resolution) timeouts() {
	s, p := &r.s, &r.op.Policy
	p.ConnectTimeout = s.ConnectTimeout.Or(GuessConnectTimeout)
	r.source("connectTimeout", &s.ConnectTimeout)
	if !s.ConnectTimeout.Set {
		r.op.Sources["connectTimeout"] = Source{Origin: OriginGuess, Basis: "top of the usual 100 ms–1 s"}
	}
	attempts := 1 + r.retries
	backoff := Backoff(r.retries, p.Retry.Base, p.Retry.Cap)
	var hedgeDelay time.Duration
	if r.hedging {
		hedgeDelay = p.Hedge.Delay
	}
	derivedAttempt, basis := DeriveAttemptTimeout(r.op.Latency)
	origin := OriginDerived
	if derivedAttempt == 0 {
		derivedAttempt, basis, origin = GuessAttemptTimeout, "no p99 or p99.9 latency", OriginGuess
	}

	switch {
	case s.AttemptTimeout.Set && s.Timeout.Set:
		p.AttemptTimeout, p.Timeout = s.AttemptTimeout.Value, s.Timeout.Value
		r.source("attemptTimeout", &s.AttemptTimeout)
		r.source("timeout", &s.Timeout)
	case s.AttemptTimeout.Set:
		p.AttemptTimeout = s.AttemptTimeout.Value
		r.source("attemptTimeout", &s.AttemptTimeout)
		p.Timeout = CoveringTimeout(attempts, p.AttemptTimeout, backoff, hedgeDelay)
		r.op.Sources["timeout"] = Source{Origin: OriginDerived, Basis: coveringBasis(attempts, p.AttemptTimeout, backoff, hedgeDelay)}
	case s.Timeout.Set:
		p.Timeout = s.Timeout.Value
		r.source("timeout", &s.Timeout)
		r.attemptWithin(attempts, backoff, derivedAttempt, basis, origin)
	default:
		p.Timeout = CoveringTimeout(attempts, derivedAttempt, backoff, hedgeDelay)
		r.op.Sources["timeout"] = Source{Origin: origin, Basis: coveringBasis(attempts, derivedAttempt, backoff, hedgeDelay)}
		switch {
		case attempts > 1 || r.hedging:
			p.AttemptTimeout = derivedAttempt
			r.op.Sources["attemptTimeout"] = Source{Origin: origin, Basis: basis}
		case origin == OriginDerived:
			r.sentOnce(derivedAttempt, basis)
		default:
			r.op.Sources["attemptTimeout"] = Source{Origin: OriginDerived, Basis: "single attempt: the timeout bounds it"}
		}
	}
	// A total nobody declared is a guess: it bounds the calls that arrive
	// without a deadline, and never cuts a caller's deadline short.
	p.KeepCallerDeadline = r.op.Sources["timeout"].Origin == OriginGuess
	checkTimeouts(r)
	checkAttemptCuts(r)
}

// sentOnce resolves the timeouts of an operation sent once, not hedged,
// whose attempt timeout is derived from measured latency. That attempt
// timeout sits just above the p99.9 on purpose; as the total of a call that
// no retry follows it would turn any slowdown into an error, and for a
// write into an unknown outcome. The total is therefore the one the
// operation would have if retried by default (the runtime runs the one
// attempt to it), and the derived attempt timeout is kept as the runtime's
// reference: the time a healthy dependency answers within, the floor of
// the adaptive timeout and the least an unanswered attempt must have had
// to count as a breaker failure.
func (r *resolution) sentOnce(attempt time.Duration, basis string) {
	p := &r.op.Policy
	n := runtime.DefaultMaxRetries
	backoff := Backoff(n, p.Retry.Base, p.Retry.Cap)
	p.Timeout = CoveringTimeout(1+n, attempt, backoff, 0)
	r.op.Sources["timeout"] = Source{Origin: OriginDerived,
		Basis: fmt.Sprintf("sent once, the total of %d default retries: %s", n, coveringBasis(1+n, attempt, backoff, 0))}
	p.AttemptTimeout = attempt
	r.op.Sources["attemptTimeout"] = Source{Origin: OriginDerived, Basis: basis + "; sent once, never cut before the total"}
}

// attemptWithin chooses the attempt timeout under a set total timeout: the
// latency-derived one when it fits, else an equal share of the total after
// backoff; a single attempt needs none.
func (r *resolution) attemptWithin(attempts int, backoff, derived time.Duration, basis string, origin Origin) {
	p := &r.op.Policy
	const key = "attemptTimeout"
	switch {
	case attempts == 1 && !r.hedging:
		r.op.Sources[key] = Source{Origin: OriginDerived, Basis: "single attempt: the timeout bounds it"}
	case origin == OriginDerived && derived < p.Timeout:
		p.AttemptTimeout = derived
		r.op.Sources[key] = Source{Origin: OriginDerived, Basis: basis}
	default:
		share := roundDown((p.Timeout - backoff) / time.Duration(attempts))
		if share <= 0 || share >= p.Timeout {
			r.op.Sources[key] = Source{Origin: OriginDerived, Basis: "no room for a share of the timeout: the timeout bounds each attempt"}
			return
		}
		p.AttemptTimeout = share
		r.op.Sources[key] = Source{Origin: OriginDerived, Basis: fmt.Sprintf("(timeout %s − backoff %s) / %d attempts, rounded down", p.Timeout, backoff, attempts)}
	}
}
