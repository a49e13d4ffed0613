package golang

import (
	"github.com/dave/jennifer/jen"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/resilientgo/resilient/gen/ir"
)

// EmitModels writes the model types of svc into f, in the order of
// svc.Types (sorted by name): a struct per object schema, a named type
// with constants per enum, a JSON-preserving union per oneOf/anyOf, and a
// named type for every other named schema.
func EmitModels(f *jen.File, svc *ir.Service) {
	m := newModels(svc)
	for _, t := range svc.Types {
		switch t.Kind {
		case ir.TypeStruct:
			emitStruct(f, m.structView(t))
		case ir.TypeEnum:
			emitEnum(f, m.enumView(t))
		case ir.TypeUnion:
			emitUnion(f, m.unionView(t))
		case ir.TypeAlias:
			emitAlias(f, m.aliasView(t))
		}
	}
}

// models is the computed view of a service's types: the named types by
// name, and the struct fields that must be pointers to break a cycle of
// structs containing each other by value.
type models struct {
	types     map[string]*ir.Type
	cyclePtrs map[*ir.Field]bool
	// files are the structs sent as multipart bodies, whose binary
	// properties are runtime Files.
	files map[string]bool
}

func newModels(svc *ir.Service) *models {
	m := &models{types: map[string]*ir.Type{}, cyclePtrs: map[*ir.Field]bool{}, files: multipartStructs(svc)}
	for _, t := range svc.Types {
		m.types[t.Name] = t
	}
	m.breakValueCycles(svc.Types)
	return m
}

// typeDoc is the doc comment of a named type: what it models, then the
// schema's title and description.
func typeDoc(t *ir.Type, what string) []string {
	lines := []string{t.Name + " " + what}
	if t.Location.Path != "" {
		lines[0] += " (" + t.Location.Path + ")"
	}
	lines[0] += "."
	if body := docLines(joinDoc(t.Title, t.Doc)); len(body) > 0 {
		lines = append(append(lines, ""), body...)
	}
	if t.Deprecated {
		lines = append(lines, "", "Deprecated: the schema is marked deprecated.")
	}
	return lines
}

// joinDoc puts a title and a description together, skipping empty parts
// and a description that repeats the title.
func joinDoc(title, doc string) string {
	switch {
	case title == "" || title == doc:
		return doc
	case doc == "":
		return sentence(title)
	}
	return sentence(title) + "\n\n" + doc
}

// sentence ends a one-line title with a period, so that a doc comment does
// not turn it into a heading ("List all pets" before a paragraph is one to
// gofmt).
func sentence(title string) string {
	t := strings.TrimSpace(title)
	if t == "" || strings.Contains(t, "\n") {
		return title
	}
	if r, _ := utf8.DecodeLastRuneInString(t); unicode.IsLetter(r) || unicode.IsDigit(r) {
		return t + "."
	}
	return title
}
