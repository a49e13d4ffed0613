package golang

import (
	"strconv"
	"time"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// PolicyTable is the policy table of a generated client, HTTP or gRPC: a
// struct type with the dependency-wide policy and one
// runtime.OperationPolicy per operation, and a function that returns the
// one resolved at generation time as a literal a reviewer can read in a
// diff. Both back ends write it with [EmitPolicyTable], so that their
// literals and summaries are the same.
type PolicyTable struct {
	// Type and Func name the struct and the function ("Policy" and
	// "DefaultPolicy"; "GreeterPolicy" and "DefaultGreeterPolicy").
	Type, Func string
	// TypeDoc and FuncDoc are their doc comments; the function's gets a
	// paragraph on the entries' comments added.
	TypeDoc, FuncDoc []string
	// Dependency is the dependency-wide policy.
	Dependency *policyspec.Dependency
	// Entries are the operations' fields, in order.
	Entries []PolicyEntry
	// Parts, when set, are entries whose values are written to other
	// files of the package, each by a method Func calls (see
	// [PolicyPart]); their fields stay in the struct.
	Parts []PolicyPart
}

// PolicyPart is a file of a split client and the entries of its
// operations: Func's literal leaves them out and calls a method of the
// struct written to File, defaults<Suffix>, that sets them.
type PolicyPart struct {
	Suffix  string
	File    *jen.File
	Entries []PolicyEntry
}

// PolicyEntry is the field of one operation in a [PolicyTable].
type PolicyEntry struct {
	// Name is the field's name, the operation's Go name.
	Name string
	// Doc is the field's doc comment.
	Doc string
	// Policy is the operation's resolved policy.
	Policy *policyspec.Operation
	// Static is the JSON text of a static fallback value, written as a
	// json.RawMessage for the client to decode; empty for none.
	Static string
}

// EmitPolicyTable writes t:
//
//	// Policy is the resilience policy of a Client ...
//	type Policy struct {
//		// Dependency is shared by all operations ...
//		Dependency runtime.Policy
//		// GetPet is the policy of [Client.GetPet].
//		GetPet runtime.OperationPolicy
//	}
//
//	// DefaultPolicy returns the policy resolved at generation time ...
//	func DefaultPolicy() Policy {
//		return Policy{
//			// Dependency: breaker at 50% of 20 calls (default), ...
//			Dependency: runtime.Policy{...},
//			// GetPet: read-only (GET), 3 attempts (default), timeout 2.1s (guess), ...
//			GetPet: runtime.OperationPolicy{
//				Name:        "GetPet",
//				Idempotency: runtime.ReadOnly,
//				Timeout:     2100 * time.Millisecond,
//				...
//			},
//		}
//	}
func EmitPolicyTable(f *jen.File, t PolicyTable) {
	fields := []jen.Code{
		comments([]string{"Dependency is shared by all operations: circuit breaker, bulkhead and", "retry budget."}).
			Id("Dependency").Add(rt("Policy")),
	}
	entries := []jen.Code{
		comments([]string{"Dependency: " + t.Dependency.Summary().Annotated() + "."}).
			Id("Dependency").Op(":").Add(DependencyPolicyLiteral(t.Dependency.Policy)),
	}
	elsewhere := map[string]bool{}
	for _, part := range t.Parts {
		for _, e := range part.Entries {
			elsewhere[e.Name] = true
		}
	}
	for _, e := range t.Entries {
		fields = append(fields, comments([]string{e.Doc}).Id(e.Name).Add(rt("OperationPolicy")))
		if !elsewhere[e.Name] {
			entries = append(entries, comments([]string{entryComment(e)}).
				Id(e.Name).Op(":").Add(OperationPolicyLiteral(e.Policy.Policy, e.Static)))
		}
	}
	f.Add(comments(t.TypeDoc).Type().Id(t.Type).Struct(fields...))
	doc := append(append([]string(nil), t.FuncDoc...),
		"",
		"Each entry's comment notes the values nobody wrote: \"(default)\" for a",
		"built-in default, \"(guess)\" for one that measured latency should",
		"replace, and for a derived value how it was computed.",
	)
	literal := jen.Id(t.Type).Add(lines("{", "}", entries...))
	if len(t.Parts) == 0 {
		f.Add(comments(doc).Func().Id(t.Func).Params().Id(t.Type).Block(jen.Return(literal)))
		return
	}
	doc = append(doc, "", "The entries of the operations written to other files of the package are",
		"set by the defaults methods in those files.")
	body := []jen.Code{jen.Id("p").Op(":=").Add(literal)}
	for _, part := range t.Parts {
		body = append(body, jen.Id("p").Dot("defaults"+part.Suffix).Call())
		var set []jen.Code
		for _, e := range part.Entries {
			set = append(set, comments([]string{entryComment(e)}).
				Id("p").Dot(e.Name).Op("=").Add(OperationPolicyLiteral(e.Policy.Policy, e.Static)))
		}
		part.File.Add(comments([]string{
			"defaults" + part.Suffix + " sets, for [" + t.Func + "], the policy resolved at",
			"generation time of the operations in this file.",
		}).Func().Params(jen.Id("p").Op("*").Id(t.Type)).Id("defaults" + part.Suffix).Params().Block(set...))
	}
	body = append(body, jen.Return(jen.Id("p")))
	f.Add(comments(doc).Func().Id(t.Func).Params().Id(t.Type).Block(body...))
}

// entryComment is the comment above an operation's entry: its name and
// its policy's summary.
func entryComment(e PolicyEntry) string {
	return e.Name + ": " + e.Policy.Summary().Annotated() + "."
}

// kv is one "Key: value" element of a keyed composite literal.
func kv(key string, value jen.Code) jen.Code { return jen.Id(key).Op(":").Add(value) }

// DependencyPolicyLiteral writes p as a runtime.Policy literal, every
// field explicit but Disabled, which appears only when true, and Fleet,
// which appears only when the policy declares a fleet: its store and key
// prefix, and its sync interval and staleness bound when not zero (the
// policy vocabulary never sets them).
func DependencyPolicyLiteral(p runtime.Policy) *jen.Statement {
	maxWait := DurationLiteral(p.Bulkhead.MaxWait)
	if p.Bulkhead.MaxWait == runtime.NoWait {
		maxWait = rt("NoWait")
	}
	breaker := []jen.Code{
		kv("FailureRate", jen.Lit(p.Breaker.FailureRate)),
		kv("MinimumCalls", jen.Lit(int(p.Breaker.MinimumCalls))),
		kv("Window", DurationLiteral(p.Breaker.Window)),
		kv("OpenFor", DurationLiteral(p.Breaker.OpenFor)),
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
		// Fleet: runtime.FleetPolicy{Store: "sessions-redis", Prefix: "checkout:"},
		fleet := []jen.Code{kv("Store", jen.Lit(p.Fleet.Store)), kv("Prefix", jen.Lit(p.Fleet.Prefix))}
		if p.Fleet.SyncInterval != 0 {
			fleet = append(fleet, kv("SyncInterval", DurationLiteral(p.Fleet.SyncInterval)))
		}
		if p.Fleet.StaleAfter != 0 {
			fleet = append(fleet, kv("StaleAfter", DurationLiteral(p.Fleet.StaleAfter)))
		}
		fields = append(fields, kv("Fleet", rt("FleetPolicy").Add(lines("{", "}", fleet...))))
	}
	return rt("Policy").Add(lines("{", "}", fields...))
}

// OperationPolicyLiteral writes p as a runtime.OperationPolicy literal,
// every field explicit but IdempotencyKey, DisableJitter and
// Fallback.Shared, which appear only when set. static is the JSON text of
// a static fallback value, written as a json.RawMessage in place of the
// fallback's TTL; empty for none.
func OperationPolicyLiteral(p runtime.OperationPolicy, static string) *jen.Statement {
	idem := map[runtime.Idempotency]string{runtime.NotIdempotent: "NotIdempotent", runtime.Idempotent: "Idempotent", runtime.ReadOnly: "ReadOnly"}[p.Idempotency]
	maxRetries := jen.Lit(p.Retry.MaxRetries)
	if p.Retry.MaxRetries == runtime.NoRetries {
		maxRetries = rt("NoRetries")
	}
	retry := []jen.Code{
		kv("MaxRetries", maxRetries),
		kv("Base", DurationLiteral(p.Retry.Base)),
		kv("Cap", DurationLiteral(p.Retry.Cap)),
		kv("MinAttempt", DurationLiteral(p.Retry.MinAttempt)),
	}
	if p.Retry.DisableJitter {
		retry = append(retry, kv("DisableJitter", jen.True()))
	}
	fields := []jen.Code{
		kv("Name", jen.Lit(p.Name)),
		kv("Idempotency", rt(idem)),
	}
	if p.IdempotencyKey != "" {
		fields = append(fields, kv("IdempotencyKey", jen.Lit(p.IdempotencyKey)))
	}
	return rt("OperationPolicy").Add(lines("{", "}", append(fields,
		kv("Timeout", DurationLiteral(p.Timeout)),
		kv("AttemptTimeout", DurationLiteral(p.AttemptTimeout)),
		kv("ConnectTimeout", DurationLiteral(p.ConnectTimeout)),
		kv("Retry", rt("RetryPolicy").Add(lines("{", "}", retry...))),
		kv("Hedge", rt("HedgePolicy").Values(
			kv("Delay", DurationLiteral(p.Hedge.Delay)),
			kv("MaxHedges", jen.Lit(p.Hedge.MaxHedges)),
		)),
		kv("Fallback", fallbackLiteral(p.Fallback, static)),
	)...))
}

// fallbackLiteral writes a FallbackPolicy, with Shared only when true; a
// static value goes in as JSON text.
func fallbackLiteral(f runtime.FallbackPolicy, static string) *jen.Statement {
	kind := map[runtime.FallbackKind]string{runtime.FallbackNone: "FallbackNone", runtime.FallbackCached: "FallbackCached", runtime.FallbackStatic: "FallbackStatic"}[f.Kind]
	if static == "" {
		fields := []jen.Code{kv("Kind", rt(kind)), kv("TTL", DurationLiteral(f.TTL))}
		if f.Shared {
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

// DurationLiteral writes d the way people do: 0, time.Second,
// 800 * time.Millisecond, 90 * time.Minute; never a count of nanoseconds
// unless d is one.
func DurationLiteral(d time.Duration) *jen.Statement {
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

// emitPolicyTable writes the client's Policy and DefaultPolicy; the
// entries of the operations of parts go to their files.
func emitPolicyTable(f *jen.File, v *clientView, parts []*filePart) {
	t := PolicyTable{
		Type: "Policy",
		Func: "DefaultPolicy",
		TypeDoc: []string{
			"Policy is the resilience policy of a Client: the dependency-wide part and",
			"one entry per operation. [DefaultPolicy] returns the one resolved at",
			"generation time; [WithPolicy] changes it without regenerating. Zero",
			"fields take the runtime package's defaults.",
		},
		FuncDoc: []string{
			"DefaultPolicy returns the policy resolved at generation time from the",
			"spec's x-resilience values, the policy file and the built-in defaults.",
		},
		Dependency: v.dep,
	}
	entry := func(op *opView) PolicyEntry {
		return PolicyEntry{Name: op.name, Doc: op.name + " is the policy of [Client." + op.name + "].", Policy: op.policy, Static: op.static}
	}
	for _, op := range v.ops {
		t.Entries = append(t.Entries, entry(op))
	}
	for _, part := range parts {
		pp := PolicyPart{Suffix: part.suffix, File: part.f}
		for _, op := range part.ops {
			pp.Entries = append(pp.Entries, entry(op))
		}
		t.Parts = append(t.Parts, pp)
	}
	EmitPolicyTable(f, t)
}
