package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/ir"
)

// structView is what emitStruct writes.
type structView struct {
	name   string
	doc    []string
	fields []fieldView
}

// fieldView is one struct field.
type fieldView struct {
	name    string
	doc     []string
	typ     *jen.Statement
	jsonTag string
}

func (m *models) structView(t *ir.Type) structView {
	v := structView{name: t.Name, doc: typeDoc(t, "models the object schema")}
	for _, f := range t.Fields {
		typ := m.goType(f.Type)
		if m.fieldPointer(f, true) {
			typ = jen.Op("*").Add(typ)
		}
		tag := f.JSONName
		if !f.Required {
			tag += ",omitempty"
		}
		doc := docLines(f.Doc)
		if f.Deprecated {
			if len(doc) > 0 {
				doc = append(doc, "")
			}
			doc = append(doc, "Deprecated: the property is marked deprecated.")
		}
		v.fields = append(v.fields, fieldView{name: f.Name, doc: doc, typ: typ, jsonTag: tag})
	}
	return v
}

// fieldPointer reports whether a field is a pointer: optional or nullable
// values whose Go type has no nil of its own, and, with cycles true, the
// fields that close a by-value cycle.
func (m *models) fieldPointer(f *ir.Field, cycles bool) bool {
	if cycles && m.cyclePtrs[f] {
		return true
	}
	if m.nilable(f.Type) {
		return false
	}
	return !f.Required || f.Type.Nullable
}

// emitStruct writes
//
//	// Pet models the object schema (#/components/schemas/Pet).
//	type Pet struct {
//		// Name of the pet.
//		Name string `json:"name"`
//		Tag  *string `json:"tag,omitempty"`
//	}
func emitStruct(f *jen.File, v structView) {
	fields := make([]jen.Code, 0, len(v.fields))
	for _, fv := range v.fields {
		fields = append(fields, comments(fv.doc).Id(fv.name).Add(fv.typ).Tag(map[string]string{"json": fv.jsonTag}))
	}
	f.Add(comments(v.doc).Type().Id(v.name).Struct(fields...))
}
