package golang

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// resultView is the typed result of a method.
type resultView struct {
	typ func() *jen.Statement
	// json: decoded with decodeJSON; otherwise read whole with readBody.
	json      bool
	mediaType string
	// set is the result struct of an operation with several answers or
	// documented headers (results.go); stream the streamed answer
	// (stream.go). Both are set for a streamed answer with documented
	// headers, whose result struct embeds the stream.
	set    *resultSet
	stream *streamView
}

// decodeFunc is the decode argument of DoHTTP: decodeJSON[T], readBody or
// the result set's decoder.
func (r *resultView) decodeFunc() *jen.Statement {
	switch {
	case r.set != nil:
		return jen.Id("decode" + r.set.name)
	case r.json:
		return jen.Id("decodeJSON").Types(r.typ())
	}
	return jen.Id("readBody")
}

// doc is the method doc's note on the result, if any.
func (r *resultView) doc() []string {
	switch {
	case r == nil:
	case r.stream != nil:
		return r.stream.doc(r.set)
	case r.set != nil:
		return r.set.setDoc()
	}
	return nil
}

// resultView applies the result rules (see the package documentation):
// a streamed answer (events, JSON Lines, JSON text sequences, binary) is
// read after the call returns; several answers, or documented headers,
// give a result struct; otherwise the first 2xx response with a body gives
// the result, JSON decoded into its type, any other media type read whole
// as []byte, and an operation whose 2xx responses have no body returns
// only an error. Other 2xx responses with a different type are read as the
// first one, with a warning.
func (c *clientGen) resultView(op *ir.Operation) *resultView {
	if s := c.streamView(op); s != nil {
		v := &resultView{stream: s, mediaType: acceptable(s.mediaType), typ: func() *jen.Statement { return s.typ(c.m) }}
		if set := c.streamResultSet(op, s); set != nil {
			v.set = set
			v.typ = func() *jen.Statement { return jen.Op("*").Id(set.name) }
		}
		return v
	}
	if set := c.resultSet(op); set != nil {
		v := &resultView{set: set, mediaType: acceptOf(answers(op))}
		v.typ = func() *jen.Statement { return jen.Op("*").Id(set.name) }
		return v
	}
	res, first := op.Result()
	if first == nil {
		return nil
	}
	c.warnOtherSuccesses(op, res, first)
	v := &resultView{mediaType: first.MediaType}
	if strings.Contains(v.mediaType, "*") {
		v.mediaType = ""
	}
	if first.Kind == ir.ContentJSON {
		t := first.Type
		if t == nil {
			t = &ir.TypeRef{Kind: ir.KindAny}
		}
		v.json = true
		v.typ = func() *jen.Statement { return c.m.goType(t) }
		return v
	}
	if first.Kind == ir.ContentForm || first.Kind == ir.ContentMultipart {
		c.list.Warnf(first.Location, diag.RuleResponseRaw, "operation "+op.Name+": the "+first.MediaType+" response body is returned as raw bytes", "")
	}
	v.typ = func() *jen.Statement { return jen.Index().Byte() }
	return v
}

// warnOtherSuccesses warns of each 2xx response of op but res, whose
// body first is the result, that has a body of another kind or type: it
// is decoded as first.
func (c *clientGen) warnOtherSuccesses(op *ir.Operation, res *ir.Response, first *ir.Content) {
	for _, r := range op.Successes() {
		if r == res || len(r.Contents) == 0 {
			continue
		}
		if ct := r.Contents[0]; ct.Kind != first.Kind || ct.Kind == ir.ContentJSON && !sameType(ct.Type, first.Type) {
			c.list.Warnf(r.Location, diag.RuleResponseTypes, "operation "+op.Name+": the "+r.Status+" response's body differs from the first success's; it is decoded as that one", "")
		}
	}
}

// acceptable returns a media type for the Accept header: empty for a
// range, which says nothing.
func acceptable(mt string) string {
	if strings.Contains(mt, "*") {
		return ""
	}
	return mt
}

// acceptOf is the Accept header of answers: the distinct media types of
// their first contents, in order.
func acceptOf(rs []*ir.Response) string {
	var out []string
	for _, r := range rs {
		if len(r.Contents) == 0 {
			continue
		}
		if mt := acceptable(r.Contents[0].MediaType); mt != "" && !slices.Contains(out, mt) {
			out = append(out, mt)
		}
	}
	return strings.Join(out, ", ")
}

// sameType reports whether two type uses are the same Go type.
func sameType(a, b *ir.TypeRef) bool {
	switch {
	case a == nil || b == nil:
		return a == b
	case a.Kind != b.Kind || a.Name != b.Name:
		return false
	case a.Elem != nil || b.Elem != nil:
		return sameType(a.Elem, b.Elem)
	}
	return true
}

// emitHelpers writes the decode functions the methods use:
//
//	// decodeJSON decodes a JSON answer; a 204 answer is T's zero value.
//	func decodeJSON[T any](resp *http.Response) (T, error)
//
//	// readBody reads a whole answer.
//	func readBody(resp *http.Response) ([]byte, error)
//
//	// discardBody ignores the answer's body.
//	func discardBody(*http.Response) (struct{}, error)
func emitHelpers(f *jen.File, v *clientView) {
	resp := jen.Id("resp").Op("*").Qual("net/http", "Response")
	if v.usesJSON {
		f.Comment("decodeJSON decodes a JSON answer; a 204 answer is T's zero value.")
		f.Func().Id("decodeJSON").Types(jen.Id("T").Any()).Params(resp.Clone()).Params(jen.Id("T"), jen.Error()).Block(
			jen.Var().Id("v").Id("T"),
			jen.If(jen.Id("resp").Dot("StatusCode").Op("==").Qual("net/http", "StatusNoContent")).Block(jen.Return(jen.Id("v"), jen.Nil())),
			jen.Err().Op(":=").Qual("encoding/json", "NewDecoder").Call(jen.Id("resp").Dot("Body")).Dot("Decode").Call(jen.Op("&").Id("v")),
			jen.Return(jen.Id("v"), jen.Err()),
		)
	}
	if v.usesBytes {
		f.Comment("readBody reads a whole answer, inside the attempt so that the attempt")
		f.Comment("timeout bounds it.")
		f.Func().Id("readBody").Params(resp.Clone()).Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Return(jen.Qual("io", "ReadAll").Call(jen.Id("resp").Dot("Body"))),
		)
	}
	if v.usesStatic {
		f.Comment("staticFallback returns a static fallback value of the operation's result")
		f.Comment("type T. DefaultPolicy holds the spec's value as JSON text, decoded here; a")
		f.Comment("value of any other kind, set with WithPolicy, is returned as is.")
		f.Func().Id("staticFallback").Types(jen.Id("T").Any()).Params(jen.Id("v").Any()).Params(jen.Any(), jen.Error()).Block(
			jen.List(jen.Id("raw"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Qual("encoding/json", "RawMessage")),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Id("v"), jen.Nil())),
			jen.Var().Id("t").Id("T"),
			jen.If(jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("raw"), jen.Op("&").Id("t")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("static fallback %s: %w"), jen.Id("raw"), jen.Err())),
			),
			jen.Return(jen.Id("t"), jen.Nil()),
		)
	}
	if v.usesInto {
		f.Comment("decodeInto decodes a JSON answer into v.")
		f.Func().Id("decodeInto").Params(resp.Clone(), jen.Id("v").Any()).Error().Block(
			jen.Return(jen.Qual("encoding/json", "NewDecoder").Call(jen.Id("resp").Dot("Body")).Dot("Decode").Call(jen.Id("v"))),
		)
	}
	if v.usesNothing {
		f.Comment("discardBody ignores an answer's body; the runtime drains it.")
		f.Func().Id("discardBody").Params(jen.Op("*").Qual("net/http", "Response")).Params(jen.Struct(), jen.Error()).Block(
			jen.Return(jen.Struct().Values(), jen.Nil()),
		)
	}
}
