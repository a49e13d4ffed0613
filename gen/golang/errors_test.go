package golang_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/openapi"
)

// errorTypes returns, for the generated client src, the error type each
// method's answers are decoded into (by the decode function it hands
// DoHTTP), and the error types declared.
func errorTypes(t *testing.T, src []byte) (byMethod map[string]string, declared []string) {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "client.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	byMethod = map[string]string{}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "DoHTTP" {
					if id, ok := call.Args[len(call.Args)-1].(*ast.Ident); ok && id.Name != "nil" {
						byMethod[d.Name.Name] = id.Name[len("decode"):]
					}
				}
				return true
			})
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, f := range st.Fields.List {
						if len(f.Names) == 1 && f.Names[0].Name == "Remote" {
							declared = append(declared, ts.Name.Name)
						}
					}
				}
			}
		}
	}
	return byMethod, declared
}

// TestSharedErrorTypes: operations whose documented error answers are the
// same share one error type; the most shared is APIError unless a schema
// has that name, and a type of one operation is named after it.
func TestSharedErrorTypes(t *testing.T) {
	const head = "openapi: 3.0.3\ninfo: {title: Errs, version: \"1\"}\npaths:\n"
	op := func(path, method, id, responses string) string {
		return "  " + path + ":\n    " + method + ":\n      operationId: " + id + "\n      responses:\n        \"204\": {description: ok}\n" + responses
	}
	const dflt = "        default: {description: oops, content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}}\n"
	const notFound = "        \"404\": {description: missing, content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}}\n"
	const problem = "components:\n  schemas:\n    Problem: {type: object, properties: {title: {type: string}}}\n"
	tests := []struct {
		name     string
		spec     string
		byMethod map[string]string
		declared []string
	}{
		{"one operation keeps its own", head + op("/a", "get", "getA", dflt) + problem,
			map[string]string{"GetA": "GetAError"}, []string{"GetAError"}},
		{"the most shared is APIError, the next APIError2",
			head + op("/a", "get", "getA", notFound+dflt) + op("/b", "get", "getB", dflt) + op("/c", "get", "getC", dflt) +
				op("/d", "delete", "deleteD", notFound+dflt) + op("/e", "get", "getE", dflt) + op("/f", "post", "postF", notFound) + problem,
			map[string]string{"GetA": "APIError2", "GetB": "APIError", "GetC": "APIError", "DeleteD": "APIError2", "GetE": "APIError", "PostF": "PostFError"},
			[]string{"APIError2", "APIError", "PostFError"}},
		{"a schema named APIError keeps its name", head + op("/a", "get", "getA", dflt) + op("/b", "get", "getB", dflt) + problem +
			"    APIError: {type: object, properties: {code: {type: integer}}}\n",
			map[string]string{"GetA": "APIError2", "GetB": "APIError2"}, []string{"APIError2"}},
		{"different descriptions are different answers", head + op("/a", "get", "getA", dflt) +
			op("/b", "get", "getB", "        default: {description: other, content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}}\n") + problem,
			map[string]string{"GetA": "GetAError", "GetB": "GetBError"}, []string{"GetAError", "GetBError"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := loadSpec(t, fstest.MapFS{"errs.yaml": {Data: []byte(tt.spec)}}, "errs.yaml", openapi.BuildOptions{})
			src, _ := emitAll(t, svc, "errs", "errs.yaml")
			byMethod, declared := errorTypes(t, src)
			if diff := cmp.Diff(tt.byMethod, byMethod); diff != "" {
				t.Errorf("error type by method (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.declared, declared); diff != "" {
				t.Errorf("declared error types (-want +got):\n%s", diff)
			}
		})
	}
}
