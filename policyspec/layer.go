package policyspec

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// LayerKind names a level at which policy is written. The kinds are in
// precedence order: a later kind overrides an earlier one, field by field.
type LayerKind uint8

const (
	// LayerBuiltin is the built-in defaults (the resilience-patterns
	// table); it is implicit and never passed in.
	LayerBuiltin LayerKind = iota
	// LayerServiceConfig is a gRPC service config's methodConfig for the
	// operation (its timeout, retryPolicy and hedgingPolicy), read from
	// the JSON files a proto run names. It overrides only the built-in
	// defaults.
	LayerServiceConfig
	// LayerFileDefaults is the policy file's "defaults".
	LayerFileDefaults
	// LayerFileDependency is the policy file's entry for the dependency.
	LayerFileDependency
	// LayerFileOperation is the policy file's entry for the operation.
	LayerFileOperation
	// LayerDocument is the specification's root: x-resilience on the
	// OpenAPI document, or the (resilient.v1.file) option.
	LayerDocument
	// LayerService is the (resilient.v1.service) option of a gRPC service,
	// which is one dependency.
	LayerService
	// LayerPathItem is x-resilience on an OpenAPI path item, shared by the
	// operations of one path.
	LayerPathItem
	// LayerOperation is x-resilience on an OpenAPI operation, or the
	// (resilient.v1.method) option.
	LayerOperation
)

// String returns the layer's name as used in provenance, such as
// "policy file operation".
func (k LayerKind) String() string {
	names := [...]string{"built-in default", "service config", "policy file defaults", "policy file dependency", "policy file operation",
		"spec root", "service", "path item", "operation"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("layer %d", k)
}

// dependencyWide reports whether the layer applies to a whole dependency,
// so that dependency-wide keys (breaker, bulkhead, retry budget) may be
// written there.
func (k LayerKind) dependencyWide() bool {
	switch k {
	case LayerFileDefaults, LayerFileDependency, LayerDocument, LayerService:
		return true
	}
	return false
}

// ownsOperation reports whether the layer belongs to one operation, so that
// asking for retries, hedging or a fallback there is the operation's own
// request.
func (k LayerKind) ownsOperation() bool {
	return k == LayerOperation || k == LayerFileOperation
}

// Layer is one level's policy.
type Layer struct {
	// Kind says which level the policy was written at.
	Kind LayerKind
	// Spec is the policy written there.
	Spec Spec
}

// checkScope reports the keys of l written at a level where they have no
// meaning: dependency-wide keys below the dependency, and "idempotent"
// anywhere but on one operation.
func checkScope(l Layer) diag.List {
	var ds diag.List
	for _, def := range keyTable() {
		loc, set := fieldSet(def.field(&l.Spec))
		if !set {
			continue
		}
		switch {
		case def.scope == scopeDependency && !l.Kind.dependencyWide():
			ds = append(ds, diag.Diagnostic{Location: loc, Rule: diag.RuleScope,
				Message: fmt.Sprintf("%s is dependency-wide and cannot be set on the %s", def.name, l.Kind),
				Fix:     "move it to the dependency (policy file dependency entry, spec root or proto service option)"})
		case def.scope == scopeOperation && !l.Kind.ownsOperation():
			ds = append(ds, diag.Diagnostic{Location: loc, Rule: diag.RuleScope,
				Message: fmt.Sprintf("%s describes one operation and cannot be set on the %s", def.name, l.Kind),
				Fix:     "set it on each operation it is true of"})
		}
	}
	return ds
}

// merged is the result of merging layers: the winning value of every field,
// each remembering its layer, and the warnings about policy file values that
// a specification overrides.
type merged struct {
	spec     Spec
	warnings diag.List
}

// mergeLayers merges layers in precedence order (stable for equal kinds),
// field by field. Keys that checkScope rejects for a layer are skipped.
func mergeLayers(layers []Layer) merged {
	sorted := slices.Clone(layers)
	slices.SortStableFunc(sorted, func(a, b Layer) int { return cmp.Compare(a.Kind, b.Kind) })
	var m merged
	for _, l := range sorted {
		for _, def := range keyTable() {
			if (def.scope == scopeDependency && !l.Kind.dependencyWide()) ||
				(def.scope == scopeOperation && !l.Kind.ownsOperation()) {
				continue
			}
			if w, ok := overlay(def, def.field(&m.spec), def.field(&l.Spec), l.Kind); ok {
				m.warnings = append(m.warnings, w)
			}
		}
	}
	return m
}

// overlay copies src over dst when src is set, recording kind. It returns a
// warning when a value of the policy file's dependency or operation entry
// is overridden by the specification.
func overlay(def keyDef, dst, src any, kind LayerKind) (diag.Diagnostic, bool) {
	d := dst.(field)
	prevLoc, prevSet := d.where()
	prevLayer := d.from()
	if !d.overlay(src, kind) {
		return diag.Diagnostic{}, false
	}
	if prevSet && (prevLayer == LayerFileDependency || prevLayer == LayerFileOperation) && kind >= LayerDocument {
		srcLoc, _ := src.(field).where()
		return diag.Diagnostic{Location: prevLoc, Rule: diag.RuleShadowed, Severity: diag.Warning,
			Message: fmt.Sprintf("%s from the %s has no effect: the %s sets it at %s", def.name, prevLayer, kind, srcLoc),
			Fix:     "remove it from the policy file, or change the specification"}, true
	}
	return diag.Diagnostic{}, false
}

// field is what every *Field[T] offers to code that walks the key table.
type field interface {
	// where returns where the field was set, and whether it was.
	where() (diag.Location, bool)
	// from returns the layer a merged field came from.
	from() LayerKind
	// overlay copies src (a *Field of the same type) when it is set, and
	// reports whether it did.
	overlay(src any, kind LayerKind) bool
}

func (f *Field[T]) where() (diag.Location, bool) { return f.Loc, f.Set }

func (f *Field[T]) from() LayerKind { return f.layer }

func (f *Field[T]) overlay(src any, kind LayerKind) bool {
	s := src.(*Field[T])
	if !s.Set {
		return false
	}
	*f = *s
	f.layer = kind
	return true
}

// fieldSet returns where a field (given as a pointer from the key table) was
// set, and whether it was.
func fieldSet(f any) (diag.Location, bool) { return f.(field).where() }
