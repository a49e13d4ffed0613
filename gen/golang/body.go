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
	// typed: a form or multipart body is the struct of its schema, encoded
	// by pre (form.go); else url.Values or raw bytes with their content
	// type.
	typed bool
	pre   []jen.Code
}

// bodyView decides the body argument: the model type for JSON, the
// struct of its schema for forms ([clientGen.formEncodable]; url.Values
// for a form whose schema is not an object) and for multipart bodies (raw bytes with
// their content type, with a warning, when the schema is not an object),
// string for text and io.Reader for binary payloads.
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
		if c.formEncodable(ct) {
			v.typed, v.pre = true, c.formCode(ct)
			v.typ = func() *jen.Statement { return c.m.goType(ct.Type) }
			break
		}
		v.typ = func() *jen.Statement { return jen.Qual("net/url", "Values") }
	case ir.ContentText:
		v.typ = func() *jen.Statement { return jen.String() }
	case ir.ContentMultipart:
		if c.m.structOf(ct.Type) != nil {
			v.typed, v.pre = true, c.multipartCode(ct)
			v.typ = func() *jen.Statement { return c.m.goType(ct.Type) }
			break
		}
		c.list.Warnf(ct.Location, diag.RuleBodyMultipart, "the "+ct.MediaType+" request body is sent as raw bytes: the caller encodes it (mime/multipart) and passes its content type", "declare an object schema for it")
		v.typ = func() *jen.Statement { return jen.Qual("io", "Reader") }
	default:
		v.kind = ir.ContentBinary
		v.typ = func() *jen.Statement { return jen.Qual("io", "Reader") }
	}
	return v
}

// encode returns the statements that prepare the body, the reader
// passed to http.NewRequestWithContext, and the statements that set the
// body on req afterwards. In-memory readers (bytes.Reader, strings.Reader)
// let net/http set GetBody, so that attempts can resend the body; a binary
// body and a multipart one go through codec.SetBody and
// Multipart.SetBody, which also replay an io.ReadSeeker (an *os.File).
//
//	data, err := json.Marshal(body)
//	if err != nil {
//		return nil, err
//	}
//	... bytes.NewReader(data)
func (v *bodyView) encode() ([]jen.Code, *jen.Statement, []jen.Code) {
	switch {
	case v.kind == ir.ContentJSON:
		return jsonText("data", jen.Id("body")), jen.Qual("bytes", "NewReader").Call(jen.Id("data")), nil
	case v.kind == ir.ContentForm && v.typed:
		return v.pre, jen.Qual("strings", "NewReader").Call(jen.Id("form").Dot("Encode").Call()), nil
	case v.kind == ir.ContentForm:
		return nil, jen.Qual("strings", "NewReader").Call(jen.Id("body").Dot("Encode").Call()), nil
	case v.kind == ir.ContentText:
		return nil, jen.Qual("strings", "NewReader").Call(jen.Id("body")), nil
	case v.kind == ir.ContentMultipart && v.typed:
		return v.pre, jen.Nil(), []jen.Code{jen.If(jen.Err().Op(":=").Id("m").Dot("SetBody").Call(jen.Id("req")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))}
	}
	return nil, jen.Nil(), []jen.Code{jen.If(jen.Err().Op(":=").Add(cd("SetBody")).Call(jen.Id("req"), jen.Id("body")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))}
}

// doc is the method doc's note on replaying the body, for bodies that
// hold readers.
func (v *bodyView) doc() []string {
	switch {
	case v == nil:
		return nil
	case v.kind == ir.ContentBinary || v.kind == ir.ContentMultipart && !v.typed:
		return append([]string{""}, wrap("A body that is a *bytes.Reader, *bytes.Buffer, *strings.Reader or another io.ReadSeeker (an *os.File) is sent again on a retry; any other io.Reader is one-shot: the call then gets one attempt only, whatever its policy.", commentWidth)...)
	case v.kind == ir.ContentForm && !v.typed:
		return append([]string{""}, wrap("The form's schema is not an object: the body is the url.Values to send, which the caller encodes as the API expects (deepObject brackets, JSON text).", commentWidth)...)
	case v.kind == ir.ContentMultipart:
		return append([]string{""}, wrap("The body is streamed part by part. A file whose Body is a *bytes.Reader, *bytes.Buffer, *strings.Reader or another io.ReadSeeker (an *os.File) is sent again on a retry; a file with any other io.Reader is one-shot: the call then gets one attempt only, whatever its policy.", commentWidth)...)
	}
	return nil
}

// contentType is the value of the Content-Type header: the media type as
// written, unless it is a range; nil when the body sets it.
func (v *bodyView) contentType() *jen.Statement {
	if v == nil {
		return nil
	}
	if v.kind == ir.ContentMultipart {
		if v.typed {
			return nil // Multipart.SetBody sets it, boundary included
		}
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
