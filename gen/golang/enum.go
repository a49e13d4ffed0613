package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/ir"
)

// enumView is what emitEnum writes.
type enumView struct {
	name   string
	doc    []string
	base   *jen.Statement
	values []enumValueView
}

// enumValueView is one constant.
type enumValueView struct {
	name  string
	value *jen.Statement
}

func (m *models) enumView(t *ir.Type) enumView {
	v := enumView{name: t.Name, doc: typeDoc(t, "enumerates the values of the schema"), base: m.goType(&ir.TypeRef{Kind: t.Enum.Base})}
	for _, e := range t.Enum.Values {
		v.values = append(v.values, enumValueView{name: e.Name, value: enumLit(e.Value)})
	}
	return v
}

// emitEnum writes
//
//	// PetStatus enumerates the values of the schema (...).
//	type PetStatus string
//
//	// The values of PetStatus.
//	const (
//		PetStatusAvailable PetStatus = "available"
//		PetStatusSold      PetStatus = "sold"
//	)
func emitEnum(f *jen.File, v enumView) {
	f.Add(comments(v.doc).Type().Id(v.name).Add(v.base))
	defs := make([]jen.Code, 0, len(v.values))
	for _, e := range v.values {
		defs = append(defs, jen.Id(e.name).Id(v.name).Op("=").Add(e.value))
	}
	f.Comment("The values of " + v.name + ".")
	f.Const().Defs(defs...)
}

// enumLit writes an enum value as an untyped constant: a string, or an
// integer (int64 values in the IR; jen.Lit would write "int64(n)").
func enumLit(v any) *jen.Statement {
	if n, ok := v.(int64); ok {
		return jen.Lit(int(n))
	}
	return jen.Lit(v)
}
