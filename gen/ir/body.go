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
	// ContentEventStream: text/event-stream, server-sent events whose
	// data is of the content's Type.
	ContentEventStream
	// ContentJSONLines: application/x-ndjson, application/jsonl and
	// application/x-jsonlines, one JSON value of Type per line.
	ContentJSONLines
	// ContentJSONSeq: application/json-seq (RFC 7464), a JSON text
	// sequence of values of Type.
	ContentJSONSeq
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
	case ContentEventStream:
		return "event-stream"
	case ContentJSONLines:
		return "json-lines"
	case ContentJSONSeq:
		return "json-seq"
	}
	return "unknown"
}

// IsStream reports whether the kind is a sequence of items read as they
// arrive: server-sent events, JSON Lines or a JSON text sequence.
func (k ContentKind) IsStream() bool {
	return k == ContentEventStream || k == ContentJSONLines || k == ContentJSONSeq
}

// Content is one media type of a body.
type Content struct {
	// MediaType is the media range as written ("application/json").
	MediaType string
	Kind      ContentKind
	// Type is the payload's type: a schema type for JSON, form and
	// multipart; KindString for text; KindBinary for binary payloads; the
	// type of one item for streams (the itemSchema, else the items of an
	// array schema, else the schema; KindString for events without a
	// schema, KindAny for JSON items without one).
	Type *TypeRef
	// Encoding is the encoding object of a form or multipart body, sorted
	// by property name.
	Encoding []*Encoding
	diag.Location
}

// Encoding says how one property of a form or multipart body is sent.
type Encoding struct {
	// Property is the property's name as written.
	Property string
	// ContentType is the part's media type as written (multipart); empty
	// for the default.
	ContentType string
	// Style and Explode serialize an array or object property of a form
	// body as a query parameter would be.
	Style   Style
	Explode bool
	// Headers are the part's extra headers (multipart), sorted by name.
	Headers []*Header
	diag.Location
}

// EncodingOf returns the encoding of the property, nil when it has none.
func (c *Content) EncodingOf(property string) *Encoding {
	for _, e := range c.Encoding {
		if e.Property == property {
			return e
		}
	}
	return nil
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
