package gen

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// checkSpec lints one document and returns its errors and warnings,
// rendered.
func checkSpec(t *testing.T, spec string, opts OpenAPIOptions) []string {
	t.Helper()
	warnings, err := Check(fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "api.yaml", opts)
	var out []string
	for _, w := range warnings {
		out = append(out, w.Error())
	}
	for _, d := range diag.From(err) {
		out = append(out, d.Error())
	}
	return out
}

// TestCachedFallbackOnSecuredOperation: a cached fallback on an operation
// whose credentials the request does not carry (a client certificate) must
// be declared shared; one whose credentials the client sends itself is
// keyed by them; a static fallback, an operation without credentials and
// security: [] are fine.
func TestCachedFallbackOnSecuredOperation(t *testing.T) {
	const head = `openapi: 3.1.0
info: {title: Accounts, version: "1"}
components:
  securitySchemes:
    cert: {type: mutualTLS}
    key: {type: apiKey, in: header, name: X-API-Key}
`
	op := func(name, extra string) string {
		return "  /" + name + ":\n    get:\n      operationId: " + name + "\n" + extra +
			"      responses:\n        \"200\": {description: ok, content: {application/json: {schema: {type: object, properties: {n: {type: integer}}}}}}\n"
	}
	const cached = "      x-resilience:\n        fallback: {kind: cached}\n"
	const fix = "; declare fallback.shared: true if every caller gets the same answer, or use a static fallback (kind: static with a value)"
	msg := func(line, name string) string {
		return "api.yaml:" + line + ": E-FALLBACK-SHARED: operation " + strings.ToUpper(name[:1]) + name[1:] + " (GET /" + name +
			") has a cached fallback that is not shared and a security requirement with the mutualTLS scheme \"cert\", which the request does not carry: the cache cannot tell callers apart, so one caller could receive another caller's cached answer (#/paths/~1" + name + "/get/x-resilience/fallback/kind)" + fix
	}
	tests := []struct {
		name string
		spec string
		want []string
	}{
		{
			name: "document security",
			spec: head + "security: [{cert: []}]\npaths:\n" + op("me", cached),
			want: []string{msg("13:20", "me")},
		},
		{
			name: "operation security",
			spec: head + "paths:\n" + op("me", "      security: [{cert: []}]\n"+cached),
			want: []string{msg("13:20", "me")},
		},
		{
			name: "optional credentials beside a scheme",
			spec: head + "paths:\n" + op("me", "      security: [{}, {cert: []}]\n"+cached),
			want: []string{msg("13:20", "me")},
		},
		{
			name: "a client certificate beside an API key",
			spec: head + "paths:\n" + op("me", "      security: [{key: []}, {key: [], cert: []}]\n"+cached),
			want: []string{msg("13:20", "me")},
		},
		{
			name: "an API key the client sends",
			spec: head + "security: [{key: []}]\npaths:\n" + op("me", cached),
		},
		{
			name: "alternatives the client sends",
			spec: head + "paths:\n" + op("me", "      security: [{}, {key: []}]\n"+cached),
		},
		{
			name: "declared shared",
			spec: head + "security: [{key: []}]\npaths:\n" + op("me", "      x-resilience:\n        fallback: {kind: cached, shared: true}\n"),
		},
		{
			name: "static fallback",
			spec: head + "security: [{key: []}]\npaths:\n" + op("me", "      x-resilience:\n        fallback: {kind: static, value: {n: 0}}\n"),
		},
		{
			name: "security turned off",
			spec: head + "security: [{key: []}]\npaths:\n" + op("me", "      security: []\n"+cached),
		},
		{
			name: "anonymous only",
			spec: head + "paths:\n" + op("me", "      security: [{}]\n"+cached),
		},
		{
			name: "no security",
			spec: head + "paths:\n" + op("me", cached),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, checkSpec(t, tt.spec, OpenAPIOptions{})); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCachedFallbackOnSecuredOperationFromPolicyFile: the diagnostic
// points at the policy file's fallback when that is where it was set.
func TestCachedFallbackOnSecuredOperationFromPolicyFile(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: Accounts, version: "1"}
components:
  securitySchemes:
    cert: {type: mutualTLS}
security: [{cert: []}]
paths:
  /me:
    get:
      operationId: getMe
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
`
	const policy = "dependencies:\n  accounts:\n    operations:\n      getMe:\n        fallback: {kind: cached}\n"
	got := checkSpec(t, spec, OpenAPIOptions{PolicyName: "policy.yaml", PolicyData: []byte(policy)})
	if len(got) != 1 || !strings.HasPrefix(got[0], "policy.yaml:5:20: E-FALLBACK-SHARED: operation GetMe (GET /me) has a cached fallback that is not shared") {
		t.Errorf("diagnostics = %q, want one E-FALLBACK-SHARED at policy.yaml:5:20", got)
	}
}

// TestStaticFallbackValueQuotedShort: a static fallback that does not fit
// its schema is quoted in the message by at most 120 characters, with
// those that do not print escaped.
func TestStaticFallbackValueQuotedShort(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: Notes, version: "1"}
paths:
  /n:
    get:
      operationId: getN
      x-resilience:
        fallback: {kind: static, value: {n: "bom` + "\ufeff" + strings.Repeat("x", 300) + `"}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {n: {type: integer}}}}}}
`
	got := checkSpec(t, spec, OpenAPIOptions{})
	want := `api.yaml:8:34: E-FALLBACK-VALUE: operation GetN: static fallback {"n":"bom\ufeff` + strings.Repeat("x", 110) + `… does not match`
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("diagnostics = %q, want one starting %q", got, want)
	}
}

// TestServiceConfigsInAnOpenAPIRun: a policy file's grpcServiceConfigs is
// said to be left out of an OpenAPI client, once, at the key.
func TestServiceConfigsInAnOpenAPIRun(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: Accounts, version: "1"}
paths:
  /me:
    get:
      operationId: getMe
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
`
	got := checkSpec(t, spec, OpenAPIOptions{PolicyName: "policy.yaml", PolicyData: []byte("grpcServiceConfigs: [a.json, b.json]\n")})
	if len(got) != 1 || !strings.HasPrefix(got[0], "policy.yaml:1:22: W-SVCCONFIG-IGNORED: grpcServiceConfigs is left out") {
		t.Errorf("diagnostics = %q, want one W-SVCCONFIG-IGNORED at policy.yaml:1:22", got)
	}
}
