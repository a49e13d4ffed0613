package openapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// securitySchemes builds the document's security schemes, sorted by name.
func (b *builder) securitySchemes() []*ir.SecurityScheme {
	t := b.doc.T
	if t.Components == nil {
		return nil
	}
	var out []*ir.SecurityScheme
	for _, name := range sortedKeys(t.Components.SecuritySchemes) {
		ref := t.Components.SecuritySchemes[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		if sc := b.securityScheme(name, ref.Value); usableScheme(sc) {
			out = append(out, sc)
		}
	}
	return out
}

// securityScheme builds the security scheme s, named name.
func (b *builder) securityScheme(name string, s *openapi3.SecurityScheme) *ir.SecurityScheme {
	ptr := pointer("#/components/securitySchemes", name)
	sc := &ir.SecurityScheme{Name: name, Doc: s.Description, Location: b.doc.locate(s.Origin, ptr)}
	switch strings.ToLower(s.Type) {
	case "apikey":
		sc.Kind, sc.ParamName, sc.In = ir.SchemeAPIKey, s.Name, apiKeyIn(s.In)
	case "http":
		sc.Kind, sc.HTTPScheme, sc.BearerFormat = httpSchemeKind(s.Scheme), s.Scheme, s.BearerFormat
	case "oauth2":
		sc.Kind, sc.TokenURLs = ir.SchemeOAuth2, tokenURLs(s.Flows)
	case "openidconnect":
		sc.Kind, sc.OpenIDConnectURL = ir.SchemeOpenIDConnect, s.OpenIdConnectUrl
	case "mutualtls":
		sc.Kind = ir.SchemeMutualTLS
	}
	return sc
}

// usableScheme reports whether sc is of a known kind, and, for an API
// key, says where and under which name the key goes. Validation refuses
// other schemes (E-OPENAPI): they are left out.
func usableScheme(sc *ir.SecurityScheme) bool {
	if sc.Kind == ir.SchemeAPIKey {
		return sc.In != 0 && sc.ParamName != ""
	}
	return sc.Kind != 0
}

// apiKeyIn returns where an API key goes, from the scheme's "in"; zero
// when it is not a place an API key can go.
func apiKeyIn(in string) ir.In {
	switch strings.ToLower(in) {
	case "header":
		return ir.InHeader
	case "query":
		return ir.InQuery
	case "cookie":
		return ir.InCookie
	}
	return 0
}

// httpSchemeKind returns the kind of an HTTP authentication scheme.
func httpSchemeKind(scheme string) ir.SchemeKind {
	switch strings.ToLower(scheme) {
	case "bearer":
		return ir.SchemeBearer
	case "basic":
		return ir.SchemeBasic
	}
	return ir.SchemeHTTPOther
}

// tokenURLs returns the token URLs of OAuth 2 flows, each once.
func tokenURLs(f *openapi3.OAuthFlows) []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, flow := range []*openapi3.OAuthFlow{f.AuthorizationCode, f.ClientCredentials, f.Password, f.Implicit} {
		if flow != nil && flow.TokenURL != "" && !slices.Contains(out, flow.TokenURL) {
			out = append(out, flow.TokenURL)
		}
	}
	return out
}

// security returns the effective security requirement of an operation:
// its own when written (security: [] meaning none), else the document's.
// (Validation refuses a requirement naming an undefined scheme.)
func (b *builder) security(own *openapi3.SecurityRequirements) []ir.SecurityRequirement {
	reqs := b.doc.T.Security
	if own != nil {
		reqs = *own
	}
	var out []ir.SecurityRequirement
	for _, r := range reqs {
		var alt ir.SecurityRequirement
		for _, name := range sortedKeys(r) {
			alt.Schemes = append(alt.Schemes, ir.SchemeUse{Scheme: name, Scopes: r[name]})
		}
		out = append(out, alt)
	}
	return out
}

// servers builds the document's servers: names from x-go-name, a short
// description or the position, relative URLs resolved against the
// document's URL when known.
func (b *builder) servers() []*ir.Server {
	names := newNamespace()
	var out []*ir.Server
	for i, s := range b.doc.T.Servers {
		if s == nil {
			continue
		}
		ptr := pointer("#/servers", itoa(i))
		loc := b.doc.locate(s.Origin, ptr)
		sv := &ir.Server{URL: s.URL, Doc: s.Description, Location: loc}
		sv.Name = names.derive(b.serverName(i, s), ptr)
		sv.URL, sv.Relative = b.resolveServer(s.URL, loc)
		sv.Variables = serverVariables(s)
		out = append(out, sv)
	}
	return out
}

// serverName returns the name the server s, the i-th, is given before
// it is made unique: its x-go-name when valid, else its description when
// it has three words at most, else "URL" for the only server and its
// position for one of several.
func (b *builder) serverName(i int, s *openapi3.Server) string {
	if v, ok := b.xGoName(s.Extensions); ok {
		if v, ok := v.(string); ok && naming.IsValid(v) {
			return v
		}
	}
	if s.Description != "" && len(strings.Fields(s.Description)) <= 3 {
		if name, _ := naming.Exported(strings.TrimSuffix(strings.TrimSuffix(s.Description, "."), " server"), "S"); name != "" {
			return name
		}
	}
	if len(b.doc.T.Servers) == 1 {
		return "URL"
	}
	return itoa(i + 1)
}

// serverVariables returns the variables of the server s, in the order of
// its URL template, each with an identifier of its own.
func serverVariables(s *openapi3.Server) []*ir.ServerVariable {
	params := newNamespace()
	var out []*ir.ServerVariable
	for _, v := range templateVars(s.URL) {
		def := s.Variables[v]
		if def == nil {
			// Validation refuses an undeclared variable (E-OPENAPI).
			continue
		}
		ident, ok := naming.Unexported(v)
		if !ok {
			ident = "v"
		}
		if fixedServerLocals[ident] {
			ident += "_"
		}
		out = append(out, &ir.ServerVariable{Name: v, Ident: params.derive(ident, v), Default: def.Default, Enum: def.Enum, Doc: def.Description})
	}
	return out
}

// fixedServerLocals are names a server function uses itself.
var fixedServerLocals = map[string]bool{"u": true, "err": true, "strings": true, "fmt": true, "slices": true, "url": true}

// resolveServer resolves a relative server URL against the document's own
// URL (BuildOptions.DocumentURL), as OpenAPI says; without one it stays
// relative and is reported.
func (b *builder) resolveServer(raw string, loc diag.Location) (string, bool) {
	// A template's braces are not URL syntax: resolve with them escaped.
	u, err := url.Parse(strings.NewReplacer("{", "%7B", "}", "%7D").Replace(raw))
	if err != nil || u.IsAbs() {
		return raw, false
	}
	if b.opts.DocumentURL == "" {
		b.diags.Warnf(loc, diag.RuleServer, "server URL "+strconv.Quote(raw)+" is relative, to the URL the document is served from, which is not known here; the client has no default server and NewClient needs a base URL",
			"give the document's URL (oapi-resilient -document-url https://api.example.com/openapi.yaml), or write an absolute server URL")
		return raw, true
	}
	base, err := url.Parse(b.opts.DocumentURL)
	if err != nil || !base.IsAbs() {
		b.diags.Warnf(loc, diag.RuleServer, "server URL "+strconv.Quote(raw)+" is relative and the document URL "+strconv.Quote(b.opts.DocumentURL)+" is not an absolute URL to resolve it against",
			"give an absolute http or https document URL")
		return raw, true
	}
	out := base.ResolveReference(u).String()
	return strings.NewReplacer("%7B", "{", "%7D", "}").Replace(out), false
}

// templateVars returns the {variables} of a server URL template, in order,
// each once.
func templateVars(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return out
		}
		if v := s[i+1 : i+j]; v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
		s = s[i+j+1:]
	}
}
