package golang

import (
	"net/http"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// errorView is an operation's typed error: one field per documented
// non-2xx response with a JSON body.
type errorView struct {
	name   string
	op     string
	fields []errorFieldView
}

// errorFieldView is one documented error response.
type errorFieldView struct {
	name string
	// status is the status key ("404", "4XX", "default").
	status string
	doc    string
	typ    func() *jen.Statement
	// ptr: the field is a pointer to the decoded body.
	ptr bool
}

// errorView names a field per documented error response with a JSON body
// after its status text (NotFound, Status4XX, Default); nil when there is
// none.
func (c *clientGen) errorView(op *ir.Operation) *errorView {
	v := &errorView{name: op.Name + "Error", op: op.Name}
	used := map[string]bool{"StatusCode": true, "Remote": true}
	for _, r := range op.Errors() {
		if len(r.Contents) == 0 || r.Contents[0].Kind != ir.ContentJSON || r.Contents[0].Type == nil {
			continue
		}
		t := r.Contents[0].Type
		name := "Status" + strings.ToUpper(r.Status)
		switch {
		case r.IsDefault():
			name = "Default"
		case r.Code() != 0 && http.StatusText(r.Code()) != "":
			if n, ok := naming.Exported(http.StatusText(r.Code()), "Status"); ok {
				name = n
			}
		}
		for used[name] {
			name += "Body"
		}
		used[name] = true
		v.fields = append(v.fields, errorFieldView{
			name: name, status: r.Status, doc: r.Doc,
			typ: func() *jen.Statement { return c.m.goType(t) },
			ptr: !c.m.nilable(t),
		})
	}
	if len(v.fields) == 0 {
		return nil
	}
	return v
}

// match is the condition selecting the field's responses.
func (f errorFieldView) match() *jen.Statement {
	status := jen.Id("re").Dot("Status")
	if n := (&ir.Response{Status: f.status}).Code(); n != 0 {
		return status.Op("==").Add(statusLit(n))
	}
	lo := int(f.status[0]-'0') * 100
	return status.Op(">=").Add(statusLit(lo)).Op("&&").Id("re").Dot("Status").Op("<=").Add(statusLit(lo + 99))
}

// emitErrorType writes
//
//	// GetPetError is a documented error answer of [Client.GetPet] ...
//	type GetPetError struct {
//		StatusCode int
//		// NotFound is the body of a 404 answer.
//		NotFound *Error
//		Remote *resilient.RemoteError
//	}
//
//	func (e *GetPetError) Error() string { ... }
//	func (e *GetPetError) Unwrap() error { return e.Remote }
//
//	// decodeGetPetError makes a *GetPetError of a documented answer.
//	func decodeGetPetError(re *resilient.RemoteError) error {
//		e := &GetPetError{StatusCode: re.Status, Remote: re}
//		switch {
//		case re.Status == 404:
//			var v Error
//			if json.Unmarshal(re.Body, &v) != nil {
//				return nil
//			}
//			e.NotFound = &v
//		default:
//			return nil
//		}
//		return e
//	}
func emitErrorType(f *jen.File, op *opView) {
	v := op.errType
	doc := []string{
		v.name + " is a documented error answer of [Client." + v.op + "], its body",
		"decoded into the field of its status; the other fields are nil. It wraps",
		"the runtime's *resilient.RemoteError (status, attempts, Retry-After), so",
		"errors.As finds either.",
	}
	fields := []jen.Code{
		jen.Comment("StatusCode is the answer's HTTP status.").Line().Id("StatusCode").Int(),
	}
	var cases []jen.Code
	hasDefault := false
	for _, fv := range v.fields {
		what := "a " + fv.status + " answer"
		if fv.status == "default" {
			what = "any other documented answer"
		}
		lines := []string{fv.name + " is the body of " + what + "."}
		if d := docLines(fv.doc); len(d) > 0 {
			lines = append(append(lines, ""), d...)
		}
		typ := fv.typ()
		if fv.ptr {
			typ = jen.Op("*").Add(typ)
		}
		fields = append(fields, comments(lines).Id(fv.name).Add(typ))
		value := jen.Id("v")
		if fv.ptr {
			value = jen.Op("&").Id("v")
		}
		stmts := []jen.Code{
			jen.Var().Id("v").Add(fv.typ()),
			jen.If(jen.Qual("encoding/json", "Unmarshal").Call(jen.Id("re").Dot("Body"), jen.Op("&").Id("v")).Op("!=").Nil()).Block(jen.Return(jen.Nil())),
			jen.Id("e").Dot(fv.name).Op("=").Add(value),
		}
		if fv.status == "default" {
			hasDefault = true
			cases = append(cases, jen.Default().Block(stmts...))
			continue
		}
		cases = append(cases, jen.Case(fv.match()).Block(stmts...))
	}
	if !hasDefault {
		cases = append(cases, jen.Default().Block(jen.Return(jen.Nil())))
	}
	fields = append(fields, jen.Comment("Remote is the runtime's error for the answer.").Line().Id("Remote").Op("*").Add(rt("RemoteError")))
	f.Add(comments(doc).Type().Id(v.name).Struct(fields...))

	recv := jen.Id("e").Op("*").Id(v.name)
	f.Comment("Error describes the answer.")
	f.Func().Params(recv.Clone()).Id("Error").Params().String().Block(
		jen.If(jen.Id("e").Dot("Remote").Op("==").Nil()).Block(
			jen.Return(jen.Lit(strings.ToLower(v.op[:1])+v.op[1:]+": error answer ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("e").Dot("StatusCode"))),
		),
		jen.Return(jen.Id("e").Dot("Remote").Dot("Error").Call()),
	)
	f.Comment("Unwrap returns the runtime's error, so that errors.As finds it and the")
	f.Comment("pipeline classifies the answer by its status.")
	f.Func().Params(recv.Clone()).Id("Unwrap").Params().Error().Block(jen.Return(jen.Id("e").Dot("Remote")))

	f.Comment("decode" + v.name + " makes a *" + v.name + " of a documented answer whose body")
	f.Comment("decodes, and returns nil for any other.")
	f.Func().Id("decode"+v.name).Params(jen.Id("re").Op("*").Add(rt("RemoteError"))).Error().Block(
		jen.Id("e").Op(":=").Op("&").Id(v.name).Values(jen.Dict{jen.Id("StatusCode"): jen.Id("re").Dot("Status"), jen.Id("Remote"): jen.Id("re")}),
		jen.Switch().Block(cases...),
		jen.Return(jen.Id("e")),
	)
}
