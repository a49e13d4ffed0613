package golang

import (
	"maps"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
)

// Nested form bodies (objects, maps, arrays of objects, unions, as
// Stripe's) are encoded in deepObject brackets: "metadata[key]=v",
// "items[0][price]=p", "expand[]=a". The code is typed and reflection-free:
// every named struct such a body reaches gets an encodeForm method, written
// once for all operations; a union or a free-form value, which a client
// holds as its JSON text, goes through codec.AddFormJSON.

// formKey is the key of a form value as code: literal pieces and
// expressions joined with "+", adjacent literals merged.
type formKey struct {
	parts []formKeyPart
}

type formKeyPart struct {
	lit  string
	expr *jen.Statement
}

// literal returns a key that is the text s.
func literalKey(s string) formKey { return formKey{parts: []formKeyPart{{lit: s}}} }

// varKey returns a key held in the variable name.
func varKey(name string) formKey { return formKey{parts: []formKeyPart{{expr: jen.Id(name)}}} }

// lit returns k followed by s.
func (k formKey) lit(s string) formKey {
	parts := slices.Clone(k.parts)
	if n := len(parts); n > 0 && parts[n-1].expr == nil {
		parts[n-1].lit += s
		return formKey{parts: parts}
	}
	return formKey{parts: append(parts, formKeyPart{lit: s})}
}

// expr returns k followed by the string expression e.
func (k formKey) expr(e *jen.Statement) formKey {
	return formKey{parts: append(slices.Clone(k.parts), formKeyPart{expr: e})}
}

// code is the key's expression.
func (k formKey) code() *jen.Statement {
	var out *jen.Statement
	for _, p := range k.parts {
		c := p.expr
		if c == nil {
			c = jen.Lit(p.lit)
		} else {
			c = c.Clone()
		}
		if out == nil {
			out = c
		} else {
			out = out.Op("+").Add(c)
		}
	}
	return out
}

// deepForm writes the bracket encoding of nested form values; structs
// collects the named structs whose encodeForm method the code calls.
type deepForm struct {
	c       *clientGen
	structs map[string]bool
}

// loopName is the name of a loop variable at a depth of nested arrays
// and maps: v, i and k outermost, then vv, ii, kk, and so on.
func loopName(base string, depth int) string { return strings.Repeat(base, depth+1) }

// scalar returns the text format of t, nil when t is not a primitive (a
// string, number, boolean, date, uuid, base64 bytes or an enum of them).
func (d *deepForm) scalar(t *ir.TypeRef) func(*jen.Statement) *jen.Statement {
	if t.Kind == ir.KindBinary {
		// Raw bytes in a model: a form value is text, sent as it is.
		return func(x *jen.Statement) *jen.Statement { return jen.String().Call(x) }
	}
	return d.c.scalarFormat(t)
}

// value returns the statements that add x, a value of t (a pointer when
// ptr, nil sent as an empty value, which is how a form says "clear it"),
// under key, in deepObject brackets: an object's properties as
// key[name], a map's entries as key[k] in key order, an array of
// primitives as key[] per element, another array as key[i]; a union or a
// free-form value through its JSON text. ret returns the error of a
// nested encoding from the enclosing function.
//
//	form.Add(key+"[city]", *x.City)
//	for i, v := range x.Items {
//		if err := v.encodeForm(form, key+"[items]["+strconv.Itoa(i)+"]"); err != nil {
//			return err
//		}
//	}
func (d *deepForm) value(t *ir.TypeRef, x *jen.Statement, ptr bool, key formKey, depth int, ret func(jen.Code) jen.Code) []jen.Code {
	if ptr {
		return d.pointerValue(t, x, key, depth, ret)
	}
	if format := d.scalar(t); format != nil {
		return []jen.Code{jen.Id("form").Dot("Add").Call(key.code(), format(x))}
	}
	v, i, k := loopName("v", depth), loopName("i", depth), loopName("k", depth)
	switch t.Kind {
	case ir.KindArray:
		elemPtr := t.Elem.Nullable && !d.c.m.nilable(t.Elem)
		if format := d.scalar(t.Elem); format != nil && !elemPtr {
			return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id(v)).Op(":=").Range().Add(x)).Block(
				jen.Id("form").Dot("Add").Call(key.lit("[]").code(), format(jen.Id(v))))}
		}
		ik := key.lit("[").expr(jen.Qual("strconv", "Itoa").Call(jen.Id(i))).lit("]")
		return []jen.Code{jen.For(jen.List(jen.Id(i), jen.Id(v)).Op(":=").Range().Add(x)).Block(
			d.value(t.Elem, jen.Id(v), elemPtr, ik, depth+1, ret)...)}
	case ir.KindMap:
		elemPtr := t.Elem.Nullable && !d.c.m.nilable(t.Elem)
		kk := key.lit("[").expr(jen.Id(k)).lit("]")
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(x.Clone()))).Block(
			d.value(t.Elem, x.Clone().Index(jen.Id(k)), elemPtr, kk, depth+1, ret)...)}
	case ir.KindNamed:
		if code, ok := d.namedValue(t, x, key, depth, ret); ok {
			return code
		}
	}
	// A union or a free-form value (json.RawMessage): its JSON text.
	call := cd("AddFormJSON").Call(jen.Id("form"), key.code(), x)
	return []jen.Code{jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(ret(jen.Err()))}
}

// pointerValue is value of a pointer x: an empty value when nil, else
// what x points to (a struct or a union as the pointer itself).
func (d *deepForm) pointerValue(t *ir.TypeRef, x *jen.Statement, key formKey, depth int, ret func(jen.Code) jen.Code) []jen.Code {
	deref := jen.Op("*").Add(x.Clone())
	if d.c.m.structOf(t) != nil || d.union(t) {
		// A struct's method and AddFormJSON take the pointer as it is.
		deref = x.Clone()
	}
	return []jen.Code{jen.If(x.Clone().Op("==").Nil()).Block(
		jen.Id("form").Dot("Add").Call(key.code(), jen.Lit("")),
	).Else().Block(d.value(t, deref, false, key, depth, ret)...)}
}

// namedValue is value of a named struct (its encodeForm method) or
// alias (its target's value); ok is false for any other named type.
func (d *deepForm) namedValue(t *ir.TypeRef, x *jen.Statement, key formKey, depth int, ret func(jen.Code) jen.Code) (code []jen.Code, ok bool) {
	nt := d.c.m.types[t.Name]
	switch {
	case nt == nil:
	case nt.Kind == ir.TypeStruct:
		d.structs[nt.Name] = true
		return []jen.Code{jen.If(jen.Err().Op(":=").Add(operand(x)).Dot("encodeForm").Call(jen.Id("form"), key.code()), jen.Err().Op("!=").Nil()).Block(ret(jen.Err()))}, true
	case nt.Kind == ir.TypeAlias && nt.Alias != nil && nt.Alias != t:
		if nt.Alias.Kind == ir.KindNamed {
			// A Go alias: the value already has the other type.
			return d.value(nt.Alias, x, false, key, depth, ret), true
		}
		return d.value(nt.Alias, d.c.m.goType(nt.Alias).Call(x), false, key, depth, ret), true
	}
	return nil, false
}

// field returns the statements that add the property f of the struct
// held in x under k, when it is present.
func (d *deepForm) field(f *ir.Field, x *jen.Statement, k formKey, ret func(jen.Code) jen.Code) []jen.Code {
	fx := x.Clone().Dot(f.Name)
	switch {
	case d.c.m.fieldNullable(f):
		// Absent: nothing; null: an empty value; set: the value.
		set := d.value(f.Type, jen.Id("v"), false, k, 1, ret)
		return []jen.Code{
			jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(fx.Clone()).Dot("Get").Call(), jen.Id("ok")).Block(set...).
				Else().If(fx.Clone().Dot("IsNull").Call()).Block(jen.Id("form").Dot("Add").Call(k.code(), jen.Lit(""))),
		}
	case d.c.m.fieldPointer(f, true):
		x := jen.Op("*").Add(fx.Clone())
		if nt := d.c.m.structOf(f.Type); nt != nil || d.union(f.Type) {
			// A struct's method and AddFormJSON take the pointer as it is.
			x = fx.Clone()
		}
		return []jen.Code{jen.If(fx.Clone().Op("!=").Nil()).Block(d.value(f.Type, x, false, k, 0, ret)...)}
	case d.c.m.nilable(f.Type):
		// A nil slice, map or JSON text is absent; ranging over it, or
		// its length, says so.
		if f.Type.Kind == ir.KindAny || f.Type.Kind == ir.KindBinary {
			return []jen.Code{jen.If(jen.Len(fx.Clone()).Op(">").Lit(0)).Block(d.value(f.Type, fx, false, k, 0, ret)...)}
		}
	}
	return d.value(f.Type, fx, false, k, 0, ret)
}

// methods returns the encodeForm methods of the structs the code written
// so far calls, and of those they call, sorted by name:
//
//	// encodeForm adds the properties of x to form in deepObject brackets,
//	// each under key[name].
//	func (x Address) encodeForm(form url.Values, key string) error {
//		if x.City != nil {
//			form.Add(key+"[city]", *x.City)
//		}
//		return nil
//	}
func (d *deepForm) methods() []jen.Code {
	bodies := map[string][]jen.Code{}
	for {
		var next []string
		for name := range d.structs {
			if bodies[name] == nil {
				next = append(next, name)
			}
		}
		if len(next) == 0 {
			break
		}
		slices.Sort(next)
		for _, name := range next {
			st := d.c.m.types[name]
			body := []jen.Code{}
			ret := func(err jen.Code) jen.Code { return jen.Return(err) }
			for _, f := range st.Fields {
				if f.ReadOnly {
					continue
				}
				body = append(body, d.field(f, jen.Id("x"), varKey("key").lit("["+f.JSONName+"]"), ret)...)
			}
			bodies[name] = append(body, jen.Return(jen.Nil()))
		}
	}
	names := slices.Sorted(maps.Keys(bodies))
	out := make([]jen.Code, 0, len(names))
	for _, name := range names {
		out = append(out, jen.Comment("encodeForm adds the properties of x to form in deepObject brackets,").Line().
			Comment("each under key[name].").Line().
			Func().Params(jen.Id("x").Id(name)).Id("encodeForm").Params(jen.Id("form").Qual("net/url", "Values"), jen.Id("key").String()).Error().
			Block(bodies[name]...))
	}
	return out
}

// operand returns x ready for a selector: a dereference in parentheses.
func operand(x *jen.Statement) *jen.Statement {
	if strings.HasPrefix(x.GoString(), "*") {
		return jen.Parens(x)
	}
	return x
}

// union reports whether t is a union, held as its JSON text.
func (d *deepForm) union(t *ir.TypeRef) bool {
	if t.Kind != ir.KindNamed {
		return false
	}
	nt := d.c.m.types[t.Name]
	return nt != nil && nt.Kind == ir.TypeUnion
}

// formObject returns the statements that write an object property of a
// form body whose encoding declares style form, as OpenAPI serializes an
// object in a form: exploded, one pair per property ("R=100&G=200");
// else the property's one pair of names and values joined by commas
// ("color=R,100,G,200"). Only an object of primitives (a struct or a map)
// has this form; nil for any other, which goes into brackets. x is the
// object (a struct pointer, or a map).
//
//	vs := []string{}
//	if body.Color.R != nil {
//		vs = append(vs, "R", strconv.Itoa(*body.Color.R))
//	}
//	form.Set("color", strings.Join(vs, ","))
func (d *deepForm) formObject(f *ir.Field, enc *ir.Encoding, x *jen.Statement) []jen.Code {
	if enc == nil || enc.Style != ir.StyleForm || d.c.m.fieldNullable(f) {
		return nil
	}
	t := d.mapAlias(f.Type)
	add := func(name, value jen.Code) jen.Code {
		if enc.Explode {
			return jen.Id("form").Dot("Add").Call(name, value)
		}
		return jen.Id("vs").Op("=").Append(jen.Id("vs"), name, value)
	}
	var code []jen.Code
	ok := false
	switch st := d.c.m.structOf(t); {
	case t.Kind == ir.KindMap:
		code, ok = d.formMapEntries(t, x, add)
	case st != nil:
		code, ok = d.formStructFields(st, x, add)
	}
	if !ok {
		return nil
	}
	if !enc.Explode {
		code = append([]jen.Code{jen.Id("vs").Op(":=").Index().String().Values()}, code...)
		code = append(code, jen.Id("form").Dot("Set").Call(jen.Lit(f.JSONName), jen.Qual("strings", "Join").Call(jen.Id("vs"), jen.Lit(","))))
	}
	if t.Kind == ir.KindMap || d.c.m.fieldPointer(f, true) {
		check := x.Clone().Op("!=").Nil()
		if t.Kind == ir.KindMap {
			check = jen.Len(x.Clone()).Op(">").Lit(0)
		}
		code = []jen.Code{jen.If(check).Block(code...)}
	}
	return code
}

// mapAlias returns the map a named alias stands for, else t.
func (d *deepForm) mapAlias(t *ir.TypeRef) *ir.TypeRef {
	if t.Kind != ir.KindNamed {
		return t
	}
	if nt := d.c.m.types[t.Name]; nt != nil && nt.Kind == ir.TypeAlias && nt.Alias != nil && nt.Alias.Kind == ir.KindMap {
		return nt.Alias
	}
	return t
}

// formMapEntries adds the entries of the map x, in key order; ok is
// false when its values are not non-nullable primitives.
func (d *deepForm) formMapEntries(t *ir.TypeRef, x *jen.Statement, add func(name, value jen.Code) jen.Code) (code []jen.Code, ok bool) {
	format := d.scalar(t.Elem)
	if format == nil || t.Elem.Nullable {
		return nil, false
	}
	return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(x.Clone()))).Block(
		add(jen.Id("k"), format(x.Clone().Index(jen.Id("k")))))}, true
}

// formStructFields adds the fields of the struct x, those that are
// pointers when set; ok is false when one is not a non-nullable
// primitive.
func (d *deepForm) formStructFields(st *ir.Type, x *jen.Statement, add func(name, value jen.Code) jen.Code) (code []jen.Code, ok bool) {
	for _, p := range st.Fields {
		format := d.scalar(p.Type)
		if format == nil || d.c.m.fieldNullable(p) {
			return nil, false
		}
		px := x.Clone().Dot(p.Name)
		if d.c.m.fieldPointer(p, true) {
			code = append(code, jen.If(px.Clone().Op("!=").Nil()).Block(add(jen.Lit(p.JSONName), format(jen.Op("*").Add(px)))))
		} else {
			code = append(code, add(jen.Lit(p.JSONName), format(px)))
		}
	}
	return code, true
}
