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
//		Dependency runtime.DependencyPolicy
//		// GetPet is the policy of [Client.GetPet].
//		GetPet runtime.OperationPolicy
//	}
//
//	// DefaultPolicy returns the policy resolved at generation time ...
//	func DefaultPolicy() Policy {
//		return Policy{
//			// Dependency: breaker at 50% of 20 calls (default), ...
//			Dependency: runtime.DependencyPolicy{},
//			// GetPet: read-only (GET), 3 attempts (default); timeout 6.3s, only without a caller deadline (guess); ...
//			GetPet: runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly, Timeout: 6300 * time.Millisecond, KeepCallerDeadline: true, ...},
//		}
//	}
//
// The literals hold only what the spec, the policy file or a derivation
// set (see [policyspec.Operation.Minimal]); every field left out is zero,
// which the runtime reads as its default.
func EmitPolicyTable(f *jen.File, t PolicyTable) {
	fields := []jen.Code{
		comments([]string{"Dependency is shared by all operations: circuit breaker, bulkhead and", "retry budget."}).
			Id("Dependency").Add(rt("DependencyPolicy")),
	}
	entries := []jen.Code{
		comments([]string{"Dependency: " + t.Dependency.Summary().Annotated() + "."}).
			Id("Dependency").Op(":").Add(DependencyPolicyLiteral(t.Dependency.Minimal())),
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
				Id(e.Name).Op(":").Add(OperationPolicyLiteral(e.Policy.Minimal(), e.Static)))
		}
	}
	f.Add(comments(t.TypeDoc).Type().Id(t.Type).Struct(fields...))
	doc := append(append([]string(nil), t.FuncDoc...),
		"",
		"The literal writes only the values the spec, the policy file or a",
		"derivation set, and the guessed timeouts; a field it leaves out is zero,",
		"which the runtime package reads as its default. Each entry's comment",
		"notes the values nobody wrote: \"(default)\" for a built-in default,",
		"\"(guess)\" for one that measured latency should replace, and for a",
		"derived value how it was computed.",
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
				Id("p").Dot(e.Name).Op("=").Add(OperationPolicyLiteral(e.Policy.Minimal(), e.Static)))
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

// fieldList gathers the fields of a policy literal that are not zero, in
// the order of the struct's declaration.
type fieldList struct {
	items []jen.Code
	// nested: a field is itself a literal.
	nested bool
}

func (l *fieldList) add(key string, v jen.Code) { l.items = append(l.items, kv(key, v)) }

func (l *fieldList) duration(key string, d time.Duration) {
	if d != 0 {
		l.add(key, DurationLiteral(d))
	}
}

func (l *fieldList) flag(key string, on bool) {
	if on {
		l.add(key, jen.True())
	}
}

func (l *fieldList) sub(key string, lit *jen.Statement) {
	if lit != nil {
		l.add(key, lit)
		l.nested = true
	}
}

// literal writes the fields as a literal of the runtime's type typ: on one
// line when none of them is a literal, else one field per line. It
// returns nil when there is no field and empty is false.
func (l *fieldList) literal(typ string, empty bool) *jen.Statement {
	switch {
	case len(l.items) == 0 && !empty:
		return nil
	case l.nested:
		return rt(typ).Add(lines("{", "}", l.items...))
	}
	return rt(typ).Values(l.items...)
}

// num is a number of a policy literal, left out when zero.
func num[T int | float64](l *fieldList, key string, v T) {
	if v != 0 {
		l.add(key, jen.Lit(v))
	}
}

// DependencyPolicyLiteral writes p as a runtime.DependencyPolicy literal
// with only its fields that are not zero: the runtime reads a zero field as its
// default. Each part (Breaker, Bulkhead, …) is written on one line, and
// left out when zero; a policy of defaults is "runtime.DependencyPolicy{}".
func DependencyPolicyLiteral(p runtime.DependencyPolicy) *jen.Statement {
	var breaker, bulkhead, budget, throttle, fleet, all fieldList
	num(&breaker, "FailureRate", p.Breaker.FailureRate)
	num(&breaker, "MinimumCalls", int(p.Breaker.MinimumCalls))
	breaker.duration("Window", p.Breaker.Window)
	breaker.duration("OpenFor", p.Breaker.OpenFor)
	num(&breaker, "HalfOpenProbes", int(p.Breaker.HalfOpenProbes))
	breaker.flag("Disabled", p.Breaker.Disabled)
	num(&bulkhead, "MaxConcurrent", p.Bulkhead.MaxConcurrent)
	bulkhead.duration("MaxWait", p.Bulkhead.MaxWait)
	bulkhead.flag("DisableWait", p.Bulkhead.DisableWait)
	num(&budget, "Ratio", p.Budget.Ratio)
	num(&budget, "MinPerSecond", p.Budget.MinPerSecond)
	num(&budget, "MaxBalance", p.Budget.MaxBalance)
	budget.flag("DisableFloor", p.Budget.DisableFloor)
	budget.flag("Disabled", p.Budget.Disabled)
	num(&throttle, "Ratio", p.Throttle.Ratio)
	throttle.duration("Window", p.Throttle.Window)
	num(&throttle, "MaxReject", p.Throttle.MaxReject)
	num(&throttle, "MinRequests", p.Throttle.MinRequests)
	throttle.flag("Disabled", p.Throttle.Disabled)
	if p.Fleet.Store != "" {
		fleet.add("Store", jen.Lit(p.Fleet.Store))
	}
	if p.Fleet.Prefix != "" {
		fleet.add("Prefix", jen.Lit(p.Fleet.Prefix))
	}
	fleet.duration("SyncInterval", p.Fleet.SyncInterval)
	fleet.duration("StaleAfter", p.Fleet.StaleAfter)
	all.sub("Breaker", breaker.literal("BreakerPolicy", false))
	all.sub("Bulkhead", bulkhead.literal("BulkheadPolicy", false))
	all.sub("Budget", budget.literal("BudgetPolicy", false))
	all.sub("Throttle", throttle.literal("ThrottlePolicy", false))
	all.sub("Fleet", fleet.literal("FleetPolicy", false))
	return all.literal("DependencyPolicy", true)
}

// OperationPolicyLiteral writes p as a runtime.OperationPolicy literal
// with its Name and its fields that are not zero: the runtime reads a zero
// field as its default. It is one line when only plain fields are set,
// such as
//
//	runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly}
//
// else one field per line, each part (Retry, Hedge, Fallback) on one.
// static is the JSON text of a static fallback value, written as a
// json.RawMessage; empty for none.
func OperationPolicyLiteral(p runtime.OperationPolicy, static string) *jen.Statement {
	var retry, hedge, all fieldList
	num(&retry, "MaxRetries", p.Retry.MaxRetries)
	retry.duration("Base", p.Retry.Base)
	retry.duration("Cap", p.Retry.Cap)
	retry.duration("MinAttempt", p.Retry.MinAttempt)
	retry.flag("DisableJitter", p.Retry.DisableJitter)
	retry.flag("Disabled", p.Retry.Disabled)
	hedge.duration("Delay", p.Hedge.Delay)
	num(&hedge, "MaxHedges", p.Hedge.MaxHedges)

	all.add("Name", jen.Lit(p.Name))
	if p.Idempotency != runtime.NotIdempotent {
		idem := map[runtime.Idempotency]string{runtime.Idempotent: "Idempotent", runtime.ReadOnly: "ReadOnly"}[p.Idempotency]
		all.add("Idempotency", rt(idem))
	}
	if p.IdempotencyKey != "" {
		all.add("IdempotencyKey", jen.Lit(p.IdempotencyKey))
	}
	all.duration("Timeout", p.Timeout)
	all.flag("KeepCallerDeadline", p.KeepCallerDeadline)
	all.duration("AttemptTimeout", p.AttemptTimeout)
	all.duration("ConnectTimeout", p.ConnectTimeout)
	all.sub("Retry", retry.literal("RetryPolicy", false))
	all.sub("Hedge", hedge.literal("HedgePolicy", false))
	all.sub("Fallback", fallbackLiteral(p.Fallback, static))
	return all.literal("OperationPolicy", true)
}

// fallbackLiteral writes a FallbackPolicy's fields that are not zero, a
// static value as JSON text; nil for none.
func fallbackLiteral(f runtime.FallbackPolicy, static string) *jen.Statement {
	var l fieldList
	if f.Kind != runtime.FallbackNone {
		kind := map[runtime.FallbackKind]string{runtime.FallbackCached: "FallbackCached", runtime.FallbackStatic: "FallbackStatic"}[f.Kind]
		l.add("Kind", rt(kind))
	}
	l.duration("TTL", f.TTL)
	if static != "" {
		text := jen.Lit(static)
		if rawStringOK(static) {
			text = jen.Id("`" + static + "`")
		}
		l.add("Static", jen.Qual("encoding/json", "RawMessage").Call(text))
	}
	l.flag("Shared", f.Shared)
	return l.literal("FallbackPolicy", false)
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
			"generation time; [WithPolicy] changes it without regenerating. A zero",
			"field takes the runtime package's default; a Disabled flag turns off",
			"what is on by default.",
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
