package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// loadBuild loads and builds the entry file of files and returns the
// diagnostics of both, as the commands print them.
func loadBuild(t *testing.T, entry string, files map[string]string) []string {
	t.Helper()
	doc, warnings, err := Load(mapFS(files), entry, LoadOptions{Dir: "specs"})
	out := render(warnings, err)
	if err != nil {
		return out
	}
	_, warnings, err = Build(doc, BuildOptions{})
	return append(out, render(warnings, err)...)
}

// TestPatternOfWrongKind: a pattern written as a number or a boolean,
// which the loader refuses whole, is left out with a located warning and
// the document generates; a member named pattern in an example is data
// and stays as it is.
func TestPatternOfWrongKind(t *testing.T) {
	got := loadBuild(t, "api.yaml", map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      operationId: getA
      parameters:
        - {name: q, in: query, schema: {type: string, pattern: 12}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/A"}
components:
  schemas:
    A:
      type: object
      properties:
        at:
          type: string
          pattern: true
        code: {type: string, pattern: "^[0-9]+$"}
      example: {at: x, pattern: 5}
`})
	want := []string{
		`specs/api.yaml:10:64: W-KEYWORD-TYPE: the pattern is an integer (12), not a regular expression written as a string; the loader would refuse the document, so the client leaves the pattern out (#/paths/~1a/get/parameters/0/schema/pattern); quote the pattern (pattern: "12") if it is meant as a regular expression, or remove it`,
		`specs/api.yaml:24:20: W-KEYWORD-TYPE: the pattern is a boolean (true), not a regular expression written as a string; the loader would refuse the document, so the client leaves the pattern out (#/components/schemas/A/properties/at/pattern); quote the pattern (pattern: "true") if it is meant as a regular expression, or remove it`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}

// TestSchemaRefToParameter: a $ref that stands for a schema and names a
// parameter is read as the parameter's schema (at the items of an array,
// and naming an array parameter, as its items' schema), with a located
// warning, instead of the loader refusing the whole document.
func TestSchemaRefToParameter(t *testing.T) {
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(head + `paths:
  /a:
    get:
      operationId: getA
      parameters:
        - {name: kind, in: query, schema: {type: string, enum: [x, y]}}
        - {name: fields, in: query, schema: {type: array, items: {type: string, enum: [p, q]}}}
      responses: {"204": {description: ok}}
  /b:
    get:
      operationId: getB
      parameters:
        - {name: kind, in: query, schema: {$ref: "#/paths/~1a/get/parameters/0"}}
        - name: fields
          in: query
          schema:
            type: array
            items:
              $ref: "#/paths/~1a/get/parameters/1"
      responses: {"204": {description: ok}}
`)}}
	doc, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs"})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := []string{
		`specs/api.yaml:17:44: W-REF-SCHEMA: $ref "#/paths/~1a/get/parameters/0" stands for a schema but names the parameter "kind", which is no schema; the client reads it as that parameter's schema (#/paths/~1b/get/parameters/0/schema); point the $ref at the schema: "#/paths/~1a/get/parameters/0/schema"`,
		`specs/api.yaml:23:15: W-REF-SCHEMA: $ref "#/paths/~1a/get/parameters/1" stands for a schema but names the parameter "fields", which is no schema; the client reads it as the schema of that parameter's items (#/paths/~1b/get/parameters/1/schema/items); point the $ref at the schema: "#/paths/~1a/get/parameters/1/schema/items"`,
	}
	if diff := cmp.Diff(want, render(warnings, nil)); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
	params := doc.T.Paths.Find("/b").Get.Parameters
	if enum := params[0].Value.Schema.Value.Enum; fmt.Sprint(enum) != "[x y]" {
		t.Errorf("kind's enum = %v, want [x y]", enum)
	}
	if items := params[1].Value.Schema.Value.Items.Value; !items.Type.Is("string") || fmt.Sprint(items.Enum) != "[p q]" {
		t.Errorf("fields' items = %v %v, want string [p q]", items.Type, items.Enum)
	}
}

// TestRepairKeepsPositions: in JSON written on one line, where a repair
// changes the width of the text the loader is given, what the loader
// locates after it is still reported where it is written.
func TestRepairKeepsPositions(t *testing.T) {
	spec := `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{` +
		`"/a":{"get":{"operationId":"getA","parameters":[{"name":"k","in":"query","schema":{"type":"string","pattern":0}},` +
		`{"name":"f","in":"query","schema":{"type":"array","items":{"$ref":"#/paths/~1c/get/parameters/0"}}}],"responses":{"204":{"description":"ok"}}}},` +
		`"/c":{"get":{"operationId":"getC","parameters":[{"name":"f","in":"query","schema":{"type":"array","items":{"type":"string"}}}],"responses":{"204":{"description":"ok"}}}},` +
		`"/b":{"get":{"operationId":"getB","x-resilience":{"retry":{"maxAttempts":"many"}},"responses":{"204":{"description":"ok"}}}}}}`
	got := loadBuild(t, "api.json", map[string]string{"api.json": spec})
	col := func(s string) int { return strings.Index(spec, s) + 1 }
	want := []string{
		fmt.Sprintf(`specs/api.json:1:%d: W-KEYWORD-TYPE: the pattern is an integer (0), not a regular expression written as a string; the loader would refuse the document, so the client leaves the pattern out (#/paths/~1a/get/parameters/0/schema/pattern); quote the pattern (pattern: "0") if it is meant as a regular expression, or remove it`, col(`0}}`)),
		fmt.Sprintf(`specs/api.json:1:%d: W-REF-SCHEMA: $ref "#/paths/~1c/get/parameters/0" stands for a schema but names the parameter "f", which is no schema; the client reads it as the schema of that parameter's items (#/paths/~1a/get/parameters/1/schema/items); point the $ref at the schema: "#/paths/~1c/get/parameters/0/schema/items"`, col(`"$ref"`)),
	}
	if len(got) < len(want) {
		t.Fatalf("got %q, want %d repairs and then the error of x-resilience", got, len(want))
	}
	if diff := cmp.Diff(want, got[:len(want)]); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
	rest := strings.Join(got[len(want):], "\n")
	if wantAt := fmt.Sprintf("specs/api.json:1:%d: ", col(`"maxAttempts"`)); !strings.Contains(rest, wantAt) {
		t.Errorf("the finding on maxAttempts is not at %q:\n%s", wantAt, rest)
	}
}

// TestPatternOfWrongKindSwagger: the repair holds for Swagger 2.0, whose
// document the converter reads.
func TestPatternOfWrongKindSwagger(t *testing.T) {
	got := loadBuild(t, "api.yaml", map[string]string{"api.yaml": `swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - {name: q, in: query, type: string, pattern: 5}
      responses: {"204": {description: ok}}
`})
	want := []string{
		`specs/api.yaml:8:55: W-KEYWORD-TYPE: the pattern is an integer (5), not a regular expression written as a string; the loader would refuse the document, so the client leaves the pattern out (#/paths/~1a/get/parameters/0/pattern); quote the pattern (pattern: "5") if it is meant as a regular expression, or remove it`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}

// TestParameterUnderSchemas: a $ref that stands for a parameter and names
// a parameter object written under the schemas, which the loader refuses
// whole, is read as that parameter, with a located warning, in block and
// flow YAML and in JSON on one line (where what the loader locates after
// the copy stays at its column); a $ref to a plain schema stays a located
// error that says what to write.
func TestParameterUnderSchemas(t *testing.T) {
	got := loadBuild(t, "api.yaml", map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      operationId: getA
      parameters:
        - $ref: "#/components/schemas/Limit"
        - {$ref: "#/components/schemas/Offset"}
      responses: {"204": {description: ok}}
components:
  schemas:
    Limit: {name: limit, in: query, schema: {type: integer}}
    Offset: {name: offset, in: query, schema: {type: integer}}
`})
	want := []string{
		`specs/api.yaml:10:11: W-REF-PARAMETER: $ref "#/components/schemas/Limit" stands for a parameter but names a schema; what it names is the query parameter "limit", so the client reads it as that parameter (#/paths/~1a/get/parameters/0); move the parameter to #/components/parameters and point the $ref there`,
		`specs/api.yaml:11:12: W-REF-PARAMETER: $ref "#/components/schemas/Offset" stands for a parameter but names a schema; what it names is the query parameter "offset", so the client reads it as that parameter (#/paths/~1a/get/parameters/1); move the parameter to #/components/parameters and point the $ref there`,
	}
	if diff := cmp.Diff(want, got[:min(len(got), len(want))]); diff != "" || len(got) < len(want) {
		t.Errorf("diagnostics mismatch (-want +got):\n%s\nall: %q", diff, got)
	}

	spec := `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"operationId":"getA",` +
		`"parameters":[{"$ref":"#/components/schemas/Limit"}],"responses":{"204":{"description":"ok"}},"x-resilience":{"retry":{"maxAttempts":1}}}}},` +
		`"components":{"schemas":{"Limit":{"name":"limit","in":"query","schema":{"type":"integer"}}}}}`
	got = loadBuild(t, "api.json", map[string]string{"api.json": spec})
	wantAt := fmt.Sprintf("specs/api.json:1:%d: E-EXT-UNKNOWN", strings.Index(spec, `"maxAttempts"`)+1)
	if len(got) == 0 || !strings.HasPrefix(got[0], fmt.Sprintf("specs/api.json:1:%d: W-REF-PARAMETER", strings.Index(spec, `"$ref"`)+1)) ||
		!strings.Contains(strings.Join(got, "\n"), wantAt) {
		t.Errorf("got %q, want W-REF-PARAMETER at the $ref and %s", got, wantAt)
	}

	got = loadBuild(t, "api.yaml", map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      parameters:
        - $ref: "#/components/schemas/S"
      responses: {"204": {description: ok}}
components:
  schemas:
    S: {type: string}
`})
	want = []string{
		`specs/api.yaml:9:11: E-LOAD: $ref "#/components/schemas/S" stands for a parameter but names a schema, so the loader refuses the document (#/paths/~1a/get/parameters/0); write the parameter in place, with name:, in: and schema: {$ref: "#/components/schemas/S"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}

// TestResponseNamingSchema: a response's $ref that names a schema, which
// the loader refuses whole, names the response of the same name when
// there is one, is replaced by the schema when it is written as a
// response, and else is read as a JSON answer of that schema; each with
// a located warning. A property called responses in a schema is no
// response.
func TestResponseNamingSchema(t *testing.T) {
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(head + `paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Holder"}}}}
        "400": {$ref: "#/components/schemas/BadRequest"}
        "404": {$ref: "#/components/schemas/NotFound"}
        "409":
          $ref: "#/components/schemas/Conflict"
components:
  responses:
    BadRequest: {description: Bad request.}
  schemas:
    BadRequest: {description: Bad request.}
    NotFound: {description: Not found.}
    Conflict: {type: object, properties: {reason: {type: string}}}
    Holder: {type: object, properties: {responses: {type: object, properties: {"400": {$ref: "#/components/schemas/Conflict"}}}}}
`)}}
	doc, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs"})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := []string{
		`specs/api.yaml:11:17: W-REF-RESPONSE: $ref "#/components/schemas/BadRequest" stands for a response but names a schema; the response "BadRequest" is a component, so the client reads it as that response (#/paths/~1a/get/responses/400); point the $ref at the response: "#/components/responses/BadRequest"`,
		`specs/api.yaml:12:17: W-REF-RESPONSE: $ref "#/components/schemas/NotFound" stands for a response but names a schema written as a response, so the client reads it as that response (#/paths/~1a/get/responses/404); move the response to #/components/responses and point the $ref there`,
		`specs/api.yaml:14:11: W-REF-RESPONSE: $ref "#/components/schemas/Conflict" stands for a response but names a schema, so the client reads it as an application/json answer of that schema (#/paths/~1a/get/responses/409); write the response: {description: ..., content: {application/json: {schema: {$ref: "#/components/schemas/Conflict"}}}}`,
	}
	if diff := cmp.Diff(want, render(warnings, nil)); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
	responses := doc.T.Paths.Find("/a").Get.Responses
	if d := responses.Value("404").Value.Description; d == nil || *d != "Not found." {
		t.Errorf("404 description = %v, want Not found.", d)
	}
	conflict := responses.Value("409").Value.Content.Get("application/json")
	if conflict == nil || conflict.Schema == nil || conflict.Schema.Ref != "#/components/schemas/Conflict" {
		t.Errorf("409 content = %+v, want application/json of Conflict", conflict)
	}
}
