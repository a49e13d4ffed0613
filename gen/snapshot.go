package gen

import (
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Snapshot is one version of an OpenAPI document as a spec-change diff
// compares it: the service with the resolved policy of every operation
// (the operations -include and -exclude keep), and the client generated
// from it as one file, whose exported declarations are its Go API.
type Snapshot struct {
	// Service is the IR with its resolved policy.
	Service *resolve.Service
	// Code is the generated client as one Go file of package Package.
	Code []byte
	// Warnings are the warnings of generation.
	Warnings []diag.Diagnostic
	// PolicyErrors are the errors of a policy that contradicts itself or
	// the operation (retries on a write, a timeout below the p99...):
	// generation refuses it, a diff reports it beside the policy it
	// resolves to.
	PolicyErrors []diag.Diagnostic
}

// ReviewableRule reports whether r is a policy rule after which the resolved policy is
// still what the policy says, and a diff can show it.
func ReviewableRule(r diag.Rule) bool {
	switch r {
	case diag.RuleRetryUnsafe, diag.RuleHedgeUnsafe, diag.RuleHedgeDelay, diag.RuleFallbackUnsafe,
		diag.RuleFallbackShared, diag.RuleTimeoutOrder, diag.RuleTimeoutBelowP99:
		return true
	}
	return false
}

// SnapshotOf loads, checks and generates the document spec through the
// front end fe as [Generate] does, with opts.Split ignored (one file), and
// returns what a diff of two versions needs. Errors are joined as with
// [Generate]; the Snapshot is then nil.
func SnapshotOf(fe FrontEnd, spec string, opts OpenAPIOptions) (*Snapshot, error) {
	opts.Split = SplitOff
	s, err := prepareFront(fe, spec, opts, false)
	var policyErrs []diag.Diagnostic
	if err != nil {
		policyErrs = diag.From(err)
		for _, d := range policyErrs {
			if !ReviewableRule(d.Rule) {
				return nil, err
			}
		}
		// Resolve again, keeping the policy the errors are about.
		res, _, _ := resolve.HTTP(s.svc, s.dependency, s.policyFile(opts))
		if res == nil {
			return nil, err
		}
		var sel diag.List
		selectOperations(res, opts.Include, opts.Exclude, &sel)
		if sel.HasErrors() {
			return nil, sel.Err()
		}
		s.svc, s.resolved = res.IR, res
		s.diags = diag.List{}
	}
	code, emitErr := emit(s, opts)
	if err := s.validated(); err != nil {
		return nil, err
	}
	if emitErr != nil {
		return nil, emitErr
	}
	return &Snapshot{Service: s.resolved, Code: code, Warnings: s.diags.Warnings(), PolicyErrors: policyErrs}, nil
}
