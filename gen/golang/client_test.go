package golang_test

import (
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"strings"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// emitAll writes the models and the client of svc into one file.
func emitAll(t *testing.T, svc *ir.Service, pkg, source string) ([]byte, []diag.Diagnostic) {
	t.Helper()
	res, _, err := resolve.HTTP(svc, pkg, nil)
	if err != nil {
		t.Fatalf("resolve.HTTP: %v", err)
	}
	f := golang.NewFile(pkg, source)
	golang.EmitModels(f, svc)
	warnings, err := golang.EmitClient(f, res, golang.ClientOptions{})
	if err != nil {
		t.Fatalf("EmitClient: %v", err)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return buf.Bytes(), warnings
}

// loadSpec loads and builds one spec.
func loadSpec(t *testing.T, fsys fs.FS, name string, opts openapi.BuildOptions) *ir.Service {
	t.Helper()
	doc, _, err := openapi.Load(fsys, name, openapi.LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	svc, _, err := openapi.Build(doc, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return svc
}

// shapesDir holds the shapes spec, a golden case whose tests call its
// client against httptest servers.
var shapesDir = filepath.Join("..", "..", "golden", "openapi", "shapes")

// TestClientDeterministic emits the client of the shapes spec twice and
// wants the same bytes.
func TestClientDeterministic(t *testing.T) {
	svc := loadSpec(t, os.DirFS(shapesDir), "openapi.yaml", openapi.BuildOptions{})
	first, _ := emitAll(t, svc, "shapes", "golden/openapi/shapes/openapi.yaml")
	second, _ := emitAll(t, svc, "shapes", "golden/openapi/shapes/openapi.yaml")
	if !bytes.Equal(first, second) {
		t.Fatal("two generations differ")
	}
	formatted, err := format.Source(first)
	if err != nil {
		t.Fatalf("format.Source: %v", err)
	}
	if !bytes.Equal(formatted, first) {
		a, b := strings.Split(string(first), "\n"), strings.Split(string(formatted), "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("generated code is not gofmt-clean: line %d is\n%q\ngofmt makes it\n%q", i+1, a[i], b[i])
			}
		}
		t.Errorf("generated code is not gofmt-clean")
	}
}

// TestClientNames checks that names the client needs are reported, not
// emitted as invalid Go, when the front end was not told them: its own
// types and every option among them; its Params type named like a schema
// is renamed.
func TestClientNames(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Names, version: "1"}
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: q, in: query, schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Client'}}}}
  /dependency:
    get:
      operationId: dependency
      responses:
        "204": {description: ok}
components:
  schemas:
    Client: {type: object, properties: {a: {type: string}}}
    GetThingParams: {type: object, properties: {b: {type: string}}}
    WithDeadlineHeader: {type: object, properties: {c: {type: string}}}
    WithFallbackPartition: {type: string}
`
	svc := loadSpec(t, fstest.MapFS{"names.yaml": {Data: []byte(spec)}}, "names.yaml", openapi.BuildOptions{})
	res, _, err := resolve.HTTP(svc, "names", nil)
	if err != nil {
		t.Fatal(err)
	}
	warnings, err := golang.EmitClient(golang.NewFile("names", ""), res, golang.ClientOptions{})
	got := map[diag.Rule]int{}
	for _, rule := range []diag.Rule{"E-NAME-RESERVED", "E-NAME-COLLISION"} {
		got[rule] = countRule(err, rule)
	}
	got[diag.RuleNameRenamed] = countRule(diag.List(warnings), diag.RuleNameRenamed)
	want := map[diag.Rule]int{"E-NAME-RESERVED": 4, "E-NAME-COLLISION": 0, "W-NAME-RENAMED": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EmitClient diagnostics mismatch (-want +got):\n%s\nerror: %v", diff, err)
	}
}

// TestClientFleetName: WithFleet is a name of the client only when the
// policy declares a fleet; a schema of that name is refused then, and
// generates otherwise.
func TestClientFleetName(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Names, version: "1"}
%s
paths:
  /things:
    get:
      operationId: getThing
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/WithFleet'}}}}
components:
  schemas:
    WithFleet: {type: object, properties: {a: {type: string}}}
`
	tests := []struct {
		name, root string
		want       int
	}{
		{"without a fleet", "", 0},
		{"with a fleet", "x-resilience: {fleet: {store: cache}}", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := loadSpec(t, fstest.MapFS{"names.yaml": {Data: []byte(fmt.Sprintf(spec, tt.root))}}, "names.yaml", openapi.BuildOptions{})
			res, _, err := resolve.HTTP(svc, "names", nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = golang.EmitClient(golang.NewFile("names", ""), res, golang.ClientOptions{})
			if got := countRule(err, diag.RuleNameReserved); got != tt.want {
				t.Errorf("E-NAME-RESERVED diagnostics = %d, want %d; error: %v", got, tt.want, err)
			}
		})
	}
}

// TestStaticFallbackNeedsJSON: a static fallback on an operation whose
// result is not JSON is left out with a warning; on a JSON result it goes
// into DefaultPolicy as JSON text.
func TestStaticFallbackNeedsJSON(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Notes, version: "1"}
paths:
  /note:
    get:
      operationId: getNote
      x-resilience:
        fallback: {kind: static, value: "no note"}
      responses:
        "200":
          description: The note.
          content:
            text/plain:
              schema: {type: string}
  /count:
    get:
      operationId: getCount
      x-resilience:
        fallback: {kind: static, value: {n: 0, why: "<unknown> & stale"}}
      responses:
        "200":
          description: The count.
          content:
            application/json:
              schema:
                type: object
                properties:
                  n: {type: integer}
                  why: {type: string}
`
	svc := loadSpec(t, fstest.MapFS{"notes.yaml": {Data: []byte(spec)}}, "notes.yaml", openapi.BuildOptions{})
	code, warnings := emitAll(t, svc, "notes", "notes.yaml")
	var got []string
	for _, w := range warnings {
		got = append(got, string(w.Rule)+": "+w.Message)
	}
	want := "W-FALLBACK-STATIC: operation GetNote: a static fallback needs a JSON result; the client has no fallback"
	if len(got) != 1 || got[0] != want {
		t.Errorf("warnings = %q, want [%q]", got, want)
	}
	// GetNote keeps no fallback: its literal is one line without one.
	if !regexp.MustCompile(`(?m)^\s*GetNote: runtime\.OperationPolicy\{Name: "GetNote", [^\n]*\},$`).Match(code) || bytes.Contains(code, []byte("FallbackNone")) {
		t.Errorf("GetNote's policy has a fallback:\n%s", code)
	}
	for _, line := range []string{
		"runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: json.RawMessage(`{\"n\":0,\"why\":\"<unknown> & stale\"}`)},",
		"if p.GetCount.Fallback.Static, err = staticFallback[GetCountResponse](p.GetCount.Fallback.Static); err != nil {",
	} {
		if !bytes.Contains(code, []byte(line)) {
			t.Errorf("generated code lacks %s", line)
		}
	}
}
