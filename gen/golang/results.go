package golang

import (
	"net/http"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// resultSet is the result struct of an operation whose answers do not fit
// one body type: several documented answers (2xx, and 304 Not Modified)
// of which one has a body, or documented response headers. The method
// returns a pointer to it:
//
//	type CreatePetResult struct {
//		Status  int
//		Header  http.Header
//		OK      *Pet
//		Created *Pet
//		ETag    string
//		XRateLimitRemaining *int
//	}
type resultSet struct {
	// name is the struct's name, set by nameResults; renamed says why it
	// is not the usual one ("" when it is).
	name, renamed string
	op            string
	// answers are the documented answers, in status order.
	answers []*answerView
	headers []*headerField
	// stream is set for the result of a streamed answer with documented
	// headers (stream.go): the struct embeds the stream, and its answers
	// have no body field.
	stream *streamView
}

// answerView is one documented answer of a result set.
type answerView struct {
	status string
	code   int
	doc    string
	// field is the body's field, nil for an answer without a body.
	field *bodyField
	// headers are the answer's documented headers that have a field.
	headers []*answerHeader
}

// bodyField is the field holding one answer's body.
type bodyField struct {
	name string
	typ  func() *jen.Statement
	// json: decoded with decodeInto; else read whole as []byte.
	json bool
}

// headerField is a field holding a documented response header, shared by
// the answers that document the same header name.
type headerField struct {
	name string
	// wire is the header's name as first written.
	wire string
	doc  string
	// text: a string, read with Text; else a pointer, read with
	// DecodeHeader and parse.
	text  bool
	typ   func() *jen.Statement
	parse func() *jen.Statement
}

// answerHeader is a header as one answer documents it.
type answerHeader struct {
	field    *headerField
	required bool
}

// notModified is the one status outside 2xx a result set takes: the
// answer to a conditional request.
const notModified = http.StatusNotModified

// answers returns op's documented answers: the 2xx responses and a 304.
func answers(op *ir.Operation) []*ir.Response {
	var out []*ir.Response
	for _, r := range op.Responses {
		if r.IsSuccess() || r.Code() == notModified {
			out = append(out, r)
		}
	}
	return out
}

// needsSet reports whether op's answers need a result struct: a 304, a
// documented header, or several answers of which one has a body. An
// operation with one answer, or whose answers have no body and no
// headers, keeps returning its body (or nothing).
func needsSet(op *ir.Operation) bool {
	as := answers(op)
	body := false
	for _, r := range as {
		if r.Code() == notModified || len(r.Headers) > 0 {
			return true
		}
		body = body || len(r.Contents) > 0
	}
	return body && len(as) > 1
}

// resultSet computes the result struct of op, or nil when op keeps the
// single-body form (see needsSet).
func (c *clientGen) resultSet(op *ir.Operation) *resultSet {
	if !needsSet(op) {
		return nil
	}
	s := &resultSet{op: op.Name}
	c.fillResultSet(s, op, answers(op), map[string]bool{"Status": true, "Header": true})
	return s
}

// fillResultSet adds to s the answers rs of op, with a body field each
// (none for a streamed answer, whose stream the struct embeds) and their
// documented headers, field names taken from used.
func (c *clientGen) fillResultSet(s *resultSet, op *ir.Operation, rs []*ir.Response, used map[string]bool) {
	byWire := map[string]*headerField{}
	for _, r := range rs {
		a := &answerView{status: r.Status, code: r.Code(), doc: r.Doc}
		if len(r.Contents) > 0 && s.stream == nil {
			a.field = c.bodyField(op, r, used)
		}
		for _, h := range r.Headers {
			key := http.CanonicalHeaderKey(h.Name)
			f, ok := byWire[key]
			if !ok {
				f = c.headerField(op, r, h, used)
				if f == nil {
					continue
				}
				byWire[key] = f
				s.headers = append(s.headers, f)
			}
			a.headers = append(a.headers, &answerHeader{field: f, required: h.Required})
		}
		s.answers = append(s.answers, a)
	}
}

// statusField names the field of an answer's body after its status text
// (OK, Created, NotModified), Status2XX for a range.
func statusField(r *ir.Response, used map[string]bool) string {
	name := "Status" + strings.ToUpper(r.Status)
	if known, ok := statusNames[r.Code()]; ok {
		name = strings.TrimPrefix(known, "Status")
	} else if code := r.Code(); code != 0 && http.StatusText(code) != "" {
		if n, ok := naming.Exported(http.StatusText(code), "Status"); ok {
			name = n
		}
	}
	for used[name] {
		name += "Body"
	}
	used[name] = true
	return name
}

// bodyField is the field of an answer's body: its JSON type (a pointer
// unless the type has its own nil), else []byte read whole.
func (c *clientGen) bodyField(op *ir.Operation, r *ir.Response, used map[string]bool) *bodyField {
	ct := r.Contents[0]
	f := &bodyField{name: statusField(r, used)}
	if ct.Kind == ir.ContentJSON {
		t := ct.Type
		if t == nil {
			t = &ir.TypeRef{Kind: ir.KindAny}
		}
		f.json = true
		f.typ = func() *jen.Statement {
			if c.m.nilable(t) {
				return c.m.goType(t)
			}
			return jen.Op("*").Add(c.m.goType(t))
		}
		return f
	}
	c.list.Warnf(ct.Location, diag.RuleResponseRaw, "operation "+op.Name+": the "+ct.MediaType+" body of the "+r.Status+" answer is returned as raw bytes", "")
	f.typ = func() *jen.Statement { return jen.Index().Byte() }
	return f
}

// headerField is the field of a documented header: a string for text, a
// pointer to a primitive (or a string enum) for the rest; nil, with a
// warning, for a type the client does not parse, which stays in Header.
func (c *clientGen) headerField(op *ir.Operation, r *ir.Response, h *ir.Header, used map[string]bool) *headerField {
	t := h.Type
	if t == nil {
		t = &ir.TypeRef{Kind: ir.KindString}
	}
	f := &headerField{wire: h.Name, doc: h.Doc}
	if t.Kind == ir.KindString {
		f.text = true
		f.typ = func() *jen.Statement { return jen.String() }
	} else {
		parse := c.headerParser(t)
		if parse == nil {
			c.list.Warnf(h.Location, diag.RuleResponseHeader, "operation "+op.Name+": the "+r.Status+" answer's header "+quote(h.Name)+
				" has a type the client does not parse; it is read from the result's Header as text", "declare it as a string, a number, a boolean, a date or date-time, a uuid or a string enum")
			return nil
		}
		f.parse = parse
		f.typ = func() *jen.Statement { return jen.Op("*").Add(c.m.goType(t)) }
	}
	name := h.Ident
	for used[name] {
		name += "Header"
	}
	used[name] = true
	f.name = name
	return f
}

// headerParser returns the function DecodeHeader parses a header of type
// t with, nil for a type it cannot.
func (c *clientGen) headerParser(t *ir.TypeRef) func() *jen.Statement {
	fn := map[ir.Kind]func() *jen.Statement{
		ir.KindBool:     func() *jen.Statement { return jen.Qual("strconv", "ParseBool") },
		ir.KindInt:      func() *jen.Statement { return jen.Qual("strconv", "Atoi") },
		ir.KindInt32:    func() *jen.Statement { return cd("ParseInt32") },
		ir.KindInt64:    func() *jen.Statement { return cd("ParseInt64") },
		ir.KindUint:     func() *jen.Statement { return cd("ParseUint") },
		ir.KindUint32:   func() *jen.Statement { return cd("ParseUint32") },
		ir.KindUint64:   func() *jen.Statement { return cd("ParseUint64") },
		ir.KindFloat32:  func() *jen.Statement { return cd("ParseFloat32") },
		ir.KindFloat64:  func() *jen.Statement { return cd("ParseFloat64") },
		ir.KindDateTime: func() *jen.Statement { return cd("ParseDateTime") },
		ir.KindDate:     func() *jen.Statement { return cd("ParseDate") },
		ir.KindUUID:     func() *jen.Statement { return jen.Qual(uuidPath, "Parse") },
	}[t.Kind]
	if fn != nil || t.Kind != ir.KindNamed {
		return fn
	}
	nt := c.m.types[t.Name]
	switch {
	case nt == nil:
	case nt.Kind == ir.TypeEnum && nt.Enum != nil && nt.Enum.Base == ir.KindString,
		nt.Kind == ir.TypeAlias && nt.Alias != nil && nt.Alias.Kind == ir.KindString && !nt.Alias.Nullable:
		return func() *jen.Statement { return cd("ParseText").Types(jen.Id(t.Name)) }
	}
	return nil
}

// nameResults names the result structs with [generatedName]:
// <Op>Result, or <Op>CallResult with a warning when a model, the client
// or an earlier type has that name.
func nameResults(ops []*opView, used map[string]bool, list *diag.List) {
	for _, op := range ops {
		if op.result != nil && op.result.set != nil {
			op.result.set.name, op.result.set.renamed = generatedName(op, "Result", used, list)
		}
	}
}

// decodesJSON reports whether an answer's body is JSON (decoded with
// decodeInto).
func (s *resultSet) decodesJSON() bool {
	for _, a := range s.answers {
		if a.field != nil && a.field.json {
			return true
		}
	}
	return false
}

// setDoc is the method doc's note on a result set.
func (s *resultSet) setDoc() []string {
	var fields []string
	for _, a := range s.answers {
		if a.field != nil {
			fields = append(fields, a.field.name+" for "+a.status)
		}
	}
	text := "The answer comes back as a *" + s.name + ": its Status and Header"
	if len(fields) > 0 {
		text += ", the body of the status that came (" + strings.Join(fields, ", ") + ")"
	}
	if len(s.headers) > 0 {
		text += ", the documented headers"
	}
	text += "; an undocumented 2xx status gives only Status and Header."
	return wrap(text, commentWidth)
}

// acceptedStatuses are the statuses outside 2xx the method passes to
// runtime.AcceptStatus.
func (s *resultSet) acceptedStatuses() []int {
	var out []int
	for _, a := range s.answers {
		if a.code == notModified {
			out = append(out, a.code)
		}
	}
	return out
}

// emitResultSet writes the struct and its decoder:
//
//	// CreatePetResult is an answer of CreatePet.
//	type CreatePetResult struct { ... }
//
//	// decodeCreatePetResult decodes an answer of CreatePet: the body of its
//	// status and its documented headers.
//	func decodeCreatePetResult(resp *http.Response) (*CreatePetResult, error) {
//		r := &CreatePetResult{Status: resp.StatusCode, Header: resp.Header}
//		h := codec.NewHeaderDecoder(resp)
//		var err error
//		switch resp.StatusCode {
//		case 200:
//			err = decodeInto(resp, &r.OK)
//			r.ETag = h.Text("ETag", false)
//		}
//		if err != nil {
//			return nil, err
//		}
//		return r, h.Err()
//	}
func emitResultSet(f *jen.File, s *resultSet) {
	emitResultSetType(f, s)
	emitResultSetDecoder(f, s)
}

// emitResultSetType writes the struct of a result set, with its doc.
func emitResultSetType(f *jen.File, s *resultSet) {
	var fields []jen.Code
	if s.stream != nil {
		fields = append(fields, comments(s.stream.fieldDoc()).Add(s.stream.embedded()))
	}
	fields = append(fields,
		comments([]string{"Status is the answer's status code."}).Id("Status").Int(),
		comments([]string{"Header is the answer's header, every field of it."}).Id("Header").Qual("net/http", "Header"),
	)
	for _, a := range s.answers {
		if a.field == nil {
			continue
		}
		doc := a.field.name + " is the body of a " + a.status + " answer"
		if d := docLines(a.doc); len(d) == 1 {
			doc += " (" + strings.TrimSuffix(d[0], ".") + ")"
		}
		fields = append(fields, comments(wrap(doc+"; nil for another status.", commentWidth)).Id(a.field.name).Add(a.field.typ()))
	}
	for _, h := range s.headers {
		doc := []string{h.name + " is the " + sanitizeLine(h.wire) + " header" + map[bool]string{true: "; empty when absent.", false: "; nil when absent."}[h.text]}
		if d := docLines(h.doc); len(d) > 0 {
			doc = append(append(doc, ""), d...)
		}
		fields = append(fields, comments(doc).Id(h.name).Add(h.typ()))
	}
	doc := wrap(s.name+" is an answer of "+s.op+": its status, its header and the body and documented headers of its status.", commentWidth)
	if s.stream != nil {
		doc = wrap(s.name+" is the streamed answer of "+s.op+": "+s.stream.what()+", its status, its header and the documented headers of its status.", commentWidth)
	}
	if s.renamed != "" {
		doc = append(append(doc, ""), wrap(s.renamed, commentWidth)...)
	}
	f.Add(comments(doc).
		Type().Id(s.name).Struct(fields...))
}

// resultCases returns the cases of a result set's decoder's switch on
// the status, one per status with a body or headers to decode and a
// default one for a 2XX range; hasBody reports whether one of them
// decodes a body.
func resultCases(s *resultSet) (cases []jen.Code, hasBody bool) {
	var rangeCase []jen.Code
	for _, a := range s.answers {
		code := answerCode(a)
		if a.field != nil {
			hasBody = true
		}
		if len(code) == 0 {
			continue
		}
		if a.code == 0 {
			rangeCase = code
			continue
		}
		cases = append(cases, jen.Case(statusConst(a.code)).Block(code...))
	}
	if rangeCase != nil {
		cases = append(cases, jen.Default().Block(jen.If(jen.Id("resp").Dot("StatusCode").Op("/").Lit(100).Op("==").Lit(2)).Block(rangeCase...)))
	}
	return cases, hasBody
}

// answerCode returns the statements decoding the body and documented
// headers of one answer into r.
func answerCode(a *answerView) []jen.Code {
	var code []jen.Code
	if a.field != nil {
		target := jen.Id("r").Dot(a.field.name)
		if a.field.json {
			code = append(code, jen.Err().Op("=").Id("decodeInto").Call(jen.Id("resp"), jen.Op("&").Add(target)))
		} else {
			code = append(code, jen.List(target, jen.Err()).Op("=").Qual("io", "ReadAll").Call(jen.Id("resp").Dot("Body")))
		}
	}
	for _, h := range a.headers {
		target := jen.Id("r").Dot(h.field.name)
		if h.field.text {
			code = append(code, target.Op("=").Id("h").Dot("Text").Call(jen.Lit(h.field.wire), jen.Lit(h.required)))
		} else {
			code = append(code, target.Op("=").Add(cd("DecodeHeader")).Call(jen.Op("&").Id("h"), jen.Lit(h.field.wire), jen.Lit(h.required), h.field.parse()))
		}
	}
	return code
}

// emitResultSetDecoder writes the function decoding an answer into a
// result set.
func emitResultSetDecoder(f *jen.File, s *resultSet) {
	hasHeaders := len(s.headers) > 0
	cases, hasBody := resultCases(s)
	resp := jen.Id("resp").Op("*").Qual("net/http", "Response")
	body := []jen.Code{
		jen.Id("r").Op(":=").Op("&").Id(s.name).Values(
			jen.Id("Status").Op(":").Id("resp").Dot("StatusCode"),
			jen.Id("Header").Op(":").Id("resp").Dot("Header"),
		),
	}
	if hasHeaders {
		body = append(body, jen.Id("h").Op(":=").Add(cd("NewHeaderDecoder")).Call(jen.Id("resp")))
	}
	if hasBody {
		body = append(body, jen.Var().Err().Error())
	}
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("resp").Dot("StatusCode")).Block(cases...))
	}
	if hasBody {
		body = append(body, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	if hasHeaders {
		body = append(body, jen.Return(jen.Id("r"), jen.Id("h").Dot("Err").Call()))
	} else {
		body = append(body, jen.Return(jen.Id("r"), jen.Nil()))
	}
	if s.stream != nil {
		f.Comment("decode" + s.name + " decodes the documented headers of an answer of")
		f.Comment(s.op + "; the caller sets the stream.")
	} else {
		f.Comment("decode" + s.name + " decodes an answer of " + s.op + ": the body of its status and")
		f.Comment("its documented headers.")
	}
	f.Func().Id("decode"+s.name).Params(resp).Params(jen.Op("*").Id(s.name), jen.Error()).Block(body...)
}

// statusConst writes a status code as net/http's constant when it has
// one (http.StatusOK), else as a number.
func statusConst(code int) *jen.Statement {
	if name, ok := statusNames[code]; ok {
		return jen.Qual("net/http", name)
	}
	return jen.Lit(code)
}

// statusNames are net/http's names of the 2xx and 304 statuses.
var statusNames = map[int]string{
	200: "StatusOK", 201: "StatusCreated", 202: "StatusAccepted", 203: "StatusNonAuthoritativeInfo",
	204: "StatusNoContent", 205: "StatusResetContent", 206: "StatusPartialContent", 207: "StatusMultiStatus",
	208: "StatusAlreadyReported", 226: "StatusIMUsed", 304: "StatusNotModified",
}

// accept returns the .With(runtime.AcceptStatus(...)) that makes the
// operation's documented 304 a result; nothing when it has none.
func (v *opView) accept() *jen.Statement {
	if v.result == nil || v.result.set == nil {
		return jen.Null()
	}
	codes := v.result.set.acceptedStatuses()
	if len(codes) == 0 {
		return jen.Null()
	}
	args := make([]jen.Code, len(codes))
	for i, code := range codes {
		args[i] = statusConst(code)
	}
	return jen.Dot("With").Call(rt("AcceptStatus").Call(args...))
}
