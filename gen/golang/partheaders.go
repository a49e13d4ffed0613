package golang

import (
	"net/http"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
)

// partHeader is a header the encoding object of a multipart body declares
// for one part: the struct sent as the body gets a string field for it,
// left out of JSON, whose value goes out as the part's header when it is
// not empty.
type partHeader struct {
	// property is the part's property name as written; wire the header's
	// name; field the struct field that holds its value.
	property, wire, field string
	doc                   string
	required              bool
}

// partHeaders returns the part headers of the structs sent as multipart
// bodies, by struct name, in the order of their properties and then of
// the header names: the union over every operation that sends the
// struct. A Content-Type header is not one: the part's content type is
// the encoding's contentType, as the specification says.
func partHeaders(svc *ir.Service, types map[string]*ir.Type) map[string][]*partHeader {
	out := map[string][]*partHeader{}
	for _, op := range svc.Operations {
		ct, st := multipartStruct(op, types)
		if st == nil {
			continue
		}
		for _, f := range st.Fields {
			if enc := ct.EncodingOf(f.JSONName); enc != nil {
				out[st.Name] = addPartHeaders(out[st.Name], f, enc)
			}
		}
	}
	for name, hs := range out {
		nameHeaderFields(types[name], hs)
	}
	return out
}

// multipartStruct returns the body content of op and its struct when op
// sends a named struct as a multipart body; st is nil otherwise.
func multipartStruct(op *ir.Operation, types map[string]*ir.Type) (ct *ir.Content, st *ir.Type) {
	if op.Body == nil || len(op.Body.Contents) == 0 {
		return nil, nil
	}
	ct = op.Body.Contents[0]
	if ct.Kind != ir.ContentMultipart || ct.Type == nil || ct.Type.Kind != ir.KindNamed {
		return nil, nil
	}
	st = types[ct.Type.Name]
	if st == nil || st.Kind != ir.TypeStruct {
		return nil, nil
	}
	return ct, st
}

// addPartHeaders adds to hs the headers the encoding enc declares for
// the part of f, but Content-Type and those hs already has.
func addPartHeaders(hs []*partHeader, f *ir.Field, enc *ir.Encoding) []*partHeader {
	for _, h := range enc.Headers {
		wire := http.CanonicalHeaderKey(h.Name)
		if wire == "Content-Type" || slices.ContainsFunc(hs, func(p *partHeader) bool {
			return p.property == f.JSONName && p.wire == wire
		}) {
			continue
		}
		hs = append(hs, &partHeader{property: f.JSONName, wire: wire, field: f.Name + h.Ident, doc: h.Doc, required: h.Required})
	}
	return hs
}

// nameHeaderFields gives the part headers hs of the struct st field names
// none of its fields or of the others has, adding "Header" as needed.
func nameHeaderFields(st *ir.Type, hs []*partHeader) {
	taken := map[string]bool{}
	for _, f := range st.Fields {
		taken[f.Name] = true
	}
	for _, h := range hs {
		for taken[h.field] {
			h.field += "Header"
		}
		taken[h.field] = true
	}
}

// partHeaderFields are the struct fields of a multipart body's part
// headers.
func (m *models) partHeaderFields(t *ir.Type) []fieldView {
	var out []fieldView
	for _, h := range m.parts[t.Name] {
		doc := []string{h.field + " is the " + sanitizeLine(h.wire) + " header of the " + sanitizeLine(h.property) + " part, sent when not empty" +
			map[bool]string{true: " (the API requires it).", false: "."}[h.required]}
		if d := docLines(h.doc); len(d) > 0 {
			doc = append(append(doc, ""), d...)
		}
		out = append(out, fieldView{name: h.field, doc: doc, typ: jen.String(), jsonTag: "-"})
	}
	return out
}

// partHeaderArg is the header argument of the Multipart call that adds
// the part of property: nil, or the declared headers of the part with
// their values (codec.PartHeader leaves out the empty ones).
//
//	codec.PartHeader("X-Checksum", body.FileXChecksum)
func (m *models) partHeaderArg(st *ir.Type, property string) *jen.Statement {
	var args []jen.Code
	for _, h := range m.parts[st.Name] {
		if h.property == property {
			args = append(args, jen.Lit(h.wire), jen.Id("body").Dot(h.field))
		}
	}
	if len(args) == 0 {
		return jen.Nil()
	}
	return cd("PartHeader").Call(args...)
}
