package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/ir"
)

// shape is what a schema becomes in the IR.
type shape int

const (
	// shapeAny: any JSON value.
	shapeAny shape = iota
	// shapeScalar: a boolean, number, string or date.
	shapeScalar
	shapeArray
	shapeMap
	// shapeStruct, shapeEnum and shapeUnion need a named type.
	shapeStruct
	shapeEnum
	shapeUnion
	// shapeSame: the schema only wraps another one (a single allOf part or
	// a single non-null oneOf/anyOf variant) and takes its type.
	shapeSame
)

// named reports whether the shape needs a named type.
func (s shape) named() bool { return s == shapeStruct || s == shapeEnum || s == shapeUnion }

// shapeOf classifies a schema. For shapeSame it also returns the wrapped
// schema and its pointer suffix.
func shapeOf(s *openapi3.Schema) (shape, *openapi3.SchemaRef, string) {
	if len(s.AllOf) > 0 {
		return allOfShape(s)
	}
	if alts, key := alternatives(s); len(alts) > 0 {
		variants := withoutNull(alts)
		switch {
		case len(variants) == 0:
			return shapeAny, nil, ""
		case len(variants) == 1 && len(s.Properties) == 0:
			return shapeSame, variants[0], "/" + key + "/" + itoa(indexOf(alts, variants[0]))
		case !onlyConstraints(variants):
			return shapeUnion, nil, ""
		}
	}
	if _, ok := enumBase(s); ok {
		return shapeEnum, nil, ""
	}
	return typeShape(s), nil, ""
}

// allOfShape classifies a schema with allOf parts: one that only wraps a
// single part takes its type (shapeSame, with the part and its pointer
// suffix), any other is a struct of the parts' properties.
func allOfShape(s *openapi3.Schema) (shape, *openapi3.SchemaRef, string) {
	if len(s.AllOf) == 1 && len(s.Properties) == 0 && len(s.OneOf)+len(s.AnyOf) == 0 {
		return shapeSame, s.AllOf[0], "/allOf/0"
	}
	return shapeStruct, nil, ""
}

// typeShape classifies a schema that is neither a composition nor an
// enum by its type: several non-null types make a union, none leaves the
// shape to the keywords present (untypedShape).
func typeShape(s *openapi3.Schema) shape {
	types := nonNullTypes(s)
	switch {
	case len(types) > 1:
		return shapeUnion
	case len(types) == 0:
		return untypedShape(s)
	}
	switch types[0] {
	case openapi3.TypeArray:
		return shapeArray
	case openapi3.TypeObject:
		if len(s.Properties) > 0 {
			return shapeStruct
		}
		return shapeMap
	case openapi3.TypeString, openapi3.TypeInteger, openapi3.TypeNumber, openapi3.TypeBoolean:
		return shapeScalar
	}
	return shapeAny
}

// untypedShape classifies a schema without a type by its keywords:
// properties make a struct, items an array, additionalProperties a map;
// a schema with none of them admits any value.
func untypedShape(s *openapi3.Schema) shape {
	switch {
	case len(s.Properties) > 0:
		return shapeStruct
	case s.Items != nil:
		return shapeArray
	case s.AdditionalProperties.Schema != nil:
		return shapeMap
	}
	return shapeAny
}

// alternatives returns the oneOf variants, else the anyOf ones, with the
// keyword's name.
func alternatives(s *openapi3.Schema) (openapi3.SchemaRefs, string) {
	if len(s.OneOf) > 0 {
		return s.OneOf, "oneOf"
	}
	return s.AnyOf, "anyOf"
}

// withoutNull drops the variants that only admit null.
func withoutNull(refs openapi3.SchemaRefs) openapi3.SchemaRefs {
	var out openapi3.SchemaRefs
	for _, r := range refs {
		if r != nil && r.Value != nil && isNullOnly(r.Value) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// isNullOnly reports a schema whose only value is null ({type: "null"} or
// {enum: [null]}).
func isNullOnly(s *openapi3.Schema) bool {
	if s.Type != nil && s.Type.Is(openapi3.TypeNull) {
		return true
	}
	return len(s.Enum) == 1 && s.Enum[0] == nil
}

// onlyConstraints reports variants that add constraints to the enclosing
// schema but no shape of their own (oneOf: [{required: [a]}, {required:
// [b]}]), which the enclosing schema's type already covers.
func onlyConstraints(variants openapi3.SchemaRefs) bool {
	for _, v := range variants {
		if v == nil || v.Value == nil || v.Ref != "" {
			return false
		}
		s := v.Value
		if s.Type != nil && !s.Type.IsEmpty() || len(s.Properties) > 0 || s.Items != nil ||
			len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) > 0 || len(s.Enum) > 0 {
			return false
		}
	}
	return true
}

// nullable reports whether null is a valid value of s: OpenAPI 3.0
// "nullable", 3.1 type lists with "null", Swagger's x-nullable, a null
// enum member or a null oneOf/anyOf variant.
func nullable(s *openapi3.Schema) bool {
	if s.Nullable || (s.Type != nil && s.Type.Includes(openapi3.TypeNull)) {
		return true
	}
	if v, ok := s.Extensions["x-nullable"].(bool); ok && v {
		return true
	}
	for _, e := range s.Enum {
		if e == nil {
			return true
		}
	}
	alts, _ := alternatives(s)
	return len(withoutNull(alts)) < len(alts)
}

// nonNullTypes returns the schema's types without "null".
func nonNullTypes(s *openapi3.Schema) []string {
	if s.Type == nil {
		return nil
	}
	var out []string
	for _, t := range s.Type.Slice() {
		if t != openapi3.TypeNull {
			out = append(out, t)
		}
	}
	return out
}

// enumBase returns the base kind of a string or integer enum (a const is a
// one-value enum). ok is false for schemas without enum, and for boolean,
// number or mixed enums, which stay plain scalars.
func enumBase(s *openapi3.Schema) (ir.Kind, bool) {
	values := enumValues(s)
	if len(values) == 0 {
		return 0, false
	}
	kind := enumKind(nonNullTypes(s), s.Format, values[0])
	if kind == 0 || !enumValuesFit(values, kind) {
		return 0, false
	}
	return kind, true
}

// enumKind returns the base kind an enum of the non-null types and the
// format would have, first being its first member (which decides for an
// enum without a type); 0 for a type that makes no enum.
func enumKind(types []string, format string, first any) ir.Kind {
	switch {
	case len(types) == 1 && types[0] == openapi3.TypeString:
		return ir.KindString
	case len(types) == 1 && types[0] == openapi3.TypeInteger:
		return integerEnumKind(format)
	case len(types) == 0:
		return untypedEnumKind(first)
	}
	return 0
}

// integerEnumKind returns the base kind of an integer enum of the format.
// Enum constants are checked by value, not by the format, so an unsigned
// format gives int64.
func integerEnumKind(format string) ir.Kind {
	kind := integerKind(format)
	if kind == ir.KindUint || kind == ir.KindUint32 || kind == ir.KindUint64 {
		return ir.KindInt64
	}
	return kind
}

// untypedEnumKind returns the base kind of an enum without a type whose
// first member is first: string or int, 0 for any other value.
func untypedEnumKind(first any) ir.Kind {
	if _, isString := first.(string); isString {
		return ir.KindString
	}
	if _, isInt := asInt(first); isInt {
		return ir.KindInt
	}
	return 0
}

// enumValuesFit reports whether every member of values is a value of
// kind: a string for ir.KindString, an integral number for the others.
func enumValuesFit(values []any, kind ir.Kind) bool {
	for _, v := range values {
		if _, isString := v.(string); isString != (kind == ir.KindString) {
			return false
		}
		if _, isInt := asInt(v); kind != ir.KindString && !isInt {
			return false
		}
	}
	return true
}

// enumValues returns the enum members (or the const) without null.
func enumValues(s *openapi3.Schema) []any {
	values := s.Enum
	if len(values) == 0 && s.Const != nil {
		values = []any{s.Const}
	}
	var out []any
	for _, v := range values {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// asInt converts a decoded integral number to int64.
func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case uint64:
		return int64(n), n <= 1<<63-1
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true
		}
	}
	return 0, false
}

// scalarKind maps a JSON Schema type and format to a scalar kind.
func scalarKind(typ, format string) ir.Kind {
	switch typ {
	case openapi3.TypeBoolean:
		return ir.KindBool
	case openapi3.TypeInteger:
		return integerKind(format)
	case openapi3.TypeNumber:
		return numberKind(format)
	case openapi3.TypeString:
		return stringKind(format)
	}
	return ir.KindAny
}

// integerKind maps the format of an integer to its kind (int for a format
// it does not know).
func integerKind(format string) ir.Kind {
	switch format {
	case "int32":
		return ir.KindInt32
	case "int64":
		return ir.KindInt64
	case "uint":
		return ir.KindUint
	case "uint8", "uint16", "uint32":
		return ir.KindUint32
	case "uint64":
		return ir.KindUint64
	}
	return ir.KindInt
}

// numberKind maps the format of a number to its kind (float64 for a
// format it does not know).
func numberKind(format string) ir.Kind {
	switch format {
	case "float":
		return ir.KindFloat32
	case "int32":
		return ir.KindInt32
	case "int64":
		return ir.KindInt64
	}
	return ir.KindFloat64
}

// stringKind maps the format of a string to its kind (string for a format
// it does not know).
func stringKind(format string) ir.Kind {
	switch format {
	case "date-time":
		return ir.KindDateTime
	case "date":
		return ir.KindDate
	case "byte":
		return ir.KindBytes
	case "binary":
		return ir.KindBinary
	case "uuid":
		return ir.KindUUID
	}
	return ir.KindString
}

// indexOf returns the index of r in refs (0 when it is not there).
func indexOf(refs openapi3.SchemaRefs, r *openapi3.SchemaRef) int {
	for i, x := range refs {
		if x == r {
			return i
		}
	}
	return 0
}
