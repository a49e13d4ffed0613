package diff

import (
	"slices"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
)

// unmodeled compares the keywords two uses of a type have that the IR's
// types do not model (see [ir.Constraints.Unmodeled]) in the direction
// dir, at subject.
func (w *wire) unmodeled(dir direction, subject string, o, n *ir.Schema) {
	if o.IsZero() && n.IsZero() {
		return
	}
	if o == nil {
		o = &ir.Schema{}
	}
	if n == nil {
		n = &ir.Schema{}
	}
	w.schemaPairs = map[schemaPair]bool{}
	w.schema(dir, false, true, subject, o, n)
	w.schemaPairs = nil
}

// schemaPair is a pair of subschemas compared in a direction, inside a
// not or not.
type schemaPair struct {
	o, n    *ir.Schema
	dir     direction
	negated bool
}

// schema compares two versions of a subschema in the direction dir;
// negated is set inside a not, where a subschema that accepts more
// values makes the schema holding it accept fewer. root is set for the
// keywords of a type use, whose items the IR's types compare unless the
// schema is carried whole.
func (w *wire) schema(dir direction, negated, root bool, subject string, o, n *ir.Schema) {
	if w.compared(schemaPair{o, n, dir, negated}) || w.falseSchema(dir, negated, subject, o, n) {
		return
	}
	w.typeKeywords(dir, negated, root, subject, o, n)
	w.negatedValidation(dir, negated, subject, o.Constraints, n.Constraints)
	w.required(dir, negated, subject, o, n)
	w.allOfParts(dir, negated, subject, o.AllOfParts, n.AllOfParts)
	w.extensibleEnum(dir, subject, o.ExtensibleEnum, n.ExtensibleEnum)
	w.namedSet(dir, negated, subject, "dependentRequired", o.DependentRequired, n.DependentRequired)
	w.textKeyword(dir, negated, subject, "contentMediaType", o.ContentMediaType, n.ContentMediaType)
	w.textKeyword(dir, negated, subject, "contentEncoding", o.ContentEncoding, n.ContentEncoding)
	w.containsBounds(dir, negated, subject, o, n)
	w.subschemas(dir, negated, root, subject, o, n)
}

// compared reports whether the pair of subschemas key was compared
// before for the same use, and marks it compared: a subschema a document
// reaches many ways is one value, compared once for a use.
func (w *wire) compared(key schemaPair) bool {
	if w.schemaPairs[key] {
		return true
	}
	if w.schemaPairs != nil {
		w.schemaPairs[key] = true
	}
	return false
}

// falseSchema compares two versions of a subschema where either may be
// the boolean schema false, which no value matches; it reports whether
// one is, in which case nothing more of them is to compare.
func (w *wire) falseSchema(dir direction, negated bool, subject string, o, n *ir.Schema) bool {
	if o.False != n.False {
		how := narrows
		if o.False {
			how = widens
		}
		w.keyword(dir, negated, subject, "schema", falseText(o.False), falseText(n.False), how)
		return true
	}
	return o.False
}

// typeKeywords compares the keywords that say what kind of value a
// subschema takes: type, format and enum (or const). A type use's own
// type keyword (root) is compared as that of a body sent and read as
// text, the only use whose type the IR does not model.
func (w *wire) typeKeywords(dir direction, negated, root bool, subject string, o, n *ir.Schema) {
	if how, ok := typesHow(o.Types, n.Types); ok && root {
		w.textTypes(dir, subject, o.Types, n.Types)
	} else if ok {
		w.keyword(dir, negated, subject, "type", strings.Join(o.Types, ", "), strings.Join(n.Types, ", "), how)
	}
	if o.Format != n.Format {
		d := dir
		if negated {
			// Inside a not, a stricter format makes a looser schema: as
			// in the other direction.
			d = map[direction]direction{request: response, response: request}[dir]
		}
		cls, msg := formatChange(d, o.Format, n.Format)
		w.add(RuleWireTypeChanged, cls, subject, o.Format, n.Format, msg)
	}
	if how, ok := enumHow(o.Enum, n.Enum); ok {
		w.keyword(dir, negated, subject, "enum", strings.Join(o.Enum, ", "), strings.Join(n.Enum, ", "), how)
	}
}

// containsBounds compares minContains and maxContains, the bounds on
// how many items contains matches: a higher minimum, or a maximum set or
// lowered, narrows.
func (w *wire) containsBounds(dir direction, negated bool, subject string, o, n *ir.Schema) {
	if o.MinContains != n.MinContains {
		how := widens
		if n.MinContains > o.MinContains {
			how = narrows
		}
		w.keyword(dir, negated, subject, "minContains", countText(o.MinContains, 0), countText(n.MinContains, 0), how)
	}
	if !(o.MaxContains == nil && n.MaxContains == nil || o.MaxContains != nil && n.MaxContains != nil && *o.MaxContains == *n.MaxContains) {
		how := widens
		if o.MaxContains == nil || n.MaxContains != nil && *n.MaxContains < *o.MaxContains {
			how = narrows
		}
		w.keyword(dir, negated, subject, "maxContains", countPtrText(o.MaxContains), countPtrText(n.MaxContains), how)
	}
}

// textTypes compares the types the schema of a body sent and read as
// text names (the only use whose type keyword the IR does not model):
// any value written as text is a string, so a string takes every other
// type's values, and no other type all of a string's.
func (w *wire) textTypes(dir direction, subject string, o, n []string) {
	ot, nt := strings.Join(o, ", "), strings.Join(n, ", ")
	text := func(ts []string) bool { return len(ts) == 0 || slices.Contains(ts, "string") }
	switch {
	case dir == request && text(n):
		w.add(RuleWireTypeChanged, Compatible, subject, ot, nt, "the body is text now: what the old client writes is still accepted")
	case dir == response && text(o) && !text(n):
		w.add(RuleWireTypeChanged, Compatible, subject, ot, nt, "the answer is structured now, and still text to a client that reads it as text")
	default:
		w.add(RuleWireTypeChanged, Breaking, subject, ot, nt, "the type changed: the old client's values no longer match")
	}
}

// negatedValidation compares the validation keywords of two versions of
// a subschema, inside a not when negated is set: each change is then
// reported as the change of the schema holding the not, which is
// stricter where the subschema is looser.
func (w *wire) negatedValidation(dir direction, negated bool, subject string, oc, nc *ir.Constraints) {
	if !negated {
		w.validation(dir, subject, oc, nc)
		return
	}
	var found []Change
	sink := w.sink
	w.sink = &found
	w.validation(dir, subject, oc, nc)
	w.sink = sink
	for _, c := range found {
		how := reshapes
		switch {
		case c.Class == Breaking && dir == request, c.Class == Compatible && dir == response:
			how = narrows
		case c.Class != Warning:
			how = widens
		}
		w.keyword(dir, true, subject, strings.TrimPrefix(c.Subject, subject+": "), c.Old, c.New, how)
	}
}

// subschemas compares the subschemas of two versions of a schema,
// matched by keyword.
func (w *wire) subschemas(dir direction, negated, root bool, subject string, o, n *ir.Schema) {
	for _, k := range subschemaKeywords(o, n) {
		os, ns := o.Lookup(k), n.Lookup(k)
		switch {
		case root && !o.Whole && !n.Whole && k == "items":
			// Kept beside prefixItems only to compare them with.
		case os != nil && ns != nil:
			w.schema(dir, negated != (k == "not"), false, subject+": "+strings.ReplaceAll(k, "/", " "), os, ns)
		case strings.HasPrefix(k, "prefixItems/"):
			w.prefixItem(dir, negated, subject, k, o, n)
		case strings.HasPrefix(k, "properties/"):
			w.propertyDescribed(subject+": "+strings.ReplaceAll(k, "/", " "), ns != nil)
		default:
			w.subschemaPresence(dir, negated, subject, k, o, n)
		}
	}
}

// subschemaKeywords returns the keywords of the subschemas of two
// versions of a schema, sorted and each once.
func subschemaKeywords(o, n *ir.Schema) []string {
	var keys []string
	for _, s := range append(slices.Clone(o.Sub), n.Sub...) {
		if !slices.Contains(keys, s.Keyword) {
			keys = append(keys, s.Keyword)
		}
	}
	slices.Sort(keys)
	return keys
}

// propertyDescribed reports the schema of the property at subject s
// appearing (added) or going. Whether a property must be there is
// required's; a property's schema appearing or going is not, by itself,
// a change of what the client sends or reads.
func (w *wire) propertyDescribed(s string, added bool) {
	if added {
		w.add(RuleWirePropAdded, Compatible, s, "", "described", "a new property")
	} else {
		w.add(RuleWirePropRemoved, Warning, s, "described", "", "a property is no longer described")
	}
}

// subschemaPresence compares the subschema at keyword k that only one of
// two versions has: a subschema added narrows, one gone widens, except
// for an alternative of anyOf or oneOf beside others, one more of which
// accepts more values.
func (w *wire) subschemaPresence(dir direction, negated bool, subject, k string, o, n *ir.Schema) {
	os, ns := o.Lookup(k), n.Lookup(k)
	how := narrows
	if ns == nil {
		how = widens
	}
	if alternative(k) && hasAlternatives(o, k) && hasAlternatives(n, k) {
		// One alternative more accepts more values.
		how = map[narrowing]narrowing{narrows: widens, widens: narrows}[how]
	}
	w.keyword(dir, negated, subject, strings.ReplaceAll(k, "/", " "), presentText(os), presentText(ns), how)
}

// prefixItem compares the tuple item k (prefixItems/INDEX) that only one
// of two versions describes with what the other says of that place: its
// items schema, else the same version's items (whose change the
// comparison of items reports).
func (w *wire) prefixItem(dir direction, negated bool, subject, k string, o, n *ir.Schema) {
	os, ns := o.Lookup(k), n.Lookup(k)
	switch {
	case os == nil && o.Lookup("items") != nil:
		os = o.Lookup("items")
	case os == nil && n.Lookup("items") != nil:
		os = n.Lookup("items")
	case ns == nil && n.Lookup("items") != nil:
		ns = n.Lookup("items")
	case ns == nil && o.Lookup("items") != nil:
		ns = o.Lookup("items")
	}
	name := strings.ReplaceAll(k, "/", " ")
	if os == nil || ns == nil {
		how := narrows
		if ns == nil {
			how = widens
		}
		w.keyword(dir, negated, subject, name, presentText(os), presentText(ns), how)
		return
	}
	w.schema(dir, negated, false, subject+": "+name, os, ns)
}

// allOfParts compares the parts of an allOf that constrain values: a
// part added is a constraint more, which a request must meet too; a part
// gone is one less, which answers need no longer meet, a warning. A
// schema that became an allOf, or stopped being one, keeps its own
// properties in an inline part, which the comparison of its properties
// reports: only the parts it refers to count then.
func (w *wire) allOfParts(dir direction, negated bool, subject string, o, n []string) {
	counts := func(p string, other []string) bool {
		return !slices.Contains(other, p) && (len(other) > 0 || !strings.HasPrefix(p, "inline "))
	}
	s := subject + ": allOf"
	for _, p := range n {
		switch {
		case !counts(p, o):
		case negated:
			w.keyword(dir, true, subject, "allOf", "", p, narrows)
		case dir == request:
			w.add(RuleWireConstraint, Breaking, s, "", p, "a part added to allOf: requests must match it too, and values of it the old client may send are refused")
		default:
			w.add(RuleWireConstraint, Compatible, s, "", p, "a part added to allOf: answers match it too")
		}
	}
	for _, p := range o {
		switch {
		case !counts(p, n):
		case negated:
			w.keyword(dir, true, subject, "allOf", p, "", widens)
		case dir == request:
			w.add(RuleWireConstraint, Compatible, s, p, "", "a part of allOf is gone: requests need no longer match it")
		default:
			w.add(RuleWireConstraint, Warning, s, p, "", "a part of allOf is gone: answers need no longer match it, which the old client may rely on")
		}
	}
}

// extensibleEnum compares the values of an open enum (x-extensible-enum):
// a value gone breaks a request that may send it; answers may hold
// values the list does not name whatever it says.
func (w *wire) extensibleEnum(dir direction, subject string, o, n []string) {
	s := subject + ": x-extensible-enum"
	for _, v := range o {
		switch {
		case slices.Contains(n, v):
		case dir == request:
			w.add(RuleWireEnumRemoved, Breaking, s, v, "", "a value of the open enum the client may send is no longer listed: the server may refuse it")
		default:
			w.add(RuleWireEnumRemoved, Compatible, s, v, "", "a value of the open enum is no longer listed in answers")
		}
	}
	for _, v := range n {
		if !slices.Contains(o, v) {
			w.add(RuleWireEnumAdded, Compatible, s, "", v, "a value of the open enum is listed now")
		}
	}
}

// required compares the properties two versions of a subschema require.
func (w *wire) required(dir direction, negated bool, subject string, o, n *ir.Schema) {
	for _, p := range n.Required {
		if !slices.Contains(o.Required, p) {
			w.keyword(dir, negated, subject+": property "+p, "required", "optional", "required", narrows)
		}
	}
	for _, p := range o.Required {
		if !slices.Contains(n.Required, p) {
			w.keyword(dir, negated, subject+": property "+p, "required", "required", "optional", widens)
		}
	}
}

// namedSet compares a keyword whose entries are "NAME: VALUES"
// (dependentRequired): an entry added narrows, removed widens; one
// changed narrows when it requires more names, widens when fewer.
func (w *wire) namedSet(dir direction, negated bool, subject, keyword string, o, n []string) {
	name := func(e string) string { k, _, _ := strings.Cut(e, ":"); return k }
	find := func(set []string, k string) string {
		for _, e := range set {
			if name(e) == k {
				return e
			}
		}
		return ""
	}
	for _, ne := range n {
		switch oe := find(o, name(ne)); {
		case oe == "":
			w.keyword(dir, negated, subject, keyword+" "+name(ne), "", ne, narrows)
		case oe != ne:
			how, _ := enumHow(values(oe), values(ne))
			w.keyword(dir, negated, subject, keyword+" "+name(ne), oe, ne, map[narrowing]narrowing{narrows: widens, widens: narrows, reshapes: reshapes}[how])
		}
	}
	for _, oe := range o {
		if find(n, name(oe)) == "" {
			w.keyword(dir, negated, subject, keyword+" "+name(oe), oe, "", widens)
		}
	}
}

// values returns the comma-separated names of an entry "NAME: VALUES".
func values(e string) []string {
	_, v, _ := strings.Cut(e, ": ")
	return strings.Split(v, ",")
}

// textKeyword compares a keyword whose value is text: set narrows, unset
// widens, changed reshapes.
func (w *wire) textKeyword(dir direction, negated bool, subject, keyword, o, n string) {
	if o == n {
		return
	}
	how := reshapes
	switch {
	case o == "":
		how = narrows
	case n == "":
		how = widens
	}
	w.keyword(dir, negated, subject, keyword, o, n, how)
}

// keyword reports a keyword of a subschema that changed how (reversed
// inside a not): a request breaks when values the old client could send
// may be refused, an answer when it may hold values the old client was
// told it would not get; a change that does both breaks either.
func (w *wire) keyword(dir direction, negated bool, subject, keyword, old, new string, how narrowing) {
	if negated && how != reshapes {
		how = map[narrowing]narrowing{narrows: widens, widens: narrows}[how]
	}
	if how == reshapes {
		w.add(RuleWireConstraint, Breaking, subject+": "+keyword, old, new, "the "+keyword+" changed: some values valid before are not now, and the reverse")
		return
	}
	w.constraint(dir, subject, keyword, old, new, how)
}

// typesHow compares two type keywords, integer being a kind of number;
// ok is false when they allow the same values.
func typesHow(o, n []string) (narrowing, bool) {
	if slices.Equal(o, n) {
		return 0, false
	}
	switch {
	case len(o) == 0:
		return narrows, true
	case len(n) == 0:
		return widens, true
	}
	covers := func(a, b []string) bool {
		for _, t := range b {
			if !slices.Contains(a, t) && !(t == "integer" && slices.Contains(a, "number")) {
				return false
			}
		}
		return true
	}
	switch {
	case covers(n, o):
		return widens, true
	case covers(o, n):
		return narrows, true
	}
	return reshapes, true
}

// enumHow compares two value sets, nil being any value; ok is false
// when they are the same.
func enumHow(o, n []string) (narrowing, bool) {
	switch {
	case slices.Equal(o, n):
		return 0, false
	case o == nil:
		return narrows, true
	case n == nil:
		return widens, true
	}
	sub := func(a, b []string) bool {
		for _, v := range a {
			if !slices.Contains(b, v) {
				return false
			}
		}
		return true
	}
	switch {
	case sub(o, n):
		return widens, true
	case sub(n, o):
		return narrows, true
	}
	return reshapes, true
}

// alternative reports a keyword of anyOf or oneOf, of which a value
// matches one or more.
func alternative(k string) bool {
	return strings.HasPrefix(k, "anyOf/") || strings.HasPrefix(k, "oneOf/")
}

// hasAlternatives reports whether s has a subschema of the alternative
// keyword of k (anyOf or oneOf) other than k.
func hasAlternatives(s *ir.Schema, k string) bool {
	prefix, _, _ := strings.Cut(k, "/")
	return slices.ContainsFunc(s.Sub, func(sub *ir.Subschema) bool {
		return sub.Keyword != k && strings.HasPrefix(sub.Keyword, prefix+"/")
	})
}

// isFalse reports whether a use of a type is the boolean schema false,
// which no value matches.
func isFalse(svc *ir.Service, t *ir.TypeRef) bool {
	c, _ := useOf(svc, t)
	return c != nil && c.Unmodeled != nil && c.Unmodeled.False
}

func falseText(b bool) string {
	if b {
		return "false"
	}
	return "a schema"
}

func presentText(s *ir.Schema) string {
	if s == nil {
		return ""
	}
	return "set"
}
