package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// SchemeKind is the kind of a security scheme.
type SchemeKind int

// Security scheme kinds.
const (
	// SchemeAPIKey is an API key in a header, query parameter or cookie
	// (type apiKey).
	SchemeAPIKey SchemeKind = iota + 1
	// SchemeBearer is HTTP bearer authentication (type http, scheme
	// bearer).
	SchemeBearer
	// SchemeBasic is HTTP basic authentication (type http, scheme basic).
	SchemeBasic
	// SchemeHTTPOther is any other HTTP authentication scheme (digest,
	// HOBA...): its Authorization value is the caller's to compute.
	SchemeHTTPOther
	// SchemeOAuth2 is OAuth 2.0 (type oauth2): a bearer access token.
	SchemeOAuth2
	// SchemeOpenIDConnect is OpenID Connect (type openIdConnect): a
	// bearer access token.
	SchemeOpenIDConnect
	// SchemeMutualTLS is a client certificate (type mutualTLS): it travels
	// in the TLS handshake, not in the request.
	SchemeMutualTLS
)

// String returns the kind as the spec writes it ("apiKey", "http bearer").
func (k SchemeKind) String() string {
	switch k {
	case SchemeAPIKey:
		return "apiKey"
	case SchemeBearer:
		return "http bearer"
	case SchemeBasic:
		return "http basic"
	case SchemeHTTPOther:
		return "http"
	case SchemeOAuth2:
		return "oauth2"
	case SchemeOpenIDConnect:
		return "openIdConnect"
	case SchemeMutualTLS:
		return "mutualTLS"
	}
	return "unknown"
}

// InRequest reports whether credentials of the kind travel in the request
// (a header, a query parameter or a cookie) where the client sets them,
// so that the request key of a cached fallback can see them.
func (k SchemeKind) InRequest() bool {
	switch k {
	case SchemeAPIKey, SchemeBearer, SchemeBasic, SchemeOAuth2, SchemeOpenIDConnect:
		return true
	}
	return false
}

// SecurityScheme is one entry of the document's securitySchemes.
type SecurityScheme struct {
	// Name is the scheme's name as written, the key security
	// requirements use.
	Name string
	Kind SchemeKind
	// In and ParamName say where an API key goes: InHeader, InQuery or
	// InCookie, under ParamName.
	In        In
	ParamName string
	// HTTPScheme is the scheme of an HTTP scheme as written ("digest").
	HTTPScheme string
	// BearerFormat is the bearer token's format hint ("JWT").
	BearerFormat string
	// OpenIDConnectURL is the discovery URL of an OpenID Connect scheme.
	OpenIDConnectURL string
	// TokenURLs are the token endpoints of an OAuth 2.0 scheme's flows.
	TokenURLs []string
	Doc       string
	diag.Location
}

// SecurityRequirement is one alternative of an operation's security: the
// schemes that must all be sent together. An empty one needs nothing (an
// optional requirement).
type SecurityRequirement struct {
	Schemes []SchemeUse
}

// SchemeUse is one scheme of a [SecurityRequirement], with the scopes it
// asks for (OAuth 2.0, OpenID Connect) or roles.
type SchemeUse struct {
	Scheme string
	Scopes []string
}
