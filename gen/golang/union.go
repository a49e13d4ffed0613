package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/ir"
)

// unionView is what emitUnion writes.
type unionView struct {
	name          string
	doc           []string
	discriminator string
	variants      []variantView
}

// variantView is one alternative of a union.
type variantView struct {
	name string
	typ  *jen.Statement
	tags []string
}

func (m *models) unionView(t *ir.Type) unionView {
	what := "holds one of the alternatives (anyOf) of the schema"
	if t.Union.OneOf {
		what = "holds exactly one of the alternatives (oneOf) of the schema"
	}
	v := unionView{name: t.Name, doc: typeDoc(t, what), discriminator: t.Union.Discriminator}
	for _, variant := range t.Union.Variants {
		v.variants = append(v.variants, variantView{name: variant.Name, typ: m.goType(variant.Type), tags: variant.Tags})
	}
	return v
}

// emitUnion writes a struct keeping the raw JSON of the value, with typed
// accessors per variant and JSON methods that round-trip it unchanged:
//
//	type Pet struct {
//		union json.RawMessage
//	}
//	func (u Pet) AsCat() (Cat, error)
//	func (u *Pet) FromCat(v Cat) error
//	func (u Pet) MarshalJSON() ([]byte, error)
//	func (u *Pet) UnmarshalJSON(data []byte) error
//
// plus Discriminator and ValueByDiscriminator when the schema has a
// discriminator.
func emitUnion(f *jen.File, v unionView) {
	doc := append(v.doc, "", "Use the As and From methods to read and set the value.")
	f.Add(comments(doc).Type().Id(v.name).Struct(jen.Id("union").Qual("encoding/json", "RawMessage")))
	for _, variant := range v.variants {
		emitVariantAccessors(f, v.name, variant)
	}
	emitUnionJSON(f, v.name)
	if v.discriminator != "" {
		emitDiscriminator(f, v)
	}
}

// emitVariantAccessors writes
//
//	// AsCat decodes the value as Cat.
//	func (u Pet) AsCat() (Cat, error) {
//		var v Cat
//		err := json.Unmarshal(u.union, &v)
//		return v, err
//	}
//
//	// FromCat sets the value to v.
//	func (u *Pet) FromCat(v Cat) error {
//		data, err := json.Marshal(v)
//		if err != nil {
//			return err
//		}
//		u.union = data
//		return nil
//	}
func emitVariantAccessors(f *jen.File, union string, v variantView) {
	f.Comment("As" + v.name + " decodes the value as " + v.name + ".")
	f.Func().Params(jen.Id("u").Id(union)).Id("As"+v.name).Params().Params(v.typ.Clone(), jen.Error()).Block(
		jen.Var().Id("v").Add(v.typ.Clone()),
		jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("u").Dot("union"), jen.Op("&").Id("v")),
		jen.Return(jen.Id("v"), jen.Err()),
	)
	f.Comment("From" + v.name + " sets the value to v.")
	f.Func().Params(jen.Id("u").Op("*").Id(union)).Id("From"+v.name).Params(jen.Id("v").Add(v.typ.Clone())).Error().Block(
		jen.List(jen.Id("data"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("v")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id("u").Dot("union").Op("=").Id("data"),
		jen.Return(jen.Nil()),
	)
}

// emitUnionJSON writes
//
//	// MarshalJSON returns the value as it was set or decoded.
//	func (u Pet) MarshalJSON() ([]byte, error) {
//		if u.union == nil {
//			return []byte("null"), nil
//		}
//		return u.union, nil
//	}
//
//	// UnmarshalJSON keeps a copy of data.
//	func (u *Pet) UnmarshalJSON(data []byte) error {
//		u.union = append(json.RawMessage(nil), data...)
//		return nil
//	}
func emitUnionJSON(f *jen.File, union string) {
	f.Comment("MarshalJSON returns the value as it was set or decoded.")
	f.Func().Params(jen.Id("u").Id(union)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.If(jen.Id("u").Dot("union").Op("==").Nil()).Block(
			jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()),
		),
		jen.Return(jen.Id("u").Dot("union"), jen.Nil()),
	)
	f.Comment("UnmarshalJSON keeps a copy of data.")
	f.Func().Params(jen.Id("u").Op("*").Id(union)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Id("u").Dot("union").Op("=").Append(jen.Qual("encoding/json", "RawMessage").Call(jen.Nil()), jen.Id("data").Op("...")),
		jen.Return(jen.Nil()),
	)
}

// discriminatorBody reads the discriminator property name from u.union:
// through a struct tag when the name can be one, else (a name holding a
// comma or a quote) from the object's members.
//
//	var d map[string]json.RawMessage
//	if err := json.Unmarshal(u.union, &d); err != nil || d["a,b"] == nil {
//		return "", err
//	}
//	var s string
//	err := json.Unmarshal(d["a,b"], &s)
//	return s, err
func discriminatorBody(name string) []jen.Code {
	if validTagName(name) {
		return []jen.Code{
			jen.Var().Id("d").Struct(jen.Id("Value").String().Tag(map[string]string{"json": jsonTag(name, false)})),
			jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("u").Dot("union"), jen.Op("&").Id("d")),
			jen.Return(jen.Id("d").Dot("Value"), jen.Err()),
		}
	}
	member := jen.Id("d").Index(jen.Lit(name))
	return []jen.Code{
		jen.Var().Id("d").Map(jen.String()).Qual("encoding/json", "RawMessage"),
		jen.If(jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("u").Dot("union"), jen.Op("&").Id("d")), jen.Err().Op("!=").Nil().Op("||").Add(member.Clone()).Op("==").Nil()).Block(
			jen.Return(jen.Lit(""), jen.Err()),
		),
		jen.Var().Id("s").String(),
		jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(member, jen.Op("&").Id("s")),
		jen.Return(jen.Id("s"), jen.Err()),
	}
}

// emitDiscriminator writes
//
//	// Discriminator returns the value of the "petType" property.
//	func (u Pet) Discriminator() (string, error) {
//		var d struct {
//			Value string `json:"petType"`
//		}
//		err := json.Unmarshal(u.union, &d)
//		return d.Value, err
//	}
//
//	// ValueByDiscriminator decodes the value as the variant the
//	// discriminator names.
//	func (u Pet) ValueByDiscriminator() (any, error) {
//		d, err := u.Discriminator()
//		if err != nil {
//			return nil, err
//		}
//		switch d {
//		case "cat":
//			return u.AsCat()
//		}
//		return nil, fmt.Errorf("unknown petType %q", d)
//	}
func emitDiscriminator(f *jen.File, v unionView) {
	f.Comment("Discriminator returns the value of the " + quote(v.discriminator) + " property.")
	f.Func().Params(jen.Id("u").Id(v.name)).Id("Discriminator").Params().Params(jen.String(), jen.Error()).Block(
		discriminatorBody(v.discriminator)...,
	)
	var cases []jen.Code
	for _, variant := range v.variants {
		if len(variant.tags) == 0 {
			continue
		}
		tags := make([]jen.Code, len(variant.tags))
		for i, t := range variant.tags {
			tags[i] = jen.Lit(t)
		}
		cases = append(cases, jen.Case(tags...).Block(jen.Return(jen.Id("u").Dot("As"+variant.name).Call())))
	}
	f.Comment("ValueByDiscriminator decodes the value as the variant the")
	f.Comment("discriminator names.")
	f.Func().Params(jen.Id("u").Id(v.name)).Id("ValueByDiscriminator").Params().Params(jen.Any(), jen.Error()).Block(
		jen.List(jen.Id("d"), jen.Err()).Op(":=").Id("u").Dot("Discriminator").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Switch(jen.Id("d")).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("unknown "+strings.ReplaceAll(v.discriminator, "%", "%%")+" %q"), jen.Id("d"))),
	)
}

// quote writes s in double quotes for a comment.
func quote(s string) string { return `"` + sanitizeLine(s) + `"` }
