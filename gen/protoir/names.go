package protoir

import (
	"google.golang.org/protobuf/compiler/protogen"

	"github.com/resilientgo/resilient/gen/ir"
)

// Declarations returns, by Go import path, the package-level Go names
// that protoc-gen-go declares for the messages (nested ones included) and
// enums of the files gen is asked to generate, in the order of the
// request, for the back end to check them against its own and against
// each other.
func Declarations(gen *protogen.Plugin) map[string][]ir.Declaration {
	out := map[string][]ir.Declaration{}
	for _, f := range gen.Files {
		if f.Generate {
			out[string(f.GoImportPath)] = append(out[string(f.GoImportPath)], declarations(f)...)
		}
	}
	return out
}

// declarations returns the names protoc-gen-go declares for f's enums
// and messages.
func declarations(f *protogen.File) []ir.Declaration {
	var out []ir.Declaration
	for _, e := range f.Enums {
		out = append(out, ir.Declaration{Name: e.GoIdent.GoName, What: "enum " + string(e.Desc.FullName()), Location: location(f, e.Desc)})
	}
	var walkMsg func(m *protogen.Message)
	walkMsg = func(m *protogen.Message) {
		if m.Desc.IsMapEntry() {
			return
		}
		out = append(out, ir.Declaration{Name: m.GoIdent.GoName, What: "message " + string(m.Desc.FullName()), Location: location(f, m.Desc)})
		for _, e := range m.Enums {
			out = append(out, ir.Declaration{Name: e.GoIdent.GoName, What: "enum " + string(e.Desc.FullName()), Location: location(f, e.Desc)})
		}
		for _, n := range m.Messages {
			walkMsg(n)
		}
	}
	for _, m := range f.Messages {
		walkMsg(m)
	}
	return out
}
