package golang_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// answersSpec has an operation whose result struct's natural name is a
// schema's, and a response header of a type no header parser takes.
const answersSpec = `openapi: 3.0.3
info: {title: Answers, version: "1"}
paths:
  /jobs:
    get:
      operationId: listJobs
      responses:
        "200":
          description: Jobs.
          headers:
            X-Cursor: {schema: {type: string}}
            X-Shards:
              schema: {type: array, items: {type: integer}}
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/ListJobsResult"}}
        "204": {description: None.}
components:
  schemas:
    ListJobsResult:
      type: object
      properties:
        id: {type: string}
`

// TestResultNamesAndHeaderTypes: a result struct whose name a schema
// already has is renamed (W-NAME-RENAMED), and a header of a type the client does not
// parse is left in Header with a W-RESPONSE-HEADER warning naming it.
func TestResultNamesAndHeaderTypes(t *testing.T) {
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(answersSpec)}}
	svc := loadSpec(t, fsys, "api.yaml", openapi.BuildOptions{})
	code, warnings := emitAll(t, svc, "answers", "api.yaml")
	f, err := parser.ParseFile(token.NewFileSet(), "answers.go", code, 0)
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	fields := map[string]string{} // ListJobsCallResult's fields and their types
	var result string             // ListJobs's first result type
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || ts.Name.Name != "ListJobsCallResult" {
					continue
				}
				for _, fl := range ts.Type.(*ast.StructType).Fields.List {
					fields[fl.Names[0].Name] = types.ExprString(fl.Type)
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil && d.Name.Name == "ListJobs" {
				result = types.ExprString(d.Type.Results.List[0].Type)
			}
		}
	}
	if result != "*ListJobsCallResult" {
		t.Errorf("ListJobs returns %s, want *ListJobsCallResult (ListJobsResult is the schema's)", result)
	}
	want := map[string]string{"Status": "int", "Header": "http.Header", "OK": "[]ListJobsResult", "XCursor": "string"}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("ListJobsCallResult's fields (-want +got):\n%s", diff)
	}
	var got []string
	for _, w := range warnings {
		if w.Rule == diag.RuleResponseHeader {
			got = append(got, w.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], `"X-Shards"`) {
		t.Errorf("W-RESPONSE-HEADER warnings = %q, want one naming X-Shards", got)
	}
}

// TestStreamPolicyWarning: a streamed operation whose policy hedges gets
// W-STREAM-POLICY, since a stream is never hedged; one without gets none.
func TestStreamPolicyWarning(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Feed, version: "1"}
paths:
  /events:
    get:
      operationId: watch
      x-resilience: {hedge: {delay: 50ms}}
      responses:
        "200":
          description: Events.
          content:
            text/event-stream:
              schema: {type: string}
  /log:
    get:
      operationId: tail
      responses:
        "200":
          description: Lines.
          content:
            application/x-ndjson:
              schema: {type: object, properties: {n: {type: integer}}}
`
	svc := loadSpec(t, fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "api.yaml", openapi.BuildOptions{})
	_, warnings := emitAll(t, svc, "feed", "api.yaml")
	var got []string
	for _, w := range warnings {
		if w.Rule == diag.RuleStreamPolicy {
			got = append(got, w.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "operation Watch ") {
		t.Errorf("W-STREAM-POLICY warnings = %q, want one for Watch", got)
	}
}
