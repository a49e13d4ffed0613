package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// Operation is one callable endpoint.
type Operation struct {
	// Name is the Go method name: x-go-name, else derived from the
	// operationId, else from the HTTP method and path.
	Name string
	// ID is the operationId as written; empty when the document has none.
	ID string
	// Renamed says why Name is not the name the operationId gives, for
	// the method's doc comment; empty when it is.
	Renamed string
	// Method is the upper-case HTTP method ("GET").
	Method string
	// Path is the path template as written ("/users/{id}").
	Path string
	// Summary and Description are the operation's documentation.
	Summary     string
	Description string
	// Tags are the operation's tags, in document order.
	Tags []string
	// Deprecated reports the operation's deprecated flag.
	Deprecated bool
	// Secured reports that the operation has a security requirement with
	// at least one scheme (its own security, or the document's unless it
	// sets security: []): its requests carry the credentials of one
	// alternative of Security.
	Secured bool
	// Security is the operation's effective security requirement: its
	// own, else the document's; empty when it needs no credential
	// (security: [] or none written). Each element is one alternative.
	Security []SecurityRequirement
	// Idempotency is the default derived from Method (RFC 9110); an
	// x-resilience "idempotent" key may override it later.
	Idempotency Idempotency
	// Params are the operation's parameters, path item parameters merged
	// in: path parameters in template order, then query, header and cookie
	// parameters in document order.
	Params []*Param
	// Body is the request body, nil when the operation takes none.
	Body *RequestBody
	// Responses are sorted by status: explicit codes ascending, then
	// ranges ("4XX"), then "default".
	Responses []*Response
	// Resilience holds the policy written for the path item and the
	// operation (x-resilience), or for the method (the (resilient.v1.method)
	// option), widest first; the document's is on the Service.
	Resilience []PolicyLayer
	// RPC describes a gRPC method; nil for HTTP operations, which use
	// Method, Path, Params, Body and Responses instead. For an RPC, Name is
	// the Go method name, ID the method name as written in the .proto
	// file, and Idempotency comes from its idempotency_level.
	RPC *RPC
	diag.Location
}

// Successes returns the responses with a 2xx status, in order.
func (o *Operation) Successes() []*Response {
	var out []*Response
	for _, r := range o.Responses {
		if r.IsSuccess() {
			out = append(out, r)
		}
	}
	return out
}

// Result returns the response that gives the operation's result, the
// first 2xx response with a body, and that body's first content; nil, nil
// when no 2xx response has a body.
func (o *Operation) Result() (*Response, *Content) {
	for _, r := range o.Successes() {
		if len(r.Contents) > 0 {
			return r, r.Contents[0]
		}
	}
	return nil, nil
}

// Errors returns the documented non-2xx responses (including "default"),
// in order.
func (o *Operation) Errors() []*Response {
	var out []*Response
	for _, r := range o.Responses {
		if !r.IsSuccess() {
			out = append(out, r)
		}
	}
	return out
}
