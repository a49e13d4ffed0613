package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/resilientgo/resilient/policyspec/diag"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/ir"
)

// extensionKey is the OpenAPI extension carrying resilience policy.
const extensionKey = "x-resilience"

// resilience returns the raw x-resilience value of one level, located at
// its key, or nil when the level has none.
func (b *builder) resilience(level ir.Level, ext map[string]any, o *openapi3.Origin, ptr string) []ir.Extension {
	v, ok := ext[extensionKey]
	if !ok {
		return nil
	}
	keyPtr := pointer(ptr, extensionKey)
	loc := b.doc.locate(nil, keyPtr)
	if o != nil {
		if at, ok := o.Fields.Lookup(extensionKey); ok && at.File != "" {
			loc = diag.Location{File: at.File, Line: at.Line, Col: at.Column, Path: keyPtr}
		}
	}
	return []ir.Extension{{Level: level, Value: v, Location: loc, Positions: b.doc.keyPositions(loc, keyPtr)}}
}

// keyPositions returns where each key inside the value at ptr was written,
// by pointer relative to that value, when the value is in the entry file
// at loc; nil otherwise.
func (d *Document) keyPositions(loc diag.Location, ptr string) map[string]diag.Location {
	if d.entry.root == nil || loc.File != d.entry.display {
		return nil
	}
	node, ok := lookup(d.entry.root, d.sourcePointer(ptr))
	if !ok || node.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]diag.Location{}
	var walk func(n *yaml.Node, rel string)
	walk = func(n *yaml.Node, rel string) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := pointer(rel, k.Value)
			out[p] = diag.Location{File: loc.File, Line: k.Line, Col: k.Column, Path: ptr + p}
			walk(v, p)
		}
	}
	walk(node, "")
	return out
}
