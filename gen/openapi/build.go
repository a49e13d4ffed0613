package openapi

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// BuildOptions configures [Build]. The zero value is ready to use.
type BuildOptions struct {
	// Strict makes an operation without operationId an error (E-NO-OPID)
	// instead of a warning (W-NO-OPID).
	Strict bool
	// IgnoreGoNames disregards x-go-name, for documents whose x-go-name
	// values were written for another generator's package layout.
	IgnoreGoNames bool
	// Reserved are the package-level names the generated client declares
	// for itself (Client, NewClient, its options...), and ReservedMethods
	// the methods of its Client. A schema or operation that would take
	// one is renamed, with a warning (W-NAME-RENAMED).
	Reserved, ReservedMethods []string
	// DocumentURL is the URL the document is served from, against which
	// relative server URLs are resolved (OpenAPI 3, Server Object). Empty
	// leaves them relative, with a W-SERVER warning.
	DocumentURL string
}

// Build turns a loaded document into the IR. Schemas and operations
// whose Go names collide, with each other or with the names in the
// options' Reserved and ReservedMethods, are renamed deterministically
// (W-NAME-RENAMED). It reports every naming problem (E-NAME-INVALID,
// E-ALLOF-CYCLE...) at once. The service is returned even when there is
// an error, for a caller that generates only some operations and
// disregards the errors of the others: it is then incomplete (an
// operation that could not be named is missing) and must not be used
// whole. Constructs the IR cannot represent become "any JSON value" with
// a W-UNSUPPORTED warning.
func Build(doc *Document, opts BuildOptions) (*ir.Service, []diag.Diagnostic, error) {
	b := &builder{
		doc:        doc,
		opts:       opts,
		pkg:        newNamespace(),
		ops:        newNamespace(),
		types:      map[string]*ir.Type{},
		bySchema:   map[*openapi3.Schema]*ir.TypeRef{},
		byRef:      map[string]*ir.TypeRef{},
		components: map[string]string{},
		cyclic:     map[*openapi3.Schema]bool{},
		renamed:    map[string]string{},
	}
	for _, name := range opts.Reserved {
		b.pkg.claim(name, reservedOwner)
	}
	for _, name := range opts.ReservedMethods {
		b.ops.claim(name, reservedOwner)
	}
	svc := b.service()
	return svc, b.diags.Warnings(), b.diags.Err()
}

// builder holds the state of one Build call.
type builder struct {
	doc   *Document
	opts  BuildOptions
	diags diag.List
	// pkg is the package scope: types and enum constants. ops is the
	// scope of operation names.
	pkg, ops *namespace
	types    map[string]*ir.Type
	// bySchema maps schemas already given a named type to it.
	bySchema map[*openapi3.Schema]*ir.TypeRef
	// byRef maps $ref targets outside the components to their named type.
	byRef map[string]*ir.TypeRef
	// components maps component schema names to their Go names.
	components map[string]string
	// cyclic marks schemas on an allOf cycle.
	cyclic map[*openapi3.Schema]bool
	// renamed says, by component schema name, why a schema's Go name is
	// not the one it asks for.
	renamed map[string]string
	// policyNodes indexes the x-resilience values of each file by
	// position, on first use (see policyNode).
	policyNodes map[string]map[[2]int]*yaml.Node
}

func (b *builder) service() *ir.Service {
	t := b.doc.T
	svc := &ir.Service{
		Source:   b.doc.Source,
		Location: b.doc.locate(t.Origin, "#"),
	}
	svc.Location.Path = ""
	svc.OpenAPI = t.OpenAPI
	if t.Info != nil {
		svc.Title, svc.Version, svc.Doc = t.Info.Title, t.Info.Version, t.Info.Description
		svc.Name, _ = naming.Exported(t.Info.Title, "X")
		if v, ok := t.Info.Extensions["x-go-name"].(string); ok && naming.IsValid(v) {
			svc.Name = v
		}
	}
	if svc.Name == "" {
		svc.Name = "API"
	}
	svc.Servers = b.servers()
	svc.SecuritySchemes = b.securitySchemes()
	svc.Resilience = b.resilience(ir.LevelDocument, t.Extensions, t.Origin, "#")

	b.findAllOfCycles()
	b.componentSchemas()
	svc.Operations = b.operations()
	b.checkConfusableIDs(svc.Operations)

	for _, ty := range b.types {
		svc.Types = append(svc.Types, ty)
	}
	slices.SortFunc(svc.Types, func(x, y *ir.Type) int { return cmp.Compare(x.Name, y.Name) })
	return svc
}

// xGoName returns the x-go-name value of an object, unless the options
// say to ignore it.
func (b *builder) xGoName(ext map[string]any) (any, bool) {
	if b.opts.IgnoreGoNames {
		return nil, false
	}
	v, ok := ext["x-go-name"]
	return v, ok
}

// goName returns x-go-name when set (it must be a valid exported
// identifier), else the mangled form of name. When neither gives an
// identifier it reports E-NAME-INVALID about what ("schema name \"Pet\"")
// and returns "".
func (b *builder) goName(ext map[string]any, name, prefix string, loc diag.Location, what string) string {
	if v, ok := b.xGoName(ext); ok {
		s, _ := v.(string)
		if naming.IsValid(s) {
			return s
		}
		b.diags.Errorf(loc, diag.RuleNameInvalid, fmt.Sprintf("x-go-name %q is not an exported Go identifier", fmt.Sprint(v)),
			"use a name that starts with an upper-case letter and holds only letters, digits and underscores")
		return ""
	}
	ident, ok := naming.Exported(name, prefix)
	if !ok {
		b.diags.Errorf(loc, diag.RuleNameInvalid, fmt.Sprintf("cannot form a Go identifier from %s", what), "set x-go-name")
		return ""
	}
	return ident
}

// componentSchemas names every component schema, then defines them. All
// names are claimed before any inline type is named, so spec names always
// win over derived ones.
func (b *builder) componentSchemas() {
	comps := b.doc.T.Components
	if comps == nil {
		return
	}
	names := sortedKeys(comps.Schemas)
	for _, name := range names {
		sr := comps.Schemas[name]
		ptr := pointer("#/components/schemas", name)
		loc := b.schemaLocation(sr, ptr)
		var ext map[string]any
		if sr != nil && sr.Value != nil {
			ext = sr.Value.Extensions
		}
		goName := b.goName(ext, name, "X", loc, fmt.Sprintf("schema name %q", name))
		if goName == "" {
			continue
		}
		owner := fmt.Sprintf("schema %q (%s)", name, ptr)
		if prev, ok := b.pkg.claim(goName, owner); !ok {
			fix := "choose another Go name for it with x-go-name"
			if _, set := b.xGoName(ext); set {
				fix = "give the schemas distinct x-go-name values, or disregard x-go-name (oapi-resilient -ignore-go-names) if the values were written for another generator"
			}
			renamed, why := b.pkg.rename(goName, "Model", prev, owner)
			b.diags.Warnf(loc, diag.RuleNameRenamed, fmt.Sprintf("schema %q is named %s: %s", name, renamed, why), fix)
			b.renamed[name] = why
			goName = renamed
		}
		b.components[name] = goName
		if sr != nil && sr.Ref == "" && sr.Value != nil {
			b.bySchema[sr.Value] = &ir.TypeRef{Kind: ir.KindNamed, Name: goName}
		}
	}
	for _, name := range names {
		goName, ok := b.components[name]
		if !ok {
			continue
		}
		sr := comps.Schemas[name]
		ptr := pointer("#/components/schemas", name)
		t := &ir.Type{Name: goName, Location: b.schemaLocation(sr, ptr), Renamed: b.renamed[name]}
		b.types[goName] = t
		b.defineNamed(t, sr, ptr)
	}
}

// schemaLocation places a schema: where its definition is written.
func (b *builder) schemaLocation(sr *openapi3.SchemaRef, ptr string) diag.Location {
	if sr == nil {
		return b.doc.locate(nil, ptr)
	}
	if sr.Value != nil && sr.Ref == "" {
		return b.doc.locate(sr.Value.Origin, ptr)
	}
	return b.doc.locate(sr.Origin, ptr)
}

// warnUnsupported reports a construct the IR represents as any JSON value.
func (b *builder) warnUnsupported(loc diag.Location, what string) {
	b.diags.Warnf(loc, diag.RuleUnsupported, what+"; the value is kept as raw JSON", "")
}

// warnIgnored reports a part of a schema the generated type leaves out:
// what says what, and what happens to it.
func (b *builder) warnIgnored(loc diag.Location, what string) {
	b.diags.Warnf(loc, diag.RuleUnsupported, what, "")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// refName returns the last segment of a $ref ("#/components/schemas/Pet"
// → "Pet", "Pet.yaml" → "Pet").
func refName(ref string) string {
	file, frag, _ := strings.Cut(ref, "#")
	if frag != "" {
		return frag[strings.LastIndex(frag, "/")+1:]
	}
	file = file[strings.LastIndex(file, "/")+1:]
	if i := strings.LastIndex(file, "."); i > 0 {
		file = file[:i]
	}
	return file
}
