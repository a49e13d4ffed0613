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
	out := &ir.Schema{}
	c := subschemas{path: map[*openapi3.Schema]bool{s: true}}
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

// hasUnmodeled reports whether s has a keyword that the IR's types do
// not model.
func hasUnmodeled(s *openapi3.Schema) bool {
	return s.Not != nil || s.If != nil || s.Then != nil || s.Else != nil || s.Contains != nil ||
		s.PropertyNames != nil || s.ContentSchema != nil || len(s.PrefixItems) > 0 ||
		len(s.DependentSchemas) > 0 || len(s.PatternProperties) > 0 || len(s.DependentRequired) > 0 ||
		s.UnevaluatedItems.Has != nil || s.UnevaluatedItems.Schema != nil ||
		s.UnevaluatedProperties.Has != nil || s.UnevaluatedProperties.Schema != nil ||
		s.ContentMediaType != "" || s.ContentEncoding != "" || s.MinContains != nil || s.MaxContains != nil
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

// subschemas converts schemas to [ir.Schema]; path holds the schemas
// being converted, which a subschema that refers back to one of them
// must not enter again.
type subschemas struct {
	path map[*openapi3.Schema]bool
}

// schema converts a whole subschema.
func (c subschemas) schema(sr *openapi3.SchemaRef, depth int) *ir.Schema {
	out := &ir.Schema{}
	if sr == nil || sr.Value == nil || depth > maxSubschemaDepth || c.path[sr.Value] {
		return out
	}
	s := sr.Value
	c.path[s] = true
	defer delete(c.path, s)
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
	for name, p := range s.Properties {
		c.add(out, "properties/"+name, p, depth)
	}
	if s.Items != nil {
		c.add(out, "items", s.Items, depth)
	}
	if ap := s.AdditionalProperties; ap.Schema != nil {
		c.add(out, "additionalProperties", ap.Schema, depth)
	} else if ap.Has != nil && !*ap.Has {
		out.Sub = append(out.Sub, &ir.Subschema{Keyword: "additionalProperties", Schema: &ir.Schema{False: true}})
	}
	for key, parts := range map[string]openapi3.SchemaRefs{"allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf} {
		for i, p := range parts {
			c.add(out, key+"/"+strconv.Itoa(i), p, depth)
		}
	}
	c.unmodeled(out, s, depth)
	return out
}

// unmodeled adds to out the keywords of s that the IR's types do not
// model, and sorts out's subschemas.
func (c subschemas) unmodeled(out *ir.Schema, s *openapi3.Schema, depth int) {
	for key, sr := range map[string]*openapi3.SchemaRef{
		"not": s.Not, "if": s.If, "then": s.Then, "else": s.Else, "contains": s.Contains,
		"propertyNames": s.PropertyNames, "contentSchema": s.ContentSchema,
	} {
		if sr != nil {
			c.add(out, key, sr, depth)
		}
	}
	for key, bs := range map[string]openapi3.BoolSchema{"unevaluatedItems": s.UnevaluatedItems, "unevaluatedProperties": s.UnevaluatedProperties} {
		switch {
		case bs.Schema != nil:
			c.add(out, key, bs.Schema, depth)
		case bs.Has != nil && !*bs.Has:
			out.Sub = append(out.Sub, &ir.Subschema{Keyword: key, Schema: &ir.Schema{False: true}})
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
	for name, deps := range s.DependentRequired {
		deps = slices.Sorted(slices.Values(deps))
		out.DependentRequired = append(out.DependentRequired, name+": "+strings.Join(slices.Compact(deps), ","))
	}
	slices.Sort(out.DependentRequired)
	out.ContentMediaType, out.ContentEncoding = s.ContentMediaType, s.ContentEncoding
	out.MinContains, out.MaxContains = derefCount(s.MinContains), s.MaxContains
	slices.SortFunc(out.Sub, func(a, b *ir.Subschema) int { return strings.Compare(a.Keyword, b.Keyword) })
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
