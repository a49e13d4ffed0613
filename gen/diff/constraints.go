package diff

import (
	"strconv"

	"github.com/resilientgo/resilient/gen/ir"
)

// narrowing says how a changed validation keyword moves the set of valid
// values.
type narrowing int

const (
	// narrows: some values valid before are refused now.
	narrows narrowing = iota + 1
	// widens: every value valid before still is, and more are.
	widens
	// reshapes: neither contains the other, as far as the diff can tell
	// (a pattern replaced by another).
	reshapes
)

// useOf returns the validation keywords and default value of a type use:
// the use's own, else those of the named aliases it refers to, nearest
// first.
func useOf(svc *ir.Service, t *ir.TypeRef) (*ir.Constraints, string) {
	var c *ir.Constraints
	var def string
	for range 32 {
		if t == nil {
			break
		}
		if c.IsZero() {
			c = t.Constraints
		}
		if def == "" {
			def = t.Default
		}
		if t.Kind != ir.KindNamed {
			break
		}
		nt := svc.Type(t.Name)
		if nt == nil || nt.Kind != ir.TypeAlias {
			break
		}
		t = nt.Alias
	}
	return c, def
}

// constraints compares the validation keywords, those the IR's types do
// not model and the default value of two uses of a type in the
// direction dir, at subject.
func (w *wire) constraints(dir direction, subject string, o, n *ir.TypeRef) {
	oc, od := useOf(w.old, o)
	nc, nd := useOf(w.new, n)
	w.validation(dir, subject, oc, nc)
	var ou, nu *ir.Schema
	if oc != nil {
		ou = oc.Unmodeled
	}
	if nc != nil {
		nu = nc.Unmodeled
	}
	w.unmodeled(dir, subject, ou, nu)
	if od != nd {
		s := subject + ": default"
		if dir == request {
			w.add(RuleWireDefault, Warning, s, od, nd, "the value the server assumes when a request leaves it out changed: callers that leave it out get another behaviour")
		} else {
			w.add(RuleWireDefault, Compatible, s, od, nd, "the documented default of the answer changed")
		}
	}
}

// validation compares the validation keywords oc and nc (nil for none)
// in the direction dir, at subject.
func (w *wire) validation(dir direction, subject string, oc, nc *ir.Constraints) {
	if oc == nil {
		oc = &ir.Constraints{}
	}
	if nc == nil {
		nc = &ir.Constraints{}
	}
	w.bound(dir, subject, "minimum", oc.Min, nc.Min, true)
	w.bound(dir, subject, "maximum", oc.Max, nc.Max, false)
	if oc.MultipleOf != nc.MultipleOf {
		how := reshapes
		switch {
		case oc.MultipleOf == 0:
			how = narrows
		case nc.MultipleOf == 0:
			how = widens
		case isMultiple(oc.MultipleOf, nc.MultipleOf):
			// Every multiple of the old is a multiple of the new.
			how = widens
		case isMultiple(nc.MultipleOf, oc.MultipleOf):
			how = narrows
		}
		w.constraint(dir, subject, "multipleOf", numText(oc.MultipleOf, 0), numText(nc.MultipleOf, 0), how)
	}
	w.lowerCount(dir, subject, "minLength", oc.MinLength, nc.MinLength)
	w.upperCount(dir, subject, "maxLength", oc.MaxLength, nc.MaxLength)
	if oc.Pattern != nc.Pattern {
		how := reshapes
		switch {
		case oc.Pattern == "":
			how = narrows
		case nc.Pattern == "":
			how = widens
		}
		w.constraint(dir, subject, "pattern", oc.Pattern, nc.Pattern, how)
	}
	w.lowerCount(dir, subject, "minItems", oc.MinItems, nc.MinItems)
	w.upperCount(dir, subject, "maxItems", oc.MaxItems, nc.MaxItems)
	if oc.UniqueItems != nc.UniqueItems {
		how := narrows
		if oc.UniqueItems {
			how = widens
		}
		w.constraint(dir, subject, "uniqueItems", strconv.FormatBool(oc.UniqueItems), strconv.FormatBool(nc.UniqueItems), how)
	}
	w.lowerCount(dir, subject, "minProperties", oc.MinProperties, nc.MinProperties)
	w.upperCount(dir, subject, "maxProperties", oc.MaxProperties, nc.MaxProperties)
}

// constraint reports a validation keyword that changed how: a request
// breaks when values the old client could send may be refused, an answer
// when it may hold values the old client was told it would not.
func (w *wire) constraint(dir direction, subject, keyword, old, new string, how narrowing) {
	s := subject + ": " + keyword
	switch {
	case how == reshapes:
		w.add(RuleWireConstraint, Warning, s, old, new, "the "+keyword+" changed: some values valid before may not be now, and the reverse")
	case dir == request && how == narrows:
		w.add(RuleWireConstraint, Breaking, s, old, new, "the "+keyword+" is stricter: requests the old client could send may be refused")
	case dir == request:
		w.add(RuleWireConstraint, Compatible, s, old, new, "the "+keyword+" is looser: more values are accepted")
	case how == widens:
		w.add(RuleWireConstraint, Breaking, s, old, new, "the "+keyword+" is looser: answers may hold values the old client was told it would not get")
	default:
		w.add(RuleWireConstraint, Compatible, s, old, new, "the "+keyword+" is stricter: answers stay within what the old client expects")
	}
}

// bound compares a lower (lower is true) or upper bound of a number.
func (w *wire) bound(dir direction, subject, keyword string, o, n *ir.Bound, lower bool) {
	if o == nil && n == nil || o != nil && n != nil && *o == *n {
		return
	}
	how := widens
	switch {
	case o == nil:
		how = narrows
	case n == nil:
	case o.Value == n.Value:
		// The same value, made exclusive or inclusive.
		if n.Exclusive {
			how = narrows
		}
	case lower == (n.Value > o.Value):
		how = narrows
	}
	w.constraint(dir, subject, keyword, boundText(o), boundText(n), how)
}

// lowerCount compares a minimum count (minLength, minItems,
// minProperties), 0 being none.
func (w *wire) lowerCount(dir direction, subject, keyword string, o, n uint64) {
	if o == n {
		return
	}
	how := widens
	if n > o {
		how = narrows
	}
	w.constraint(dir, subject, keyword, countText(o, 0), countText(n, 0), how)
}

// upperCount compares a maximum count (maxLength, maxItems,
// maxProperties), nil being none.
func (w *wire) upperCount(dir direction, subject, keyword string, o, n *uint64) {
	if o == nil && n == nil || o != nil && n != nil && *o == *n {
		return
	}
	how := widens
	if o == nil || n != nil && *n < *o {
		how = narrows
	}
	w.constraint(dir, subject, keyword, countPtrText(o), countPtrText(n), how)
}

// isMultiple reports whether a is an integer multiple of b.
func isMultiple(a, b float64) bool {
	q := a / b
	return q == float64(int64(q))
}

func boundText(b *ir.Bound) string {
	if b == nil {
		return ""
	}
	s := strconv.FormatFloat(b.Value, 'g', -1, 64)
	if b.Exclusive {
		s += " (exclusive)"
	}
	return s
}

func numText(v, none float64) string {
	if v == none {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func countText(v, none uint64) string {
	if v == none {
		return ""
	}
	return strconv.FormatUint(v, 10)
}

func countPtrText(v *uint64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatUint(*v, 10)
}
