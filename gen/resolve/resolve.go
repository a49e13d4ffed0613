package resolve

import (
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// Service is an IR service with its resolved policy. Back ends emit a
// client from it; the review is rendered from it.
type Service struct {
	// IR is the service as the front end built it.
	IR *ir.Service
	// Dependency is the dependency-wide policy shared by all operations.
	Dependency *policyspec.Dependency
	// Operations are the service's operations, in the IR's order, each
	// with its policy.
	Operations []*Operation
}

// Operation is one operation of the IR with its resolved policy.
type Operation struct {
	*ir.Operation
	// Policy is the operation's resolved policy, never nil.
	Policy *policyspec.Operation
}

// Review returns the service as a review input for
// [policyspec.RenderReview].
func (s *Service) Review(protocol string) policyspec.ReviewDependency {
	ops := make([]*policyspec.Operation, len(s.Operations))
	for i, op := range s.Operations {
		ops[i] = op.Policy
	}
	return policyspec.ReviewDependency{Dependency: s.Dependency, Protocol: protocol, Operations: ops}
}

// opRule adjusts a resolved operation for its protocol, reporting what
// the protocol forbids.
type opRule func(op *ir.Operation, layers []policyspec.Layer, res *policyspec.Operation, list *diag.List)

// resolve resolves the policy of svc as the dependency called dependency,
// applying rule (when not nil) to every resolved operation. The Service
// is nil only when the dependency-wide policy cannot be resolved.
func resolve(svc *ir.Service, dependency string, file *policyspec.File, rule opRule) (*Service, []diag.Diagnostic, error) {
	var list diag.List
	at := keyPositions(svc)
	add := func(err error) {
		for _, d := range diag.From(err) {
			list.Add(at.relocate(d))
		}
	}

	depLayers := file.DependencyLayers(dependency)
	for _, ext := range svc.Resilience {
		l, err := decode(ext)
		add(err)
		depLayers = append(depLayers, l)
	}
	dep, err := policyspec.ResolveDependency(dependency, depLayers...)
	add(err)
	if dep == nil {
		return nil, list.Warnings(), list.Err()
	}
	add(dep.Warnings)

	out := &Service{IR: svc, Dependency: dep, Operations: make([]*Operation, len(svc.Operations))}
	known := make([]string, 0, 2*len(svc.Operations))
	for i, op := range svc.Operations {
		layers := fileLayers(file, dependency, op)
		for _, ext := range op.Resilience {
			l, err := decode(ext)
			add(err)
			layers = append(layers, l)
		}
		res, err := dep.ResolveOperation(op.Name, Idempotency(op.Idempotency), layers...)
		add(err)
		if res == nil {
			res = &policyspec.Operation{Name: op.Name, Dependency: dependency, Sources: map[string]policyspec.Source{}}
		}
		add(res.Warnings)
		if rule != nil {
			rule(op, layers, res, &list)
		}
		out.Operations[i] = &Operation{Operation: op, Policy: res}
		known = append(known, op.Name)
		if op.ID != "" && op.ID != op.Name {
			known = append(known, op.ID)
		}
	}
	add(file.CheckNames(map[string][]string{dependency: known}))
	return out, list.Warnings(), list.Err()
}

// fileLayers returns the policy file's entries for op: the one written
// under its Go name, then the one under its operationId (or rpc name)
// when that differs.
func fileLayers(file *policyspec.File, dependency string, op *ir.Operation) []policyspec.Layer {
	layers := file.OperationLayers(dependency, op.Name)
	if op.ID != "" && op.ID != op.Name {
		layers = append(layers, file.OperationLayers(dependency, op.ID)...)
	}
	return layers
}

// decode decodes one raw extension value (x-resilience, or a proto
// option in snake_case) into its layer, with each field located at the
// key that set it when the front end knows where that is.
func decode(ext ir.Extension) (policyspec.Layer, error) {
	kind := policyspec.LayerOperation
	switch ext.Level {
	case ir.LevelDocument:
		kind = policyspec.LayerDocument
	case ir.LevelService:
		kind = policyspec.LayerService
	case ir.LevelPathItem:
		kind = policyspec.LayerPathItem
	}
	decodeValue := policyspec.DecodeValue
	if ext.Snake {
		decodeValue = policyspec.DecodeSnakeValue
	}
	spec, err := decodeValue(ext.Value, ext.Location)
	spec.Relocate(func(l diag.Location) diag.Location {
		if p, ok := ext.Positions[strings.TrimPrefix(l.Path, ext.Path)]; ok && strings.HasPrefix(l.Path, ext.Path) {
			l.Line, l.Col = p.Line, p.Col
		}
		return l
	})
	return policyspec.Layer{Kind: kind, Spec: spec}, err
}

// Idempotency converts the IR's idempotency to the runtime's.
func Idempotency(i ir.Idempotency) runtime.Idempotency {
	switch i {
	case ir.ReadOnly:
		return runtime.ReadOnly
	case ir.Idempotent:
		return runtime.Idempotent
	default:
		return runtime.NotIdempotent
	}
}

// positions maps the JSON pointer of every key written inside the
// service's resilience extensions to where it was written.
type positions map[string]diag.Location

// keyPositions collects the key positions of every extension of svc.
func keyPositions(svc *ir.Service) positions {
	at := positions{}
	collect := func(exts []ir.Extension) {
		for _, e := range exts {
			for rel, loc := range e.Positions {
				at[e.Path+rel] = loc
			}
		}
	}
	collect(svc.Resilience)
	for _, op := range svc.Operations {
		collect(op.Resilience)
	}
	return at
}

// relocate points d at the key its path names, when that key's position
// is known; a diagnostic about a whole extension keeps its location.
func (at positions) relocate(d diag.Diagnostic) diag.Diagnostic {
	if loc, ok := at[d.Location.Path]; ok && (d.Location.File == "" || d.Location.File == loc.File) {
		d.Location.Line, d.Location.Col = loc.Line, loc.Col
	}
	return d
}
