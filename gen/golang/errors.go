package golang

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// errorView is a typed error of the client: one field per documented
// non-2xx response with a JSON body. Operations whose documented error
// answers are the same share one.
type errorView struct {
	name string
	// ops are the operations that return it, in the client's order.
	ops    []string
	fields []errorFieldView
	// key identifies the fields: names, statuses, types and docs.
	key string
	// renamed says why the type does not have its usual name, for its
	// doc comment; empty when it has.
	renamed string
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
// none. The view is named by [nameErrorTypes].
func (c *clientGen) errorView(op *ir.Operation) *errorView {
	v := &errorView{ops: []string{op.Name}}
	used := map[string]bool{"StatusCode": true, "Remote": true}
	var key strings.Builder
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
		fv := errorFieldView{
			name: name, status: r.Status, doc: r.Doc,
			typ: func() *jen.Statement { return c.m.goType(t) },
			ptr: !c.m.nilable(t),
		}
		v.fields = append(v.fields, fv)
		fmt.Fprintf(&key, "%s %s %#v %t %q\n", fv.name, fv.status, fv.typ(), fv.ptr, fv.doc)
	}
	if len(v.fields) == 0 {
		return nil
	}
	v.key = key.String()
	return v
}

// sharedErrorName is the name of the error type that the most operations
// share; others shared by several operations are numbered after it.
const sharedErrorName = "APIError"

// shareErrorTypes makes operations whose documented error answers are the
// same share one error type, and names every type: one of a single
// operation after it (GetPetError, or GetPetCallError when a model or
// the client has that name, with a warning), the one the most operations
// share APIError, and the other shared ones APIError2, APIError3... by
// how many operations share them, then by their first operation. A
// shared name that used already holds, or that an operation's own error
// type would have, gets the next number. used gets the names.
func shareErrorTypes(ops []*opView, used map[string]bool, list *diag.List) {
	byKey := map[string]*errorView{}
	var shared []*errorView
	avoid := map[string]bool{}
	for _, op := range ops {
		avoid[op.name+"Error"] = true
		e := op.errType
		if e == nil {
			continue
		}
		first, ok := byKey[e.key]
		if !ok {
			byKey[e.key] = e
			continue
		}
		if len(first.ops) == 1 {
			shared = append(shared, first)
		}
		first.ops = append(first.ops, op.name)
		op.errType = first
	}
	for _, op := range ops {
		if e := op.errType; e != nil && len(e.ops) == 1 {
			e.name, e.renamed = generatedName(op, "Error", used, list)
		}
	}
	slices.SortStableFunc(shared, func(a, b *errorView) int { return len(b.ops) - len(a.ops) })
	n := 1
	for _, e := range shared {
		for {
			e.name = sharedErrorName
			if n > 1 {
				e.name += strconv.Itoa(n)
			}
			n++
			if !used[e.name] && !avoid[e.name] {
				break
			}
		}
		used[e.name] = true
	}
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
//		Remote *runtime.RemoteError
//	}
//
//	func (e *GetPetError) Error() string { ... }
//	func (e *GetPetError) Unwrap() error { return e.Remote }
//
//	// decodeGetPetError makes a *GetPetError of a documented answer.
//	func decodeGetPetError(re *runtime.RemoteError) error {
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
//
// A type with only a Default field decodes without the switch. pkg
// begins the message of an error that wraps no runtime error.
func emitErrorType(f *jen.File, v *errorView, pkg string) {
	doc := wrap(v.name+" is a documented error answer of "+errorUsers(v.ops)+", its body "+
		"decoded into the field of its status; the other fields are nil. It wraps "+
		"the runtime's *runtime.RemoteError (status, attempts, Retry-After), so "+
		"errors.As finds either.", commentWidth)
	if v.renamed != "" {
		doc = append(append(doc, ""), wrap(v.renamed, commentWidth)...)
	}
	fields := []jen.Code{
		jen.Comment("StatusCode is the answer's HTTP status.").Line().Id("StatusCode").Int(),
	}
	var cases []jen.Code
	var onlyDefault []jen.Code
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
		decode := []jen.Code{
			jen.Var().Id("v").Add(fv.typ()),
			jen.If(jen.Qual("encoding/json", "Unmarshal").Call(jen.Id("re").Dot("Body"), jen.Op("&").Id("v")).Op("!=").Nil()).Block(jen.Return(jen.Nil())),
		}
		if fv.status == "default" {
			hasDefault = true
			cases = append(cases, jen.Default().Block(append(decode, jen.Id("e").Dot(fv.name).Op("=").Add(value))...))
			onlyDefault = append(decode, jen.Return(jen.Op("&").Id(v.name).Values(jen.Dict{
				jen.Id("StatusCode"): jen.Id("re").Dot("Status"), jen.Id(fv.name): value.Clone(), jen.Id("Remote"): jen.Id("re"),
			})))
			continue
		}
		cases = append(cases, jen.Case(fv.match()).Block(append(decode, jen.Id("e").Dot(fv.name).Op("=").Add(value))...))
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
			jen.Return(jen.Lit(pkg+": error answer ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("e").Dot("StatusCode"))),
		),
		jen.Return(jen.Id("e").Dot("Remote").Dot("Error").Call()),
	)
	f.Comment("Unwrap returns the runtime's error, so that errors.As finds it and the")
	f.Comment("pipeline classifies the answer by its status.")
	f.Func().Params(recv.Clone()).Id("Unwrap").Params().Error().Block(jen.Return(jen.Id("e").Dot("Remote")))

	body := onlyDefault
	if len(v.fields) > 1 || !hasDefault {
		body = []jen.Code{
			jen.Id("e").Op(":=").Op("&").Id(v.name).Values(jen.Dict{jen.Id("StatusCode"): jen.Id("re").Dot("Status"), jen.Id("Remote"): jen.Id("re")}),
			jen.Switch().Block(cases...),
			jen.Return(jen.Id("e")),
		}
	}
	f.Comment("decode" + v.name + " makes a *" + v.name + " of a documented answer whose body")
	f.Comment("decodes, and returns nil for any other.")
	f.Func().Id("decode" + v.name).Params(jen.Id("re").Op("*").Add(rt("RemoteError"))).Error().Block(body...)
}

// errorUsers names the operations that return an error type: each as a
// doc link when there are a few, else how many there are.
func errorUsers(ops []string) string {
	if len(ops) > 4 {
		return strconv.Itoa(len(ops)) + " operations of [Client] (each method's documentation names its error type)"
	}
	links := make([]string, len(ops))
	for i, op := range ops {
		links[i] = "[Client." + op + "]"
	}
	if len(links) == 1 {
		return links[0]
	}
	return strings.Join(links[:len(links)-1], ", ") + " and " + links[len(links)-1]
}
