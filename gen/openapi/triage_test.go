package openapi

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

// validateOnly loads spec and returns its validation findings, rendered.
func validateOnly(t *testing.T, spec string) []string {
	t.Helper()
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(spec)}}
	doc, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs", DeferValidation: true})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	out := render(warnings, nil)
	warnings, err = doc.Validate(true)
	return append(out, render(warnings, err)...)
}

// TestValidationTriage: what a client does not need checked is a warning
// at the finding's place; what no correct client survives is an error
// saying why.
func TestValidationTriage(t *testing.T) {
	pet := `components:
  schemas:
    Pet:
      type: object
      properties: {kind: {type: string}}
      discriminator: {propertyName: kind, type: string}
`
	getPet := `  /pet:
    get:
      operationId: getPet
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
`
	tests := []struct {
		name string
		spec string
		want []string
	}{
		{
			name: "templates differing only in parameter names",
			spec: head + `paths:
  /c/{id}:
    get: {operationId: a, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {"204": {description: ok}}}
  /c/{number}:
    get: {operationId: b, parameters: [{name: number, in: path, required: true, schema: {type: string}}], responses: {"204": {description: ok}}}
`,
			want: []string{`specs/api.yaml:5:1: W-OPENAPI: conflicting paths "/c/{number}" and "/c/{id}" [conflicting-paths]; the client calls each template as written; which operation answers is the server's routing, so give the templates' parameters one name if they are one route`},
		},
		{
			name: "empty title",
			spec: "openapi: 3.0.3\ninfo:\n  title: \"\"\n  version: \"1\"\npaths: {}\n",
			want: []string{`specs/api.yaml:2:1: W-OPENAPI: value of title must be a non-empty string [info-title-required] (#/info); give info a title and a version; the client's names come from the file name meanwhile`},
		},
		{
			name: "stray key in a discriminator, unreferenced",
			spec: head + "paths: {}\n" + pet,
			want: []string{`specs/api.yaml:11:7: W-OPENAPI: extra sibling fields: [type] [extra-sibling-fields] (#/components/schemas/Pet); remove the key or move it under an x- extension; the client disregards it`},
		},
		{
			name: "stray key in a discriminator, referenced",
			spec: head + "paths:\n" + getPet + pet,
			want: []string{`specs/api.yaml:18:7: W-OPENAPI: extra sibling fields: [type] [extra-sibling-fields] (#/components/schemas/Pet); remove the key or move it under an x- extension; the client disregards it`},
		},
		{
			name: "example without a value",
			spec: head + `paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: string}
              examples: {one: {summary: nothing}}
`,
			want: []string{`specs/api.yaml:15:26: W-OPENAPI: no value or externalValue field [value-or-external-value-required] (#/paths/~1a/get); examples change no generated code; make the example match its schema, with value or externalValue, not both`},
		},
		{
			name: "parameter without a name",
			spec: head + `paths:
  /a:
    get:
      operationId: getA
      parameters: [{in: query, schema: {type: string}}]
      responses: {"204": {description: ok}}
`,
			want: []string{`specs/api.yaml:9:21: E-OPENAPI: parameter name can't be blank [parameter-name-required]: a parameter without a name cannot be sent (#/paths/~1a/get)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, validateOnly(t, tt.spec)); diff != "" {
				t.Errorf("findings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFatalFindingsAreCodes: every finding held fatal is a code the
// validator reports, so that a renamed code cannot silently become a
// warning.
func TestFatalFindingsAreCodes(t *testing.T) {
	codes := openapi3.ValidationErrorCodes()
	for code, why := range fatalFindings {
		if !slices.Contains(codes, code) {
			t.Errorf("fatalFindings holds %q, which kin-openapi does not report", code)
		}
		if !strings.Contains(why, "cannot") {
			t.Errorf("fatalFindings[%q] = %q: say why no correct client can exist", code, why)
		}
	}
}
