package golang

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/policy"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// depPolicyView is the dependency row of the policy table.
type depPolicyView struct {
	policy runtime.Policy
	// summary is the comment above the literal.
	summary string
}

func depView(pol *policy.Service) depPolicyView {
	d := pol.Dependency
	p := d.Policy
	s := "Dependency: breaker at " + trimFloat(p.Breaker.FailureRate) + "% of " + itoa(int(p.Breaker.MinimumCalls)) +
		" calls" + origin(d.Sources, "breaker.failureRate") + ", open " + shortDuration(p.Breaker.OpenFor) +
		"; bulkhead " + itoa(p.Bulkhead.MaxConcurrent) + origin(d.Sources, "bulkhead.maxConcurrent") +
		"; retry budget " + trimFloat(p.Budget.Ratio*100) + "%" + origin(d.Sources, "retry.budget") + "."
	if p.Fleet != (runtime.FleetPolicy{}) {
		s += " Breaker and budget shared by the fleet in Redis (WithFleet)."
	}
	return depPolicyView{policy: p, summary: s}
}

// opPolicyView is the row of one operation in the policy table.
type opPolicyView struct {
	policy runtime.OperationPolicy
	// summary is the one-line comment above the literal, noting values
	// that are defaults or guesses.
	summary string
	// docLine is the policy line of the method's doc comment.
	docLine string
	// static is the JSON text of a static fallback value; DefaultPolicy
	// holds it as a json.RawMessage, which NewClient decodes.
	static string
}

func opPolicy(res *policyspec.Operation) opPolicyView {
	p := res.Policy
	parts := []string{p.Idempotency.String()}
	attempts := 1
	switch {
	case p.Idempotency == runtime.NotIdempotent || p.Retry.MaxRetries == runtime.NoRetries:
	case p.Retry.MaxRetries == 0:
		attempts += runtime.DefaultMaxRetries
	default:
		attempts += p.Retry.MaxRetries
	}
	if attempts == 1 {
		parts = append(parts, "1 attempt")
	} else {
		parts = append(parts, itoa(attempts)+" attempts")
	}
	timeout := p.Timeout
	if timeout == 0 {
		timeout = runtime.DefaultTimeout
	}
	parts = append(parts, "timeout "+shortDuration(timeout))
	annotated := append([]string(nil), parts...)
	annotated[1] += origin(res.Sources, "retry.maxRetries")
	annotated[2] += origin(res.Sources, "timeout")
	add := func(s, key string) {
		parts = append(parts, s)
		annotated = append(annotated, s+origin(res.Sources, key))
	}
	if p.AttemptTimeout > 0 {
		add("attempt "+shortDuration(p.AttemptTimeout), "attemptTimeout")
	}
	if p.Hedge.Delay > 0 {
		add("hedged after "+shortDuration(p.Hedge.Delay), "hedge.delay")
	}
	switch p.Fallback.Kind {
	case runtime.FallbackCached:
		ttl := p.Fallback.TTL
		if ttl == 0 {
			ttl = runtime.DefaultFallbackTTL
		}
		add("cached fallback "+shortDuration(ttl), "fallback.ttl")
		if p.Fallback.Shared {
			add("shared by all callers", "fallback.shared")
		}
	case runtime.FallbackStatic:
		add("static fallback", "fallback.kind")
	}
	if res.IdempotencyKey != "" {
		add("key in "+res.IdempotencyKey, "idempotencyKey")
	}
	return opPolicyView{
		policy:  p,
		summary: strings.Join(annotated, ", ") + ".",
		docLine: "Policy: " + strings.Join(parts, ", ") + ".",
	}
}

// origin notes a value that was not written by anyone: " (default)",
// " (guess)" or " (derived)"; empty for a value that was set.
func origin(sources map[string]policyspec.Source, key string) string {
	s, ok := sources[key]
	if !ok || s.Origin == policyspec.OriginSet {
		return ""
	}
	return " (" + s.Origin.String() + ")"
}

// emitPolicyType writes
//
//	// Policy is the resilience policy of a Client ...
//	type Policy struct {
//		// Dependency is shared by all operations ...
//		Dependency resilient.Policy
//		// GetPet is the policy of Client.GetPet.
//		GetPet resilient.OperationPolicy
//	}
func emitPolicyType(f *jen.File, v *clientView) {
	doc := []string{
		"Policy is the resilience policy of a Client: the dependency-wide part and",
		"one entry per operation. [DefaultPolicy] returns the one resolved at",
		"generation time; [WithPolicy] changes it without regenerating. Zero",
		"fields take the runtime package's defaults.",
	}
	fields := []jen.Code{
		jen.Comment("Dependency is shared by all operations: circuit breaker, bulkhead and").Line().
			Comment("retry budget.").Line().
			Id("Dependency").Add(rt("Policy")),
	}
	for _, op := range v.ops {
		fields = append(fields, jen.Comment(op.name+" is the policy of [Client."+op.name+"].").Line().Id(op.name).Add(rt("OperationPolicy")))
	}
	f.Add(comments(doc).Type().Id("Policy").Struct(fields...))
}

// emitDefaultPolicy writes the policy table:
//
//	// DefaultPolicy returns the policy resolved at generation time ...
//	func DefaultPolicy() Policy {
//		return Policy{
//			// Dependency: breaker at 50% of 20 calls (default), ...
//			Dependency: resilient.Policy{...},
//			// GetPet: read-only, 3 attempts (default), timeout 2.1s (guess), ...
//			GetPet: resilient.OperationPolicy{
//				Name:           "GetPet",
//				Idempotency:    resilient.ReadOnly,
//				Timeout:        2100 * time.Millisecond,
//				...
//			},
//		}
//	}
func emitDefaultPolicy(f *jen.File, v *clientView) {
	doc := []string{
		"DefaultPolicy returns the policy resolved at generation time from the",
		"spec's x-resilience values, the policy file and the built-in defaults.",
		"Each entry's comment notes the values nobody wrote: \"(default)\" for a",
		"built-in default, \"(guess)\" for one that measured latency should",
		"replace, \"(derived)\" for one computed from other values.",
	}
	entries := []jen.Code{
		jen.Comment(v.dep.summary).Line().Id("Dependency").Op(":").Add(depPolicyLit(v.dep.policy)),
	}
	for _, op := range v.ops {
		entries = append(entries, comments(docLinesNoWrap(op.name+": "+op.policy.summary)).Id(op.name).Op(":").Add(opPolicyLit(op.policy)))
	}
	f.Add(comments(doc).Func().Id("DefaultPolicy").Params().Id("Policy").Block(
		jen.Return(jen.Id("Policy").Add(lines("{", "}", entries...))),
	))
}

// docLinesNoWrap sanitizes one comment line without wrapping it.
func docLinesNoWrap(s string) []string { return []string{sanitizeLine(s)} }

// kv is one "Key: value" element of a keyed composite literal.
func kv(key string, value jen.Code) jen.Code { return jen.Id(key).Op(":").Add(value) }

func depPolicyLit(p runtime.Policy) *jen.Statement {
	maxWait := durationLit(p.Bulkhead.MaxWait)
	if p.Bulkhead.MaxWait == runtime.NoWait {
		maxWait = rt("NoWait")
	}
	breaker := []jen.Code{
		kv("FailureRate", jen.Lit(p.Breaker.FailureRate)),
		kv("MinimumCalls", jen.Lit(int(p.Breaker.MinimumCalls))),
		kv("Window", durationLit(p.Breaker.Window)),
		kv("OpenFor", durationLit(p.Breaker.OpenFor)),
		kv("HalfOpenProbes", jen.Lit(int(p.Breaker.HalfOpenProbes))),
	}
	if p.Breaker.Disabled {
		breaker = append(breaker, kv("Disabled", jen.True()))
	}
	budget := []jen.Code{
		kv("Ratio", jen.Lit(p.Budget.Ratio)),
		kv("MinPerSecond", jen.Lit(p.Budget.MinPerSecond)),
		kv("MaxBalance", jen.Lit(p.Budget.MaxBalance)),
	}
	if p.Budget.Disabled {
		budget = append(budget, kv("Disabled", jen.True()))
	}
	fields := []jen.Code{
		kv("Breaker", rt("BreakerPolicy").Add(lines("{", "}", breaker...))),
		kv("Bulkhead", rt("BulkheadPolicy").Add(lines("{", "}",
			kv("MaxConcurrent", jen.Lit(p.Bulkhead.MaxConcurrent)),
			kv("MaxWait", maxWait),
		))),
		kv("Budget", rt("BudgetPolicy").Add(lines("{", "}", budget...))),
	}
	if p.Fleet != (runtime.FleetPolicy{}) {
		// Fleet: resilient.FleetPolicy{Store: "cache", Prefix: "resilient:"},
		fields = append(fields, kv("Fleet", rt("FleetPolicy").Add(lines("{", "}",
			kv("Store", jen.Lit(p.Fleet.Store)),
			kv("Prefix", jen.Lit(p.Fleet.Prefix)),
		))))
	}
	return rt("Policy").Add(lines("{", "}", fields...))
}

func opPolicyLit(v opPolicyView) *jen.Statement {
	p := v.policy
	idem := map[runtime.Idempotency]string{runtime.NotIdempotent: "NotIdempotent", runtime.Idempotent: "Idempotent", runtime.ReadOnly: "ReadOnly"}[p.Idempotency]
	maxRetries := jen.Lit(p.Retry.MaxRetries)
	if p.Retry.MaxRetries == runtime.NoRetries {
		maxRetries = rt("NoRetries")
	}
	retry := []jen.Code{
		kv("MaxRetries", maxRetries),
		kv("Base", durationLit(p.Retry.Base)),
		kv("Cap", durationLit(p.Retry.Cap)),
		kv("MinAttempt", durationLit(p.Retry.MinAttempt)),
	}
	if p.Retry.DisableJitter {
		retry = append(retry, kv("DisableJitter", jen.True()))
	}
	kind := map[runtime.FallbackKind]string{runtime.FallbackNone: "FallbackNone", runtime.FallbackCached: "FallbackCached", runtime.FallbackStatic: "FallbackStatic"}[p.Fallback.Kind]
	fields := []jen.Code{
		kv("Name", jen.Lit(p.Name)),
		kv("Idempotency", rt(idem)),
	}
	if p.IdempotencyKey != "" {
		fields = append(fields, kv("IdempotencyKey", jen.Lit(p.IdempotencyKey)))
	}
	return rt("OperationPolicy").Add(lines("{", "}", append(fields,
		kv("Timeout", durationLit(p.Timeout)),
		kv("AttemptTimeout", durationLit(p.AttemptTimeout)),
		kv("ConnectTimeout", durationLit(p.ConnectTimeout)),
		kv("Retry", rt("RetryPolicy").Add(lines("{", "}", retry...))),
		kv("Hedge", rt("HedgePolicy").Values(
			kv("Delay", durationLit(p.Hedge.Delay)),
			kv("MaxHedges", jen.Lit(p.Hedge.MaxHedges)),
		)),
		kv("Fallback", fallbackLit(kind, p.Fallback.TTL, p.Fallback.Shared, v.static)),
	)...))
}

// fallbackLit writes a FallbackPolicy, with Shared only when true; a
// static value goes in as JSON text.
func fallbackLit(kind string, ttl time.Duration, shared bool, static string) *jen.Statement {
	if static == "" {
		fields := []jen.Code{kv("Kind", rt(kind)), kv("TTL", durationLit(ttl))}
		if shared {
			fields = append(fields, kv("Shared", jen.True()))
		}
		return rt("FallbackPolicy").Values(fields...)
	}
	text := jen.Lit(static)
	if rawStringOK(static) {
		text = jen.Id("`" + static + "`")
	}
	return rt("FallbackPolicy").Values(kv("Kind", rt(kind)), kv("Static", jen.Qual("encoding/json", "RawMessage").Call(text)))
}

// durationLit writes d the way people do: 0, time.Second,
// 800 * time.Millisecond, 90 * time.Minute; never a count of nanoseconds
// unless d is one.
func durationLit(d time.Duration) *jen.Statement {
	if d == 0 {
		return jen.Lit(0)
	}
	units := []struct {
		d    time.Duration
		name string
	}{
		{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"},
		{time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}, {time.Nanosecond, "Nanosecond"},
	}
	for _, u := range units {
		if d%u.d != 0 {
			continue
		}
		if n := d / u.d; n != 1 {
			return jen.Lit(int(n)).Op("*").Qual("time", u.name)
		}
		return jen.Qual("time", u.name)
	}
	return jen.Lit(int(d))
}

// shortDuration prints d as time.Duration does, without zero tails
// ("5m", not "5m0s").
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

// trimFloat prints a percentage or ratio without trailing zeros.
func trimFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// rawStringOK reports whether s reads well as a raw string literal: no
// backquote, and only printable characters (no NUL, no byte order mark,
// which Go source may not hold, no invisible or direction-changing
// character); otherwise it is written as an escaped string literal.
func rawStringOK(s string) bool {
	if !strconv.CanBackquote(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}
