package resolve

import (
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
// is nil only when the dependency-wide policy cannot be resolved. The
// policy file's entries that name nothing are reported: all of them for
// a service alone in its run; for one of many (oneOfMany, the services of
// a proto run), only its own entry's operations.
func resolve(svc *ir.Service, dependency string, file *policyspec.File, oneOfMany bool, rule opRule) (*Service, []diag.Diagnostic, error) {
	var list diag.List
	add := list.AddErr

	depLayers := file.DependencyLayers(dependency)
	for _, p := range svc.Resilience {
		depLayers = append(depLayers, layer(p))
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
		for _, p := range op.Resilience {
			layers = append(layers, layer(p))
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
	if oneOfMany {
		// Its own entry's operations are checked here; the dependency
		// names, by the caller against every service of the run.
		add(file.CheckOperations(dependency, known))
	} else {
		add(file.CheckNames(map[string][]string{dependency: known}))
	}
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

// layer is the policy layer of one level of the input.
func layer(p ir.PolicyLayer) policyspec.Layer {
	kind := policyspec.LayerOperation
	switch p.Level {
	case ir.LevelDocument:
		kind = policyspec.LayerDocument
	case ir.LevelService:
		kind = policyspec.LayerService
	case ir.LevelPathItem:
		kind = policyspec.LayerPathItem
	case ir.LevelServiceConfig:
		kind = policyspec.LayerServiceConfig
	}
	return policyspec.Layer{Kind: kind, Spec: p.Spec}
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
