package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// extensionKey is the OpenAPI extension carrying resilience policy.
const extensionKey = "x-resilience"

// resilience decodes the x-resilience value of one level, located at its
// key, into a policy layer; nil when the level has none. The value is
// decoded from the YAML node of the file it is written in, so that every
// key and every problem has its own line and column; a value whose node
// cannot be found (a document converted from Swagger, whose positions the
// loader did not keep) is decoded from the loader's value, each of its
// problems placed at the x-resilience key.
func (b *builder) resilience(level ir.Level, ext map[string]any, o *openapi3.Origin, ptr string) []ir.PolicyLayer {
	v, ok := ext[extensionKey]
	if !ok {
		return nil
	}
	keyPtr := pointer(ptr, extensionKey)
	loc := b.doc.locate(nil, keyPtr)
	if o != nil {
		if at, ok := o.Fields.Lookup(extensionKey); ok && at.File != "" {
			loc = diag.Location{File: at.File, Line: at.Line, Col: b.doc.loaderColumn(at.File, at.Line, at.Column), Path: keyPtr}
		}
	}
	var spec policyspec.Spec
	var err error
	if node := b.policyNode(loc); node != nil {
		spec, err = policyspec.DecodeNode(node, loc)
	} else {
		spec, err = policyspec.DecodeValue(v, loc)
	}
	b.diags.AddErr(err)
	return []ir.PolicyLayer{{Level: level, Spec: spec, Location: loc}}
}

// policyNode returns the value node of the x-resilience key written at loc
// (its key's position, or its value's), or nil when there is none.
func (b *builder) policyNode(loc diag.Location) *yaml.Node {
	if b.policyNodes == nil {
		b.policyNodes = map[string]map[[2]int]*yaml.Node{}
	}
	nodes, ok := b.policyNodes[loc.File]
	if !ok {
		nodes = extensionNodes(b.doc.fileRoot(loc.File))
		b.policyNodes[loc.File] = nodes
	}
	return nodes[[2]int{loc.Line, loc.Col}]
}

// extensionNodes indexes the value nodes of every x-resilience key below
// root by the line and column of the key and of the value; nil for a nil
// root.
func extensionNodes(root *yaml.Node) map[[2]int]*yaml.Node {
	out := map[[2]int]*yaml.Node{}
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k, v := n.Content[i], n.Content[i+1]; k.Value == extensionKey {
					out[[2]int{k.Line, k.Column}] = v
					out[[2]int{v.Line, v.Column}] = v
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	return out
}
