package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/ir"
)

// buildString loads and builds api.yaml from data with opts, returning the
// service and the rendered diagnostics.
func buildString(t *testing.T, data string, opts BuildOptions) (*ir.Service, []string) {
	t.Helper()
	fsys := fstest.MapFS{"api.yaml": &fstest.MapFile{Data: []byte(data)}}
	doc, warnings, err := Load(fsys, "api.yaml", LoadOptions{Dir: "specs"})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	out := render(warnings, nil)
	svc, warnings, err := Build(doc, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return svc, append(out, render(warnings, nil)...)
}

const securitySpec = head + `security: [{bearer: []}]
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer, bearerFormat: JWT}
    basic: {type: http, scheme: basic}
    digest: {type: http, scheme: digest}
    key: {type: apiKey, in: query, name: api_key}
    sid: {type: apiKey, in: cookie, name: SID}
    app: {type: apiKey, in: header, name: X-App}
    oauth:
      type: oauth2
      flows:
        clientCredentials: {tokenUrl: "https://auth.example.com/token", scopes: {read: r}}
    oidc: {type: openIdConnect, openIdConnectUrl: "https://auth.example.com/.well-known/openid-configuration"}
    cert: {type: mutualTLS}
paths:
  /inherited:
    get: {operationId: inherited, responses: {"204": {description: ok}}}
  /none:
    get: {operationId: none, security: [], responses: {"204": {description: ok}}}
  /alternatives:
    get:
      operationId: alternatives
      security: [{oauth: [read]}, {key: [], app: []}, {}]
      responses: {"204": {description: ok}}
`

// TestBuildSecurity: every kind of scheme, and the effective requirement of
// each operation: inherited, none, alternatives of AND-sets with an
// optional one.
func TestBuildSecurity(t *testing.T) {
	svc, diags := buildString(t, strings.Replace(securitySpec, "openapi: 3.0.3", "openapi: 3.1.0", 1), BuildOptions{})
	var schemes []string
	for _, s := range svc.SecuritySchemes {
		schemes = append(schemes, fmt.Sprintf("%s %v in=%v name=%q http=%q tokens=%q", s.Name, s.Kind, s.In, s.ParamName, s.HTTPScheme, s.TokenURLs))
	}
	want := []string{
		`app apiKey in=header name="X-App" http="" tokens=[]`,
		`basic http basic in=unknown name="" http="basic" tokens=[]`,
		`bearer http bearer in=unknown name="" http="bearer" tokens=[]`,
		`cert mutualTLS in=unknown name="" http="" tokens=[]`,
		`digest http in=unknown name="" http="digest" tokens=[]`,
		`key apiKey in=query name="api_key" http="" tokens=[]`,
		`oauth oauth2 in=unknown name="" http="" tokens=["https://auth.example.com/token"]`,
		`oidc openIdConnect in=unknown name="" http="" tokens=[]`,
		`sid apiKey in=cookie name="SID" http="" tokens=[]`,
	}
	if d := cmp.Diff(want, schemes); d != "" {
		t.Errorf("schemes (-want +got):\n%s", d)
	}
	var reqs []string
	for _, op := range svc.Operations {
		var alts []string
		for _, alt := range op.Security {
			var names []string
			for _, s := range alt.Schemes {
				names = append(names, s.Scheme+fmt.Sprint(s.Scopes))
			}
			alts = append(alts, "{"+strings.Join(names, " ")+"}")
		}
		reqs = append(reqs, fmt.Sprintf("%s secured=%v %s", op.Name, op.Secured, strings.Join(alts, " or ")))
	}
	wantReqs := []string{
		"Alternatives secured=true {oauth[read]} or {app[] key[]} or {}",
		"Inherited secured=true {bearer[]}",
		"None secured=false ",
	}
	if d := cmp.Diff(wantReqs, reqs); d != "" {
		t.Errorf("requirements (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string(nil), diags); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

// TestBuildServers: names from x-go-name, a short description or the
// position; variables in template order; relative URLs resolved against
// the document's URL, or reported.
func TestBuildServers(t *testing.T) {
	spec := head + `servers:
  - url: https://api.example.com/v1
    description: Production
  - url: "https://{region}.example.com/{version}"
    x-go-name: Regional
    variables:
      region: {default: eu, enum: [eu, us]}
      version: {default: v1}
  - url: /v2
    description: The same host as the document, under a second version of the API
paths: {}
`
	tests := []struct {
		name      string
		docURL    string
		want      []string
		wantDiags []string
	}{
		{"no document URL", "", []string{
			"Production https://api.example.com/v1 rel=false []",
			"Regional https://{region}.example.com/{version} rel=false [region=eu[eu us] version=v1[]]",
			"3 /v2 rel=true []",
		}, []string{
			`specs/api.yaml:13:5: W-SERVER: server URL "/v2" is relative, to the URL the document is served from, which is not known here; the client has no default server and NewClient needs a base URL (#/servers/2); give the document's URL (oapi-resilient -document-url https://api.example.com/openapi.yaml), or write an absolute server URL`,
		}},
		{"document URL", "https://api.example.com/specs/openapi.yaml", []string{
			"Production https://api.example.com/v1 rel=false []",
			"Regional https://{region}.example.com/{version} rel=false [region=eu[eu us] version=v1[]]",
			"3 https://api.example.com/v2 rel=false []",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, diags := buildString(t, spec, BuildOptions{DocumentURL: tt.docURL})
			var got []string
			for _, s := range svc.Servers {
				var vars []string
				for _, v := range s.Variables {
					vars = append(vars, fmt.Sprintf("%s=%s%v", v.Ident, v.Default, v.Enum))
				}
				got = append(got, fmt.Sprintf("%s %s rel=%v %v", s.Name, s.URL, s.Relative, vars))
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("servers (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantDiags, diags); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}
