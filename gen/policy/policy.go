// Package policy resolves the resilience policy of an IR service: it
// decodes the raw x-resilience layers the front end kept, layers them over
// the policy file and the built-in defaults with package policyspec, and
// returns one resolved dependency and one resolved policy per operation.
package policy

import (
	"errors"
	"strings"

	"github.com/resilientgo/resilient/gen/diag"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// Service is the resolved policy of one service.
type Service struct {
	// Dependency is the dependency-wide policy shared by all operations.
	Dependency *policyspec.Dependency
	// Operations holds the resolved policy of each operation, in the order
	// of the service's operations.
	Operations []*policyspec.Operation
}

// Operation returns the resolved policy of the i-th operation.
func (s *Service) Operation(i int) *policyspec.Operation { return s.Operations[i] }

// Review returns the service as a review input for [policyspec.RenderReview].
func (s *Service) Review(protocol string) policyspec.ReviewDependency {
	return policyspec.ReviewDependency{Dependency: s.Dependency, Protocol: protocol, Operations: s.Operations}
}

// Resolve resolves the policy of svc, known as the dependency called
// dependency, from its x-resilience layers and the policy file (nil when
// there is none). Problems come back as diagnostics: errors joined in the
// error, warnings in the slice. A policy file entry that names no operation
// of svc is an error, and so is a cached fallback on an operation with a
// security requirement that is not declared shared (E-FALLBACK-SHARED).
func Resolve(svc *ir.Service, dependency string, file *policyspec.File) (*Service, []diag.Diagnostic, error) {
	return resolve(svc, dependency, file, httpRules)
}

// opRule adjusts a resolved operation for its protocol, reporting what
// the protocol forbids.
type opRule func(op *ir.Operation, layers []policyspec.Layer, res *policyspec.Operation, list *diag.List)

// resolve resolves the policy of svc as the dependency called dependency,
// applying rule (when not nil) to every resolved operation.
func resolve(svc *ir.Service, dependency string, file *policyspec.File, rule opRule) (*Service, []diag.Diagnostic, error) {
	var list diag.List
	at := keyPositions(svc)
	add := func(err error) {
		for _, d := range specDiagnostics(err) {
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
	add(dep.Warnings.Err())

	out := &Service{Dependency: dep, Operations: make([]*policyspec.Operation, len(svc.Operations))}
	known := make([]string, 0, 2*len(svc.Operations))
	for i, op := range svc.Operations {
		layers := slicesConcat(file.OperationLayers(dependency, op.Name), fileLayersByID(file, dependency, op))
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
		add(res.Warnings.Err())
		if rule != nil {
			rule(op, layers, res, &list)
		}
		out.Operations[i] = res
		known = append(known, op.Name)
		if op.ID != "" && op.ID != op.Name {
			known = append(known, op.ID)
		}
	}
	add(file.CheckNames(map[string][]string{dependency: known}))
	return out, list.Warnings(), list.Err()
}

// fileLayersByID returns the policy file's entry for op written under its
// operationId, when that differs from its Go name.
func fileLayersByID(file *policyspec.File, dependency string, op *ir.Operation) []policyspec.Layer {
	if op.ID == "" || op.ID == op.Name {
		return nil
	}
	return file.OperationLayers(dependency, op.ID)
}

func slicesConcat(a, b []policyspec.Layer) []policyspec.Layer {
	if len(b) == 0 {
		return a
	}
	return append(a, b...)
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
	spec, err := decodeValue(ext.Value, specLocation(ext.Location))
	spec.Relocate(func(l policyspec.Location) policyspec.Location {
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

func specLocation(l ir.Location) policyspec.Location {
	return policyspec.Location{File: l.File, Line: l.Line, Col: l.Col, Path: l.Path}
}

func irLocation(l policyspec.Location) ir.Location {
	return ir.Location{File: l.File, Line: l.Line, Col: l.Col, Path: l.Path}
}

// specDiagnostics converts the diagnostics in err to the generator's; an
// error that is not made of diagnostics becomes one without a location.
func specDiagnostics(err error) []diag.Diagnostic {
	if err == nil {
		return nil
	}
	var ds policyspec.Diagnostics
	if !errors.As(err, &ds) {
		var d policyspec.Diagnostic
		if errors.As(err, &d) {
			ds = policyspec.Diagnostics{d}
		} else {
			return []diag.Diagnostic{{Rule: "E-POLICY", Message: err.Error()}}
		}
	}
	out := make([]diag.Diagnostic, len(ds))
	for i, d := range ds {
		sev := diag.Error
		if d.Severity == policyspec.SeverityWarning {
			sev = diag.Warning
		}
		out[i] = diag.Diagnostic{Location: irLocation(d.Location), Rule: string(d.Rule), Message: d.Message, Fix: d.Fix, Severity: sev}
	}
	return out
}

// positions maps the JSON pointer of every key written inside the
// service's resilience extensions to where it was written.
type positions map[string]ir.Location

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
