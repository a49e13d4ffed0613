package openapi

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/ir"
)

// maxSubschemaDepth bounds how deep subschemas are carried: a schema
// that refers to itself through them ends there.
const maxSubschemaDepth = 16

// unmodeledOf returns the keywords of s that the IR's types do not model
// (see [ir.Constraints.Unmodeled]), with their subschemas; nil when it
// has none.
func unmodeledOf(s *openapi3.Schema) *ir.Schema {
	if !hasUnmodeled(s) {
		return nil
	}
	out := &ir.Schema{False: isFalse(s), NullTwice: nullTwice(s), NullUntyped: nullUntyped(s)}
	c := newSubschemas(s)
	c.unmodeled(out, s, 0)
	if len(s.PrefixItems) > 0 && s.Items != nil {
		// What the tuple items replace, for a diff to compare them with.
		c.add(out, "items", s.Items, 0)
		slices.SortFunc(out.Sub, func(a, b *ir.Subschema) int { return strings.Compare(a.Keyword, b.Keyword) })
	}
	if out.IsZero() {
		return nil
	}
	return out
}

// textUnmodeled returns the schema of a body sent and read as text or
// bytes (XML, plain text, */*), which its type, a string or bytes, does
// not model, whole (see [ir.Schema.Whole]); its validation keywords only
// when validation is set (a text body's type carries them); nil when it
// has none.
func textUnmodeled(s *openapi3.Schema, validation bool) *ir.Schema {
	c := newSubschemas()
	out := c.schema(&openapi3.SchemaRef{Value: s}, 1)
	if !validation {
		out.Constraints = nil
	}
	if out.IsZero() {
		return nil
	}
	out.Whole = true
	return out
}

// hasUnmodeled reports whether s has a keyword that the IR's types do
// not model.
func hasUnmodeled(s *openapi3.Schema) bool {
	return isFalse(s) || nullTwice(s) || nullUntyped(s) || len(s.AllOf) > 0 || hasUnmodeledSubschema(s) || hasUnmodeledValue(s)
}

// hasUnmodeledSubschema reports whether s has a subschema under a
// keyword that the IR's types do not model.
func hasUnmodeledSubschema(s *openapi3.Schema) bool {
	for _, k := range singleSubschemas(s) {
		if k.schema != nil {
			return true
		}
	}
	return len(s.PrefixItems) > 0 || len(s.DependentSchemas) > 0 || len(s.PatternProperties) > 0
}

// hasUnmodeledValue reports whether s has a keyword that the IR's types
// do not model whose value is not a schema.
func hasUnmodeledValue(s *openapi3.Schema) bool {
	return s.Extensions["x-extensible-enum"] != nil || len(s.DependentRequired) > 0 ||
		s.ContentMediaType != "" || s.ContentEncoding != "" || s.MinContains != nil || s.MaxContains != nil
}

// keyedSchema is the subschema of a schema under one keyword; nil when
// the schema has none there.
type keyedSchema struct {
	keyword string
	schema  *openapi3.SchemaRef
}

// singleSubschemas returns the keywords of s that the IR's types do not
// model whose value is one subschema, each with its value in s.
//
// Written as a boolean, additionalProperties, unevaluatedItems and
// unevaluatedProperties only close an object or list to what it
// describes, which is all a client generated from it sends; the IR
// leaves additionalProperties: false out, and these alike: only their
// schemas count.
func singleSubschemas(s *openapi3.Schema) [9]keyedSchema {
	return [...]keyedSchema{
		{"not", s.Not}, {"if", s.If}, {"then", s.Then}, {"else", s.Else}, {"contains", s.Contains},
		{"propertyNames", s.PropertyNames}, {"contentSchema", s.ContentSchema},
		{"unevaluatedItems", s.UnevaluatedItems.Schema}, {"unevaluatedProperties", s.UnevaluatedProperties.Schema},
	}
}

// allOfParts names the parts of s's allOf that constrain values (see
// [ir.Schema.AllOfParts]); nil for none.
func allOfParts(s *openapi3.Schema) []string {
	var out []string
	for _, p := range s.AllOf {
		if p == nil || p.Value == nil || p.Value.IsEmpty() && p.Ref == "" {
			continue
		}
		out = append(out, partName(s, p))
	}
	slices.Sort(out)
	return out
}

// partName names a part of an allOf: "$ref" and the component it
// refers to, else "inline" and its place among the parts written
// inline, counted from 1.
func partName(s *openapi3.Schema, p *openapi3.SchemaRef) string {
	if p.Ref != "" {
		return "$ref " + p.Ref
	}
	n := 0
	for _, q := range s.AllOf {
		if q.Ref == "" {
			n++
		}
		if q == p {
			break
		}
	}
	return "inline " + strconv.Itoa(n)
}

// nullTwice reports a oneOf of which more than one variant admits null
// (a null variant beside a nullable one, or beside one that names no
// type): null matches none exactly once.
func nullTwice(s *openapi3.Schema) bool {
	n := 0
	for _, v := range s.OneOf {
		if v != nil && v.Value != nil && admitsNull(v.Value) {
			n++
		}
	}
	return n > 1
}

// nullUntyped reports a oneOf or anyOf of which a variant that names no
// type admits null while none says null (see [ir.Schema.NullUntyped]).
func nullUntyped(s *openapi3.Schema) bool {
	alts, _ := alternatives(s)
	untyped := false
	for _, v := range alts {
		if v == nil || v.Value == nil {
			continue
		}
		switch {
		case isNullOnly(v.Value), v.Value.Nullable, v.Value.Type != nil && v.Value.Type.Includes(openapi3.TypeNull):
			return false
		case admitsNull(v.Value):
			untyped = true
		}
	}
	return untyped
}

// admitsNull reports whether null is valid in a variant without looking
// into its own variants: it says so, or it names no type and no values
// (an object written with properties only takes any value that is not
// an object).
func admitsNull(s *openapi3.Schema) bool {
	switch {
	case isNullOnly(s), s.Nullable, s.Type != nil && s.Type.Includes(openapi3.TypeNull):
		return true
	case isFalse(s), len(s.Enum) > 0, s.Const != nil, len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) > 0, s.Not != nil:
		return false
	}
	return s.Type == nil || len(s.Type.Slice()) == 0
}

// isFalse reports the boolean schema false, which no value matches.
func isFalse(s *openapi3.Schema) bool {
	return s.Always != nil && !*s.Always
}

// withUnmodeled returns c with the unmodeled keywords u: a copy, since
// the constraints of a use may be shared with the use it wraps.
func withUnmodeled(c *ir.Constraints, u *ir.Schema) *ir.Constraints {
	if u == nil {
		return c
	}
	var out ir.Constraints
	if c != nil {
		out = *c
	}
	out.Unmodeled = u
	return &out
}

// maxSubschemaNodes bounds the schemas one conversion makes: a schema
// that a document reaches many ways is converted once, and a larger
// graph is cut short (its rest accepts anything).
const maxSubschemaNodes = 4096

// subschemas converts schemas to [ir.Schema]; path holds the schemas
// being converted, which a subschema that refers back to one of them
// must not enter again; done those converted, shared; left how many
// more may be.
type subschemas struct {
	path map[*openapi3.Schema]bool
	done map[*openapi3.Schema]*ir.Schema
	left *int
}

// newSubschemas returns a conversion whose path holds the schemas of
// path.
func newSubschemas(path ...*openapi3.Schema) subschemas {
	left := maxSubschemaNodes
	c := subschemas{path: map[*openapi3.Schema]bool{}, done: map[*openapi3.Schema]*ir.Schema{}, left: &left}
	for _, s := range path {
		c.path[s] = true
	}
	return c
}

// schema converts a whole subschema.
func (c subschemas) schema(sr *openapi3.SchemaRef, depth int) *ir.Schema {
	out := &ir.Schema{}
	if sr == nil || sr.Value == nil || depth > maxSubschemaDepth || c.path[sr.Value] || *c.left <= 0 {
		return out
	}
	s := sr.Value
	if done, ok := c.done[s]; ok {
		return done
	}
	*c.left--
	if isFalse(s) {
		out.False = true
		return out
	}
	c.path[s] = true
	defer delete(c.path, s)
	defer func() { c.done[s] = out }()
	modeledKeywords(out, s)
	c.modeledSubschemas(out, s, depth)
	c.unmodeled(out, s, depth)
	return out
}

// modeledKeywords sets in out the keywords of s that the IR's types
// model and that are not schemas: type (with null for a nullable
// schema), format, enum (or const), the validation keywords and
// required.
func modeledKeywords(out *ir.Schema, s *openapi3.Schema) {
	if s.Type != nil {
		out.Types = slices.Clone(s.Type.Slice())
	}
	if s.Nullable && !slices.Contains(out.Types, openapi3.TypeNull) && len(out.Types) > 0 {
		out.Types = append(out.Types, openapi3.TypeNull)
	}
	slices.Sort(out.Types)
	out.Format = s.Format
	out.Enum = enumTexts(s)
	out.Constraints = constraintsOf(s, schemaFamilies(s))
	if len(s.Required) > 0 {
		out.Required = slices.Sorted(slices.Values(s.Required))
		out.Required = slices.Compact(out.Required)
	}
}

// modeledSubschemas adds to out the subschemas of s under keywords that
// the IR's types model: properties, items, additionalProperties, allOf,
// anyOf and oneOf.
func (c subschemas) modeledSubschemas(out *ir.Schema, s *openapi3.Schema, depth int) {
	for name, p := range s.Properties {
		c.add(out, "properties/"+name, p, depth)
	}
	if s.Items != nil {
		c.add(out, "items", s.Items, depth)
	}
	if ap := s.AdditionalProperties; ap.Schema != nil {
		c.add(out, "additionalProperties", ap.Schema, depth)
	}
	for key, parts := range map[string]openapi3.SchemaRefs{"allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf} {
		for i, p := range parts {
			c.add(out, key+"/"+strconv.Itoa(i), p, depth)
		}
	}
}

// unmodeled adds to out the keywords of s that the IR's types do not
// model, and sorts out's subschemas.
func (c subschemas) unmodeled(out *ir.Schema, s *openapi3.Schema, depth int) {
	c.unmodeledSubschemas(out, s, depth)
	unmodeledValues(out, s)
	if depth == 0 {
		// Inside a subschema, allOf's parts are subschemas of their own.
		out.AllOfParts = allOfParts(s)
		c.inlinePartSubschemas(out, s, depth)
	}
	slices.SortFunc(out.Sub, func(a, b *ir.Subschema) int { return strings.Compare(a.Keyword, b.Keyword) })
}

// unmodeledSubschemas adds to out the subschemas of s under keywords
// that the IR's types do not model: those of one subschema (see
// [singleSubschemas]), and the items of prefixItems, dependentSchemas
// and patternProperties, each under its keyword and key.
func (c subschemas) unmodeledSubschemas(out *ir.Schema, s *openapi3.Schema, depth int) {
	for _, k := range singleSubschemas(s) {
		if k.schema != nil {
			c.add(out, k.keyword, k.schema, depth)
		}
	}
	for i, p := range s.PrefixItems {
		c.add(out, "prefixItems/"+strconv.Itoa(i), p, depth)
	}
	for name, p := range s.DependentSchemas {
		c.add(out, "dependentSchemas/"+name, p, depth)
	}
	for re, p := range s.PatternProperties {
		c.add(out, "patternProperties/"+re, p, depth)
	}
}

// unmodeledValues sets in out the keywords of s that the IR's types do
// not model whose value is not a schema: dependentRequired,
// contentMediaType, contentEncoding, minContains, maxContains and
// x-extensible-enum.
func unmodeledValues(out *ir.Schema, s *openapi3.Schema) {
	for name, deps := range s.DependentRequired {
		deps = slices.Sorted(slices.Values(deps))
		out.DependentRequired = append(out.DependentRequired, name+": "+strings.Join(slices.Compact(deps), ","))
	}
	slices.Sort(out.DependentRequired)
	out.ContentMediaType, out.ContentEncoding = s.ContentMediaType, s.ContentEncoding
	out.MinContains, out.MaxContains = derefCount(s.MinContains), s.MaxContains
	if values, ok := s.Extensions["x-extensible-enum"].([]any); ok {
		out.ExtensibleEnum = jsonTexts(values)
	}
}

// inlinePartSubschemas adds to out the subschemas of the parts of s's
// allOf written inline, which the IR's struct does not model either and
// which apply to the whole as the schema's own do: under their keyword,
// or the part's name and their keyword when the schema has one of its
// own.
func (c subschemas) inlinePartSubschemas(out *ir.Schema, s *openapi3.Schema, depth int) {
	for _, p := range s.AllOf {
		if p == nil || p.Value == nil || p.Ref != "" || !hasUnmodeled(p.Value) {
			continue
		}
		part := &ir.Schema{}
		c.unmodeled(part, p.Value, depth+1)
		for _, sub := range part.Sub {
			if out.Lookup(sub.Keyword) != nil {
				sub.Keyword = "allOf " + partName(s, p) + " " + sub.Keyword
			}
			out.Sub = append(out.Sub, sub)
		}
	}
}

func (c subschemas) add(out *ir.Schema, keyword string, sr *openapi3.SchemaRef, depth int) {
	out.Sub = append(out.Sub, &ir.Subschema{Keyword: keyword, Schema: c.schema(sr, depth+1)})
}

// enumTexts returns the values of a schema's enum, or its const, as
// compact JSON, sorted and each once; nil for none.
func enumTexts(s *openapi3.Schema) []string {
	values := s.Enum
	if s.Const != nil {
		values = []any{s.Const}
	}
	if len(values) == 0 {
		return nil
	}
	return jsonTexts(values)
}

// jsonTexts returns values as compact JSON, sorted and each once.
func jsonTexts(values []any) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		text, err := json.Marshal(v)
		if err != nil {
			continue
		}
		out = append(out, string(text))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func derefCount(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}
