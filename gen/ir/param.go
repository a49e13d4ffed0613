package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// In is where a parameter travels.
type In int

// Parameter locations.
const (
	InPath In = iota + 1
	InQuery
	InHeader
	InCookie
)

// String returns the OpenAPI name of the location ("path", "query", ...).
func (i In) String() string {
	switch i {
	case InPath:
		return "path"
	case InQuery:
		return "query"
	case InHeader:
		return "header"
	case InCookie:
		return "cookie"
	}
	return "unknown"
}

// Style is an OpenAPI parameter serialization style.
type Style int

// Serialization styles (OpenAPI 3 "style").
const (
	// StyleSimple: comma-separated values ("a,b"); path and header default.
	StyleSimple Style = iota + 1
	// StyleForm: "k=a&k=b" exploded or "k=a,b"; query and cookie default.
	StyleForm
	// StyleLabel: ".a.b" path segments.
	StyleLabel
	// StyleMatrix: ";k=a;k=b" path segments.
	StyleMatrix
	// StyleSpaceDelimited: "k=a%20b" (arrays in query).
	StyleSpaceDelimited
	// StylePipeDelimited: "k=a|b" (arrays in query).
	StylePipeDelimited
	// StyleDeepObject: "k[p]=v" (objects in query).
	StyleDeepObject
)

// String returns the OpenAPI name of the style ("form", "deepObject", ...).
func (s Style) String() string {
	switch s {
	case StyleSimple:
		return "simple"
	case StyleForm:
		return "form"
	case StyleLabel:
		return "label"
	case StyleMatrix:
		return "matrix"
	case StyleSpaceDelimited:
		return "spaceDelimited"
	case StylePipeDelimited:
		return "pipeDelimited"
	case StyleDeepObject:
		return "deepObject"
	}
	return "unknown"
}

// Param is one operation parameter.
type Param struct {
	// Name is the wire name ("user_id", "X-Request-ID").
	Name string
	// Ident is the exported Go identifier for the parameter ("UserID");
	// unique among the operation's parameters. Back ends derive argument
	// and field names from it.
	Ident string
	In    In
	// Required is true for path parameters and for parameters marked
	// required.
	Required bool
	// Type is the parameter's value type.
	Type *TypeRef
	// Style and Explode are the effective serialization (defaults
	// applied: form+explode for query and cookie, simple for path and
	// header).
	Style   Style
	Explode bool
	// AllowReserved keeps RFC 3986 reserved characters unescaped (query).
	AllowReserved bool
	// ContentType is set when the parameter is encoded as a media type
	// ("content" instead of "schema"), for example "application/json".
	ContentType string
	Doc         string
	Deprecated  bool
	diag.Location
}
