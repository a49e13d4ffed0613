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
	EmitModelsTo(func(*ir.Type) *jen.File { return f }, svc)
}

// EmitModelsTo writes the model types of svc as [EmitModels] does, each
// into the file fileOf returns for it: files of one package.
func EmitModelsTo(fileOf func(*ir.Type) *jen.File, svc *ir.Service) {
	m := newModels(svc)
	for _, t := range svc.Types {
		f := fileOf(t)
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
	// parts are the part headers of those structs (partheaders.go).
	parts map[string][]*partHeader
}

func newModels(svc *ir.Service) *models {
	m := &models{types: map[string]*ir.Type{}, cyclePtrs: map[*ir.Field]bool{}, files: multipartStructs(svc)}
	for _, t := range svc.Types {
		m.types[t.Name] = t
	}
	m.parts = partHeaders(svc, m.types)
	m.breakValueCycles(svc.Types)
	return m
}

// typeDoc is the doc comment of a named type: what it models, then the
// schema's title and description.
func typeDoc(t *ir.Type, what string) []string {
	lines := []string{t.Name + " " + what}
	if t.Location.Path != "" {
		lines[0] += " (" + shortPointer(t.Location.Path) + ")"
	}
	lines[0] += "."
	if body := docLines(joinDoc(t.Title, t.Doc)); len(body) > 0 {
		lines = append(append(lines, ""), body...)
	}
	if t.Renamed != "" {
		lines = append(append(lines, ""), wrap("It is not called by the schema's name: "+t.Renamed+".", commentWidth)...)
	}
	if t.Deprecated {
		lines = append(lines, "", "Deprecated: the schema is marked deprecated.")
	}
	return lines
}

// maxDocPointer bounds the schema pointer a type's doc comment shows. The
// pointer of an inline schema repeats the whole nesting path above it, so
// showing it in full would make the generated file grow with the square
// of the depth. The corpus's longest (Stripe's, 297 bytes) stay below it.
const maxDocPointer = 320

// shortPointer returns p, or when it is longer than maxDocPointer its
// first and last segments around "/…", cut at segment boundaries.
func shortPointer(p string) string {
	if len(p) <= maxDocPointer {
		return p
	}
	head := strings.LastIndexByte(p[:maxDocPointer/3], '/')
	tail := strings.IndexByte(p[len(p)-maxDocPointer*2/3:], '/')
	if head <= 0 || tail < 0 {
		return p[:runeStart(p, maxDocPointer/3)] + "…" + p[runeStart(p, len(p)-maxDocPointer*2/3):]
	}
	return p[:head] + "/…" + p[len(p)-maxDocPointer*2/3+tail:]
}

// runeStart backs i up to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
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
