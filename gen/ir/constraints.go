package ir

// Bound is a lower or upper bound of a number.
type Bound struct {
	Value float64
	// Exclusive reports that Value itself is outside the range
	// (exclusiveMinimum, exclusiveMaximum).
	Exclusive bool
}

// Constraints are the validation keywords of a schema that narrow the
// values of its type. The generated code does not check them; a
// spec-change diff compares them. The zero value constrains nothing; a
// nil *Constraints is the zero value.
type Constraints struct {
	// Min and Max bound a number (minimum, maximum and their exclusive
	// forms, OpenAPI 3.0 booleans and 3.1 numbers alike, the tighter one
	// when both are written); nil for none.
	Min, Max *Bound
	// MultipleOf is the number values must be a multiple of; 0 for none.
	MultipleOf float64
	// MinLength and MaxLength bound a string's length; MaxLength nil for
	// none.
	MinLength uint64
	MaxLength *uint64
	// Pattern is the regular expression strings must match; empty for
	// none.
	Pattern string
	// MinItems and MaxItems bound an array's length; MaxItems nil for
	// none. UniqueItems forbids equal elements.
	MinItems    uint64
	MaxItems    *uint64
	UniqueItems bool
	// MinProperties and MaxProperties bound the number of properties of
	// an object or map; MaxProperties nil for none.
	MinProperties uint64
	MaxProperties *uint64
	// Unmodeled holds the keywords of the schema that the IR's types do
	// not model (not, if/then/else, contains, prefixItems,
	// propertyNames, unevaluated*, contentSchema, dependentSchemas,
	// patternProperties, dependentRequired, contentMediaType...), with
	// their subschemas; nil for none. Its Types, Format, Enum,
	// Constraints and Required are left empty: the type carries them.
	Unmodeled *Schema
}

// IsZero reports whether c constrains nothing.
func (c *Constraints) IsZero() bool {
	return c == nil || c.Min == nil && c.Max == nil && c.MultipleOf == 0 && c.MinLength == 0 && c.MaxLength == nil &&
		c.Pattern == "" && c.MinItems == 0 && c.MaxItems == nil && !c.UniqueItems && c.MinProperties == 0 && c.MaxProperties == nil &&
		c.Unmodeled.IsZero()
}
