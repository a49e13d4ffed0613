package openapi

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// buildOnly loads api.yaml without kin-openapi's validation and builds
// it, returning the build's diagnostics: the generator's own rules, which
// hold whatever the validator makes of the document.
func buildOnly(t *testing.T, spec string) []string {
	t.Helper()
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(spec)}}
	doc, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs", DeferValidation: true})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	out := render(warnings, nil)
	_, warnings, err = Build(doc, BuildOptions{})
	return append(out, render(warnings, err)...)
}

func TestPathTemplateRules(t *testing.T) {
	tests := []struct {
		name  string
		paths string
		want  []string
	}{
		{
			name: "query and fragment characters",
			paths: `  /a?b=1&c:
    get:
      operationId: getA
      responses: {"204": {description: ok}}
  /c#d:
    get:
      operationId: getC
      responses: {"204": {description: ok}}
  /e?:
    get:
      operationId: getE
      responses: {"204": {description: ok}}
  /f?x={y}:
    get:
      operationId: getF
      parameters:
        - {name: y, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
  /g?a b:
    get:
      operationId: getG
      responses: {"204": {description: ok}}
  /h?{k}=1:
    get:
      operationId: getH
      parameters:
        - {name: k, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
  /i?q=a{b}:
    get:
      operationId: getI
      parameters:
        - {name: b, in: query, schema: {type: string}}
      responses: {"204": {description: ok}}
  /j?fixed=1&x={x}&h={h}&m={m}:
    get:
      operationId: getJ
      parameters:
        - {name: x, in: query, schema: {type: string}}
        - {name: h, in: header, schema: {type: string}}
      responses: {"204": {description: ok}}
`,
			want: []string{
				`specs/api.yaml:6:3: W-PATH-QUERY: path template "/a?b=1&c" carries the fixed query "b=1&c"; the client sends it with every request of the operation, before the query parameters (#/paths/~1a?b=1&c); declare it as query parameters (in: query) if the server accepts other values`,
				`specs/api.yaml:10:3: W-PATH-FRAGMENT: path template "/c#d" carries the fragment "d", which no request carries; the client sends "/c" (#/paths/~1c#d); declare what the fragment distinguishes as parameters (in: query or in: header), and remove it from the path`,
				`specs/api.yaml:18:3: W-PATH-QUERY: path template "/f?x={y}" carries query variables; the client sends the path "/f" and the query "x=<y>", each <name> the value of the parameter of that name, whatever its in:, escaped as a query value (#/paths/~1f?x={y}); declare the variables as parameters with in: query, and remove the query from the path`,
				`specs/api.yaml:40:3: W-PATH-QUERY: path template "/j?fixed=1&x={x}&h={h}&m={m}" carries query variables; the client sends the path "/j" and the query "fixed=1&x=<x>&h=<h>&m=<m>", each <name> the value of the parameter of that name, whatever its in:, escaped as a query value (#/paths/~1j?fixed=1&x={x}&h={h}&m={m}); declare the variables as parameters with in: query, and remove the query from the path`,
				`specs/api.yaml:41:5: W-PATH-QUERY: operation GET /j?fixed=1&x={x}&h={h}&m={m} declares no parameter "m" for its query variable {m}; the client gives it an optional string query parameter M, sent as m=<value> when set (#/paths/~1j?fixed=1&x={x}&h={h}&m={m}/get); declare the parameter with name: m, in: query`,
				`specs/api.yaml:14:3: E-PATH-CHAR: path template "/e?" holds "?", which would start the URL's query, and what follows is no query text a URL carries as written (#/paths/~1e?); declare query values as parameters with in: query, and remove the character from the path`,
				`specs/api.yaml:24:3: E-PATH-CHAR: path template "/g?a b" holds "?", which would start the URL's query, and what follows is no query text a URL carries as written (#/paths/~1g?a b); declare query values as parameters with in: query, and remove the character from the path`,
				`specs/api.yaml:28:3: E-PATH-CHAR: path template "/h?{k}=1" holds "?", which would start the URL's query, and what follows is neither a fixed query nor name={variable} pairs: no parameter style sends a variable as a key or as part of a value, so no client can build the request it describes (#/paths/~1h?{k}=1); declare query values as parameters with in: query, and remove the character from the path`,
				`specs/api.yaml:34:3: E-PATH-CHAR: path template "/i?q=a{b}" holds "?", which would start the URL's query, and what follows is neither a fixed query nor name={variable} pairs: no parameter style sends a variable as a key or as part of a value, so no client can build the request it describes (#/paths/~1i?q=a{b}); declare query values as parameters with in: query, and remove the character from the path`,
			},
		},
		{
			name: "percent that starts no escape",
			paths: `  /files/50%/{name}:
    get:
      operationId: getFile
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
  /files/50%2/x:
    get:
      operationId: getOther
      responses: {"204": {description: ok}}
  /files/50%25/ok:
    get:
      operationId: getEscaped
      responses: {"204": {description: ok}}
`,
			want: []string{
				`specs/api.yaml:6:3: E-PATH-CHAR: path template "/files/50%/{name}" holds a "%" that does not start a %XX escape (#/paths/~1files~150%~1{name}); write a literal percent sign as "%25"`,
				`specs/api.yaml:12:3: E-PATH-CHAR: path template "/files/50%2/x" holds a "%" that does not start a %XX escape (#/paths/~1files~150%2~1x); write a literal percent sign as "%25"`,
			},
		},
		{
			name: "dot segments",
			paths: `  /a/./b:
    get:
      operationId: getA
      responses: {"204": {description: ok}}
  /c/%2e%2E:
    get:
      operationId: getC
      responses: {"204": {description: ok}}
  /d/..:
    get:
      operationId: getD
      responses: {"204": {description: ok}}
  /e/.{x}/v1.0/...:
    get:
      operationId: getE
      parameters:
        - {name: x, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
`,
			want: []string{
				`specs/api.yaml:6:3: E-PATH-DOT: path template "/a/./b" has the segment ".", which servers resolve to another path before routing (#/paths/~1a~1.~1b); remove the segment, or write the path it resolves to`,
				`specs/api.yaml:10:3: E-PATH-DOT: path template "/c/%2e%2E" has the segment "%2e%2E", which servers resolve to another path before routing (#/paths/~1c~1%2e%2E); remove the segment, or write the path it resolves to`,
				`specs/api.yaml:14:3: E-PATH-DOT: path template "/d/.." has the segment "..", which servers resolve to another path before routing (#/paths/~1d~1..); remove the segment, or write the path it resolves to`,
			},
		},
		{
			name: "template variable without parameter",
			paths: `  /users/{id}/pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: petId, in: query, schema: {type: string}}
      responses: {"204": {description: ok}}
`,
			want: []string{
				`specs/api.yaml:7:5: E-PATH-TEMPLATE: operation GET /users/{id}/pets/{petId} has no path parameter "petId" for its template variable {petId}; the client would send it as written (#/paths/~1users~1{id}~1pets~1{petId}/get); declare the parameter with name: petId, in: path, required: true`,
			},
		},
		{
			name: "variable in the fragment",
			paths: `  /items#v2/{id}:
    get:
      operationId: getItem
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
  /items/{id}#v2:
    put:
      operationId: putItem
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
  /things/{id}#{id}:
    put:
      operationId: putThing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
`,
			want: []string{
				`specs/api.yaml:12:3: W-PATH-FRAGMENT: path template "/items/{id}#v2" carries the fragment "v2", which no request carries; the client sends "/items/{id}" (#/paths/~1items~1{id}#v2); declare what the fragment distinguishes as parameters (in: query or in: header), and remove it from the path`,
				`specs/api.yaml:18:3: W-PATH-FRAGMENT: path template "/things/{id}#{id}" carries the fragment "{id}", which no request carries; the client sends "/things/{id}" (#/paths/~1things~1{id}#{id}); declare what the fragment distinguishes as parameters (in: query or in: header), and remove it from the path`,
				`specs/api.yaml:6:3: E-PATH-FRAGMENT: path template "/items#v2/{id}" carries the variable {id} in its fragment "v2/{id}", which no request carries: the client would take the parameter and never send it (#/paths/~1items#v2~1{id}); move {id} before the "#", or declare the parameter with in: query or in: header and remove the fragment from the path`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := buildOnly(t, head+"paths:\n"+tt.paths)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
