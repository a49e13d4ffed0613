package golang

import (
	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// streamView is the result of an operation whose answer is read after the
// call returns: server-sent events, JSON Lines or a JSON text sequence (a
// *stream.Stream of typed items), or a binary download (an
// io.ReadCloser). The call goes through runtime.DoHTTPStream.
type streamView struct {
	kind      ir.ContentKind
	mediaType string
	// item is the type of one item; nil for a download.
	item *ir.TypeRef
	m    *models
}

// streamView returns the stream of op, nil when its first answer with a
// body is neither a stream nor binary. Other answers with a body of
// another kind are read as the first one's, with a warning.
func (c *clientGen) streamView(op *ir.Operation) *streamView {
	res, first := op.Result()
	if first == nil || !first.Kind.IsStream() && first.Kind != ir.ContentBinary {
		return nil
	}
	for _, r := range answers(op) {
		if r == res || len(r.Contents) == 0 {
			continue
		}
		if ct := r.Contents[0]; ct.Kind != first.Kind || !sameType(ct.Type, first.Type) {
			c.list.Warnf(r.Location, diag.RuleResponseTypes, "operation "+op.Name+": the "+r.Status+" response's body differs from the first success's; it is read as that one", "")
		}
	}
	v := &streamView{kind: first.Kind, mediaType: first.MediaType, m: c.m}
	if first.Kind.IsStream() {
		v.item = first.Type
		if v.item == nil {
			v.item = &ir.TypeRef{Kind: ir.KindAny}
		}
	}
	return v
}

// checkStreamPolicy warns when a streamed operation's policy hedges or
// has a fallback: runtime.DoHTTPStream does neither, so the policy
// would promise what the call does not do.
func (c *clientGen) checkStreamPolicy(op *ir.Operation, res *policyspec.Operation) {
	p := res.Policy
	if p.Hedge.Delay <= 0 && p.Fallback.Kind == runtime.FallbackNone {
		return
	}
	c.list.Warnf(op.Location, diag.RuleStreamPolicy, "operation "+op.Name+" streams its answer, which is never hedged and has no fallback; its policy's hedge and fallback do not apply",
		"remove hedge and fallback from the operation's x-resilience or policy")
}

// text reports whether event data stays text (a string schema, or none).
func (s *streamView) text() bool {
	return s.kind == ir.ContentEventStream && s.item.Kind == ir.KindString
}

// typ is the method's result type.
func (s *streamView) typ(m *models) *jen.Statement {
	if s.kind == ir.ContentBinary {
		return jen.Qual("io", "ReadCloser")
	}
	return jen.Op("*").Add(st("Stream")).Types(s.itemType())
}

// itemType is the type of the stream's items: an Event of the item type
// for server-sent events.
func (s *streamView) itemType() *jen.Statement {
	if s.kind == ir.ContentEventStream {
		return st("Event").Types(s.m.goType(s.item))
	}
	return s.m.goType(s.item)
}

// open is the expression that makes the result of resp.
func (s *streamView) open(m *models) *jen.Statement {
	resp := jen.Id("resp")
	if s.kind == ir.ContentBinary {
		return resp.Dot("Body")
	}
	decode := st("DecodeJSON").Types(m.goType(s.item))
	if s.text() {
		decode = st("DecodeText")
	}
	switch s.kind {
	case ir.ContentEventStream:
		return st("NewEvents").Call(resp, decode)
	case ir.ContentJSONSeq:
		return st("NewJSONSeq").Call(resp, decode)
	}
	return st("NewJSONLines").Call(resp, decode)
}

// streamResultSet returns the result struct of a streamed answer whose
// success answers document headers, nil when none does: it embeds the
// stream and has the status, the header and a typed field per documented
// header, as a result set has.
//
//	type WatchPetsResult struct {
//		*stream.Stream[stream.Event[Pet]]
//		Status int
//		Header http.Header
//		XRateLimitRemaining *int
//	}
func (c *clientGen) streamResultSet(op *ir.Operation, s *streamView) *resultSet {
	var rs []*ir.Response
	headers := false
	for _, r := range op.Successes() {
		rs = append(rs, r)
		headers = headers || len(r.Headers) > 0
	}
	if !headers {
		return nil
	}
	set := &resultSet{op: op.Name, stream: s}
	c.fillResultSet(set, op, rs, map[string]bool{"Status": true, "Header": true, s.fieldName(): true})
	return set
}

// fieldName is the name of the embedded stream field of a result struct.
func (s *streamView) fieldName() string {
	if s.kind == ir.ContentBinary {
		return "ReadCloser"
	}
	return "Stream"
}

// embedded is the embedded stream field of a result struct: the stream,
// or the io.ReadCloser of a download.
func (s *streamView) embedded() *jen.Statement {
	if s.kind == ir.ContentBinary {
		return jen.Qual("io", "ReadCloser")
	}
	return jen.Op("*").Add(st("Stream")).Types(s.itemType())
}

// what says what a result struct's stream is.
func (s *streamView) what() string {
	switch s.kind {
	case ir.ContentBinary:
		return "the body, read as it arrives"
	case ir.ContentEventStream:
		return "the events, read as they arrive"
	}
	return "the items, read as they arrive"
}

// fieldDoc is the doc of the embedded stream field.
func (s *streamView) fieldDoc() []string {
	if s.kind == ir.ContentBinary {
		return []string{"ReadCloser reads the body as it arrives; close it."}
	}
	if s.kind == ir.ContentEventStream {
		return []string{"Stream reads the events as they arrive; close it."}
	}
	return []string{"Stream reads the items as they arrive; close it."}
}

// doc is the method doc's note on the stream, and on the result struct
// set when the answer has documented headers.
func (s *streamView) doc(set *resultSet) []string {
	what := "The answer is streamed: the method returns once the response header is in"
	read := " and the returned stream reads the items as they arrive, under ctx (its deadline and cancellation), not the policy's timeouts, which bound only the wait for the header."
	if s.kind == ir.ContentBinary {
		read = " and the returned body is read as it arrives, under ctx (its deadline and cancellation), not the policy's timeouts, which bound only the wait for the header."
	}
	lines := wrap(what+read, commentWidth)
	lines = append(lines, "")
	lines = append(lines, wrap("The call holds one of the dependency's bulkhead permits until the result is closed, read to its end or failed, or ctx ends: always close it. An attempt is retried only before its header arrives; once the first byte is handed over, a failure is the read's error, never retried.", commentWidth)...)
	switch {
	case set != nil:
		lines = append(lines, "")
		lines = append(lines, wrap("The answer comes back as a *"+set.name+", which embeds the "+
			map[bool]string{true: "body", false: "stream"}[s.kind == ir.ContentBinary]+
			", with its Status, its Header and the documented headers; a documented header that does not parse fails the call with a *codec.HeaderError, the "+
			map[bool]string{true: "body", false: "stream"}[s.kind == ir.ContentBinary]+" closed.", commentWidth)...)
	case s.kind == ir.ContentBinary:
		lines = append(lines, "", "The answer's status and header: runtime.WithResponseInfo.")
	default:
		lines = append(lines, "", "The answer's status and header: the stream's Response method.")
	}
	return lines
}

// emitStreamMethod writes the method of a streamed operation:
//
//	func (c *Client) WatchPets(ctx context.Context, opts ...runtime.CallOption) (*stream.Stream[stream.Event[Pet]], error) {
//		req, err := c.requestWatchPets(ctx)
//		if err != nil {
//			return nil, c.ops.WatchPets.InvalidRequest(err)
//		}
//		op := c.ops.WatchPets.With(opts...)
//		resp, err := runtime.DoHTTPStream(ctx, op, c.httpc, req, nil)
//		if err != nil {
//			return nil, err
//		}
//		return stream.NewEvents(resp, stream.DecodeJSON[Pet]), nil
//	}
//
// With documented headers, the stream goes in the result struct:
//
//	r, err := decodeWatchPetsResult(resp)
//	if err != nil {
//		resp.Body.Close()
//		return nil, err
//	}
//	r.Stream = stream.NewEvents(resp, stream.DecodeJSON[Pet])
//	return r, nil
func emitStreamMethod(f *jen.File, v *opView, m *models) {
	s := v.result.stream
	params := append(v.signature(), jen.Id("opts").Op("...").Add(rt("CallOption")))
	decodeErr := jen.Nil()
	if v.errType != nil {
		decodeErr = jen.Id("decode" + v.errType.name)
	}
	body := []jen.Code{
		jen.List(jen.Id("req"), jen.Err()).Op(":=").Id("c").Dot("request" + v.name).Call(v.callArgs()...),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("c").Dot("ops").Dot(v.name).Dot("InvalidRequest").Call(jen.Err()))),
		jen.Id("op").Op(":=").Id("c").Dot("ops").Dot(v.name).Dot("With").Call(jen.Id("opts").Op("...")),
		jen.List(jen.Id("resp"), jen.Err()).Op(":=").Add(rt("DoHTTPStream")).Call(jen.Id("ctx"), jen.Id("op"), jen.Id("c").Dot("httpc"), jen.Id("req"), decodeErr),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
	}
	if set := v.result.set; set != nil {
		// The documented headers first: a header that does not parse
		// closes the stream, which gives its bulkhead permit back.
		body = append(body,
			jen.List(jen.Id("r"), jen.Err()).Op(":=").Id("decode"+set.name).Call(jen.Id("resp")),
			jen.If(jen.Err().Op("!=").Nil()).Block(
				jen.Id("resp").Dot("Body").Dot("Close").Call(),
				jen.Return(jen.Nil(), jen.Err()),
			),
			jen.Id("r").Dot(s.fieldName()).Op("=").Add(s.open(m)),
			jen.Return(jen.Id("r"), jen.Nil()),
		)
	} else {
		body = append(body, jen.Return(s.open(m), jen.Nil()))
	}
	f.Add(comments(v.doc).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(v.name).Params(params...).
		Params(v.result.typ(), jen.Error()).Block(body...))
}
