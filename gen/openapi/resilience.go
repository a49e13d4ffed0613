package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"

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
			loc = ir.Location{File: at.File, Line: at.Line, Col: at.Column, Path: keyPtr}
		}
	}
	return []ir.Extension{{Level: level, Value: v, Location: loc}}
}
