package openapi

import (
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// typeOf returns the type of a schema use. Schemas already named
// (components, inline types met before) resolve to their named type;
// structs, enums and unions met for the first time become a named type
// called hint (or a numbered variant of it); everything else is an
// anonymous type. The use carries the schema's default value and the
// keywords the IR's types do not model.
func (b *builder) typeOf(sr *openapi3.SchemaRef, hint, ptr string) *ir.TypeRef {
	if sr == nil || sr.Value == nil {
		return &ir.TypeRef{Kind: ir.KindAny}
	}
	t := b.typeOfSchema(sr, hint, ptr)
	if d := defaultOf(sr.Value); d != "" {
		t.Default = d
	}
	t.Constraints = withUnmodeled(t.Constraints, unmodeledOf(sr.Value))
	return t
}

// typeOfSchema is [builder.typeOf] of a schema that is not nil, without
// its default value.
func (b *builder) typeOfSchema(sr *openapi3.SchemaRef, hint, ptr string) *ir.TypeRef {
	s := sr.Value
	if name, ok := b.componentRef(sr.Ref); ok {
		return &ir.TypeRef{Kind: ir.KindNamed, Name: name, Nullable: nullable(s)}
	}
	if named, ok := b.bySchema[s]; ok {
		return &ir.TypeRef{Kind: ir.KindNamed, Name: named.Name, Nullable: nullable(s)}
	}
	if b.cyclic[s] {
		return &ir.TypeRef{Kind: ir.KindAny}
	}
	hint = boundName(hint) // a name of the spec's own, below, is kept whole
	key := ""
	if sr.Ref != "" {
		key = refKey(sr)
		if named, ok := b.byRef[key]; ok {
			return &ir.TypeRef{Kind: ir.KindNamed, Name: named.Name, Nullable: nullable(s)}
		}
		hint = exportedOr(refName(sr.Ref), hint)
		ptr = key
	}
	sh, _, _ := shapeOf(s)
	if !sh.named() {
		return b.anonymous(s, hint, ptr)
	}
	name := b.pkg.derive(hint, ptr)
	ref := &ir.TypeRef{Kind: ir.KindNamed, Name: name}
	b.bySchema[s] = ref
	if key != "" {
		b.byRef[key] = ref
	}
	t := &ir.Type{Name: name, Location: b.schemaLocation(sr, ptr)}
	b.types[name] = t
	b.defineNamed(t, &openapi3.SchemaRef{Value: s}, ptr)
	return &ir.TypeRef{Kind: ir.KindNamed, Name: name, Nullable: nullable(s)}
}

// componentRef resolves a $ref to a component schema of the entry
// document to its Go name.
func (b *builder) componentRef(ref string) (string, bool) {
	name, ok := strings.CutPrefix(ref, "#/components/schemas/")
	if !ok {
		return "", false
	}
	goName, ok := b.components[unescapeToken(name)]
	return goName, ok
}

// anonymous returns the type of a schema that needs no name of its own:
// scalars, arrays, maps, any, and schemas that only wrap another one.
func (b *builder) anonymous(s *openapi3.Schema, hint, ptr string) *ir.TypeRef {
	sh, inner, suffix := shapeOf(s)
	var t *ir.TypeRef
	switch sh {
	case shapeSame:
		t = b.typeOf(inner, hint, nested(ptr+suffix))
		copied := *t
		t = &copied
	case shapeArray:
		t = &ir.TypeRef{Kind: ir.KindArray, Elem: b.typeOf(s.Items, hint+"Item", nested(ptr+"/items"))}
	case shapeMap:
		elem := &ir.TypeRef{Kind: ir.KindAny}
		if ap := s.AdditionalProperties.Schema; ap != nil {
			elem = b.typeOf(ap, hint+"Value", nested(ptr+"/additionalProperties"))
		}
		t = &ir.TypeRef{Kind: ir.KindMap, Elem: elem}
	case shapeScalar:
		types := nonNullTypes(s)
		t = &ir.TypeRef{Kind: scalarKind(types[0], s.Format), Format: s.Format}
	default:
		if s.Not != nil {
			b.warnUnsupported(b.doc.locate(s.Origin, ptr), "schema with only \"not\"")
		}
		t = &ir.TypeRef{Kind: ir.KindAny}
	}
	if nullable(s) {
		t.Nullable = true
	}
	if c := constraintsOf(s, schemaFamilies(s)&kindFamilies(t.Kind)); c != nil {
		// A wrapper's own keywords come first.
		t.Constraints = c
	}
	return t
}

// defineNamed fills in a named type from its schema: a struct, enum or
// union, or an alias for every other shape.
func (b *builder) defineNamed(t *ir.Type, sr *openapi3.SchemaRef, ptr string) {
	if sr == nil || sr.Value == nil {
		t.Kind, t.Alias = ir.TypeAlias, &ir.TypeRef{Kind: ir.KindAny}
		return
	}
	s := sr.Value
	t.Title, t.Doc, t.Deprecated = s.Title, s.Description, s.Deprecated
	if sr.Ref != "" {
		// A component that is only a reference to another schema.
		t.Kind, t.Alias = ir.TypeAlias, b.typeOf(sr, t.Name+"Target", ptr)
		return
	}
	if b.cyclic[s] {
		t.Kind, t.Alias = ir.TypeAlias, &ir.TypeRef{Kind: ir.KindAny}
		return
	}
	switch sh, _, _ := shapeOf(s); sh {
	case shapeStruct:
		b.defineStruct(t, s, ptr)
	case shapeEnum:
		b.defineEnum(t, s)
	case shapeUnion:
		b.defineUnion(t, s, ptr)
	default:
		t.Kind, t.Alias = ir.TypeAlias, b.anonymous(s, t.Name, ptr)
		t.Alias.Nullable = false
	}
}

// exportedOr mangles name, falling back to alt when it gives nothing.
func exportedOr(name, alt string) string {
	if id, ok := naming.Exported(name, "X"); ok {
		return id
	}
	return alt
}

// unescapeToken undoes JSON pointer escaping of one token.
func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func itoa(i int) string { return strconv.Itoa(i) }

// refKey names the target of a $ref uniquely: the file it lies in as
// diagnostics show it, and the pointer inside ("spec/Pet.yaml#/Pet").
// The loader reads an external file once per reference, so the same
// target can arrive as different schema values.
func refKey(sr *openapi3.SchemaRef) string {
	if u := sr.RefPath(); u != nil {
		key := u.Path + "#" + u.Fragment
		return key
	}
	return sr.Ref
}
