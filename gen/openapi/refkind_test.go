package openapi

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestMisplacedSchemaRef: a schema $ref that names a response is an
// error at the $ref, not the loader's unlocated message.
func TestMisplacedSchemaRef(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /captions:
    get:
      operationId: getCaptions
      responses:
        "200":
          description: ok
          content:
            text/plain:
              schema: {$ref: "#/components/responses/Caption"}
components:
  responses:
    Caption:
      description: a caption
`
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(spec)}}
	_, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs"})
	got := render(warnings, err)
	want := []string{
		`specs/api.yaml:12:24: E-REF-UNRESOLVED: $ref "#/components/responses/Caption" stands for a schema but names a response component, which is no schema: the document is not OpenAPI there, the loader refuses it whole, and no type can be read from what the $ref names (#/paths/~1captions/get/responses/200/content/text~1plain/schema); point the $ref at a schema under #/components/schemas, or write the schema in place`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
