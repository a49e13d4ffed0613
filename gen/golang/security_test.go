package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/ir"
)

// TestSchemeOptionNames: options are named after the scheme's kind, with
// its name appended when the kind is not alone or is an API key, and a
// number when a name is taken; a client certificate has none.
func TestSchemeOptionNames(t *testing.T) {
	tests := []struct {
		name    string
		schemes []*ir.SecurityScheme
		taken   []string
		want    []string
	}{
		{"one of each kind", []*ir.SecurityScheme{
			{Name: "api_key", Kind: ir.SchemeAPIKey}, {Name: "app-id", Kind: ir.SchemeAPIKey},
			{Name: "jwt", Kind: ir.SchemeBearer}, {Name: "login", Kind: ir.SchemeBasic},
			{Name: "digest", Kind: ir.SchemeHTTPOther}, {Name: "petstore_auth", Kind: ir.SchemeOAuth2},
			{Name: "oidc", Kind: ir.SchemeOpenIDConnect}, {Name: "cert", Kind: ir.SchemeMutualTLS},
		}, nil, []string{"WithAPIKey", "WithAPIKeyAppID", "WithBearerToken", "WithBasicAuth", "WithAuthorization", "WithOAuth2", "WithOpenIDConnect", ""}},
		{"two of a kind", []*ir.SecurityScheme{
			{Name: "admin", Kind: ir.SchemeBearer}, {Name: "user", Kind: ir.SchemeBearer},
		}, nil, []string{"WithBearerTokenAdmin", "WithBearerTokenUser"}},
		{"names that meet", []*ir.SecurityScheme{
			{Name: "ApiKey", Kind: ir.SchemeAPIKey}, {Name: "api_key", Kind: ir.SchemeAPIKey}, {Name: "token", Kind: ir.SchemeBearer},
		}, []string{"WithBearerToken"}, []string{"WithAPIKey", "WithAPIKey2", "WithBearerToken2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			taken := map[string]bool{}
			for _, n := range tt.taken {
				taken[n] = true
			}
			var got []string
			for _, v := range schemeViews(&ir.Service{SecuritySchemes: tt.schemes}, taken) {
				got = append(got, v.option)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("option names (-want +got):\n%s", d)
			}
		})
	}
}
