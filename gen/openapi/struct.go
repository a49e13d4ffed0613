package openapi

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// property is one property met while flattening a struct.
type property struct {
	name string
	ref  *openapi3.SchemaRef
	ptr  string
}

// defineStruct fills in a struct: the schema's own properties, with the
// properties of its allOf parts merged in front, in part order.
func (b *builder) defineStruct(t *ir.Type, s *openapi3.Schema, ptr string) {
	t.Kind = ir.TypeStruct
	var props propertySet
	required := map[string]bool{}
	b.flatten(s, ptr, &props, required)

	fields := newNamespace()
	for i, p := range props.list {
		ps := p.ref.Value
		var ext map[string]any
		if ps != nil {
			ext = ps.Extensions
		}
		name := ""
		if v, _ := b.xGoName(ext); v != nil && naming.IsValid(fmt.Sprint(v)) {
			name = fmt.Sprint(v)
		} else if id, ok := naming.Exported(p.name, "X"); ok {
			name = id
		} else {
			name = "Field" + itoa(i)
		}
		f := &ir.Field{
			Name:     fields.derive(name, p.ptr),
			JSONName: p.name,
			Type:     b.typeOf(p.ref, t.Name+name, p.ptr),
			Required: required[p.name],
			Location: b.doc.locate(p.ref.Origin, p.ptr),
		}
		if ps != nil {
			if p.ref.Ref == "" {
				f.Doc = firstNonEmpty(ps.Description, ps.Title)
			}
			f.ReadOnly, f.WriteOnly, f.Deprecated = ps.ReadOnly, ps.WriteOnly, ps.Deprecated
		}
		t.Fields = append(t.Fields, f)
	}
}

// propertySet is the properties met while flattening a struct, in order,
// indexed by name.
type propertySet struct {
	list []property
	at   map[string]int
	// steps counts the properties added and the lookups of their
	// names, the work that must grow linearly with the properties.
	steps int
}

// add appends p, or replaces in place the property of the same name met
// before.
func (ps *propertySet) add(p property) {
	ps.steps++
	if ps.at == nil {
		ps.at = map[string]int{}
	}
	if i, ok := ps.at[p.name]; ok {
		ps.list[i] = p
		return
	}
	ps.at[p.name] = len(ps.list)
	ps.list = append(ps.list, p)
}

// flatten collects the properties and required names of s and of its
// allOf parts, parts first. A later property of the same name replaces an
// earlier one in place. A part on an allOf cycle (reported as
// E-ALLOF-CYCLE) is left out, also when an inline schema reaches it.
func (b *builder) flatten(s *openapi3.Schema, ptr string, props *propertySet, required map[string]bool) {
	for i, part := range s.AllOf {
		partPtr := nested(fmt.Sprintf("%s/allOf/%d", ptr, i))
		if part == nil || part.Value == nil || b.cyclic[part.Value] {
			continue
		}
		ps := part.Value
		if sh, _, _ := shapeOf(ps); sh != shapeStruct && sh != shapeSame && sh != shapeMap && sh != shapeAny {
			b.warnIgnored(b.doc.locate(part.Origin, partPtr), "allOf part that is not an object is left out of the merged struct: its constraints are not checked and it adds no field")
			continue
		}
		if part.Ref != "" {
			_, frag, _ := strings.Cut(part.Ref, "#")
			partPtr = "#" + frag
		}
		b.flatten(ps, partPtr, props, required)
	}
	if len(s.OneOf)+len(s.AnyOf) > 0 && len(s.AllOf) > 0 {
		if alts, _ := alternatives(s); !onlyConstraints(withoutNull(alts)) {
			b.warnIgnored(b.doc.locate(s.Origin, ptr), "oneOf/anyOf next to allOf is ignored: the merged struct has only the allOf parts' and its own properties")
		}
	}
	for _, name := range orderedProperties(s.Properties) {
		props.add(property{name: name, ref: s.Properties[name], ptr: nested(pointer(ptr, "properties", name))})
	}
	for _, r := range s.Required {
		required[r] = true
	}
}

// orderedProperties returns property names in source order when the
// loader recorded positions, by name otherwise.
func orderedProperties(props openapi3.Schemas) []string {
	names := sortedKeys(props)
	pos := func(name string) (string, int, int, bool) {
		if r := props[name]; r != nil && r.Origin != nil && r.Origin.Key != nil {
			return r.Origin.Key.File, r.Origin.Key.Line, r.Origin.Key.Column, true
		}
		return "", 0, 0, false
	}
	slices.SortStableFunc(names, func(x, y string) int {
		fx, lx, cx, okx := pos(x)
		fy, ly, cy, oky := pos(y)
		if okx != oky {
			if okx {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(fx, fy), cmp.Compare(lx, ly), cmp.Compare(cx, cy), cmp.Compare(x, y))
	})
	return names
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
