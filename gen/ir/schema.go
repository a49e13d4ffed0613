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
	// AllOfParts name the parts of the schema's allOf that constrain
	// values (not those that only annotate), each by the component it
	// refers to ("$ref #/components/schemas/Pet"), else as "inline" and
	// its place among the parts written inline ("inline 2"); sorted.
	// The IR's types merge the parts into one; a diff tells a part
	// added or removed.
	AllOfParts []string
	// ExtensibleEnum holds the values of x-extensible-enum, an extension
	// that lists the values known today of an open set, as compact JSON,
	// sorted; nil for none. A client may send them; answers may hold
	// others.
	ExtensibleEnum []string
	// NullTwice reports a oneOf of which more than one variant admits
	// null: null then matches none exactly once, and is not valid,
	// whatever the nullable type of the use says.
	NullTwice bool
	// Whole reports a schema carried whole: that of a body sent and
	// read as text or bytes (XML, plain text, */*), whose type the IR
	// models as a string or bytes only.
	Whole bool
	// NullUntyped reports a oneOf or anyOf of which a variant that names
	// no type admits null (JSON Schema's reading), when none says null.
	NullUntyped bool
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
	return s == nil || !s.False && !s.NullTwice && !s.NullUntyped && s.noValueKeywords() && s.noStructureKeywords()
}

// noValueKeywords reports whether s has none of the keywords that
// constrain a value by itself: type, format, enum (or const),
// x-extensible-enum, the validation keywords, contentMediaType and
// contentEncoding.
func (s *Schema) noValueKeywords() bool {
	return len(s.Types) == 0 && s.Format == "" && s.Enum == nil && s.ExtensibleEnum == nil &&
		s.Constraints.IsZero() && s.ContentMediaType == "" && s.ContentEncoding == ""
}

// noStructureKeywords reports whether s has none of the keywords that
// constrain a value's parts: required, dependentRequired, minContains,
// maxContains, subschemas and the parts of allOf.
func (s *Schema) noStructureKeywords() bool {
	return len(s.Required) == 0 && len(s.DependentRequired) == 0 && s.MinContains == 0 && s.MaxContains == nil &&
		len(s.Sub) == 0 && len(s.AllOfParts) == 0
}
