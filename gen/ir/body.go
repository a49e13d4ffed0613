package ir

import (
	"strconv"
	"strings"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// ContentKind is how a payload is encoded on the wire.
type ContentKind int

// Content kinds.
const (
	// ContentJSON: application/json and every "+json" media type.
	ContentJSON ContentKind = iota + 1
	// ContentForm: application/x-www-form-urlencoded.
	ContentForm
	// ContentMultipart: multipart/form-data and other multipart types.
	ContentMultipart
	// ContentText: text/* sent and received as a string.
	ContentText
	// ContentBinary: application/octet-stream and any other media type,
	// sent and received as a byte stream.
	ContentBinary
)

// String returns a short name for the kind ("json", "form", ...).
func (k ContentKind) String() string {
	switch k {
	case ContentJSON:
		return "json"
	case ContentForm:
		return "form"
	case ContentMultipart:
		return "multipart"
	case ContentText:
		return "text"
	case ContentBinary:
		return "binary"
	}
	return "unknown"
}

// Content is one media type of a body.
type Content struct {
	// MediaType is the media range as written ("application/json").
	MediaType string
	Kind      ContentKind
	// Type is the payload's type: a schema type for JSON, form and
	// multipart; KindString for text; KindBinary for binary payloads.
	Type *TypeRef
	diag.Location
}

// RequestBody is an operation's request body.
type RequestBody struct {
	Required bool
	Doc      string
	// Contents are sorted by media type, JSON first.
	Contents []*Content
	diag.Location
}

// Header is a documented response header.
type Header struct {
	// Name is the header name as written.
	Name string
	// Ident is its exported Go identifier, unique within the response.
	Ident    string
	Required bool
	Type     *TypeRef
	Doc      string
	diag.Location
}

// Response is one documented response of an operation.
type Response struct {
	// Status is the status key as written: "200", "4XX" or "default".
	Status string
	Doc    string
	// Contents are sorted by media type, JSON first; empty for responses
	// without a body.
	Contents []*Content
	// Headers are sorted by name.
	Headers []*Header
	diag.Location
}

// Code returns the numeric status, or 0 for ranges and "default".
func (r *Response) Code() int {
	n, err := strconv.Atoi(r.Status)
	if err != nil {
		return 0
	}
	return n
}

// IsSuccess reports whether the status is 2xx (a code or the "2XX" range).
func (r *Response) IsSuccess() bool {
	if c := r.Code(); c != 0 {
		return c >= 200 && c < 300
	}
	return strings.EqualFold(r.Status, "2XX")
}

// IsDefault reports whether this is the "default" response.
func (r *Response) IsDefault() bool { return r.Status == "default" }
