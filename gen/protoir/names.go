package protoir

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/compiler/protogen"

	"github.com/resilientgo/resilient/gen/diag"
	"github.com/resilientgo/resilient/gen/ir"
)

// GeneratedNames returns the package-level Go names that the resilient
// client of a service whose Go name is s declares, and those that
// protoc-gen-go-grpc declares for it, with what declares them.
func GeneratedNames(s string) map[string]string {
	return map[string]string{
		s + "Client":                  "the client interface of protoc-gen-go-grpc",
		s + "Server":                  "the server interface of protoc-gen-go-grpc",
		"New" + s + "Client":          "the client constructor of protoc-gen-go-grpc",
		s + "_ServiceDesc":            "the service descriptor of protoc-gen-go-grpc",
		"NewResilient" + s + "Client": "the resilient client constructor",
		"resilient" + s + "Client":    "the resilient client type",
		s + "Option":                  "the resilient client's option type",
		s + "Policy":                  "the resilient client's policy table",
		"Default" + s + "Policy":      "the resilient client's default policy",
		"With" + s + "Policy":         "a resilient client option",
		"With" + s + "Observer":       "a resilient client option",
		"With" + s + "Logger":         "a resilient client option",
		"With" + s + "FallbackStore":  "a resilient client option",
	}
}

// declared is one package-level Go name and what declares it.
type declared struct {
	what string
	loc  ir.Location
}

// checkPackages checks the Go names of every Go package that files being
// generated go into.
func checkPackages(gen *protogen.Plugin, list *diag.List) {
	byPkg := map[protogen.GoImportPath][]*protogen.File{}
	var order []protogen.GoImportPath
	for _, f := range gen.Files {
		if !f.Generate {
			continue
		}
		if _, ok := byPkg[f.GoImportPath]; !ok {
			order = append(order, f.GoImportPath)
		}
		byPkg[f.GoImportPath] = append(byPkg[f.GoImportPath], f)
	}
	for _, p := range order {
		checkPackageNames(byPkg[p], list)
	}
}

// checkPackageNames reports Go names declared twice in the package of
// files: by protoc-gen-go (messages, nested messages, enums and their
// values) and by the generated service code.
func checkPackageNames(files []*protogen.File, list *diag.List) {
	names := map[string]declared{}
	declare := func(name, what string, loc ir.Location) {
		if prev, ok := names[name]; ok {
			first, second := prev, declared{what, loc}
			if loc.Before(prev.loc) {
				first, second = second, first
			}
			list.Errorf(second.loc, RuleNameCollision,
				fmt.Sprintf("%s and %s both map to Go name %s", first.what, second.what, name),
				"rename one of them, or move one into another Go package")
			return
		}
		names[name] = declared{what, loc}
	}
	var walkMsg func(f *protogen.File, m *protogen.Message)
	walkMsg = func(f *protogen.File, m *protogen.Message) {
		if m.Desc.IsMapEntry() {
			return
		}
		declare(m.GoIdent.GoName, "message "+string(m.Desc.FullName()), location(f, m.Desc))
		for _, e := range m.Enums {
			declare(e.GoIdent.GoName, "enum "+string(e.Desc.FullName()), location(f, e.Desc))
		}
		for _, n := range m.Messages {
			walkMsg(f, n)
		}
	}
	for _, f := range files {
		for _, e := range f.Enums {
			declare(e.GoIdent.GoName, "enum "+string(e.Desc.FullName()), location(f, e.Desc))
		}
		for _, m := range f.Messages {
			walkMsg(f, m)
		}
	}
	for _, f := range files {
		for _, s := range f.Services {
			gn := GeneratedNames(s.GoName)
			keys := make([]string, 0, len(gn))
			for k := range gn {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				declare(k, gn[k]+" of service "+string(s.Desc.FullName()), location(f, s.Desc))
			}
		}
	}
}
