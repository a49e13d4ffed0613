package openapi

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// loadDiags loads the entry file api.* of files and returns its
// diagnostics as the commands print them.
func loadDiags(t *testing.T, entry string, files map[string]string) []string {
	t.Helper()
	_, warnings, err := Load(mapFS(files), entry, LoadOptions{Dir: "specs"})
	return render(warnings, err)
}

// mapFS holds files, by name.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

// TestLoadErrorPositions: every value the loader refuses as of the wrong
// kind is reported where it is written, in YAML and in JSON (on one line
// too, where the loader sees the columns moved by its marker), in the
// file a $ref leads to, and in a Swagger 2.0 document; not at 1:1.
func TestLoadErrorPositions(t *testing.T) {
	tests := []struct {
		name  string
		entry string
		files map[string]string
		want  []string
	}{
		{
			name:  "yaml, several kinds at once",
			entry: "api.yaml",
			files: map[string]string{"api.yaml": head + `servers: {url: https://x.example}
paths:
  /a:
    get:
      tags: notalist
      deprecated: maybe
      parameters: [5]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: [a, b]
                maxLength: -1
`},
			want: []string{
				`specs/api.yaml:5:10: E-LOAD: the value of "servers" is a mapping where the document's structure needs a list, so the loader refuses the document (#/servers); write a list there`,
				`specs/api.yaml:9:13: E-LOAD: the value of "tags" is a string (notalist) where the document's structure needs a list, so the loader refuses the document (#/paths/~1a/get/tags); write a list there`,
				`specs/api.yaml:10:19: E-LOAD: the value of "deprecated" is a string (maybe) where the document's structure needs true or false, so the loader refuses the document (#/paths/~1a/get/deprecated); write true or false there`,
				`specs/api.yaml:11:20: E-LOAD: item 0 of "parameters" is an integer (5) where the document's structure needs a mapping, so the loader refuses the document (#/paths/~1a/get/parameters/0); write a mapping there`,
				`specs/api.yaml:19:29: E-LOAD: the value of "properties" is a list where the document's structure needs a mapping, so the loader refuses the document (#/paths/~1a/get/responses/200/content/application~1json/schema/properties); write a mapping there`,
				`specs/api.yaml:20:28: E-LOAD: the value of "maxLength" is an integer (-1) where the document's structure needs a whole number not below zero, so the loader refuses the document (#/paths/~1a/get/responses/200/content/application~1json/schema/maxLength); write a whole number not below zero there`,
			},
		},
		{
			name:  "json on several lines",
			entry: "api.json",
			files: map[string]string{"api.json": `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
 "components": {"schemas": {
   "A": {"type": "string", "minLength": "x"},
   "B": {"type": "string", "nullable": "maybe"}}},
 "paths": {}}
`},
			want: []string{
				`specs/api.json:3:41: E-LOAD: the value of "minLength" is a string (x) where the document's structure needs a whole number not below zero, so the loader refuses the document (#/components/schemas/A/minLength); write a whole number not below zero there`,
				`specs/api.json:4:40: E-LOAD: the value of "nullable" is a string (maybe) where the document's structure needs true or false, so the loader refuses the document (#/components/schemas/B/nullable); write true or false there`,
			},
		},
		{
			name:  "json on one line",
			entry: "api.json",
			files: map[string]string{"api.json": `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"deprecated":"maybe","responses":{"200":{"description":"ok"}}}}}}`},
			want: []string{
				`specs/api.json:1:90: E-LOAD: the value of "deprecated" is a string (maybe) where the document's structure needs true or false, so the loader refuses the document (#/paths/~1a/get/deprecated); write true or false there`,
			},
		},
		{
			name:  "in the file a $ref leads to",
			entry: "api.yaml",
			files: map[string]string{
				"api.yaml": head + `paths: {}
components:
  schemas:
    A: {$ref: "models.yaml#/B"}
`,
				"models.yaml": `B:
  type: object
  properties:
    x: {type: string, enum: 5}
`,
			},
			want: []string{
				`specs/models.yaml:4:29: E-LOAD: the value of "enum" is an integer (5) where the document's structure needs a list, so the loader refuses the document, where $ref "models.yaml#/B" at specs/api.yaml:8:9 names a schema (#/B/properties/x/enum); write a list there`,
			},
		},
		{
			name:  "a $ref that names the wrong object",
			entry: "api.yaml",
			files: map[string]string{"api.yaml": head + `paths:
  /a:
    get:
      parameters:
        - $ref: "#/components/schemas/S"
      responses: {"200": {description: ok}}
    post:
      requestBody: {$ref: "#/paths/~1a/get/responses/200"}
      responses: {"204": {description: ok}}
components:
  schemas:
    S: {type: string}
`},
			want: []string{
				`specs/api.yaml:9:11: E-LOAD: $ref "#/components/schemas/S" stands for a parameter but names a schema, so the loader refuses the document (#/paths/~1a/get/parameters/0); write the parameter in place, with name:, in: and schema: {$ref: "#/components/schemas/S"}`,
			},
		},
		{
			name:  "swagger",
			entry: "api.yaml",
			files: map[string]string{"api.yaml": `swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /a:
    get:
      tags: [a]
      responses: {"200": {description: ok}}
  /b:
    get:
      tags: b
      responses: {"200": {description: ok}}
`},
			want: []string{
				`specs/api.yaml:10:13: E-LOAD: the value of "tags" is a string where the document's structure needs a list, so the loader refuses the document (#/paths/~1b/get/tags); write a list there`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := loadDiags(t, tt.entry, tt.files)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPointerKind checks what the place of a $ref's target says of its
// kind, and that a place under an unknown member of components says
// "nothing known" rather than leaving the kind to the target's members.
func TestPointerKind(t *testing.T) {
	for _, c := range []struct {
		ptr  string
		kind string
		told bool
	}{
		{"#/components/schemas/Pet", "schema", true},
		{"#/components/securitySchemes/key", "securityScheme", true},
		{"#/components/unknown/Pet", "", true},
		{"#/paths/~1pets/get/parameters/0", "parameter", true},
		{"#/paths/~1pets/get/parameters/limit", "", false},
		{"#/paths/~1pets/get/responses/200", "response", true},
		{"#/x-responses/responses/200", "", false},
		{"#/paths/~1pets/post/requestBody", "requestBody", true},
		{"#/paths/~1pets/post/requestBody/content/application~1json/schema", "schema", true},
		{"#/paths/~1pets", "pathItem", true},
		{"#/definitions/Pet", "", false},
		{"#/", "", false},
	} {
		if kind, told := pointerKind(c.ptr); kind != c.kind || told != c.told {
			t.Errorf("pointerKind(%q) = %q, %v; want %q, %v", c.ptr, kind, told, c.kind, c.told)
		}
	}
}
