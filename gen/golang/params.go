package golang

import (
	"net/url"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// shape is how a parameter value is serialized.
type shape int

const (
	// shapeScalar is one primitive value.
	shapeScalar shape = iota + 1
	// shapeArray is a list of primitive values.
	shapeArray
	// shapeMap is a map of primitive values (query: deepObject or
	// exploded form).
	shapeMap
	// shapeStruct is an object of primitive properties (query: deepObject
	// or exploded form).
	shapeStruct
	// shapeJSON is anything else, and parameters declared with a JSON
	// content: the value's JSON text.
	shapeJSON
	// shapePlain is a union of primitives (integer or string, say): the
	// plain form of the variant it holds, "main.yml" sent as main.yml
	// (codec.ParamText).
	shapePlain
)

// paramView is one parameter: a path argument or a field of the Params
// struct.
type paramView struct {
	p *ir.Param
	// name is the argument's or the field's name.
	name string
	typ  func() *jen.Statement
	// ptr: the field is a pointer (optional, and its type has no nil).
	ptr bool
	// nilable: the Go type has nil (slices, maps, raw JSON).
	nilable bool
	shape   shape
	// format turns a primitive (the value, or an element) into a string.
	format func(x *jen.Statement) *jen.Statement
	// fields are a struct's properties, for shapeStruct.
	fields []structParamField
	// local holds a path value computed before the URL (arrays, JSON).
	local string
	// dotFree: the path value is a number, boolean or time, which can
	// never form a "." or ".." segment.
	dotFree bool
}

// structParamField is a primitive property of an object parameter.
type structParamField struct {
	name, wire string
	ptr        bool
	format     func(x *jen.Statement) *jen.Statement
}

// paramsView is an operation's Params struct.
type paramsView struct {
	name   string
	op     string
	fields []*paramView
	// keyField is the extra field carrying a caller's idempotency key,
	// empty when the spec documents the header as a parameter or there is
	// no key.
	keyField  string
	keyHeader string
	// renamed says why the type does not have its usual name, for its
	// doc comment; empty when it has.
	renamed string
}

// pathArg makes a path parameter the method's argument named with
// [argName].
func (c *clientGen) pathArg(p *ir.Param, taken map[string]bool) *paramView {
	v := c.paramValue(p, argName(p.Ident, taken))
	v.ptr = false
	v.dotFree = v.shape == shapeScalar && c.dotFree(p.Type)
	return v
}

// argName names the argument of a path parameter whose Go name is ident:
// ident made unexported ("arg" when that gives nothing), with "Param"
// appended while it is a fixed local or the name of an argument before
// it. taken holds the names of those arguments and gets the new one.
func argName(ident string, taken map[string]bool) string {
	name, ok := naming.Unexported(ident)
	if !ok {
		name = "arg"
	}
	name = freeName(name, "Param", func(s string) bool { return fixedLocals[s] || taken[s] })
	taken[name] = true
	return name
}

// segLocals names the locals holding the path values that need
// statements (arrays, JSON), once every argument is named: seg<i> after
// the argument's position i, or, when an argument is already called that,
// the next seg<n> past the arguments that is free. taken holds the
// arguments' names and gets the locals'.
func segLocals(args []*paramView, taken map[string]bool) {
	next := len(args)
	for i, a := range args {
		if a.shape == shapeScalar {
			continue
		}
		name := "seg" + itoa(i)
		for taken[name] || fixedLocals[name] {
			name = "seg" + itoa(next)
			next++
		}
		taken[name] = true
		a.local = name
	}
}

// freeName returns name, or name followed by suffix as many times as it
// takes for used to report it free. used must hold for finitely many
// names, which makes the loop end.
func freeName(name, suffix string, used func(string) bool) string {
	for used(name) {
		name += suffix
	}
	return name
}

func (c *clientGen) paramField(p *ir.Param) *paramView {
	return c.paramValue(p, p.Ident)
}

// paramValue decides the Go type and the serialization of a parameter.
func (c *clientGen) paramValue(p *ir.Param, name string) *paramView {
	v := &paramView{p: p, name: name, nilable: c.m.nilable(p.Type)}
	v.typ = func() *jen.Statement { return c.m.goType(p.Type) }
	v.ptr = !v.nilable && (!p.Required || p.Type.Nullable)
	if c.setShape(v, p) {
		return v
	}
	v.shape = shapeJSON
	c.list.Warnf(p.Location, diag.RuleParamJSON,
		p.In.String()+" parameter "+quote(p.Name)+" (style "+p.Style.String()+") has no serialization the client supports; it is sent as JSON text", "")
	return v
}

// setShape sets how the parameter p of v is serialized, the first that
// fits of: JSON text when it has a content type, a primitive, a union of
// primitives, an array of primitives, a map or struct of primitives in an
// object style. It reports false when none fits.
func (c *clientGen) setShape(v *paramView, p *ir.Param) bool {
	switch {
	case p.ContentType != "":
		v.shape = shapeJSON
	case c.scalarFormat(p.Type) != nil:
		v.shape, v.format = shapeScalar, c.scalarFormat(p.Type)
	case c.primitiveUnion(p.Type):
		v.shape = shapePlain
	case c.primitiveArray(p):
		v.shape, v.format = shapeArray, c.scalarFormat(p.Type.Elem)
	default:
		return c.setObjectShape(v, p)
	}
	return true
}

// primitiveArray reports whether p is an array of non-nullable
// primitives in a style that sends one (deepObject only in the query).
func (c *clientGen) primitiveArray(p *ir.Param) bool {
	return p.Type.Kind == ir.KindArray && !p.Type.Elem.Nullable && c.scalarFormat(p.Type.Elem) != nil &&
		(p.Style != ir.StyleDeepObject || p.In == ir.InQuery)
}

// setObjectShape sets the shape of a query parameter in an object style
// (deepObject, or exploded form) that is a map of non-nullable primitives
// or a struct of primitives; it reports false for any other parameter.
func (c *clientGen) setObjectShape(v *paramView, p *ir.Param) bool {
	objectStyle := p.In == ir.InQuery && (p.Style == ir.StyleDeepObject || p.Style == ir.StyleForm && p.Explode)
	if !objectStyle {
		return false
	}
	switch {
	case p.Type.Kind == ir.KindMap && !p.Type.Elem.Nullable && c.scalarFormat(p.Type.Elem) != nil:
		v.shape, v.format = shapeMap, c.scalarFormat(p.Type.Elem)
		return true
	case p.Type.Kind == ir.KindNamed:
		if fields, ok := c.structFields(p.Type); ok {
			v.shape, v.fields = shapeStruct, fields
			return true
		}
	}
	return false
}

// primitiveUnion reports whether t is a union whose variants are all
// primitives, which a parameter carries in plain form.
func (c *clientGen) primitiveUnion(t *ir.TypeRef) bool {
	if t.Kind != ir.KindNamed || t.Nullable {
		return false
	}
	nt := c.m.types[t.Name]
	if nt == nil || nt.Kind != ir.TypeUnion || nt.Union == nil || len(nt.Union.Variants) == 0 {
		return false
	}
	for _, variant := range nt.Union.Variants {
		if variant.Type == nil || variant.Type.Nullable || c.scalarFormat(variant.Type) == nil {
			return false
		}
	}
	return true
}

// plainText sets local to the plain form of the union x, returning from
// the request builder on failure.
func plainText(local string, x *jen.Statement) []jen.Code {
	return []jen.Code{
		jen.List(jen.Id(local), jen.Err()).Op(":=").Add(cd("ParamText")).Call(x),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
	}
}

// structFields returns the properties of a named struct when all are
// primitives.
func (c *clientGen) structFields(t *ir.TypeRef) ([]structParamField, bool) {
	nt := c.m.types[t.Name]
	if nt == nil || nt.Kind != ir.TypeStruct {
		return nil, false
	}
	var out []structParamField
	for _, f := range nt.Fields {
		format := c.scalarFormat(f.Type)
		if format == nil || c.m.fieldNullable(f) {
			return nil, false
		}
		out = append(out, structParamField{name: f.Name, wire: f.JSONName, ptr: c.m.fieldPointer(f, true), format: format})
	}
	return out, true
}

// scalarFormat returns how a primitive of type t becomes its string form,
// with strconv where it has a function, RFC 3339 for times and the
// underlying value for enums; nil when t is not a primitive.
func (c *clientGen) scalarFormat(t *ir.TypeRef) func(x *jen.Statement) *jen.Statement {
	sc := func(fn string, extra ...jen.Code) func(x *jen.Statement) *jen.Statement {
		return func(x *jen.Statement) *jen.Statement {
			return jen.Qual("strconv", fn).Call(append([]jen.Code{x}, extra...)...)
		}
	}
	switch t.Kind {
	case ir.KindString:
		return func(x *jen.Statement) *jen.Statement { return x }
	case ir.KindDate, ir.KindUUID:
		return func(x *jen.Statement) *jen.Statement {
			return parenStar(x).Dot("String").Call()
		}
	case ir.KindUint, ir.KindUint32:
		return func(x *jen.Statement) *jen.Statement {
			return jen.Qual("strconv", "FormatUint").Call(jen.Uint64().Call(x), jen.Lit(10))
		}
	case ir.KindUint64:
		return sc("FormatUint", jen.Lit(10))
	case ir.KindBool:
		return sc("FormatBool")
	case ir.KindInt:
		return sc("Itoa")
	case ir.KindInt32:
		return func(x *jen.Statement) *jen.Statement {
			return jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(x), jen.Lit(10))
		}
	case ir.KindInt64:
		return sc("FormatInt", jen.Lit(10))
	case ir.KindFloat32:
		return func(x *jen.Statement) *jen.Statement {
			return jen.Qual("strconv", "FormatFloat").Call(jen.Float64().Call(x), jen.LitRune('g'), jen.Lit(-1), jen.Lit(32))
		}
	case ir.KindFloat64:
		return sc("FormatFloat", jen.LitRune('g'), jen.Lit(-1), jen.Lit(64))
	case ir.KindDateTime:
		return func(x *jen.Statement) *jen.Statement {
			return parenStar(x).Dot("Format").Call(jen.Qual("time", "RFC3339Nano"))
		}
	case ir.KindBytes:
		return func(x *jen.Statement) *jen.Statement {
			return jen.Qual("encoding/base64", "StdEncoding").Dot("EncodeToString").Call(x)
		}
	case ir.KindNamed:
		return c.namedFormat(t)
	}
	return nil
}

// namedFormat is scalarFormat of a named type: an enum formats its base
// value, an alias its target's; nil for any other type.
func (c *clientGen) namedFormat(t *ir.TypeRef) func(x *jen.Statement) *jen.Statement {
	nt := c.m.types[t.Name]
	if nt == nil {
		return nil
	}
	var base *ir.TypeRef
	switch {
	case nt.Kind == ir.TypeEnum && nt.Enum != nil:
		base = &ir.TypeRef{Kind: nt.Enum.Base}
	case nt.Kind == ir.TypeAlias && nt.Alias != nil && nt.Alias != t && !nt.Alias.Nullable:
		if nt.Alias.Kind == ir.KindNamed {
			// A Go alias: the value already has the other type.
			return c.scalarFormat(nt.Alias)
		}
		base = nt.Alias
	default:
		return nil
	}
	inner := c.scalarFormat(base)
	if inner == nil {
		return nil
	}
	return func(x *jen.Statement) *jen.Statement { return inner(c.m.goType(base).Call(x)) }
}

// parenStar puts a dereference in parentheses, for a method call on it.
func parenStar(x *jen.Statement) *jen.Statement {
	if strings.HasPrefix(x.GoString(), "*") {
		return jen.Parens(x)
	}
	return x
}

// value is the parameter's value in the Params struct, dereferenced.
func (v *paramView) value() *jen.Statement {
	if v.ptr && v.shape != shapeStruct {
		return jen.Op("*").Id("params").Dot(v.name)
	}
	return jen.Id("params").Dot(v.name)
}

// guard wraps code in "if params.X != nil" for optional values, and in a
// block when it declares locals.
func (v *paramView) guard(code []jen.Code, locals bool) []jen.Code {
	if v.ptr || v.nilable && v.shape == shapeJSON {
		return []jen.Code{jen.If(jen.Id("params").Dot(v.name).Op("!=").Nil()).Block(code...)}
	}
	if locals {
		return []jen.Code{jen.Block(code...)}
	}
	return code
}

// jsonText marshals x into data, returning from the request builder on
// failure.
func jsonText(local string, x *jen.Statement) []jen.Code {
	return []jen.Code{
		jen.List(jen.Id(local), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(x),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
	}
}

// joined builds vs, the formatted elements of x, each passed through
// escape (nil for none).
func joined(x *jen.Statement, format func(*jen.Statement) *jen.Statement, escape string) []jen.Code {
	elem := format(jen.Id("v"))
	if escape != "" {
		elem = jen.Qual("net/url", escape).Call(elem)
	}
	return []jen.Code{
		jen.Id("vs").Op(":=").Make(jen.Index().String(), jen.Len(x.Clone())),
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Add(x)).Block(jen.Id("vs").Index(jen.Id("i")).Op("=").Add(elem)),
	}
}

// appendQuery writes q = append(q, pair).
func appendQuery(pair *jen.Statement) jen.Code {
	return jen.Id("q").Op("=").Append(jen.Id("q"), pair)
}

// queryCode serializes the query parameters of params into q:
// form (exploded: "k=a&k=b", else "k=a,b"), spaceDelimited ("k=a%20b"),
// pipeDelimited ("k=a|b") and deepObject ("k[p]=v" for objects, "k[]=a"
// for arrays); keys of maps in sorted order.
func (pv *paramsView) queryCode() []jen.Code {
	var out []jen.Code
	for _, v := range pv.fields {
		if v.p.In != ir.InQuery {
			continue
		}
		code, locals := v.queryParamCode()
		out = append(out, v.guard(code, locals)...)
	}
	return out
}

// queryEscape is url.QueryEscape(x).
func queryEscape(x *jen.Statement) *jen.Statement { return jen.Qual("net/url", "QueryEscape").Call(x) }

// queryParamCode adds the query parameter v to q, by its shape; locals
// reports whether the code declares variables (see guard).
func (v *paramView) queryParamCode() (code []jen.Code, locals bool) {
	key := url.QueryEscape(v.p.Name)
	switch v.shape {
	case shapeScalar:
		return []jen.Code{appendQuery(jen.Lit(key + "=").Op("+").Add(queryEscape(v.format(v.value()))))}, false
	case shapeArray:
		return v.queryArrayCode(key), false
	case shapeMap:
		open, close := key+"[", "]="
		if v.p.Style != ir.StyleDeepObject {
			open, close = "", "="
		}
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(v.value()))).Block(
			appendQuery(jen.Lit(open).Op("+").Add(queryEscape(jen.Id("k"))).Op("+").Lit(close).Op("+").Add(queryEscape(v.format(v.value().Index(jen.Id("k")))))),
		)}, false
	case shapeStruct:
		return v.queryStructCode(key), false
	case shapeJSON:
		return append(jsonText("data", v.value()), appendQuery(jen.Lit(key+"=").Op("+").Add(queryEscape(jen.String().Call(jen.Id("data")))))), true
	case shapePlain:
		return append(plainText("data", v.value()), appendQuery(jen.Lit(key+"=").Op("+").Add(queryEscape(jen.Id("data"))))), true
	}
	return nil, false
}

// queryArrayCode adds the array query parameter v, whose escaped name is
// key: one pair per element when exploded (form) or in deepObject style,
// else one pair of the elements joined by the style's separator.
func (v *paramView) queryArrayCode(key string) []jen.Code {
	if v.p.Style == ir.StyleForm && v.p.Explode || v.p.Style == ir.StyleDeepObject {
		name := key + "="
		if v.p.Style == ir.StyleDeepObject {
			// OpenAPI leaves arrays in deepObject undefined; this is
			// the common "k[]=a&k[]=b" convention.
			name = key + "[]="
		}
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Add(v.value())).Block(
			appendQuery(jen.Lit(name).Op("+").Add(queryEscape(v.format(jen.Id("v"))))),
		)}
	}
	sep := ","
	switch v.p.Style {
	case ir.StyleSpaceDelimited:
		sep = "%20"
	case ir.StylePipeDelimited:
		sep = "|"
	}
	code := append(joined(v.value(), v.format, "QueryEscape"),
		appendQuery(jen.Lit(key+"=").Op("+").Qual("strings", "Join").Call(jen.Id("vs"), jen.Lit(sep))))
	return []jen.Code{jen.If(jen.Len(v.value()).Op(">").Lit(0)).Block(code...)}
}

// queryStructCode adds the fields of the struct query parameter v, whose
// escaped name is key: as key[field] in deepObject style, else by their
// own names; a pointer field only when set.
func (v *paramView) queryStructCode(key string) []jen.Code {
	var code []jen.Code
	for _, f := range v.fields {
		name := url.QueryEscape(f.wire) + "="
		if v.p.Style == ir.StyleDeepObject {
			name = key + "[" + url.QueryEscape(f.wire) + "]="
		}
		x := jen.Id("params").Dot(v.name).Dot(f.name)
		if f.ptr {
			code = append(code, jen.If(x.Clone().Op("!=").Nil()).Block(appendQuery(jen.Lit(name).Op("+").Add(queryEscape(f.format(jen.Op("*").Add(x)))))))
			continue
		}
		code = append(code, appendQuery(jen.Lit(name).Op("+").Add(queryEscape(f.format(x)))))
	}
	return code
}

// headerCode sets the header and cookie parameters of params on req:
// header values simple style ("a,b"), cookies form style; a cookie value
// that a cookie cannot carry is an error.
func (pv *paramsView) headerCode() []jen.Code {
	var out []jen.Code
	for _, v := range pv.fields {
		var set func(value *jen.Statement) jen.Code
		switch v.p.In {
		case ir.InHeader:
			set = func(value *jen.Statement) jen.Code {
				return jen.Id("req").Dot("Header").Dot("Set").Call(jen.Lit(v.p.Name), value)
			}
		case ir.InCookie:
			// codec.AddCookie refuses a value that net/http's
			// AddCookie would cut silently.
			set = func(value *jen.Statement) jen.Code {
				return jen.If(jen.Err().Op(":=").Add(cd("AddCookie")).Call(jen.Id("req"), jen.Lit(v.p.Name), value), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Err()),
				)
			}
		default:
			continue
		}
		var code []jen.Code
		locals := false
		switch v.shape {
		case shapeScalar:
			code = []jen.Code{set(v.format(v.value()))}
		case shapeArray:
			code = append(joined(v.value(), v.format, ""), set(jen.Qual("strings", "Join").Call(jen.Id("vs"), jen.Lit(","))))
			code = []jen.Code{jen.If(jen.Len(v.value()).Op(">").Lit(0)).Block(code...)}
		case shapePlain:
			code = append(plainText("data", v.value()), set(jen.Id("data")))
			locals = true
		default:
			code = append(jsonText("data", v.value()), set(jen.String().Call(jen.Id("data"))))
			locals = true
		}
		out = append(out, v.guard(code, locals)...)
	}
	if pv.keyField != "" {
		x := jen.Id("params").Dot(pv.keyField)
		out = append(out, jen.If(x.Clone().Op("!=").Lit("")).Block(jen.Id("req").Dot("Header").Dot("Set").Call(jen.Lit(pv.keyHeader), x)))
	}
	return out
}

// pathValue is the path parameter's piece of the URL: simple ("a,b"),
// label (".a") or matrix (";id=a") style, escaped.
func (v *paramView) pathValue() *jen.Statement {
	prefix, sep := "", ","
	switch v.p.Style {
	case ir.StyleLabel:
		prefix = "."
		if v.p.Explode {
			sep = "."
		}
	case ir.StyleMatrix:
		prefix = ";" + url.PathEscape(v.p.Name) + "="
		if v.p.Explode {
			sep = prefix
		}
	}
	var s *jen.Statement
	switch v.shape {
	case shapeScalar:
		s = jen.Qual("net/url", "PathEscape").Call(v.format(jen.Id(v.name)))
	case shapeArray:
		s = jen.Qual("strings", "Join").Call(jen.Id(v.local), jen.Lit(sep))
	case shapePlain:
		s = jen.Qual("net/url", "PathEscape").Call(jen.Id(v.local))
	default:
		s = jen.Qual("net/url", "PathEscape").Call(jen.String().Call(jen.Id(v.local)))
	}
	if prefix != "" {
		return jen.Lit(prefix).Op("+").Add(s)
	}
	return s
}

// pathLocal computes an array's escaped elements or a value's JSON text
// into the parameter's local.
func (v *paramView) pathLocal() []jen.Code {
	switch v.shape {
	case shapeScalar:
		return nil
	case shapeArray:
		x := jen.Id(v.name)
		return []jen.Code{
			jen.Id(v.local).Op(":=").Make(jen.Index().String(), jen.Len(x.Clone())),
			jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Add(x)).Block(
				jen.Id(v.local).Index(jen.Id("i")).Op("=").Qual("net/url", "PathEscape").Call(v.format(jen.Id("v"))),
			),
		}
	case shapePlain:
		return plainText(v.local, jen.Id(v.name))
	}
	return jsonText(v.local, jen.Id(v.name))
}

// required returns the spec name and location of the first required
// parameter the Params struct carries, if any.
func (pv *paramsView) required() (string, string, bool) {
	if pv == nil {
		return "", "", false
	}
	for _, v := range pv.fields {
		if v.p.Required {
			return v.p.Name, v.p.In.String(), true
		}
	}
	return "", "", false
}

func (pv *paramsView) hasQuery() bool {
	if pv == nil {
		return false
	}
	for _, v := range pv.fields {
		if v.p.In == ir.InQuery {
			return true
		}
	}
	return false
}

func (pv *paramsView) hasHeaders() bool {
	if pv == nil {
		return false
	}
	if pv.keyField != "" {
		return true
	}
	for _, v := range pv.fields {
		if v.p.In == ir.InHeader || v.p.In == ir.InCookie {
			return true
		}
	}
	return false
}

// documents reports whether a header parameter is called header.
func (pv *paramsView) documents(header string) bool {
	if pv == nil {
		return false
	}
	for _, v := range pv.fields {
		if v.p.In == ir.InHeader && strings.EqualFold(v.p.Name, header) {
			return true
		}
	}
	return false
}

// freeField returns name, or name with a suffix, unused by the fields.
func (pv *paramsView) freeField(name string) string {
	return freeName(name, "Header", func(s string) bool {
		return slices.ContainsFunc(pv.fields, func(v *paramView) bool { return v.name == s })
	})
}

// emitParams writes
//
//	// GetPetParams holds the query, header and cookie parameters of
//	// [Client.GetPet]. Optional parameters are pointers (or nil slices and
//	// maps) and are not sent when nil.
//	type GetPetParams struct {
//		// Limit is the query parameter "limit".
//		Limit *int
//	}
func emitParams(f *jen.File, op *opView) {
	pv := op.params
	doc := []string{
		pv.name + " holds the query, header and cookie parameters of [Client." + pv.op + "].",
		"Optional parameters are pointers (or nil slices and maps) and are not sent",
		"when nil. A nil *" + pv.name + " sends none.",
	}
	if pv.renamed != "" {
		doc = append(append(doc, ""), wrap(pv.renamed, commentWidth)...)
	}
	var fields []jen.Code
	for _, v := range pv.fields {
		lines := []string{v.name + " is the " + v.p.In.String() + " parameter " + quote(v.p.Name) + requiredNote(v.p) + "."}
		if d := docLines(v.p.Doc); len(d) > 0 {
			lines = append(append(lines, ""), d...)
		}
		if v.p.Deprecated {
			lines = append(lines, "", "Deprecated: the parameter is marked deprecated.")
		}
		typ := v.typ()
		if v.ptr {
			typ = jen.Op("*").Add(typ)
		}
		fields = append(fields, comments(lines).Id(v.name).Add(typ))
	}
	if pv.keyField != "" {
		fields = append(fields, comments([]string{
			pv.keyField + ", when not empty, is sent in the " + pv.keyHeader + " header instead",
			"of a new random key: set it to make a repeated call recognisable as the",
			"same request.",
		}).Id(pv.keyField).String())
	}
	f.Add(comments(doc).Type().Id(pv.name).Struct(fields...))
}

func requiredNote(p *ir.Param) string {
	if p.Required {
		return " (required)"
	}
	return ""
}
