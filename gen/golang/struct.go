package golang

import (
	"encoding/json"
	"strconv"
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
	// keyed are the fields of properties whose names no struct tag can
	// spell ("a,string", ""): their tag is "-", and the struct's own
	// MarshalJSON and UnmarshalJSON write and read them by name.
	keyed []keyedField
}

// keyedField is a field that MarshalJSON and UnmarshalJSON write and read
// under its property's exact name.
type keyedField struct {
	name, key string
	// set is the condition under which an optional field is written;
	// nil for a required field, always written.
	set *jen.Statement
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
			typ = cd("Nullable").Types(typ)
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
		if !validTagName(f.JSONName) {
			kf := keyedField{name: f.Name, key: f.JSONName}
			switch {
			case f.Required:
			case m.fieldNullable(f):
				kf.set = jen.Id("v").Dot(f.Name).Dot("IsSet").Call()
			default:
				kf.set = jen.Id("v").Dot(f.Name).Op("!=").Nil()
			}
			v.keyed = append(v.keyed, kf)
			tag = "-"
			if len(doc) > 0 {
				doc = append(doc, "")
			}
			doc = append(doc, "It is the property "+sanitizeLine(strconv.Quote(f.JSONName))+", which no struct tag can name:",
				"MarshalJSON and UnmarshalJSON write and read it.")
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
	if len(v.keyed) > 0 {
		emitKeyedJSON(f, v)
	}
}

// emitKeyedJSON writes the MarshalJSON and UnmarshalJSON of a struct with
// properties whose names no struct tag can spell, which write and read
// them under their exact names, and the other fields as their tags say:
//
//	// MarshalJSON encodes v, the property "a,string" included.
//	func (v T) MarshalJSON() ([]byte, error) {
//		type plain T
//		data, err := json.Marshal(plain(v))
//		if err != nil {
//			return nil, err
//		}
//		data = data[:len(data)-1]
//		if v.AString != nil {
//			value, err := json.Marshal(v.AString)
//			if err != nil {
//				return nil, err
//			}
//			if len(data) > 1 {
//				data = append(data, ',')
//			}
//			data = append(append(data, "\"a,string\":"...), value...)
//		}
//		return append(data, '}'), nil
//	}
//
//	// UnmarshalJSON decodes data into v, the property "a,string" included.
//	func (v *T) UnmarshalJSON(data []byte) error {
//		type plain T
//		if err := json.Unmarshal(data, (*plain)(v)); err != nil {
//			return err
//		}
//		var members map[string]json.RawMessage
//		if err := json.Unmarshal(data, &members); err != nil {
//			return err
//		}
//		if member, ok := members["a,string"]; ok {
//			if err := json.Unmarshal(member, &v.AString); err != nil {
//				return err
//			}
//		}
//		return nil
//	}
func emitKeyedJSON(f *jen.File, v structView) {
	keys := make([]string, len(v.keyed))
	for i, k := range v.keyed {
		keys[i] = sanitizeLine(strconv.Quote(k.key))
	}
	named := "the property " + strings.Join(keys, ", ")
	if len(keys) > 1 {
		named = "the properties " + strings.Join(keys, ", ")
	}
	jsonQual := func(name string) *jen.Statement { return jen.Qual("encoding/json", name) }
	returnErr := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))

	marshal := []jen.Code{
		jen.Type().Id("plain").Id(v.name),
		jen.List(jen.Id("data"), jen.Err()).Op(":=").Add(jsonQual("Marshal")).Call(jen.Id("plain").Call(jen.Id("v"))),
		returnErr.Clone(),
		jen.Id("data").Op("=").Id("data").Index(jen.Empty(), jen.Len(jen.Id("data")).Op("-").Lit(1)),
	}
	unmarshal := []jen.Code{
		jen.Type().Id("plain").Id(v.name),
		jen.If(jen.Err().Op(":=").Add(jsonQual("Unmarshal")).Call(jen.Id("data"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v"))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Var().Id("members").Map(jen.String()).Add(jsonQual("RawMessage")),
		jen.If(jen.Err().Op(":=").Add(jsonQual("Unmarshal")).Call(jen.Id("data"), jen.Op("&").Id("members")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	for _, k := range v.keyed {
		key, _ := json.Marshal(k.key)
		write := []jen.Code{
			jen.List(jen.Id("value"), jen.Err()).Op(":=").Add(jsonQual("Marshal")).Call(jen.Id("v").Dot(k.name)),
			returnErr.Clone(),
			jen.If(jen.Len(jen.Id("data")).Op(">").Lit(1)).Block(jen.Id("data").Op("=").Append(jen.Id("data"), jen.LitRune(','))),
			jen.Id("data").Op("=").Append(jen.Append(jen.Id("data"), jen.Lit(string(key)+":").Op("...")), jen.Id("value").Op("...")),
		}
		if k.set != nil {
			marshal = append(marshal, jen.If(k.set).Block(write...))
		} else {
			marshal = append(marshal, jen.Block(write...))
		}
		unmarshal = append(unmarshal, jen.If(jen.List(jen.Id("member"), jen.Id("ok")).Op(":=").Id("members").Index(jen.Lit(k.key)), jen.Id("ok")).Block(
			jen.If(jen.Err().Op(":=").Add(jsonQual("Unmarshal")).Call(jen.Id("member"), jen.Op("&").Id("v").Dot(k.name)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		))
	}
	marshal = append(marshal, jen.Return(jen.Append(jen.Id("data"), jen.LitRune('}')), jen.Nil()))
	unmarshal = append(unmarshal, jen.Return(jen.Nil()))

	f.Comment("MarshalJSON encodes v, " + named + " included.")
	f.Func().Params(jen.Id("v").Id(v.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(marshal...)
	f.Comment("UnmarshalJSON decodes data into v, " + named + " included.")
	f.Func().Params(jen.Id("v").Op("*").Id(v.name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(unmarshal...)
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
