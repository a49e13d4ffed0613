package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// Server is one entry of the document's servers.
type Server struct {
	// Name is the Go identifier of the server's constant or function,
	// without the "Server" prefix: x-go-name, a short description
	// ("Production"), or its position ("2"), or "URL" for the document's
	// only server.
	Name string
	// URL is the URL template as written ("https://{region}.example.com"),
	// resolved against the document's own URL when it is relative and
	// that URL is known.
	URL string
	// Relative reports a URL that is still relative: the document's URL
	// was not known to resolve it.
	Relative bool
	Doc      string
	// Variables are the template's variables, in the order they appear in
	// URL.
	Variables []*ServerVariable
	diag.Location
}

// ServerVariable is one variable of a server URL template.
type ServerVariable struct {
	// Name is the name in the template; Ident its Go identifier, unique
	// among the server's variables and a valid parameter name.
	Name  string
	Ident string
	// Default is the value used when none is given.
	Default string
	// Enum lists the allowed values, in document order; empty allows any.
	Enum []string
	Doc  string
}
