package openapi

import (
	"fmt"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// defineUnion fills in a oneOf/anyOf union (null variants dropped: they
// make uses of the union nullable instead), or a union of the types of a
// 3.1 type list.
func (b *builder) defineUnion(t *ir.Type, s *openapi3.Schema, ptr string) {
	t.Kind = ir.TypeUnion
	u := &ir.Union{OneOf: len(s.OneOf) > 0}
	t.Union = u
	names := newNamespace()
	alts, key := alternatives(s)
	if len(alts) == 0 {
		for _, typ := range nonNullTypes(s) {
			ref := b.typeListVariant(t, s, typ, ptr)
			u.Variants = append(u.Variants, &ir.Variant{Name: names.derive(variantName(ref), ptr), Type: ref})
		}
		return
	}
	if len(s.OneOf) > 0 && len(s.AnyOf) > 0 {
		b.warnIgnored(b.doc.locate(s.Origin, ptr), "anyOf next to oneOf is ignored: the union has only the oneOf alternatives")
	}
	if d := s.Discriminator; d != nil {
		u.Discriminator = d.PropertyName
	}
	tagged := map[string]bool{}
	for i, alt := range alts {
		if alt == nil || alt.Value == nil || isNullOnly(alt.Value) {
			continue
		}
		altPtr := nested(fmt.Sprintf("%s/%s/%d", ptr, key, i))
		ref := b.typeOf(alt, variantHint(t.Name, alt.Value, i), altPtr)
		ref.Nullable = false
		v := &ir.Variant{Name: names.derive(variantName(ref), altPtr), Type: ref}
		if u.Discriminator != "" {
			v.Tags = b.claimTags(s.Discriminator, alt, altPtr, tagged)
		}
		u.Variants = append(u.Variants, v)
	}
}

// typeListVariant returns the type of the variant typ of the 3.1 type
// list of s, the schema of the union t written at ptr.
func (b *builder) typeListVariant(t *ir.Type, s *openapi3.Schema, typ, ptr string) *ir.TypeRef {
	switch typ {
	case openapi3.TypeArray:
		return &ir.TypeRef{Kind: ir.KindArray, Elem: b.typeOf(s.Items, t.Name+"Item", nested(ptr+"/items"))}
	case openapi3.TypeObject:
		return &ir.TypeRef{Kind: ir.KindMap, Elem: &ir.TypeRef{Kind: ir.KindAny}}
	}
	return &ir.TypeRef{Kind: scalarKind(typ, s.Format), Format: s.Format}
}

// variantHint returns the name hint of the type of the i-th alternative
// alt of the union named union: after its title, else its position.
func variantHint(union string, alt *openapi3.Schema, i int) string {
	if alt.Title != "" {
		return union + naming.Part(alt.Title)
	}
	return union + "Variant" + itoa(i)
}

// claimTags returns the discriminator values of d that select the
// alternative alt, written at altPtr, and select no earlier one: tagged
// holds those, and is given these. A value an earlier alternative took
// is left to it, with a warning.
func (b *builder) claimTags(d *openapi3.Discriminator, alt *openapi3.SchemaRef, altPtr string, tagged map[string]bool) []string {
	var tags []string
	for _, tag := range b.discriminatorTags(d, alt) {
		if tagged[tag] {
			b.warnIgnored(b.doc.locate(alt.Origin, altPtr), fmt.Sprintf("discriminator value %q already selects an earlier alternative; the earlier one is used for it", tag))
			continue
		}
		tagged[tag] = true
		tags = append(tags, tag)
	}
	return tags
}

// discriminatorTags returns the discriminator values that select alt: the
// mapping entries pointing to it, or, with none, the name of the component
// it refers to.
func (b *builder) discriminatorTags(d *openapi3.Discriminator, alt *openapi3.SchemaRef) []string {
	var tags []string
	for value, ref := range d.Mapping {
		if alt.Ref != "" && refName(ref.Ref) == refName(alt.Ref) {
			tags = append(tags, value)
		}
	}
	if len(tags) == 0 && alt.Ref != "" {
		tags = append(tags, refName(alt.Ref))
	}
	slices.Sort(tags)
	return tags
}

// variantName names a variant after its type: the named type's name, or a
// word for the builtin kind ("String", "Int64List", "AnyMap").
func variantName(t *ir.TypeRef) string {
	switch t.Kind {
	case ir.KindNamed:
		return t.Name
	case ir.KindArray:
		return variantName(t.Elem) + "List"
	case ir.KindMap:
		return variantName(t.Elem) + "Map"
	}
	return kindWord(t.Kind)
}

// kindWord names a builtin kind.
func kindWord(k ir.Kind) string {
	switch k {
	case ir.KindBool:
		return "Bool"
	case ir.KindInt:
		return "Int"
	case ir.KindInt32:
		return "Int32"
	case ir.KindInt64:
		return "Int64"
	case ir.KindFloat32:
		return "Float32"
	case ir.KindFloat64:
		return "Float64"
	case ir.KindString:
		return "String"
	case ir.KindDateTime:
		return "DateTime"
	case ir.KindDate:
		return "Date"
	case ir.KindBytes, ir.KindBinary:
		return "Bytes"
	case ir.KindUUID:
		return "UUID"
	case ir.KindUint:
		return "Uint"
	case ir.KindUint32:
		return "Uint32"
	case ir.KindUint64:
		return "Uint64"
	}
	return "Any"
}
