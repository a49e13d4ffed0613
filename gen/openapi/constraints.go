package openapi

import (
	"encoding/json"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/ir"
)

// family is a set of JSON value types, each with the validation
// keywords that apply to it (JSON Schema ignores the others).
type family uint8

const (
	// famNumber: minimum, maximum, multipleOf.
	famNumber family = 1 << iota
	// famString: minLength, maxLength, pattern.
	famString
	// famArray: minItems, maxItems, uniqueItems.
	famArray
	// famObject: minProperties, maxProperties.
	famObject
	famAll = famNumber | famString | famArray | famObject
)

// schemaFamilies returns the value types a schema's type allows, all of
// them when it names none.
func schemaFamilies(s *openapi3.Schema) family {
	types := nonNullTypes(s)
	if len(types) == 0 {
		return famAll
	}
	var f family
	for _, t := range types {
		switch t {
		case openapi3.TypeInteger, openapi3.TypeNumber:
			f |= famNumber
		case openapi3.TypeString:
			f |= famString
		case openapi3.TypeArray:
			f |= famArray
		case openapi3.TypeObject:
			f |= famObject
		}
	}
	return f
}

// kindFamilies returns the value types of an IR type: a named type is an
// object (a struct, or a union or enum whose keywords are its variants').
func kindFamilies(k ir.Kind) family {
	switch k {
	case ir.KindAny:
		return famAll
	case ir.KindInt, ir.KindInt32, ir.KindInt64, ir.KindUint, ir.KindUint32, ir.KindUint64, ir.KindFloat32, ir.KindFloat64:
		return famNumber
	case ir.KindString, ir.KindDateTime, ir.KindDate, ir.KindUUID, ir.KindBytes:
		return famString
	case ir.KindArray:
		return famArray
	case ir.KindMap, ir.KindNamed:
		return famObject
	}
	return 0
}

// constraintsOf returns the validation keywords of s that narrow its
// values and apply to the value types f, nil when it has none.
func constraintsOf(s *openapi3.Schema, f family) *ir.Constraints {
	c := &ir.Constraints{}
	if f&famNumber != 0 {
		c.Min, c.Max = bound(s.Min, s.ExclusiveMin, true), bound(s.Max, s.ExclusiveMax, false)
		if s.MultipleOf != nil && *s.MultipleOf > 0 {
			c.MultipleOf = *s.MultipleOf
		}
	}
	if f&famString != 0 {
		c.MinLength, c.MaxLength, c.Pattern = s.MinLength, s.MaxLength, s.Pattern
	}
	if f&famArray != 0 {
		c.MinItems, c.MaxItems, c.UniqueItems = s.MinItems, s.MaxItems, s.UniqueItems
	}
	if f&famObject != 0 {
		c.MinProperties, c.MaxProperties = s.MinProps, s.MaxProps
	}
	if c.IsZero() {
		return nil
	}
	return c
}

// bound returns a number's lower (lower is true) or upper bound from the
// inclusive keyword v and its exclusive form ex: a boolean modifier of v
// (OpenAPI 3.0) or a number of its own (3.1), the tighter of the two when
// both are written.
func bound(v *float64, ex openapi3.ExclusiveBound, lower bool) *ir.Bound {
	var b *ir.Bound
	if v != nil {
		b = &ir.Bound{Value: *v, Exclusive: ex.IsTrue()}
	}
	if ex.Value != nil {
		e := &ir.Bound{Value: *ex.Value, Exclusive: true}
		switch {
		case b == nil:
			b = e
		case lower && e.Value >= b.Value, !lower && e.Value <= b.Value:
			b = e
		}
	}
	return b
}

// defaultOf returns the schema's default value as compact JSON, empty
// when it has none or it cannot be written as JSON.
func defaultOf(s *openapi3.Schema) string {
	if s.Default == nil {
		return ""
	}
	text, err := json.Marshal(s.Default)
	if err != nil {
		return ""
	}
	return string(text)
}
