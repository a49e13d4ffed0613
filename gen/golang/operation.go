package golang

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
)

// opView is what the emitters of one operation write.
type opView struct {
	// src is the operation of the IR.
	src *ir.Operation
	// name is the method's name.
	name string
	doc  []string
	// policy is the operation's resolved policy.
	policy *policyspec.Operation
	// static is the JSON text of a static fallback value; DefaultPolicy
	// holds it as a json.RawMessage, which NewClient decodes.
	static string
	// method is the HTTP method; path the template split into parts.
	method string
	path   []pathPart
	// fixedQuery is the query written after "?" in the template,
	// escaped; sent with every request.
	fixedQuery string
	// args are the required path parameters, in template order.
	args    []*paramView
	params  *paramsView
	body    *bodyView
	result  *resultView
	errType *errorView
	// keyHeader is the idempotency key header, empty when none is sent.
	keyHeader string
	// credentials are the alternatives of the security requirement, nil
	// when the operation needs no credential.
	credentials [][]*schemeView
}

// pathPart is a literal piece of a path template, or a parameter.
type pathPart struct {
	lit   string
	param *paramView
}

// fixedLocals are the names the generated methods and request builders
// use for their own locals and imports; arguments avoid them.
var fixedLocals = map[string]bool{
	"c": true, "ctx": true, "opts": true, "params": true, "body": true, "contentType": true,
	"req": true, "err": true, "u": true, "q": true, "op": true, "key": true, "data": true,
	"v": true, "vs": true, "i": true, "k": true, "zero": true, "cookie": true,
	"url": true, "http": true, "strconv": true, "json": true, "bytes": true, "time": true,
	"strings": true, "io": true, "context": true, "runtime": true, "codec": true, "route": true, "stream": true, "fallbackstore": true, "slices": true, "maps": true,
	"base64": true, "errors": true, "fmt": true, "slog": true,
	// Form and multipart bodies, streams.
	"form": true, "m": true, "resp": true, "uuid": true,
	// Loops of nested form bodies.
	"vv": true, "ii": true, "kk": true, "vvv": true, "iii": true, "kkk": true, "ok": true,
}

func (c *clientGen) opView(op *ir.Operation, res *policyspec.Operation) *opView {
	v := &opView{src: op, name: op.Name, method: op.Method, policy: res, keyHeader: res.IdempotencyKey}
	taken := map[string]bool{}
	for _, p := range op.Params {
		switch p.In {
		case ir.InPath:
			v.args = append(v.args, c.pathArg(p, taken))
		default:
			if v.params == nil {
				v.params = &paramsView{name: op.Name + "Params", op: op.Name}
			}
			v.params.fields = append(v.params.fields, c.paramField(p))
		}
	}
	segLocals(v.args, taken)
	v.path = c.pathParts(op, v.args)
	if _, query, ok := ir.CutQuery(op.Path); ok {
		// The pairs whose value is a variable ("lat={lat}") are sent by the
		// query parameters the front end made of them.
		if fixed, _, ok := ir.TemplateQuery(query); ok {
			query = fixed
		}
		v.fixedQuery = escapeQueryLiteral(query)
	}
	if v.keyHeader != "" && !v.params.documents(v.keyHeader) {
		if v.params == nil {
			v.params = &paramsView{name: op.Name + "Params", op: op.Name}
		}
		v.params.keyField = v.params.freeField("IdempotencyKey")
	}
	if v.params != nil {
		v.params.keyHeader = v.keyHeader
	}
	v.body = c.bodyView(op)
	v.result = c.resultView(op)
	if v.result != nil && v.result.stream != nil {
		c.checkStreamPolicy(op, res)
	}
	v.errType = c.errorView(op)
	return v
}

// methodDoc is the method's comment, written once the error types are
// named: the summary and description, the
// policy line, and notes on the body and deprecation.
func (c *clientGen) methodDoc(op *ir.Operation, v *opView) []string {
	lines := []string{op.Name + " calls " + op.Method + " " + sanitizeLine(op.Path) + "."}
	if body := docLines(joinDoc(op.Summary, op.Description)); len(body) > 0 {
		lines = append(append(lines, ""), body...)
	}
	if op.Renamed != "" {
		lines = append(append(lines, ""), wrap("It is not called by its operationId: "+op.Renamed+".", commentWidth)...)
	}
	lines = append(lines, "", "Policy: "+v.policy.Summary().String()+".")
	if v.keyHeader != "" {
		lines = append(lines, "", "Every call sends one idempotency key in the "+v.keyHeader+" header, the same on",
			"every attempt: the caller's when params sets it, else a new random one.")
	}
	lines = append(lines, v.body.doc()...)
	if note := v.result.doc(); len(note) > 0 {
		lines = append(append(lines, ""), note...)
	}
	if c := credentialsDoc(v.credentials); len(c) > 0 {
		lines = append(append(lines, ""), c...)
	}
	if v.errType != nil {
		lines = append(lines, "", "Documented error answers come back as a *"+v.errType.name+"; any other",
			"failure of the dependency as a *runtime.RemoteError.")
	}
	if op.Deprecated {
		lines = append(lines, "", "Deprecated: the operation is marked deprecated.")
	}
	return lines
}

// signature returns the parameters shared by the method and its request
// builder: ctx, the path arguments, params and the body.
func (v *opView) signature() []jen.Code {
	out := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	for _, a := range v.args {
		out = append(out, jen.Id(a.name).Add(a.typ()))
	}
	if v.params != nil {
		out = append(out, jen.Id("params").Op("*").Id(v.params.name))
	}
	if v.body != nil {
		out = append(out, jen.Id("body").Add(v.body.typ()))
		if v.body.kind == ir.ContentMultipart && !v.body.typed {
			out = append(out, jen.Id("contentType").String())
		}
	}
	return out
}

// callArgs are the names of signature, to pass them on.
func (v *opView) callArgs() []jen.Code {
	out := []jen.Code{jen.Id("ctx")}
	for _, a := range v.args {
		out = append(out, jen.Id(a.name))
	}
	if v.params != nil {
		out = append(out, jen.Id("params"))
	}
	if v.body != nil {
		out = append(out, jen.Id("body"))
		if v.body.kind == ir.ContentMultipart && !v.body.typed {
			out = append(out, jen.Id("contentType"))
		}
	}
	return out
}

// emitMethod writes
//
//	// GetPet calls GET /pets/{id}.
//	//
//	// Policy: read-only, 3 attempts, timeout 2.1s, attempt 500ms.
//	func (c *Client) GetPet(ctx context.Context, id string, opts ...runtime.CallOption) (Pet, error) {
//		req, err := c.requestGetPet(ctx, id)
//		if err != nil {
//			var zero Pet
//			return zero, c.ops.GetPet.InvalidRequest(err)
//		}
//		op := c.ops.GetPet.With(opts...)
//		return runtime.DoHTTP(ctx, op, c.httpc, req, decodeJSON[Pet], decodeGetPetError)
//	}
//
// A method without a result returns only the error. A request that cannot
// be built (a body that does not marshal, a value the builder refuses) is
// the caller's error, returned before the pipeline; the runtime builds the
// cached fallback's key itself.
func emitMethod(f *jen.File, v *opView) {
	params := append(v.signature(), jen.Id("opts").Op("...").Add(rt("CallOption")))
	decodeErr := jen.Nil()
	if v.errType != nil {
		decodeErr = jen.Id("decode" + v.errType.name)
	}
	invalid := jen.Id("c").Dot("ops").Dot(v.name).Dot("InvalidRequest").Call(jen.Err())
	fail := jen.Return(invalid)
	results := jen.Error()
	decode := jen.Id("discardBody")
	if v.result != nil {
		fail = jen.Block(jen.Var().Id("zero").Add(v.result.typ()), jen.Return(jen.Id("zero"), invalid))
		results = jen.Params(v.result.typ(), jen.Error())
		decode = v.result.decodeFunc()
	}
	do := rt("DoHTTP").Call(jen.Id("ctx"), jen.Id("op"), jen.Id("c").Dot("httpc"), jen.Id("req"), decode, decodeErr)
	last := []jen.Code{jen.Return(do)}
	if v.result == nil {
		last = []jen.Code{jen.List(jen.Id("_"), jen.Err()).Op("=").Add(do), jen.Return(jen.Err())}
	}
	var onErr jen.Code = jen.Block(fail)
	if v.result != nil {
		onErr = fail
	}
	body := []jen.Code{
		jen.List(jen.Id("req"), jen.Err()).Op(":=").Id("c").Dot("request" + v.name).Call(v.callArgs()...),
		jen.If(jen.Err().Op("!=").Nil()).Add(onErr),
		jen.Id("op").Op(":=").Id("c").Dot("ops").Dot(v.name).Dot("With").Call(jen.Id("opts").Op("...")).Add(v.accept()),
	}
	body = append(body, last...)
	f.Add(comments(v.doc).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(v.name).Params(params...).Add(results).Block(body...))
}

// emitRequest writes the request builder of an operation:
//
//	// requestGetPet builds the request of GetPet.
//	func (c *Client) requestGetPet(ctx context.Context, id string, params *GetPetParams) (*http.Request, error) {
//		u := "/pets/" + url.PathEscape(id)
//		if err := codec.CheckPath(u); err != nil {
//			return nil, err
//		}
//		u = c.baseURL + u
//		var q []string
//		if params != nil { ... q = append(q, "limit="+url.QueryEscape(strconv.Itoa(*params.Limit))) ... }
//		if len(q) > 0 {
//			u += "?" + strings.Join(q, "&")
//		}
//		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
//		if err != nil {
//			return nil, err
//		}
//		req.Header.Set("Accept", "application/json")
//		if params != nil { ... headers and cookies ... }
//		if req.Header.Get("Idempotency-Key") == "" {
//			req.Header.Set("Idempotency-Key", codec.NewIdempotencyKey())
//		}
//		return req, nil
//	}
func emitRequest(f *jen.File, v *opView, prefix string) {
	var body []jen.Code
	// ifParams guards code that reads params, unless a nil params has
	// already been refused.
	ifParams := func(code []jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.Id("params").Op("!=").Nil()).Block(code...)}
	}
	if name, in, ok := v.params.required(); ok {
		// A nil Params would silently drop a parameter the server needs.
		body = append(body, jen.If(jen.Id("params").Op("==").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(prefix+": "+v.name+": params is nil, but it carries the required "+in+" parameter "+strconv.Quote(name)))),
		))
		ifParams = func(code []jen.Code) []jen.Code { return code }
	}
	body = append(body, v.pathLocals()...)
	body = append(body, v.pathCode()...)
	if v.params.hasQuery() {
		body = append(body, v.queryInit())
		body = append(body, ifParams(v.params.queryCode())...)
		body = append(body, jen.If(jen.Len(jen.Id("q")).Op(">").Lit(0)).Block(
			jen.Id("u").Op("+=").Lit("?").Op("+").Qual("strings", "Join").Call(jen.Id("q"), jen.Lit("&")),
		))
	}
	reader := jen.Nil()
	var post []jen.Code
	if v.body != nil {
		var pre []jen.Code
		pre, reader, post = v.body.encode()
		body = append(body, pre...)
	}
	body = append(body,
		jen.List(jen.Id("req"), jen.Err()).Op(":=").Qual("net/http", "NewRequestWithContext").Call(jen.Id("ctx"), methodName(v.method), jen.Id("u"), reader),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
	)
	body = append(body, post...)
	if ct := v.body.contentType(); ct != nil {
		body = append(body, jen.Id("req").Dot("Header").Dot("Set").Call(jen.Lit("Content-Type"), ct))
	}
	if v.result != nil && v.result.mediaType != "" {
		body = append(body, jen.Id("req").Dot("Header").Dot("Set").Call(jen.Lit("Accept"), jen.Lit(v.result.mediaType)))
	}
	if v.params.hasHeaders() {
		body = append(body, ifParams(v.params.headerCode())...)
	}
	if v.keyHeader != "" {
		body = append(body, jen.If(jen.Id("req").Dot("Header").Dot("Get").Call(jen.Lit(v.keyHeader)).Op("==").Lit("")).Block(
			jen.Id("req").Dot("Header").Dot("Set").Call(jen.Lit(v.keyHeader), cd("NewIdempotencyKey").Call()),
		))
	}
	body = append(body, jen.Return(jen.Id("req"), jen.Nil()))
	f.Comment("request" + v.name + " builds the request of " + v.name + ".")
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("request"+v.name).Params(v.signature()...).
		Params(jen.Op("*").Qual("net/http", "Request"), jen.Error()).Block(body...)
}

// methodName writes an HTTP method as net/http's constant (http.MethodGet),
// or as a string for a method net/http does not name.
func methodName(method string) *jen.Statement {
	switch method {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE":
		return jen.Qual("net/http", "Method"+method[:1]+strings.ToLower(method[1:]))
	}
	return jen.Lit(method)
}

// pathParts splits the template, up to its fixed query, into literals and
// parameters. A template variable without a parameter (the front end
// reports it) stays literal text, escaped as such.
func (c *clientGen) pathParts(op *ir.Operation, args []*paramView) []pathPart {
	var out []pathPart
	rest, _, _ := ir.CutQuery(op.Path)
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[max(i, 0):], '}') + max(i, 0)
		if i < 0 || j < i {
			out = append(out, pathPart{lit: rest})
			break
		}
		if i > 0 {
			out = append(out, pathPart{lit: rest[:i]})
		}
		name := rest[i+1 : j]
		var found *paramView
		for _, a := range args {
			if a.p.Name == name {
				found = a
			}
		}
		if found == nil {
			out = append(out, pathPart{lit: rest[i : j+1]})
		} else {
			out = append(out, pathPart{param: found})
		}
		rest = rest[j+1:]
	}
	return out
}

// pathLocals computes the path parameters that need statements.
func (v *opView) pathLocals() []jen.Code {
	var out []jen.Code
	for _, a := range v.args {
		out = append(out, a.pathLocal()...)
	}
	return out
}
