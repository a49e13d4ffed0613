package openapi

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Scope returns whether a diagnostic concerns the client generated from
// svc, the service built in full (errors or not), when only the
// operations keep accepts are generated (see [selection]).
func (f *FrontEnd) Scope(svc *ir.Service, keep func(*ir.Operation) bool) func(diag.Diagnostic) bool {
	return newSelection(f.doc.T, svc, keep).concerns
}

// selection tells the errors of what a selection of operations leaves out from
// those of what is generated, by the JSON pointer each error is placed at
// in the entry file: an error inside an operation (its parameters, body,
// responses) concerns the client only when the operation is kept; one at
// a path item (its template, its shared parameters) when one of its
// operations is; one inside a component (a schema, a parameter, a body, a
// response, a header) when a kept operation reaches it through $refs.
// Every other error (the document's info, servers, security schemes, a
// file other than the entry file, a policy file) concerns the client
// whatever is selected.
type selection struct {
	entry string // the entry file, as diagnostics name it
	// ops holds the pointer of every operation ("#/paths/~1pets/get"),
	// true when kept; items, that of every path item with a kept one.
	ops   map[string]bool
	items map[string]bool
	// components holds the components kept operations reach
	// ("#/components/schemas/Pet").
	components map[string]bool
}

// selectedComponentKinds are the kinds of components whose errors are
// reported only when a kept operation reaches them.
var selectedComponentKinds = map[string]bool{
	"schemas": true, "parameters": true, "requestBodies": true, "responses": true, "headers": true,
}

// newSelection finds what keep keeps of the document t, whose service
// (built in full, errors or not) is svc: keep is asked of each operation
// of t with its operationId, path, tags and Go method name.
func newSelection(t *openapi3.T, svc *ir.Service, keep func(*ir.Operation) bool) *selection {
	s := &selection{entry: svc.Location.File, ops: map[string]bool{}, items: map[string]bool{}, components: map[string]bool{}}
	if t.Paths == nil {
		return s
	}
	names := map[string]string{}
	for _, op := range svc.Operations {
		names[op.Method+" "+op.Path] = op.Name
	}
	w := &refWalk{reached: s.components, seen: map[*openapi3.Schema]bool{}}
	for path, item := range t.Paths.Map() {
		if item == nil {
			continue
		}
		itemPtr := "#/paths/" + escapeToken(path)
		for method, op := range item.Operations() {
			if op == nil {
				continue
			}
			upper := strings.ToUpper(method)
			o := &ir.Operation{ID: op.OperationID, Path: path, Tags: op.Tags, Name: names[upper+" "+path]}
			kept := keep(o)
			s.ops[itemPtr+"/"+escapeToken(strings.ToLower(method))] = kept
			if !kept {
				continue
			}
			s.items[itemPtr] = true
			w.params(item.Parameters)
			w.params(op.Parameters)
			if op.RequestBody != nil {
				w.ref(op.RequestBody.Ref)
				if op.RequestBody.Value != nil {
					w.content(op.RequestBody.Value.Content)
				}
			}
			if op.Responses != nil {
				for _, r := range op.Responses.Map() {
					w.response(r)
				}
			}
		}
	}
	return s
}

// concerns reports whether the diagnostic d concerns the selected client:
// every diagnostic but the errors and warnings inside what is left out (an
// operation not generated, a component no generated operation reaches).
// Those of the document itself, of other files and of the policy file
// always do.
func (s *selection) concerns(d diag.Diagnostic) bool {
	if d.Location.File != s.entry {
		return true
	}
	p := d.Location.Path
	if rest, ok := strings.CutPrefix(p, "#/paths/"); ok {
		key, rest, _ := strings.Cut(rest, "/")
		item := "#/paths/" + key
		method, _, _ := strings.Cut(rest, "/")
		if kept, isOp := s.ops[item+"/"+method]; isOp {
			return kept
		}
		return s.items[item]
	}
	if rest, ok := strings.CutPrefix(p, "#/components/"); ok {
		kind, rest, _ := strings.Cut(rest, "/")
		name, _, _ := strings.Cut(rest, "/")
		if selectedComponentKinds[kind] && name != "" {
			return s.components["#/components/"+kind+"/"+name]
		}
	}
	return true
}

// refWalk collects the components an operation reaches through $refs,
// following the resolved values.
type refWalk struct {
	reached map[string]bool
	seen    map[*openapi3.Schema]bool
}

// ref records a local component reference ("#/components/schemas/Pet"),
// without anything after the component's name.
func (w *refWalk) ref(ref string) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return
	}
	kind, rest, _ := strings.Cut(rest, "/")
	name, _, _ := strings.Cut(rest, "/")
	w.reached["#/components/"+kind+"/"+name] = true
}

func (w *refWalk) params(ps openapi3.Parameters) {
	for _, p := range ps {
		if p == nil {
			continue
		}
		w.ref(p.Ref)
		if p.Value != nil {
			w.schema(p.Value.Schema)
			w.content(p.Value.Content)
		}
	}
}

func (w *refWalk) response(r *openapi3.ResponseRef) {
	if r == nil {
		return
	}
	w.ref(r.Ref)
	if r.Value == nil {
		return
	}
	w.content(r.Value.Content)
	for _, h := range r.Value.Headers {
		if h == nil {
			continue
		}
		w.ref(h.Ref)
		if h.Value != nil {
			w.schema(h.Value.Schema)
			w.content(h.Value.Content)
		}
	}
}

func (w *refWalk) content(c openapi3.Content) {
	for _, mt := range c {
		if mt != nil {
			w.schema(mt.Schema)
		}
	}
}

// schema walks a schema and every schema inside it, each once.
func (w *refWalk) schema(r *openapi3.SchemaRef) {
	pending := []*openapi3.SchemaRef{r}
	for len(pending) > 0 {
		r := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if r == nil {
			continue
		}
		w.ref(r.Ref)
		s := r.Value
		if s == nil || w.seen[s] {
			continue
		}
		w.seen[s] = true
		pending = append(pending, s.Items, s.Not)
		pending = append(pending, s.AllOf...)
		pending = append(pending, s.AnyOf...)
		pending = append(pending, s.OneOf...)
		for _, p := range s.Properties {
			pending = append(pending, p)
		}
		if s.AdditionalProperties.Schema != nil {
			pending = append(pending, s.AdditionalProperties.Schema)
		}
		if s.Discriminator != nil {
			for _, m := range s.Discriminator.Mapping {
				pending = append(pending, (*openapi3.SchemaRef)(&m))
			}
		}
	}
}
