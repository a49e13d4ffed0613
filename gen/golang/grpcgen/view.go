package grpcgen

import (
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// serviceView is everything the emitters of one service write, decided.
type serviceView struct {
	goName   string // Greeter
	names    serviceNames
	fullName string // helloworld.Greeter
	source   string
	doc      string
	dep      runtime.Policy
	depNote  string
	methods  []*methodView
}

// methodView is one method of the client.
type methodView struct {
	goName     string // SayHello
	protoName  string // the rpc name as written
	field      string // sayHello: the client's *resilient.Operation
	fullMethod string
	kind       ir.StreamKind
	in, out    ir.GoIdent
	doc        string
	deprecated bool
	policy     runtime.OperationPolicy
	// policyNote is the comment above the method's policy literal, with
	// provenance; docLine is the last line of the method's doc.
	policyNote, docLine string
}

func newServiceView(rs *resolve.Service) *serviceView {
	svc := rs.IR
	v := &serviceView{goName: svc.Name, names: namesOf(svc.Name), fullName: svc.FullName, source: svc.Source, doc: svc.Doc}
	v.dep, v.depNote = depView(rs.Dependency)
	for _, op := range rs.Operations {
		res := op.Policy
		m := &methodView{
			goName:     op.Name,
			protoName:  op.RPC.Name,
			field:      opField(op.Name),
			fullMethod: op.RPC.FullMethod,
			kind:       op.RPC.Kind,
			in:         op.RPC.Input,
			out:        op.RPC.Output,
			doc:        op.RPC.Leading,
			deprecated: op.RPC.Deprecated,
			policy:     res.Policy,
		}
		// The runtime sends the key, in lower case as metadata keys are.
		m.policy.IdempotencyKey = strings.ToLower(res.Policy.IdempotencyKey)
		m.policyNote, m.docLine = opNotes(res)
		v.methods = append(v.methods, m)
	}
	return v
}

// opField names the client's field holding a method's operation; the
// prefix keeps it clear of Go keywords and of the other fields.
func opField(goName string) string { return "op" + goName }

func depView(d *policyspec.Dependency) (runtime.Policy, string) {
	p := d.Policy
	s := "Dependency: breaker at " + num(p.Breaker.FailureRate) + "% of " + strconv.Itoa(int(p.Breaker.MinimumCalls)) +
		" calls" + origin(d.Sources, "breaker.failureRate") + ", open " + shortDuration(p.Breaker.OpenFor) + origin(d.Sources, "breaker.openFor") +
		"; bulkhead " + strconv.Itoa(p.Bulkhead.MaxConcurrent) + origin(d.Sources, "bulkhead.maxConcurrent") +
		"; retry budget " + num(p.Budget.Ratio*100) + "%" + origin(d.Sources, "retry.budget") + "."
	return p, s
}

// opNotes returns the annotated summary of an operation's policy and the
// plain policy line of its doc comment.
func opNotes(res *policyspec.Operation) (string, string) {
	p := res.Policy
	attempts := 1
	switch {
	case p.Idempotency == runtime.NotIdempotent || p.Retry.MaxRetries == runtime.NoRetries:
	case p.Retry.MaxRetries == 0:
		attempts += runtime.DefaultMaxRetries
	default:
		attempts += p.Retry.MaxRetries
	}
	timeout := p.Timeout
	if timeout == 0 {
		timeout = runtime.DefaultTimeout
	}
	plain := []string{p.Idempotency.String(), plural(attempts, "attempt"), "timeout " + shortDuration(timeout)}
	noted := []string{plain[0] + idemOrigin(res.Sources), plain[1] + origin(res.Sources, "retry.maxRetries"), plain[2] + origin(res.Sources, "timeout")}
	add := func(s, key string) {
		plain = append(plain, s)
		noted = append(noted, s+origin(res.Sources, key))
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
		add("key in "+strings.ToLower(res.IdempotencyKey), "idempotencyKey")
	}
	return strings.Join(noted, ", ") + ".", "Policy: " + strings.Join(plain, ", ") + "."
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// origin notes a value nobody wrote: " (default)", " (guess)",
// " (derived: basis)"; empty for a value that was set.
func origin(sources map[string]policyspec.Source, key string) string {
	s, ok := sources[key]
	if !ok || s.Origin == policyspec.OriginSet {
		return ""
	}
	if s.Origin == policyspec.OriginDerived && s.Basis != "" {
		return " (" + s.Basis + ")"
	}
	return " (" + s.Origin.String() + ")"
}

// shortDuration prints d without zero tails ("5m", not "5m0s").
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

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// idemOrigin notes where the idempotency came from when no policy set it.
func idemOrigin(sources map[string]policyspec.Source) string {
	if s, ok := sources["idempotent"]; ok && s.Origin == policyspec.OriginDefault {
		return " (idempotency_level)"
	}
	return origin(sources, "idempotent")
}
