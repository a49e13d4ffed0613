package policyspec

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// File is a decoded policy file (see the package documentation for its
// format).
type File struct {
	// Name is the file name used in locations.
	Name string
	// Defaults is the "defaults" policy, applied to every dependency.
	Defaults Spec
	// Dependencies are the entries of "dependencies", sorted by name.
	Dependencies []FileDependency
	// ServiceConfigs are the gRPC service config files that
	// "grpcServiceConfigs" names, in the order written, relative to the
	// policy file's folder. A proto run reads them as a policy layer
	// below the policy file's own (see [LayerServiceConfig]).
	ServiceConfigs []FileRef
}

// FileRef is a file a policy file names.
type FileRef struct {
	// Name is the file's name as written, a slash-separated relative
	// path.
	Name string
	// Loc is where the name is written.
	Loc diag.Location
}

// FileDependency is one entry of a policy file's "dependencies".
type FileDependency struct {
	// Name is the dependency's name: the OpenAPI client name or the proto
	// service's full name.
	Name string
	// Loc is where the entry's name is written.
	Loc diag.Location
	// Spec is the entry's policy.
	Spec Spec
	// Operations are the entries of its "operations", sorted by name.
	Operations []FileOperation
}

// FileOperation is one entry of a dependency's "operations".
type FileOperation struct {
	// Name is the operation's name: the operationId or the rpc name.
	Name string
	// Loc is where the entry's name is written.
	Loc diag.Location
	// Spec is the entry's policy.
	Spec Spec
}

// DecodeFile decodes a policy file named name. It reports every problem as
// [diag.List]; the returned File holds all that was valid and is never
// nil. An empty file is an empty policy.
func DecodeFile(name string, data []byte) (*File, error) {
	f := &File{Name: name}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return f, yamlDiagnostic(name, err)
	}
	c := newConverter()
	c.src = strings.Split(string(data), "\n")
	v := c.fromNode(&root, diag.Location{File: name}, 0)
	switch v.kind {
	case vNull:
		return f, c.diags.Err()
	case vMap:
	default:
		c.typeError(v, "policy file", "a mapping with defaults and dependencies")
		return f, c.diags.Err()
	}
	for _, e := range v.entries {
		switch e.key {
		case "defaults":
			f.Defaults, _ = c.spec(e.val, camelKeys, nil)
			c.scope(LayerFileDefaults, f.Defaults)
		case "dependencies":
			f.Dependencies = c.dependencies(e.val)
		case "grpcServiceConfigs":
			f.ServiceConfigs = c.fileRefs(e.val, e.key)
		default:
			c.unknownKey(e, "policy file", camelKeys, []string{"defaults", "dependencies", "grpcServiceConfigs"})
		}
	}
	return f, c.diags.Err()
}

// fileRefs decodes a list of relative file names (one name alone is a
// list of one) written under key.
func (c *converter) fileRefs(v *value, key string) []FileRef {
	const want = "a list of relative file names, such as [pubsub_grpc_service_config.json]"
	items := []*value{v}
	switch v.kind {
	case vNull:
		return nil
	case vList:
		items = v.items
	}
	var refs []FileRef
	for _, it := range items {
		if it.kind != vString {
			c.typeError(it, key, want)
			continue
		}
		name := it.text
		clean := path.Clean(name)
		if name == "" || strings.ContainsAny(name, "\\:") || !fs.ValidPath(clean) {
			c.add(it.loc, diag.RuleType, fmt.Sprintf("%s names %s, which is not a relative path inside the policy file's folder", key, quoted(name)), want)
			continue
		}
		refs = append(refs, FileRef{Name: clean, Loc: it.loc})
	}
	return refs
}

func (c *converter) dependencies(v *value) []FileDependency {
	if v.kind == vNull {
		return nil
	}
	if v.kind != vMap {
		c.typeError(v, "dependencies", "a mapping from dependency names to policies")
		return nil
	}
	var deps []FileDependency
	for _, e := range v.entries {
		d := FileDependency{Name: e.key, Loc: e.loc}
		var extras map[string]entry
		d.Spec, extras = c.spec(e.val, camelKeys, []string{"operations"})
		c.scope(LayerFileDependency, d.Spec)
		if ops, ok := extras["operations"]; ok {
			d.Operations = c.operations(ops.val)
		}
		deps = append(deps, d)
	}
	slices.SortStableFunc(deps, func(a, b FileDependency) int { return strings.Compare(a.Name, b.Name) })
	return deps
}

func (c *converter) operations(v *value) []FileOperation {
	if v.kind == vNull {
		return nil
	}
	if v.kind != vMap {
		c.typeError(v, "operations", "a mapping from operation names to policies")
		return nil
	}
	var ops []FileOperation
	for _, e := range v.entries {
		op := FileOperation{Name: e.key, Loc: e.loc}
		op.Spec, _ = c.spec(e.val, camelKeys, nil)
		c.scope(LayerFileOperation, op.Spec)
		ops = append(ops, op)
	}
	slices.SortStableFunc(ops, func(a, b FileOperation) int { return strings.Compare(a.Name, b.Name) })
	return ops
}

// scope reports the keys of s that may not be written at a layer of kind.
func (c *converter) scope(kind LayerKind, s Spec) {
	c.diags = append(c.diags, checkScope(Layer{Kind: kind, Spec: s})...)
}

// yamlDiagnostic turns a YAML syntax error into a diagnostic.
func yamlDiagnostic(name string, err error) error {
	msg, _ := firstLine(strings.TrimPrefix(err.Error(), "yaml: "))
	loc := diag.Location{File: name}
	if _, rest, ok := strings.Cut(msg, "line "); ok {
		end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			end = len(rest)
		}
		loc.Line, _ = strconv.Atoi(rest[:end])
	}
	fix := "fix the yaml syntax"
	if strings.Contains(msg, "cannot start any token") {
		fix = "tabs are not allowed in yaml indentation; indent with spaces"
	}
	return diag.List{{Location: loc, Rule: diag.RuleYAML, Message: msg, Fix: fix}}.Err()
}

// Dependency returns the entry named name, if any.
func (f *File) Dependency(name string) (FileDependency, bool) {
	if f == nil {
		return FileDependency{}, false
	}
	for _, d := range f.Dependencies {
		if d.Name == name {
			return d, true
		}
	}
	return FileDependency{}, false
}

// DependencyLayers returns the file's layers for the dependency named
// name: the defaults and, when present, the dependency's entry. A nil File
// has none.
func (f *File) DependencyLayers(name string) []Layer {
	if f == nil {
		return nil
	}
	layers := []Layer{{Kind: LayerFileDefaults, Spec: f.Defaults}}
	if d, ok := f.Dependency(name); ok {
		layers = append(layers, Layer{Kind: LayerFileDependency, Spec: d.Spec})
	}
	return layers
}

// OperationLayers returns the file's layer for operation op of dependency
// dep, when the file has an entry for it. A nil File has none.
func (f *File) OperationLayers(dep, op string) []Layer {
	d, _ := f.Dependency(dep)
	for _, o := range d.Operations {
		if o.Name == op {
			return []Layer{{Kind: LayerFileOperation, Spec: o.Spec}}
		}
	}
	return nil
}

// CheckNames reports, as E-POLICY-UNUSED, every dependency and operation
// entry of the file that names nothing in known, a map from dependency names
// to their operation names. Such entries are typos, or stale.
func (f *File) CheckNames(known map[string][]string) error {
	if f == nil {
		return nil
	}
	var ds diag.List
	deps := slices.Sorted(maps.Keys(known))
	for _, d := range f.Dependencies {
		ops, ok := known[d.Name]
		if !ok {
			ds = append(ds, unused("dependency", d.Name, d.Loc, deps))
			continue
		}
		for _, o := range d.Operations {
			if !contains(ops, o.Name) {
				ds = append(ds, unused(fmt.Sprintf("operation of %s", d.Name), o.Name, o.Loc, ops))
			}
		}
	}
	return ds.Err()
}

// CheckOperations reports, as E-POLICY-UNUSED, every operation entry of
// the dependency named dep that names none of ops. Unlike [File.CheckNames]
// it says nothing of the other dependencies' entries: a proto run resolves
// its services one by one, and an entry for another service of the run is
// not unused.
func (f *File) CheckOperations(dep string, ops []string) error {
	d, ok := f.Dependency(dep)
	if !ok {
		return nil
	}
	var ds diag.List
	for _, o := range d.Operations {
		if !contains(ops, o.Name) {
			ds = append(ds, unused(fmt.Sprintf("operation of %s", d.Name), o.Name, o.Loc, ops))
		}
	}
	return ds.Err()
}

func unused(what, name string, loc diag.Location, known []string) diag.Diagnostic {
	fix := "remove the entry"
	if s := suggest(name, known); s != "" {
		fix = fmt.Sprintf("did you mean %q?", s)
	}
	return diag.Diagnostic{Location: loc, Rule: diag.RuleUnused, Message: fmt.Sprintf("policy file names %s %s, which does not exist", what, quoted(name)), Fix: fix}
}
