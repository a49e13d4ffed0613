package ir

// Schema is a JSON Schema (2020-12, as OpenAPI 3.1 writes it) kept as
// written, for the keywords the IR's types do not model: the subschemas
// of not, if/then/else, contains, prefixItems, propertyNames,
// unevaluatedItems/unevaluatedProperties, contentSchema,
// dependentSchemas and patternProperties, and everything inside them.
// Generation does not use it; a spec-change diff compares it. The zero
// value is the schema that accepts anything.
type Schema struct {
	// False reports the boolean schema false, which no value matches.
	False bool
	// Types are the JSON types the type keyword names ("null" for a
	// nullable schema), sorted; empty for any.
	Types []string
	// Format is the format keyword as written.
	Format string
	// Enum holds the values of enum, or of const, as compact JSON,
	// sorted; nil for none.
	Enum []string
	// Constraints are the schema's validation keywords; nil for none.
	Constraints *Constraints
	// Required are the names of the required properties, sorted.
	Required []string
	// DependentRequired holds dependentRequired, one entry per
	// property: its name, a colon and the names it requires, comma-
	// separated and sorted; the entries sorted.
	DependentRequired []string
	// ContentMediaType and ContentEncoding describe a string that holds
	// an encoded document; empty for none.
	ContentMediaType, ContentEncoding string
	// MinContains and MaxContains bound the number of items contains
	// matches; MaxContains nil for none.
	MinContains uint64
	MaxContains *uint64
	// Sub are the schema's subschemas, sorted by keyword.
	Sub []*Subschema
}

// Subschema is the value of one applicator keyword of a [Schema].
type Subschema struct {
	// Keyword says where the subschema sits: "not", "if", "then",
	// "else", "contains", "propertyNames", "unevaluatedItems",
	// "unevaluatedProperties", "contentSchema", "items",
	// "additionalProperties", or a keyword with its key:
	// "properties/NAME", "prefixItems/INDEX", "dependentSchemas/NAME",
	// "patternProperties/REGEXP", "allOf/INDEX", "anyOf/INDEX",
	// "oneOf/INDEX".
	Keyword string
	Schema  *Schema
}

// Lookup returns the subschema at keyword, nil when s has none there.
func (s *Schema) Lookup(keyword string) *Schema {
	if s == nil {
		return nil
	}
	for _, sub := range s.Sub {
		if sub.Keyword == keyword {
			return sub.Schema
		}
	}
	return nil
}

// IsZero reports whether s carries nothing: no keyword the IR's types
// do not model.
func (s *Schema) IsZero() bool {
	return s == nil || !s.False && len(s.Types) == 0 && s.Format == "" && s.Enum == nil && s.Constraints.IsZero() &&
		len(s.Required) == 0 && len(s.DependentRequired) == 0 && s.ContentMediaType == "" && s.ContentEncoding == "" &&
		s.MinContains == 0 && s.MaxContains == nil && len(s.Sub) == 0
}
