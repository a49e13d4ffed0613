package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// bodyView is an operation's request body: its first media type (JSON
// first).
type bodyView struct {
	kind      ir.ContentKind
	mediaType string
	typ       func() *jen.Statement
}

// bodyView decides the body argument: the model type for JSON,
// url.Values for forms, string for text, io.Reader for binary payloads
// and, degraded, for multipart ones (with the content type, boundary
// included, as a second argument).
func (c *clientGen) bodyView(op *ir.Operation) *bodyView {
	if op.Body == nil || len(op.Body.Contents) == 0 {
		return nil
	}
	ct := op.Body.Contents[0]
	v := &bodyView{kind: ct.Kind, mediaType: ct.MediaType}
	switch ct.Kind {
	case ir.ContentJSON:
		t := ct.Type
		if t == nil {
			t = &ir.TypeRef{Kind: ir.KindAny}
		}
		v.typ = func() *jen.Statement { return c.m.goType(t) }
	case ir.ContentForm:
		v.typ = func() *jen.Statement { return jen.Qual("net/url", "Values") }
	case ir.ContentText:
		v.typ = func() *jen.Statement { return jen.String() }
	case ir.ContentMultipart:
		c.list.Warnf(ct.Location, diag.RuleBodyMultipart, "the "+ct.MediaType+" request body is sent as raw bytes: the caller encodes it (mime/multipart) and passes its content type", "")
		v.typ = func() *jen.Statement { return jen.Qual("io", "Reader") }
	default:
		v.kind = ir.ContentBinary
		v.typ = func() *jen.Statement { return jen.Qual("io", "Reader") }
	}
	return v
}

// encode returns the statements that prepare the body and the reader
// passed to http.NewRequestWithContext. In-memory readers (bytes.Reader,
// strings.Reader) let net/http set GetBody, so that attempts can resend
// the body.
//
//	data, err := json.Marshal(body)
//	if err != nil {
//		return nil, err
//	}
//	... bytes.NewReader(data)
func (v *bodyView) encode() ([]jen.Code, *jen.Statement) {
	switch v.kind {
	case ir.ContentJSON:
		return jsonText("data", jen.Id("body")), jen.Qual("bytes", "NewReader").Call(jen.Id("data"))
	case ir.ContentForm:
		return nil, jen.Qual("strings", "NewReader").Call(jen.Id("body").Dot("Encode").Call())
	case ir.ContentText:
		return nil, jen.Qual("strings", "NewReader").Call(jen.Id("body"))
	}
	return nil, jen.Id("body")
}

// contentType is the value of the Content-Type header: the media type as
// written, unless it is a range.
func (v *bodyView) contentType() *jen.Statement {
	if v.kind == ir.ContentMultipart {
		return jen.Id("contentType")
	}
	mt := v.mediaType
	if strings.Contains(mt, "*") {
		mt = map[ir.ContentKind]string{
			ir.ContentJSON:   "application/json",
			ir.ContentForm:   "application/x-www-form-urlencoded",
			ir.ContentText:   "text/plain",
			ir.ContentBinary: "application/octet-stream",
		}[v.kind]
	}
	return jen.Lit(mt)
}
