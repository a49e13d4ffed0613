package gen

import (
	"fmt"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Filter selects operations of a document ([OpenAPIOptions.Include] and
// Exclude). It is written KIND:VALUE:
//
//	tag:repos        operations with the tag "repos"
//	path:/repos/     operations whose path template starts with "/repos/"
//	op:repos/get     the operation whose operationId is "repos/get" (or
//	                 whose Go method name is that, for one without)
//
// A value without a kind that starts with "/" is a path prefix.
type Filter struct {
	// Kind is "tag", "path" or "op".
	Kind string
	// Value is the tag, the path prefix or the operationId.
	Value string
}

// String returns the filter as written.
func (f Filter) String() string { return f.Kind + ":" + f.Value }

// ParseFilters parses a comma-separated list of filters.
func ParseFilters(s string) ([]Filter, error) {
	var out []Filter
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		kind, value, ok := strings.Cut(item, ":")
		if !ok && strings.HasPrefix(item, "/") {
			kind, value, ok = "path", item, true
		}
		switch {
		case !ok:
			return nil, fmt.Errorf("filter %q has no kind: write tag:NAME, path:/PREFIX or op:OPERATION_ID", item)
		case kind != "tag" && kind != "path" && kind != "op":
			return nil, fmt.Errorf("filter %q: unknown kind %q; write tag:NAME, path:/PREFIX or op:OPERATION_ID", item, kind)
		case value == "":
			return nil, fmt.Errorf("filter %q has no value", item)
		}
		out = append(out, Filter{Kind: kind, Value: value})
	}
	return out, nil
}

// matches reports whether the filter selects op.
func (f Filter) matches(op *ir.Operation) bool {
	switch f.Kind {
	case "tag":
		for _, t := range op.Tags {
			if t == f.Value {
				return true
			}
		}
	case "path":
		return strings.HasPrefix(op.Path, f.Value)
	case "op":
		return op.ID == f.Value || op.ID == "" && op.Name == f.Value
	}
	return false
}

// selectOperations keeps the operations of res that include selects (all
// when it is empty) and exclude does not, and the named types they reach;
// svc is res.IR, replaced by the smaller service. A filter that selects
// nothing is a warning (W-SELECT-UNUSED); a selection that leaves no
// operation is an error (E-SELECT-EMPTY).
func selectOperations(res *resolve.Service, include, exclude []Filter, list *diag.List) {
	if len(include) == 0 && len(exclude) == 0 {
		return
	}
	used := map[Filter]bool{}
	var kept []*resolve.Operation
	for _, op := range res.Operations {
		in := len(include) == 0
		for _, f := range include {
			if f.matches(op.Operation) {
				used[f], in = true, true
			}
		}
		for _, f := range exclude {
			if f.matches(op.Operation) {
				used[f], in = true, false
			}
		}
		if in {
			kept = append(kept, op)
		}
	}
	svc := res.IR
	for _, f := range append(append([]Filter(nil), include...), exclude...) {
		if !used[f] {
			list.Warnf(svc.Location, diag.RuleSelectUnused, fmt.Sprintf("filter %s selects no operation", f),
				"check the tag, path prefix or operationId against the document")
		}
	}
	if len(kept) == 0 {
		list.Errorf(svc.Location, diag.RuleSelectEmpty, "the -include and -exclude filters leave no operation to generate",
			"select at least one operation: a tag, path prefix or operationId of the document")
	}
	ops := make([]*ir.Operation, len(kept))
	for i, op := range kept {
		ops[i] = op.Operation
	}
	small := *svc
	small.Operations = ops
	small.Types = reachableTypes(svc.Types, ops)
	res.IR = &small
	res.Operations = kept
}

// reachableTypes returns the types of all (sorted by name) that the
// operations' parameters, bodies and responses name, directly or through
// other types, in the same order.
func reachableTypes(all []*ir.Type, ops []*ir.Operation) []*ir.Type {
	r := &typeReach{byName: make(map[string]*ir.Type, len(all)), reached: map[string]bool{}}
	for _, t := range all {
		r.byName[t.Name] = t
	}
	for _, op := range ops {
		r.operation(op)
	}
	// Each type is walked once, however many others name it.
	for len(r.pending) > 0 {
		t := r.pending[len(r.pending)-1]
		r.pending = r.pending[:len(r.pending)-1]
		r.typ(t)
	}
	var out []*ir.Type
	for _, t := range all {
		if r.reached[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// typeReach is the state of [reachableTypes]: the types by name, those
// reached, and those reached whose own references are still to follow.
type typeReach struct {
	byName  map[string]*ir.Type
	reached map[string]bool
	pending []*ir.Type
}

// ref marks the named types of r and its element types as reached.
func (w *typeReach) ref(r *ir.TypeRef) {
	for ; r != nil; r = r.Elem {
		if r.Kind != ir.KindNamed || w.reached[r.Name] {
			continue
		}
		w.reached[r.Name] = true
		if t := w.byName[r.Name]; t != nil {
			w.pending = append(w.pending, t)
		}
	}
}

func (w *typeReach) contents(cs []*ir.Content) {
	for _, c := range cs {
		w.ref(c.Type)
	}
}

// operation marks the types of op's parameters, body and responses.
func (w *typeReach) operation(op *ir.Operation) {
	for _, p := range op.Params {
		w.ref(p.Type)
	}
	if op.Body != nil {
		w.contents(op.Body.Contents)
	}
	for _, r := range op.Responses {
		w.contents(r.Contents)
		for _, h := range r.Headers {
			w.ref(h.Type)
		}
	}
}

// typ marks the types of t's fields, union variants and alias name.
func (w *typeReach) typ(t *ir.Type) {
	for _, f := range t.Fields {
		w.ref(f.Type)
	}
	if t.Union != nil {
		for _, v := range t.Union.Variants {
			w.ref(v.Type)
		}
	}
	w.ref(t.Alias)
}
