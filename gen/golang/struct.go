package golang

import (
	"strings"
	"unicode"

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
		if m.files[t.Name] {
			typ = m.partType(f.Type)
		}
		tag := jsonTag(f.JSONName, !f.Required)
		switch {
		case m.fieldNullable(f):
			typ = rt("Nullable").Types(typ)
			tag = f.JSONName + ",omitzero"
		case m.fieldPointer(f, true):
			typ = jen.Op("*").Add(typ)
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
	v.fields = append(v.fields, m.partHeaderFields(t)...)
	return v
}

// fieldPointer reports whether a field is a pointer: optional or nullable
// values whose Go type has no nil of its own, and, with cycles true, the
// fields that close a by-value cycle. An optional and nullable field is
// held by value in a runtime Nullable ([models.fieldNullable]) unless it
// closes such a cycle.
func (m *models) fieldPointer(f *ir.Field, cycles bool) bool {
	if cycles && m.cyclePtrs[f] {
		return true
	}
	if m.nilable(f.Type) || m.nullableKind(f) {
		return false
	}
	return !f.Required || f.Type.Nullable
}

// fieldNullable reports whether a field is a runtime Nullable, which tells
// an absent property from a null one: the property is optional and
// nullable (3.0 nullable: true, 3.1 type: [T, "null"]), its value is not
// any JSON (a json.RawMessage keeps null itself), and it does not close a
// cycle of structs (such a field stays a pointer, nil for both). A
// required nullable field is a pointer, nil for null; an optional one that
// is not nullable is a pointer (or its own nil), nil for absent.
func (m *models) fieldNullable(f *ir.Field) bool {
	return m.nullableKind(f) && !m.cyclePtrs[f]
}

// nullableKind is fieldNullable before cycles are broken.
func (m *models) nullableKind(f *ir.Field) bool {
	return !f.Required && f.Type.Nullable && f.Type.Kind != ir.KindAny
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

// jsonTag returns the json struct tag of the property name: "name" or
// "name,omitempty". A property called "-" gets "-," ("-,omitempty"): the
// bare tag "-" would leave the field out of every encoding and decoding.
func jsonTag(name string, omitempty bool) string {
	switch {
	case omitempty:
		return name + ",omitempty"
	case name == "-":
		return "-,"
	}
	return name
}

// validTagName reports whether encoding/json takes name as the name part of
// a struct tag: not empty, only letters, digits and the punctuation it
// allows (no quote, backslash, comma or backquote).
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r) {
			return false
		}
	}
	return true
}
