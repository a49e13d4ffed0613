package gen

import (
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// selection tells the errors of what -include and -exclude leave out from
// those of what is generated: concerns, given by the front end (see
// [FrontEnd.Scope]), reports whether a diagnostic concerns the client.
// Errors of a document's operations left out, and of the components only
// they reach, do not; those of the document itself, of other files and of
// the policy file always do.
type selection struct {
	concerns func(diag.Diagnostic) bool
}

// newSelection asks the front end fe which diagnostics concern the client
// of svc (built in full, errors or not) when include and exclude select
// its operations: the filters are matched as [selectOperations] matches
// them, against each operation's operationId, path, tags and Go method
// name.
func newSelection(fe FrontEnd, svc *ir.Service, include, exclude []Filter) *selection {
	keep := func(o *ir.Operation) bool {
		keep := len(include) == 0
		for _, f := range include {
			keep = keep || f.matches(o)
		}
		for _, f := range exclude {
			keep = keep && !f.matches(o)
		}
		return keep
	}
	return &selection{concerns: fe.Scope(svc, keep)}
}

// filter returns the diagnostics of l that concern the selected client.
func (s *selection) filter(l diag.List) diag.List {
	if s == nil {
		return l
	}
	out := l[:0:0]
	for _, d := range l {
		if s.concerns(d) {
			out = append(out, d)
		}
	}
	return out
}
