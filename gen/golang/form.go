package golang

import (
	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
)

// multipartStructs returns the names of the structs that operations send
// as multipart/form-data bodies: their binary properties become runtime
// Files (name, content type and reader), sent as file parts.
func multipartStructs(svc *ir.Service) map[string]bool {
	out := map[string]bool{}
	for _, op := range svc.Operations {
		if op.Body == nil || len(op.Body.Contents) == 0 {
			continue
		}
		if ct := op.Body.Contents[0]; ct.Kind == ir.ContentMultipart && ct.Type != nil && ct.Type.Kind == ir.KindNamed {
			out[ct.Type.Name] = true
		}
	}
	return out
}

// partType is the Go type of a property of a multipart body: a
// runtime File for binary data (a list of them for an array), else the
// model type.
func (m *models) partType(t *ir.TypeRef) *jen.Statement {
	switch {
	case t.Kind == ir.KindBinary:
		return cd("File")
	case t.Kind == ir.KindArray && t.Elem.Kind == ir.KindBinary:
		return jen.Index().Add(cd("File"))
	}
	return m.goType(t)
}

// structOf returns the struct a body of type t is, nil when it is not one.
func (m *models) structOf(t *ir.TypeRef) *ir.Type {
	if t == nil || t.Kind != ir.KindNamed {
		return nil
	}
	nt := m.types[t.Name]
	if nt == nil || nt.Kind != ir.TypeStruct {
		return nil
	}
	return nt
}

// bodyFieldValue reads one property of a struct body: how to test that it
// is present, and its value once it is.
type bodyFieldValue struct {
	// present is nil for a value always sent (required, or its own zero).
	present *jen.Statement
	value   *jen.Statement
}

// fieldValue returns how a property of body is read: pointers
// dereferenced, a runtime Nullable sent when set (a form cannot say
// null), slices ranged over.
func (c *clientGen) fieldValue(f *ir.Field) bodyFieldValue {
	x := jen.Id("body").Dot(f.Name)
	switch {
	case c.m.fieldNullable(f):
		return bodyFieldValue{present: x.Clone().Dot("IsSet").Call().Op("&&").Op("!").Add(x.Clone()).Dot("IsNull").Call(), value: x.Clone().Dot("Ptr").Call()}
	case c.m.fieldPointer(f, true):
		return bodyFieldValue{present: x.Clone().Op("!=").Nil(), value: jen.Op("*").Add(x)}
	}
	return bodyFieldValue{value: x}
}

// formEncodable reports whether the client encodes a form body of ct's
// schema itself: an object. Its primitives and arrays of primitives are
// flat pairs; anything nested goes into deepObject brackets (deepform.go).
// A form whose schema is not an object keeps url.Values, which the caller
// encodes.
func (c *clientGen) formEncodable(ct *ir.Content) bool {
	return c.m.structOf(ct.Type) != nil
}

// flatFormField reports whether a property of a form body is written as
// a flat pair (or pairs): a primitive, or an array of primitives whose
// encoding does not ask for deepObject brackets. Anything else goes into
// brackets (deepform.go).
func (c *clientGen) flatFormField(f *ir.Field, enc *ir.Encoding) bool {
	t := f.Type
	switch {
	case c.scalarFormat(t) != nil:
		return true
	case t.Kind == ir.KindArray && !t.Elem.Nullable && c.scalarFormat(t.Elem) != nil && !c.m.fieldNullable(f):
		return enc == nil || enc.Style != ir.StyleDeepObject
	}
	return false
}

// formCode writes the statements that encode a form body into form, a
// url.Values, as its encoding object says: primitives as their text,
// arrays of primitives one pair per element (style form, explode), joined
// (comma, space or pipe) or in brackets (deepObject), nested values in
// brackets ([deepForm.field]); absent optional properties are left out.
// The body is one [formEncodable] accepts.
//
//	form := url.Values{}
//	form.Set("grant_type", string(body.GrantType))
//	if body.Scope != nil {
//		form.Set("scope", *body.Scope)
//	}
//	for _, v := range body.Tags {
//		form.Add("tags", v)
//	}
func (c *clientGen) formCode(ct *ir.Content) []jen.Code {
	out := []jen.Code{jen.Id("form").Op(":=").Qual("net/url", "Values").Values()}
	st := c.m.structOf(ct.Type)
	for _, f := range st.Fields {
		fv := c.fieldValue(f)
		enc := ct.EncodingOf(f.JSONName)
		key := jen.Lit(f.JSONName)
		if !c.flatFormField(f, enc) {
			if code := c.form.formObject(f, enc, jen.Id("body").Dot(f.Name)); code != nil {
				out = append(out, code...)
				continue
			}
			out = append(out, c.form.field(f, jen.Id("body"), literalKey(f.JSONName), func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) })...)
			continue
		}
		var code []jen.Code
		if format := c.scalarFormat(f.Type); format != nil {
			value := fv.value
			if c.m.fieldNullable(f) {
				value = jen.Op("*").Add(value)
			}
			code = []jen.Code{jen.Id("form").Dot("Set").Call(key, format(value))}
			if fv.present == nil && !f.Required && c.m.nilable(f.Type) {
				// Optional base64 bytes: nil is absent.
				fv.present = jen.Len(jen.Id("body").Dot(f.Name)).Op(">").Lit(0)
			}
		} else {
			format := c.scalarFormat(f.Type.Elem)
			style, explode := ir.StyleForm, true
			if enc != nil {
				style, explode = enc.Style, enc.Explode
			}
			if style == ir.StyleForm && explode {
				code = []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Add(fv.value)).Block(
					jen.Id("form").Dot("Add").Call(key, format(jen.Id("v"))))}
			} else {
				sep := map[ir.Style]string{ir.StyleSpaceDelimited: " ", ir.StylePipeDelimited: "|"}[style]
				if sep == "" {
					sep = ","
				}
				code = append(joined(fv.value, format, ""), jen.Id("form").Dot("Set").Call(key, jen.Qual("strings", "Join").Call(jen.Id("vs"), jen.Lit(sep))))
				code = []jen.Code{jen.If(jen.Len(fv.value).Op(">").Lit(0)).Block(code...)}
			}
		}
		if fv.present != nil {
			code = []jen.Code{jen.If(fv.present).Block(code...)}
		}
		out = append(out, code...)
	}
	return out
}

// multipartCode writes the statements that encode a multipart body into
// m, a runtime Multipart, one part per present property in order: files
// (runtime File) as file parts, primitives as text parts, anything else as
// a JSON part, arrays of primitives one text part per element, each part
// with the content type of its encoding and the headers it declares that
// the body struct holds a value for.
//
//	m := codec.NewMultipart()
//	m.Field("name", body.Name, "", nil)
//	m.File("photo", body.Photo, "image/png", nil)
func (c *clientGen) multipartCode(ct *ir.Content) []jen.Code {
	out := []jen.Code{jen.Id("m").Op(":=").Add(cd("NewMultipart")).Call()}
	st := c.m.structOf(ct.Type)
	for _, f := range st.Fields {
		contentType := jen.Lit("")
		if enc := ct.EncodingOf(f.JSONName); enc != nil && enc.ContentType != "" {
			contentType = jen.Lit(enc.ContentType)
		}
		key := jen.Lit(f.JSONName)
		part := func(method string, v jen.Code) jen.Code {
			return jen.Id("m").Dot(method).Call(key.Clone(), v, contentType.Clone(), c.m.partHeaderArg(st, f.JSONName))
		}
		out = append(out, c.partCode(f, part)...)
	}
	return out
}

// partCode adds the part or parts of the property f, with part: files as
// they are (when set), primitives and arrays of them as text, anything
// else as JSON.
func (c *clientGen) partCode(f *ir.Field, part func(method string, v jen.Code) jen.Code) []jen.Code {
	switch {
	case f.Type.Kind == ir.KindBinary:
		x := jen.Id("body").Dot(f.Name)
		code := []jen.Code{part("File", x.Clone())}
		if !f.Required {
			code = []jen.Code{jen.If(x.Clone().Dot("Body").Op("!=").Nil()).Block(code...)}
		}
		return code
	case f.Type.Kind == ir.KindArray && f.Type.Elem.Kind == ir.KindBinary:
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id("body").Dot(f.Name)).Block(part("File", jen.Id("v")))}
	}
	fv := c.fieldValue(f)
	var code []jen.Code
	switch {
	case c.scalarFormat(f.Type) != nil:
		value := fv.value
		if c.m.fieldNullable(f) {
			value = jen.Op("*").Add(value)
		}
		code = []jen.Code{part("Field", c.scalarFormat(f.Type)(value))}
	case f.Type.Kind == ir.KindArray && !f.Type.Elem.Nullable && c.scalarFormat(f.Type.Elem) != nil && !c.m.fieldNullable(f):
		// One text part per element, all of the property's name.
		code = []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Add(fv.value)).Block(
			part("Field", c.scalarFormat(f.Type.Elem)(jen.Id("v"))))}
	default:
		code = []jen.Code{part("JSON", fv.value)}
		if fv.present == nil && !f.Required && c.m.nilable(f.Type) {
			fv.present = jen.Id("body").Dot(f.Name).Op("!=").Nil()
		}
	}
	if fv.present != nil {
		code = []jen.Code{jen.If(fv.present).Block(code...)}
	}
	return code
}
