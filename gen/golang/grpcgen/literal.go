package grpcgen

import (
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/runtime"
)

// kv writes "key: value".
func kv(key string, value jen.Code) *jen.Statement { return jen.Id(key).Op(":").Add(value) }

// depPolicyLit writes a resilient.Policy literal with every field
// explicit.
func depPolicyLit(p runtime.Policy) *jen.Statement {
	maxWait := durationLit(p.Bulkhead.MaxWait)
	if p.Bulkhead.MaxWait == runtime.NoWait {
		maxWait = rt("NoWait")
	}
	return rt("Policy").Add(lines(
		kv("Breaker", rt("BreakerPolicy").Add(lines(
			kv("FailureRate", jen.Lit(p.Breaker.FailureRate)),
			kv("MinimumCalls", jen.Lit(int(p.Breaker.MinimumCalls))),
			kv("Window", durationLit(p.Breaker.Window)),
			kv("OpenFor", durationLit(p.Breaker.OpenFor)),
			kv("HalfOpenProbes", jen.Lit(int(p.Breaker.HalfOpenProbes))),
		))),
		kv("Bulkhead", rt("BulkheadPolicy").Add(lines(
			kv("MaxConcurrent", jen.Lit(p.Bulkhead.MaxConcurrent)),
			kv("MaxWait", maxWait),
		))),
		kv("Budget", rt("BudgetPolicy").Add(lines(
			kv("Ratio", jen.Lit(p.Budget.Ratio)),
			kv("MinPerSecond", jen.Lit(p.Budget.MinPerSecond)),
			kv("MaxBalance", jen.Lit(p.Budget.MaxBalance)),
		))),
		fleetLit(p.Fleet),
	))
}

// fleetLit writes "Fleet: resilient.FleetPolicy{Store: ..., Prefix: ...}"
// when the fleet is declared, else nothing.
func fleetLit(f runtime.FleetPolicy) jen.Code {
	if f == (runtime.FleetPolicy{}) {
		return jen.Null()
	}
	return kv("Fleet", rt("FleetPolicy").Add(lines(
		kv("Store", jen.Lit(f.Store)),
		kv("Prefix", jen.Lit(f.Prefix)),
	)))
}

// opPolicyLit writes a resilient.OperationPolicy literal with every field
// explicit.
func opPolicyLit(p runtime.OperationPolicy) *jen.Statement {
	idem := map[runtime.Idempotency]string{runtime.NotIdempotent: "NotIdempotent", runtime.Idempotent: "Idempotent", runtime.ReadOnly: "ReadOnly"}[p.Idempotency]
	maxRetries := jen.Lit(p.Retry.MaxRetries)
	if p.Retry.MaxRetries == runtime.NoRetries {
		maxRetries = rt("NoRetries")
	}
	kind := map[runtime.FallbackKind]string{runtime.FallbackNone: "FallbackNone", runtime.FallbackCached: "FallbackCached", runtime.FallbackStatic: "FallbackStatic"}[p.Fallback.Kind]
	fallback := []jen.Code{kv("Kind", rt(kind)), kv("TTL", durationLit(p.Fallback.TTL))}
	if p.Fallback.Shared {
		fallback = append(fallback, kv("Shared", jen.True()))
	}
	fields := []jen.Code{
		kv("Name", jen.Lit(p.Name)),
		kv("Idempotency", rt(idem)),
	}
	if p.IdempotencyKey != "" {
		fields = append(fields, kv("IdempotencyKey", jen.Lit(p.IdempotencyKey)))
	}
	return rt("OperationPolicy").Add(lines(append(fields,
		kv("Timeout", durationLit(p.Timeout)),
		kv("AttemptTimeout", durationLit(p.AttemptTimeout)),
		kv("ConnectTimeout", durationLit(p.ConnectTimeout)),
		kv("Retry", rt("RetryPolicy").Add(lines(
			kv("MaxRetries", maxRetries),
			kv("Base", durationLit(p.Retry.Base)),
			kv("Cap", durationLit(p.Retry.Cap)),
			kv("MinAttempt", durationLit(p.Retry.MinAttempt)),
		))),
		kv("Hedge", rt("HedgePolicy").Values(
			kv("Delay", durationLit(p.Hedge.Delay)),
			kv("MaxHedges", jen.Lit(p.Hedge.MaxHedges)),
		)),
		kv("Fallback", rt("FallbackPolicy").Values(fallback...)),
	)...))
}

// durationLit writes d the way people do: 0, time.Second,
// 800 * time.Millisecond; never a count of nanoseconds unless d is one.
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
