package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/ir"
)

// aliasView is what emitAlias writes.
type aliasView struct {
	name string
	doc  []string
	typ  *jen.Statement
	// same makes a Go alias ("="), used for another named type so that
	// its methods (a union's JSON methods) stay.
	same bool
}

func (m *models) aliasView(t *ir.Type) aliasView {
	return aliasView{
		name: t.Name,
		doc:  typeDoc(t, "models the schema"),
		typ:  m.goType(t.Alias),
		same: t.Alias.Kind == ir.KindNamed,
	}
}

// emitAlias writes
//
//	// Pets models the schema (#/components/schemas/Pets).
//	type Pets []Pet
//
// or, for a schema that is another named type, "type A = B".
func emitAlias(f *jen.File, v aliasView) {
	decl := comments(v.doc).Type().Id(v.name)
	if v.same {
		decl.Op("=")
	}
	f.Add(decl.Add(v.typ))
}
