package openapi

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// head is the start of every test document, 4 lines long.
const head = "openapi: 3.0.3\ninfo:\n  title: T\n  version: \"1\"\n"

// run loads and builds api.yaml from files and returns every diagnostic,
// warnings and errors, rendered.
func run(files map[string]string) []string {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	var out []string
	doc, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs"})
	out = append(out, render(warnings, err)...)
	if err != nil {
		return out
	}
	_, warnings, err = Build(doc, BuildOptions{})
	return append(out, render(warnings, err)...)
}

func render(warnings []diag.Diagnostic, err error) []string {
	var out []string
	for _, w := range warnings {
		out = append(out, w.Error())
	}
	if err == nil {
		return out
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		return append(out, err.Error())
	}
	for _, e := range joined.Unwrap() {
		out = append(out, e.Error())
	}
	return out
}

func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "invalid YAML",
			files: map[string]string{"api.yaml": head + "paths:\n  /a: [x, y\n"},
			want:  []string{"specs/api.yaml:7:1: E-YAML: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence started at line 6)"},
		},
		{
			name:  "tab indentation",
			files: map[string]string{"api.yaml": head + "paths:\n\t/a: {}\n"},
			want:  []string{"specs/api.yaml:6:1: E-YAML: invalid YAML: found character that cannot start any token; tabs are not allowed in YAML indentation; indent with spaces"},
		},
		{
			name:  "not OpenAPI",
			files: map[string]string{"api.yaml": "info: {title: T}\n"},
			want:  []string{`specs/api.yaml:1:1: E-VERSION: not an OpenAPI 3.0 or 3.1 document (found no openapi field); start the document with "openapi: 3.0.3" or "openapi: 3.1.0", or "swagger: \"2.0\""`},
		},
		{
			name: "unresolved ref",
			files: map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Missing"}
`},
			want: []string{`specs/api.yaml:14:24: E-REF-UNRESOLVED: $ref "#/components/schemas/Missing" does not resolve, so the client cannot know what it names (#/paths/~1a/get/responses/200/content/application~1json/schema); define the target or fix the reference`},
		},
		{
			name: "refs to a URL, outside the folder, to a missing file",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    A: {$ref: "https://example.com/a.yaml#/A"}
    B: {$ref: "../b.yaml#/B"}
    C: {$ref: "c.yaml#/C"}
`},
			want: []string{
				`specs/api.yaml:8:9: E-REF-EXTERNAL: $ref "https://example.com/a.yaml#/A" points to a URL, which is never fetched, so the client cannot know what it names (#/components/schemas/A); copy the referenced file under the spec's folder and refer to it by a relative path`,
				`specs/api.yaml:9:9: E-REF-EXTERNAL: $ref "../b.yaml#/B" leaves the spec's folder, which is never read, so the client cannot know what it names (#/components/schemas/B); keep every referenced file under the folder of the entry file (or load from a wider root)`,
				`specs/api.yaml:10:9: E-REF-UNRESOLVED: $ref "c.yaml#/C": specs/c.yaml does not exist, so the client cannot know what it names (#/components/schemas/C); add the file beside the spec, as its authors have it, or fix the reference`,
			},
		},
		{
			name: "discriminator mapping to a missing file",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    Pet:
      oneOf: [{$ref: "#/components/schemas/Dog"}]
      discriminator:
        propertyName: kind
        mapping: {dog: "#/components/schemas/Dog", cat: "models/cat.yaml#/Cat"}
    Dog: {type: object, properties: {kind: {type: string}}}
`},
			want: []string{
				`specs/api.yaml:12:57: E-REF-UNRESOLVED: $ref "models/cat.yaml#/Cat": specs/models/cat.yaml does not exist, so the client cannot know what it names (#/components/schemas/Pet/discriminator/mapping); add the file beside the spec, as its authors have it, or fix the reference`,
			},
		},
		{
			name: "refs to an absolute path, file://, encoded dots, another host",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    A: {$ref: "/etc/passwd#/A"}
    B: {$ref: "file:///etc/passwd#/B"}
    C: {$ref: "%2e%2e/b.yaml#/C"}
    D: {$ref: "sub/%2E%2E/%2e%2e/b.yaml#/D"}
    E: {$ref: "//evil.example/b.yaml#/E"}
    F: {$ref: "..%2Fb.yaml#/F"}
`, "b.yaml": "A: {type: string}\n"},
			want: []string{
				`specs/api.yaml:8:9: E-REF-EXTERNAL: $ref "/etc/passwd#/A" leaves the spec's folder, which is never read, so the client cannot know what it names (#/components/schemas/A); keep every referenced file under the folder of the entry file (or load from a wider root)`,
				`specs/api.yaml:9:9: E-REF-EXTERNAL: $ref "file:///etc/passwd#/B" points to a URL, which is never fetched, so the client cannot know what it names (#/components/schemas/B); copy the referenced file under the spec's folder and refer to it by a relative path`,
				`specs/api.yaml:10:9: E-REF-EXTERNAL: $ref "%2e%2e/b.yaml#/C" leaves the spec's folder, which is never read, so the client cannot know what it names (#/components/schemas/C); keep every referenced file under the folder of the entry file (or load from a wider root)`,
				`specs/api.yaml:11:9: E-REF-EXTERNAL: $ref "sub/%2E%2E/%2e%2e/b.yaml#/D" leaves the spec's folder, which is never read, so the client cannot know what it names (#/components/schemas/D); keep every referenced file under the folder of the entry file (or load from a wider root)`,
				`specs/api.yaml:12:9: E-REF-EXTERNAL: $ref "//evil.example/b.yaml#/E" points to a URL, which is never fetched, so the client cannot know what it names (#/components/schemas/E); copy the referenced file under the spec's folder and refer to it by a relative path`,
				`specs/api.yaml:13:9: E-REF-EXTERNAL: $ref "..%2Fb.yaml#/F" leaves the spec's folder, which is never read, so the client cannot know what it names (#/components/schemas/F); keep every referenced file under the folder of the entry file (or load from a wider root)`,
			},
		},
		{
			name: "ref cycle",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    A: {$ref: "#/components/schemas/B"}
    B: {$ref: "#/components/schemas/A"}
`},
			want: []string{`specs/api.yaml:8:9: E-REF-CYCLE: $ref cycle api.yaml#/components/schemas/B -> api.yaml#/components/schemas/A -> api.yaml#/components/schemas/B (#/components/schemas/A); a chain of $refs must end at a schema; point one of them at a definition`},
		},
		{
			name: "duplicate operationId",
			files: map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      operationId: dup
      responses: {"204": {description: ok}}
  /b:
    get:
      operationId: dup
      responses: {"204": {description: ok}}
`},
			want: []string{`specs/api.yaml:11:5: E-DUP-OPID: operations "GET /a" and "GET /b" have the same operation id "dup" (#/paths/~1b/get); give every operation a unique operationId`},
		},
		{
			name: "missing operationId",
			files: map[string]string{"api.yaml": head + `paths:
  /users/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
`},
			want: []string{`specs/api.yaml:7:5: W-NO-OPID: operation GET /users/{id} has no operationId; named GetUsersByID (#/paths/~1users~1{id}/get); add an operationId to choose the method name`},
		},
		{
			name: "operation name collision",
			files: map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      operationId: getUser
      responses: {"204": {description: ok}}
  /b:
    get:
      operationId: get_user
      responses: {"204": {description: ok}}
`},
			want: []string{`specs/api.yaml:11:5: W-NAME-RENAMED: the method of operationId "get_user" (GET /b) is named GetUser2: GetUser is the Go name of operationId "getUser" (GET /a) (#/paths/~1b/get); choose another method name with x-go-name on the operation`},
		},
		{
			name: "schema name collision and invalid names",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    pet: {type: string}
    Pet: {type: string}
    "--": {type: string}
    Good: {type: string, x-go-name: "not exported"}
`},
			want: []string{
				`specs/api.yaml:8:5: W-NAME-RENAMED: schema "pet" is named Pet2: Pet is the Go name of schema "Pet" (#/components/schemas/Pet) (#/components/schemas/pet); choose another Go name for it with x-go-name`,
				`specs/api.yaml:10:5: E-NAME-INVALID: cannot form a Go identifier from schema name "--" (#/components/schemas/--); set x-go-name`,
				`specs/api.yaml:11:5: E-NAME-INVALID: x-go-name "not exported" is not an exported Go identifier (#/components/schemas/Good); use a name that starts with an upper-case letter and holds only letters, digits and underscores`,
			},
		},
		{
			name: "allOf cycle",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    B:
      allOf: [{$ref: "#/components/schemas/A"}]
    A:
      allOf: [{$ref: "#/components/schemas/B"}]
`},
			want: []string{`specs/api.yaml:10:5: E-ALLOF-CYCLE: allOf cycle A -> B -> A cannot be flattened into Go structs (#/components/schemas/A); remove one of the allOf references, or use a property to refer back`},
		},
		{
			name: "allOf cycle reached from an inline schema",
			files: map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf: [{$ref: "#/components/schemas/A"}, {type: object, properties: {x: {type: string}}}]
components:
  schemas:
    A:
      allOf: [{$ref: "#/components/schemas/A"}, {type: object}]
`},
			want: []string{`specs/api.yaml:18:5: E-ALLOF-CYCLE: allOf cycle A -> A cannot be flattened into Go structs (#/components/schemas/A); remove one of the allOf references, or use a property to refer back`},
		},
		{
			name: "example and 3.1 keyword findings are warnings",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    A: {type: string, example: 5}
    B: {type: object, properties: {x: {type: string}}, extra: 1}
`},
			want: []string{
				`specs/api.yaml:8:5: W-OPENAPI: invalid example: value must be a string [example-violates-schema] (#/components/schemas/A); examples change no generated code; make the example match its schema, with value or externalValue, not both`,
				`specs/api.yaml:9:5: W-OPENAPI: extra sibling fields: [extra] [extra-sibling-fields] (#/components/schemas/B); remove the key or move it under an x- extension; the client disregards it`,
			},
		},
		{
			name: "unsupported constructs degrade with a warning; a property no struct tag can name is kept",
			files: map[string]string{"api.yaml": head + `paths: {}
components:
  schemas:
    A: {not: {type: string}}
    B:
      type: object
      properties:
        "a,b": {type: string}
`},
			want: []string{
				`specs/api.yaml:8:5: W-UNSUPPORTED: schema with only "not"; the value is kept as raw JSON (#/components/schemas/A)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(tt.files)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResiliencePositions: x-resilience is decoded from the YAML node it
// is written in, so every problem points at its own key, in the entry
// file or in a file a $ref reaches.
func TestResiliencePositions(t *testing.T) {
	op := func(ext string) string {
		return "    get:\n      operationId: getPets\n" + ext + "      responses:\n        \"204\": {description: ok}\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "in the entry file",
			files: map[string]string{"api.yaml": head + "paths:\n  /pets:\n" + op("      x-resilience:\n        retry:\n          maxRetries: 9\n")},
			want:  []string{"specs/api.yaml:11:11: E-RANGE: retry.maxRetries 9 must be in [0, 5] (#/paths/~1pets/get/x-resilience/retry/maxRetries); more than 5 retries multiplies load during an incident; use 2 (the default) or fewer"},
		},
		{
			name: "in a path item another file holds",
			files: map[string]string{
				"api.yaml":  head + "paths:\n  /pets:\n    $ref: 'pets.yaml'\n",
				"pets.yaml": "x-resilience:\n  timeout: -1s\nget:\n  operationId: getPets\n  responses:\n    \"204\": {description: ok}\n",
			},
			want: []string{`specs/pets.yaml:2:3: E-DURATION: timeout "-1s" must be a positive Go duration (it is negative) (#/paths/~1pets/x-resilience/timeout); write e.g. "800ms"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, run(tt.files)); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
