package openapi

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestSubschemaSharing: a schema a document reaches many ways is
// converted once, so that a deep graph of shared schemas (2^40 paths
// here) converts in as many steps as it has schemas.
func TestSubschemaSharing(t *testing.T) {
	s := &openapi3.Schema{Type: &openapi3.Types{"string"}}
	for range 40 {
		ref := &openapi3.SchemaRef{Value: s}
		s = &openapi3.Schema{Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{"a": ref, "b": ref}}
	}
	got := textUnmodeled(&openapi3.Schema{Not: &openapi3.SchemaRef{Value: s}}, true)
	if got == nil || !got.Whole {
		t.Fatalf("got %+v, want a whole schema", got)
	}
	not := got.Lookup("not")
	if not == nil || not.Lookup("properties/a") != not.Lookup("properties/b") {
		t.Errorf("the two properties' schema is converted twice")
	}
	var depth int
	for n := not; n != nil; n = n.Lookup("properties/a") {
		depth++
	}
	if depth < maxSubschemaDepth-1 || depth > maxSubschemaDepth+1 {
		t.Errorf("depth %d, want about %d", depth, maxSubschemaDepth)
	}
}
