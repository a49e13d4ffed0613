package openapi

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// findAllOfCycles reports every cycle of allOf references among the
// component schemas (A allOf B, B allOf A): such schemas cannot be
// flattened into a struct. The schemas on a cycle are marked so the rest
// of the build treats them as any JSON value instead of recursing forever.
func (b *builder) findAllOfCycles() {
	comps := b.doc.T.Components
	if comps == nil {
		return
	}
	names := map[*openapi3.Schema]string{}
	for _, name := range sortedKeys(comps.Schemas) {
		if sr := comps.Schemas[name]; sr != nil && sr.Value != nil && sr.Ref == "" {
			names[sr.Value] = name
		}
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[*openapi3.Schema]int{}
	var stack []*openapi3.Schema
	var visit func(s *openapi3.Schema)
	visit = func(s *openapi3.Schema) {
		switch state[s] {
		case done:
			return
		case visiting:
			start := len(stack) - 1
			for stack[start] != s {
				start--
			}
			b.reportAllOfCycle(stack[start:], names)
			return
		}
		state[s] = visiting
		stack = append(stack, s)
		for _, part := range s.AllOf {
			if part != nil && part.Value != nil {
				visit(part.Value)
			}
		}
		stack = stack[:len(stack)-1]
		state[s] = done
	}
	for _, name := range sortedKeys(comps.Schemas) {
		if sr := comps.Schemas[name]; sr != nil && sr.Value != nil {
			visit(sr.Value)
		}
	}
}

func (b *builder) reportAllOfCycle(cycle []*openapi3.Schema, names map[*openapi3.Schema]string) {
	// Start the report at the cycle member that sorts first, so the same
	// cycle always reads the same.
	first := 0
	for i, s := range cycle {
		if nameOr(names, s) < nameOr(names, cycle[first]) {
			first = i
		}
	}
	var parts []string
	for i := range cycle {
		s := cycle[(first+i)%len(cycle)]
		parts = append(parts, nameOr(names, s))
		b.cyclic[s] = true
	}
	parts = append(parts, parts[0])
	head := cycle[first]
	ptr := pointer("#/components/schemas", names[head])
	b.diags.Errorf(b.doc.locate(head.Origin, ptr), diag.RuleAllOfCycle,
		"allOf cycle "+strings.Join(parts, " -> ")+" cannot be flattened into Go structs",
		"remove one of the allOf references, or use a property to refer back")
}

func nameOr(names map[*openapi3.Schema]string, s *openapi3.Schema) string {
	if n, ok := names[s]; ok {
		return n
	}
	return "(inline schema)"
}
